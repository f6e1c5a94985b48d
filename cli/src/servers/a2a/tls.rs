//! `--tls-cert`, `--tls-key`: the door's TLS, rustls on the ring provider.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

use crate::output::CliError;

/// The acceptor serving the certificate chain in `cert` (PEM, the leaf first) with the private
/// key in `key` (PEM: PKCS #8, PKCS #1 or SEC1), HTTP/1.1 offered by ALPN.
pub(super) fn acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, CliError> {
    let unreadable = |flag: &str, file: &Path, e: &dyn std::fmt::Display| {
        CliError::Failure(format!("cannot read {flag} `{}`: {e}", file.display()))
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| unreadable("--tls-cert", cert, &e))?;
    if chain.is_empty() {
        return Err(CliError::Failure(format!(
            "--tls-cert `{}` holds no certificate (PEM `BEGIN CERTIFICATE`)",
            cert.display()
        )));
    }
    let private =
        PrivateKeyDer::from_pem_file(key).map_err(|e| unreadable("--tls-key", key, &e))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|builder| {
            builder
                .with_no_client_auth()
                .with_single_cert(chain, private)
        })
        .map_err(|e| {
            CliError::Failure(format!(
                "--tls-cert `{}` and --tls-key `{}` cannot serve TLS: {e}",
                cert.display(),
                key.display()
            ))
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
