//! TLS to the PostgreSQL server: a rustls client (the `ring` provider) configured as the
//! address's `sslmode` says ([`super::super::address::SslMode`]).
//!
//! - `disable`: no TLS.
//! - `prefer` (the default, as in libpq) and `require`: TLS (`prefer` falls back to plain when
//!   the server refuses TLS); without `sslrootcert` the certificate is not verified (encrypted
//!   against a passive listener, not against a server in the middle: libpq's meaning); with
//!   it, the chain is verified as `verify-ca` does.
//! - `verify-ca`: the chain must lead to a certificate of `sslrootcert` (required).
//! - `verify-full`: that, and the certificate must name the host connected to.
//!
//! TLS is for TCP: over a Unix socket the server offers none and libpq asks for none, so the
//! mode is read as `disable` there.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::super::address::{SslMode, TlsSettings};

/// The connector for `settings`; `Err` says why it cannot be made (no `sslrootcert` where the
/// mode needs one, a file that holds no certificate).
pub(super) fn connector(settings: &TlsSettings) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?;
    let verifier: Arc<dyn ServerCertVerifier> = match (settings.mode, &settings.root_cert) {
        (SslMode::VerifyCa | SslMode::VerifyFull, None) => {
            return Err(
                "sslmode=verify-ca and verify-full need sslrootcert=FILE (the PEM certificates to trust)"
                    .to_owned(),
            )
        }
        (SslMode::Disable | SslMode::Prefer | SslMode::Require, None) => Arc::new(Lenient {
            chain: None,
            provider,
        }),
        (mode, Some(file)) => {
            let roots = Arc::new(roots(file)?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                .build()
                .map_err(|e| format!("sslrootcert `{file}`: {e}"))?;
            if mode == SslMode::VerifyFull {
                webpki
            } else {
                Arc::new(Lenient {
                    chain: Some(webpki),
                    provider,
                })
            }
        }
    };
    let config = builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// The certificates of the PEM file `file`.
fn roots(file: &str) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    let certs = CertificateDer::pem_file_iter(file)
        .map_err(|e| format!("sslrootcert `{file}` cannot be read: {e}"))?;
    for cert in certs {
        let cert = cert.map_err(|e| format!("sslrootcert `{file}`: {e}"))?;
        store
            .add(cert)
            .map_err(|e| format!("sslrootcert `{file}`: {e}"))?;
    }
    if store.is_empty() {
        return Err(format!("sslrootcert `{file}` holds no certificate"));
    }
    Ok(store)
}

/// `verify-ca` (`chain` given: the chain is verified, the name is not) and `prefer` or
/// `require` without `sslrootcert` (no `chain`: any certificate is taken). Either way the
/// handshake's signatures are checked against the certificate, so the session is encrypted to
/// its key.
#[derive(Debug)]
struct Lenient {
    chain: Option<Arc<WebPkiServerVerifier>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
