"""What the peers' Python scripts share: the `ok` / `FAIL` lines and their tally, and the test
certificates (Python's `cryptography`, pinned in tests/peers/a2a/requirements.txt).

    import sys; sys.path.insert(0, str(Path(__file__).resolve().parents[N]))  # tests/peers
    from harness import check, failures, certificates
"""

import datetime
import ipaddress

failures = []


def check(name, ok, detail=""):
    """Prints `ok   NAME` or `FAIL NAME` and the detail; a failure is kept in `failures`."""
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f"\n     {detail}"), flush=True)
    if not ok:
        failures.append(name)


def certificates(directory, leaves):
    """A test CA (`ca.pem`), another CA no leaf chains to (`other-ca.pem`), and for each
    `name: [address or DNS name, ...]` of `leaves` a server certificate `name.pem` signed by the
    CA, with those subject alternative names, and its key `name.key` (mode 0600)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def builder(subject, issuer, key):
        return (x509.CertificateBuilder()
                .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
                .issuer_name(issuer).public_key(key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(minutes=5))
                .not_valid_after(now + datetime.timedelta(days=1)))

    def ca(name):
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        usage = x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                              content_commitment=False, key_encipherment=False, data_encipherment=False,
                              key_agreement=False, encipher_only=False, decipher_only=False)
        cert = (builder(name, subject, key)
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(usage, critical=True)
                .sign(key, hashes.SHA256()))
        return key, cert

    def san(entry):
        try:
            return x509.IPAddress(ipaddress.ip_address(entry))
        except ValueError:
            return x509.DNSName(entry)

    pem = lambda cert: cert.public_bytes(serialization.Encoding.PEM)  # noqa: E731
    ca_key, ca_cert = ca("specmint test CA")
    (directory / "ca.pem").write_bytes(pem(ca_cert))
    (directory / "other-ca.pem").write_bytes(pem(ca("another CA")[1]))
    for name, names in leaves.items():
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (builder(f"specmint test {name}", ca_cert.subject, key)
                .add_extension(x509.SubjectAlternativeName([san(n) for n in names]), critical=False)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                .sign(ca_key, hashes.SHA256()))
        (directory / f"{name}.pem").write_bytes(pem(cert))
        key_file = directory / f"{name}.key"
        key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
        key_file.chmod(0o600)
