//! `specmint a2a serve` ([`crate::args::A2a`]): TaskPack's A2A binding (§5) over HTTP/1.1 on
//! hyper, or HTTPS with rustls. Thin: the Agent Card, the JSON-RPC methods, the store quota and
//! every landing or merging decision are [`specmint::taskpack::a2a`]'s; this module moves
//! bytes, and keeps the door safe to open.
//!
//! `GET /.well-known/agent-card.json` is the card (always public: it is how a client learns the
//! security scheme); `POST /` is JSON-RPC. A request whose `A2A-Extensions` header lists the
//! extension is answered with that header naming it (the extension was activated). The first
//! line on stdout is `listening on http://ADDR/` (`https://` with TLS; ADDR with the port the
//! system chose for `:0`).
//!
//! - Connections are served concurrently, each on its own task of a multi-threaded runtime, at
//!   most `--max-connections` at once (more wait in the listen backlog). While fewer than a
//!   quarter of those slots are free, an unauthenticated request is answered with `Connection:
//!   close`, so fetching the public card on kept-alive connections cannot hold every slot
//!   (`http::Slots`). An accept error (such as running out of file descriptors) is reported
//!   on stderr and retried after a pause that doubles up to a second, never in a busy loop.
//! - Framing hyper leaves to the server (RFC 9112): an HTTP/1.1 request without one `Host` is
//!   400; a transfer coding other than `chunked` alone is 501; a chunked request (with or
//!   without a `Content-Length`, a smuggling attempt) is answered and its connection closed.
//! - A connection that sends no complete request head within `--header-timeout` (a new one, a
//!   kept-alive one between requests, or one dripping its head) is closed; so is one whose TLS
//!   handshake takes longer. A body not all there within `--body-timeout` is answered 408 and
//!   its connection closed. A client that takes none of an answer's bytes for
//!   `--write-timeout` is cut the same way (hyper has none; the socket is wrapped in one).
//! - A body is written to a temporary file (in the system's temporary directory, removed
//!   whatever happens) as it arrives, never held whole while it is read (one of at most 64 KiB
//!   is kept in memory instead): past the limit
//!   (`--max-pack-bytes` in base64 plus 1 MiB of JSON around it) it is answered 413 at once,
//!   before more is read (at once too when `Content-Length` says so). Answering it (landing is
//!   blocking file I/O) runs on tokio's blocking pool, as many at once as the machine has cores,
//!   so a landing never holds up the card. A body is answered from its file, never loaded
//!   whole: what an answer holds is the request less its file parts' `raw` strings (at most
//!   16 MiB, else refused) and chunks of the pack as its base64 is decoded from the body into a
//!   temporary file, which the landing reads as `taskpack land` does (a pack of at most 1 MiB
//!   is decoded into memory and landed from there). The answer's luggage (a Task carries each
//!   file in base64) is streamed from the store with its `Content-Length`, a few 64 KiB chunks
//!   ahead of the client, never held whole either (an answer of at most 64 KiB is written
//!   whole).
//! - `--token-file`: JSON-RPC needs `Authorization: Bearer TOKEN` (compared in constant time
//!   with every token); without it the answer is 401 with `WWW-Authenticate: Bearer
//!   realm="specmint"`. The card then declares the scheme (`securitySchemes`,
//!   `securityRequirements`).
//! - An address that is not loopback needs `--token-file` (or `--allow-unauthenticated`); every
//!   address (`0.0.0.0`, `::`) needs `--public-url`, the URL the card advertises.
//! - A refused pack is answered in the reader's language ([`Door::answer_from_in`]): the
//!   message's `metadata.locale`, else the request's `Accept-Language`
//!   ([`a2a::accept_language`]), else `--locale`, else the environment's (`LC_ALL`,
//!   `LC_MESSAGES`, `LANG`), else English.
//! - SIGTERM or Ctrl-C: the listener closes, every connection finishes the request under way and
//!   closes, and the door exits 0 once they are done or `--shutdown-grace` has passed. A landing
//!   cut off then (the process ends) leaves nothing half-written: the store writes each
//!   passport atomically and renames a landing's luggage into place only once the pack is
//!   admitted ([`specmint::taskpack::arrival`]), so the store holds the passport or nothing of
//!   it.

mod http;
mod tls;
mod tokens;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use specmint::taskpack::a2a::quota::StoreQuota;
use specmint::taskpack::a2a::{self, Door};
use tokio::net::TcpStream;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio_rustls::TlsAcceptor;

use crate::args::{A2a, PassportDir, Serve};
use crate::commands::passport::open_store;
use crate::output::CliError;
use http::Shared;

/// The `a2a` command family.
pub fn run(command: A2a) -> Result<u8, CliError> {
    match command {
        A2a::Serve(serve) => serve_door(serve),
    }
}

/// How connections are served.
struct Limits {
    header_timeout: Duration,
    write_timeout: Duration,
    tls: Option<TlsAcceptor>,
}

fn serve_door(args: Serve) -> Result<u8, CliError> {
    let tokens = args
        .token_file
        .as_deref()
        .map(tokens::Tokens::read)
        .transpose()?;
    let ip = args.listen.ip();
    if !ip.is_loopback() && tokens.is_none() && !args.allow_unauthenticated {
        return Err(CliError::Usage(format!(
            "--listen {}: not a loopback address, so anyone who reaches it could land packs: \
             give --token-file FILE (or --allow-unauthenticated to serve without tokens)",
            args.listen
        )));
    }
    if ip.is_unspecified() && args.public_url.is_none() {
        return Err(CliError::Usage(format!(
            "--listen {}: every address of this machine, which the Agent Card cannot \
             advertise: give --public-url URL, the URL clients reach the door at",
            args.listen
        )));
    }
    if let Some(url) = &args.public_url {
        let host = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        if host.is_none_or(|h| h.is_empty() || h.starts_with('/')) {
            return Err(CliError::Usage(format!(
                "--public-url `{url}` is not an http:// or https:// URL with a host"
            )));
        }
    }
    // As `validate`: the environment's language when no --locale is given.
    let locale = crate::commands::wanted_locale(args.locale.clone())?;
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(tls::acceptor(cert, key)?),
        _ => None,
    };
    let store = open_store(&PassportDir {
        dir: Some(args.store.clone()),
    })?;
    let quota = args
        .max_store_bytes
        .map(|limit| StoreQuota::measure(&store, limit))
        .transpose()
        .map_err(|e| {
            CliError::Failure(format!(
                "cannot measure the store `{}`: {e}",
                args.store.display()
            ))
        })?;
    let max_pack_bytes = args.max_pack_bytes.unwrap_or(a2a::DEFAULT_MAX_PACK_BYTES);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the runtime: {e}")))?;
    let served = runtime.block_on(async move {
        let stop = stop_signal()?;
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| CliError::Failure(format!("cannot listen on {}: {e}", args.listen)))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failure(format!("cannot read the listening address: {e}")))?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = args
            .public_url
            .clone()
            .unwrap_or_else(|| format!("{scheme}://{local}/"));
        let mut card = a2a::agent_card(&url);
        if tokens.is_some() {
            card = card.bearer();
        }
        let shared = Arc::new(Shared {
            door: Door {
                store,
                max_pack_bytes,
            },
            card: card.to_js_compact(),
            tokens,
            quota,
            // The body may hold a pack in base64 (4 bytes per 3) and the JSON around it.
            body_limit: a2a::max_message_bytes(max_pack_bytes),
            body_timeout: Duration::from_secs(args.body_timeout),
            answering: Semaphore::new(cores),
            slots: http::Slots::new(args.max_connections as usize),
            locale,
        });
        let limits = Arc::new(Limits {
            header_timeout: Duration::from_secs(args.header_timeout),
            write_timeout: Duration::from_secs(args.write_timeout),
            tls,
        });
        println!("listening on {scheme}://{local}/");
        accept(
            listener,
            shared,
            limits,
            args.max_connections as usize,
            stop,
        )
        .await
        .wait(Duration::from_secs(args.shutdown_grace))
        .await;
        Ok(0)
    });
    // A landing still running past the grace is not waited for: the process ends, and the
    // store keeps the passport whole or nothing of it (see the module doc).
    runtime.shutdown_background();
    served
}

/// Accepts connections until `stop`, each served on its own task holding one of
/// `max_connections` permits; then tells every connection to finish the request under way and
/// close.
async fn accept(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    limits: Arc<Limits>,
    max_connections: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Drain {
    let permits = Arc::new(Semaphore::new(max_connections));
    let (closing, closed) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut stop = std::pin::pin!(stop);
    let mut pause = MIN_PAUSE;
    loop {
        let permit = tokio::select! {
            () = &mut stop => break,
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
        };
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => {
                pause = MIN_PAUSE;
                stream
            }
            Err(e) => {
                eprintln!("a2a: cannot accept a connection: {e} (trying again in {pause:?})");
                tokio::select! {
                    () = &mut stop => break,
                    () = tokio::time::sleep(pause) => {}
                }
                pause = (pause * 2).min(MAX_PAUSE);
                continue;
            }
        };
        while tasks.try_join_next().is_some() {}
        tasks.spawn(connection(
            stream,
            Arc::clone(&shared),
            Arc::clone(&limits),
            closed.clone(),
            permit,
        ));
    }
    drop(listener);
    let _ = closing.send(true);
    Drain { tasks, closing }
}

/// The first pause after an accept error; each next one doubles, up to [`MAX_PAUSE`].
const MIN_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause after an accept error.
const MAX_PAUSE: Duration = Duration::from_secs(1);

/// The connections still open once the door stopped accepting.
struct Drain {
    tasks: tokio::task::JoinSet<()>,
    /// Kept until the end: connections read it to know the door is closing.
    closing: watch::Sender<bool>,
}

impl Drain {
    /// Waits until every connection has closed, or `grace` has passed (those left are then
    /// dropped, their requests cut off).
    async fn wait(mut self, grace: Duration) {
        let all = async { while self.tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(grace, all).await.is_err() {
            eprintln!(
                "a2a: {} connection(s) still open after --shutdown-grace: closing them",
                self.tasks.len()
            );
            self.tasks.abort_all();
        }
        drop(self.closing);
    }
}

/// Serves one connection (after its TLS handshake, when the door has TLS) until it closes, the
/// header timeout closes it, or the door closes (the request under way is finished first).
async fn connection(
    stream: TcpStream,
    shared: Arc<Shared>,
    limits: Arc<Limits>,
    closed: watch::Receiver<bool>,
    _permit: OwnedSemaphorePermit,
) {
    let _open = http::Slots::open(&shared);
    let _ = stream.set_nodelay(true);
    match &limits.tls {
        Some(acceptor) => {
            let handshake = tokio::time::timeout(limits.header_timeout, acceptor.accept(stream));
            if let Ok(Ok(stream)) = handshake.await {
                let stream = Stalled::new(stream, limits.write_timeout);
                serve_http(TokioIo::new(stream), shared, &limits, closed).await;
            }
        }
        None => {
            let stream = Stalled::new(stream, limits.write_timeout);
            serve_http(TokioIo::new(stream), shared, &limits, closed).await;
        }
    }
}

async fn serve_http<I>(
    io: I,
    shared: Arc<Shared>,
    limits: &Limits,
    mut closed: watch::Receiver<bool>,
) where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { Ok::<_, Infallible>(http::answer(shared, request).await) }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .serve_connection(io, service);
    let mut served = std::pin::pin!(served);
    let outcome = tokio::select! {
        outcome = served.as_mut() => outcome,
        () = async { let _ = closed.wait_for(|closing| *closing).await; } => {
            served.as_mut().graceful_shutdown();
            served.await
        }
    };
    if let Err(e) = outcome {
        // A client that went quiet or away is no news.
        if !(e.is_timeout() || e.is_incomplete_message() || e.is_canceled()) {
            eprintln!("a2a: connection: {e}");
        }
    }
}

/// A connection's socket whose writes fail with `TimedOut` once one has waited `limit` for the
/// client to take bytes (`--write-timeout`): hyper has no write timeout of its own, and a
/// client that stops reading an answer would otherwise hold its connection slot for ever.
struct Stalled<S> {
    inner: S,
    limit: Duration,
    /// Set while a write waits for the client.
    waiting: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<S> Stalled<S> {
    fn new(inner: S, limit: Duration) -> Self {
        Stalled {
            inner,
            limit,
            waiting: None,
        }
    }

    /// `poll`'s outcome, a pending one turned into `TimedOut` once it has waited `limit`.
    fn bounded<T>(
        &mut self,
        cx: &mut std::task::Context<'_>,
        poll: std::task::Poll<std::io::Result<T>>,
    ) -> std::task::Poll<std::io::Result<T>> {
        use std::future::Future as _;
        use std::task::Poll;
        if poll.is_ready() {
            self.waiting = None;
            return poll;
        }
        let limit = self.limit;
        let deadline = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client took none of the answer within --write-timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Stalled<S> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for Stalled<S> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = std::pin::Pin::new(&mut this.inner).poll_write(cx, buf);
        this.bounded(cx, poll)
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = std::pin::Pin::new(&mut this.inner).poll_flush(cx);
        this.bounded(cx, poll)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = std::pin::Pin::new(&mut this.inner).poll_shutdown(cx);
        this.bounded(cx, poll)
    }
}

/// SIGTERM or Ctrl-C (SIGINT), set up before the door listens.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, CliError> {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| CliError::Failure(format!("cannot watch for SIGTERM: {e}")))?;
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    })
}
