//! One HTTP request to the door: the card, or a JSON-RPC call (the token checked, the body
//! spooled within its limit and deadline, in memory up to 64 KiB and past that to a temporary
//! file, then answered from there by the library's [`Door::answer_from`] on tokio's blocking
//! pool, in bounded memory: the pack's base64 is decoded from the spooled body (into memory up
//! to 1 MiB, past that into another temporary file), and the answer's luggage is streamed from
//! the store as the response body is sent, or, for an answer of at most 64 KiB, written whole
//! on the blocking pool).

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{
    HeaderValue, ACCEPT_LANGUAGE, AUTHORIZATION, CONNECTION, CONTENT_LENGTH, HOST,
    TRANSFER_ENCODING, WWW_AUTHENTICATE,
};
use hyper::{Method, Request, Response, StatusCode, Version};
use specmint::taskpack::a2a::answer::RpcError;
use specmint::taskpack::a2a::quota::StoreQuota;
use specmint::taskpack::a2a::{self, Door};
use specmint::taskpack::json::Json;
use specmint::taskpack::spill::Spill;
use tokio::sync::Semaphore;

use super::tokens::{Admission, Tokens};

/// What every request of one door shares.
pub(super) struct Shared {
    /// The JSON-RPC methods.
    pub door: Door,
    /// The Agent Card, as served.
    pub card: String,
    /// `--token-file`'s tokens, when given.
    pub tokens: Option<Tokens>,
    /// `--max-store-bytes`, when given.
    pub quota: Option<StoreQuota>,
    /// The largest request body taken, in bytes.
    pub body_limit: u64,
    /// `--body-timeout`.
    pub body_timeout: Duration,
    /// Bodies answered at once. A body stays where it was spooled while it is answered: what
    /// one answer holds in memory is the request less its file parts' `raw` strings (at most
    /// [`specmint::taskpack::flat::MAX_SKELETON_BYTES`]), a body of at most 64 KiB, and a pack
    /// of at most [`a2a::PACK_IN_MEMORY_BYTES`] (a larger one is decoded into a temporary file
    /// chunk by chunk), never a larger body or pack whole. An answer's luggage is streamed from
    /// the store after the turn is given back, a few chunks at a time (an answer of at most
    /// 64 KiB is written whole before).
    pub answering: Semaphore,
    /// The connection slots (`--max-connections`).
    pub slots: Slots,
    /// The language of refusals when a request names none (`--locale`, else the
    /// environment's): see [`Door::answer_from_in`].
    pub locale: Option<String>,
}

/// The connection slots (`--max-connections`) and how many are taken. While fewer than a
/// quarter of them (at least one) are free, an unauthenticated request (the public card, any
/// request of a door without `--token-file`, one without a token it takes) is answered with
/// `Connection: close`: a client that holds connections open by fetching the card again and
/// again goes back to the end of the listen queue after each answer, behind those waiting there,
/// so it cannot keep every slot. A request with a token the door takes keeps its connection.
pub(super) struct Slots {
    max: usize,
    open: AtomicUsize,
}

impl Slots {
    pub(super) fn new(max: usize) -> Self {
        Slots {
            max,
            open: AtomicUsize::new(0),
        }
    }

    /// Counts a connection as open until the guard drops.
    pub(super) fn open(shared: &Arc<Shared>) -> OpenSlot {
        shared.slots.open.fetch_add(1, Ordering::Relaxed);
        OpenSlot(Arc::clone(shared))
    }

    /// Whether fewer than a quarter of the slots (at least one) are free.
    fn short(&self) -> bool {
        let free = self.max.saturating_sub(self.open.load(Ordering::Relaxed));
        free < (self.max / 4).max(1)
    }
}

/// A connection counted in [`Slots`] while it lives.
pub(super) struct OpenSlot(Arc<Shared>);

impl Drop for OpenSlot {
    fn drop(&mut self) {
        self.0.slots.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The answer to `request`, `Connection: close` when the connection must not serve another:
/// a request with `Transfer-Encoding` (see [`framing`]), or an unauthenticated one while the
/// slots are short ([`Slots`]).
pub(super) async fn answer(shared: Arc<Shared>, request: Request<Incoming>) -> Response<Body> {
    if let Some(refused) = framing(&request) {
        return closing(refused);
    }
    let chunked = request.headers().contains_key(TRANSFER_ENCODING);
    let authenticated = shared.tokens.as_ref().is_some_and(|tokens| {
        matches!(
            tokens.admit(request.headers().get(AUTHORIZATION)),
            Admission::Admitted
        )
    });
    let short = !authenticated && shared.slots.short();
    let response = route(shared, request).await;
    if chunked || short {
        closing(response)
    } else {
        response
    }
}

/// What RFC 9112 requires of a request's framing and hyper leaves to the server: an HTTP/1.1
/// request carries one `Host` (§3.2: else 400), and the one transfer coding taken is `chunked`
/// alone (§6.1: else 501, not implemented; hyper takes any list that ends with it, such as
/// `gzip, chunked`, whose body the landing would read undecoded). A request with
/// `Transfer-Encoding` is answered and its connection closed (§6.1 requires it when the
/// request also has `Content-Length`, a smuggling attempt; hyper drops a `Content-Length` that
/// follows `Transfer-Encoding` before the door sees the request, so every chunked request is
/// treated so, and what was sent after its body is never served).
fn framing(request: &Request<Incoming>) -> Option<Response<Body>> {
    let headers = request.headers();
    if request.version() == Version::HTTP_11 && headers.get_all(HOST).iter().count() != 1 {
        return Some(plain(
            StatusCode::BAD_REQUEST,
            "an HTTP/1.1 request carries one Host header (RFC 9112 §3.2)",
        ));
    }
    if headers.contains_key(TRANSFER_ENCODING) {
        let mut codings = headers
            .get_all(TRANSFER_ENCODING)
            .iter()
            .flat_map(|v| v.as_bytes().split(|b| *b == b','))
            .map(<[u8]>::trim_ascii);
        let chunked_alone = codings
            .next()
            .is_some_and(|c| c.eq_ignore_ascii_case(b"chunked"))
            && codings.next().is_none();
        if !chunked_alone {
            return Some(plain(
                StatusCode::NOT_IMPLEMENTED,
                "the door takes `Transfer-Encoding: chunked` alone, no other transfer coding",
            ));
        }
    }
    None
}

/// `response` with `Connection: close`: hyper closes the connection once it is written.
fn closing(mut response: Response<Body>) -> Response<Body> {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The answer to a request whose framing is sound: the card, JSON-RPC, or 404/405.
async fn route(shared: Arc<Shared>, request: Request<Incoming>) -> Response<Body> {
    let path = request.uri().path().to_owned();
    match (request.method(), path.as_str()) {
        (&Method::GET, "/.well-known/agent-card.json") => {
            json(StatusCode::OK, shared.card.clone(), false)
        }
        (&Method::POST, "/") => rpc(shared, request).await,
        (_, "/" | "/.well-known/agent-card.json") => {
            plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
        }
        _ => plain(
            StatusCode::NOT_FOUND,
            "not found: the Agent Card is /.well-known/agent-card.json, JSON-RPC is POST /",
        ),
    }
}

async fn rpc(shared: Arc<Shared>, request: Request<Incoming>) -> Response<Body> {
    if let Some(tokens) = &shared.tokens {
        match tokens.admit(request.headers().get(AUTHORIZATION)) {
            Admission::Admitted => {}
            Admission::Missing => {
                return unauthorized(
                    r#"Bearer realm="specmint""#,
                    "unauthorized: this door takes `Authorization: Bearer TOKEN` on JSON-RPC (the \
                     Agent Card's securitySchemes)",
                )
            }
            Admission::Wrong => {
                return unauthorized(
                    r#"Bearer realm="specmint", error="invalid_token""#,
                    "unauthorized: the bearer token is not one this door takes",
                )
            }
        }
    }
    let activated = a2a::activates(
        request
            .headers()
            .get_all(a2a::EXTENSIONS_HEADER)
            .iter()
            .filter_map(|v| v.to_str().ok()),
    );
    // The request's language (`Accept-Language`), else the server's; a message's
    // `metadata.locale` outranks both (the door reads it).
    let wanted = request
        .headers()
        .get_all(ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(a2a::accept_language)
        .or_else(|| shared.locale.clone());
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > shared.body_limit) {
        return too_large(shared.body_limit, activated);
    }
    let spooled = match spool(request.into_body(), &shared).await {
        Ok(file) => file,
        Err(Spool::TooLarge) => return too_large(shared.body_limit, activated),
        Err(Spool::TimedOut) => {
            return closing(plain(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive within --body-timeout",
            ));
        }
        Err(Spool::Broken(e)) => {
            return plain_owned(
                StatusCode::BAD_REQUEST,
                format!("the request body broke off: {e}"),
            )
        }
        Err(Spool::Io(e)) => return rpc_error(a2a::INTERNAL_ERROR, e, activated),
    };
    // Held until the answer is made: at most `answering` bodies are being answered at once.
    let Ok(_turn) = shared.answering.acquire().await else {
        return rpc_error(a2a::INTERNAL_ERROR, "the door is closing", activated);
    };
    let answering = Arc::clone(&shared);
    let made = tokio::task::spawn_blocking(move || {
        let mut spooled = spooled;
        // Read from the body as it is answered, never loaded whole (a file past
        // `BODY_IN_MEMORY_BYTES`); removed once answered.
        let answer = answering.door.answer_from_in(
            &mut spooled,
            activated,
            answering.quota.as_ref(),
            wanted.as_deref(),
        );
        if answer.is_light() {
            return Made::Light(answer.into_response().to_js_compact());
        }
        // A small answer is written here, its luggage read on this thread already: no second
        // trip through the blocking pool and the channel.
        let len = answer.compact_len();
        if len > CHUNK as u64 {
            return Made::Heavy(answer, len);
        }
        let mut whole = Vec::with_capacity(CHUNK);
        match answer.write_compact(&mut whole) {
            Ok(()) => Made::Whole(whole, len),
            Err(e) => Made::Torn(e, len),
        }
    })
    .await;
    let (answer, len) = match made {
        Ok(Made::Light(text)) => return json(StatusCode::OK, text, activated),
        Ok(Made::Whole(whole, len)) => {
            return with_length(activated, Body::Whole(Full::new(Bytes::from(whole))), len)
        }
        Ok(Made::Torn(e, len)) => {
            // Cut the body off, as a streamed answer whose luggage breaks is.
            let (sender, receiver) = tokio::sync::mpsc::channel(1);
            let _ = sender.try_send(Err(e));
            return with_length(activated, Body::Streamed(receiver, len), len);
        }
        Ok(Made::Heavy(answer, len)) => (answer, len),
        Err(e) => {
            return rpc_error(
                a2a::INTERNAL_ERROR,
                format!("the answer failed: {e}"),
                activated,
            )
        }
    };
    // Luggage: written as it is read from the store, a few chunks ahead of the client, its
    // length known beforehand.
    let (sender, receiver) = tokio::sync::mpsc::channel(4);
    tokio::task::spawn_blocking(move || {
        let mut writer = ChannelWriter {
            sender,
            buffer: Vec::with_capacity(CHUNK),
        };
        if let Err(e) = answer
            .write_compact(&mut writer)
            .and_then(|()| writer.flush())
        {
            // Cut the body off: a torn answer is never sent as if whole.
            let _ = writer.sender.blocking_send(Err(e));
        }
    });
    with_length(activated, Body::Streamed(receiver, len), len)
}

/// What the blocking pool made of a body.
enum Made {
    /// An answer without luggage, as written.
    Light(String),
    /// An answer with luggage of at most [`CHUNK`] bytes, written whole, and its length as
    /// [`a2a::Answer::compact_len`] said.
    Whole(Vec<u8>, u64),
    /// Such an answer whose luggage could not be read: the error, and the length promised.
    Torn(std::io::Error, u64),
    /// A larger answer, to be streamed, and its length.
    Heavy(a2a::Answer, u64),
}

/// A JSON answer of `body`, its `Content-Length` the `len` given.
fn with_length(activated: bool, body: Body, len: u64) -> Response<Body> {
    let mut response = json(StatusCode::OK, String::new(), activated);
    *response.body_mut() = body;
    response
        .headers_mut()
        .insert(CONTENT_LENGTH, HeaderValue::from(len));
    response
}

/// The largest body held in memory as it arrives: a larger one goes on into a temporary file.
const BODY_IN_MEMORY_BYTES: usize = 64 << 10;

/// How much of a streamed answer goes in one chunk.
const CHUNK: usize = 64 << 10;

/// A response body: whole, or streamed from a blocking writer through a bounded channel (an
/// error there ends the connection without finishing the body).
pub(super) enum Body {
    Whole(Full<Bytes>),
    /// The chunks, and how many bytes they hold in all.
    Streamed(tokio::sync::mpsc::Receiver<std::io::Result<Bytes>>, u64),
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, std::io::Error>>> {
        match self.get_mut() {
            Body::Whole(full) => std::pin::Pin::new(full)
                .poll_frame(cx)
                .map_err(|never| match never {}),
            Body::Streamed(receiver, _) => receiver
                .poll_recv(cx)
                .map(|chunk| chunk.map(|chunk| chunk.map(hyper::body::Frame::data))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Whole(full) => full.is_end_stream(),
            Body::Streamed(..) => false,
        }
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        match self {
            Body::Whole(full) => full.size_hint(),
            Body::Streamed(_, len) => hyper::body::SizeHint::with_exact(*len),
        }
    }
}

/// Sends what is written to a [`Body::Streamed`], in chunks of [`CHUNK`] bytes, waiting while
/// the client is behind.
struct ChannelWriter {
    sender: tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
    buffer: Vec<u8>,
}

impl ChannelWriter {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::replace(
            &mut self.buffer,
            Vec::with_capacity(CHUNK),
        ));
        self.sender.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

impl std::io::Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = bytes.len().min(CHUNK - self.buffer.len());
        self.buffer.extend_from_slice(&bytes[..n]);
        if self.buffer.len() == CHUNK {
            self.send()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}

/// Why a body was not spooled.
enum Spool {
    /// Over [`Shared::body_limit`].
    TooLarge,
    /// Not all there within [`Shared::body_timeout`].
    TimedOut,
    /// The connection broke.
    Broken(hyper::Error),
    /// The temporary file could not be written.
    Io(String),
}

/// `body`, kept as it arrives (in memory while it is small, else written to a temporary file
/// one frame at a time), refused as soon as it passes the limit or its deadline. The file is
/// removed when it drops.
async fn spool(mut body: Incoming, shared: &Shared) -> Result<Spill, Spool> {
    let deadline = tokio::time::Instant::now() + shared.body_timeout;
    let mut spooled = Spill::new(BODY_IN_MEMORY_BYTES, "specmint-a2a-body-", "");
    let mut len = 0u64;
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(Spool::TimedOut),
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(Spool::Broken(e)),
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        len += data.len() as u64;
        if len > shared.body_limit {
            return Err(Spool::TooLarge);
        }
        spooled
            .write_all(&data)
            .map_err(|e| Spool::Io(format!("cannot write the request body: {e}")))?;
    }
    Ok(spooled)
}

fn too_large(limit: u64, activated: bool) -> Response<Body> {
    let error = RpcError::new(
        a2a::INVALID_PARAMS,
        format!("the request body is over {limit} bytes: too big for this door"),
    );
    let reply = a2a::answer::Response::new(Json::Null, Err(error)).to_js_compact();
    closing(json(StatusCode::PAYLOAD_TOO_LARGE, reply, activated))
}

fn rpc_error(code: i32, message: impl Into<String>, activated: bool) -> Response<Body> {
    let error = RpcError::new(code, message);
    let reply = a2a::answer::Response::new(Json::Null, Err(error)).to_js_compact();
    json(StatusCode::OK, reply, activated)
}

fn unauthorized(challenge: &'static str, text: &'static str) -> Response<Body> {
    let mut response = plain(StatusCode::UNAUTHORIZED, text);
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
    response
}

fn json(status: StatusCode, body: String, activated: bool) -> Response<Body> {
    let mut response = Response::new(Body::Whole(Full::new(Bytes::from(body))));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static("application/json"));
    if activated {
        headers.insert(
            a2a::EXTENSIONS_HEADER,
            HeaderValue::from_static(a2a::EXTENSION_URI),
        );
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    plain_owned(status, text.to_owned())
}

fn plain_owned(status: StatusCode, text: String) -> Response<Body> {
    let mut response = Response::new(Body::Whole(Full::new(Bytes::from(text))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
