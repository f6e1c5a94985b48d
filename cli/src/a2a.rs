//! `specmint a2a serve` ([`super::args::A2a`]): TaskPack's A2A binding (§5) over HTTP/1.1 on
//! hyper. Thin: the Agent Card, the JSON-RPC methods and every landing or merging decision are
//! [`specmint::taskpack::a2a`]'s; this file only moves bytes.
//!
//! `GET /.well-known/agent-card.json` is the card; `POST /` is JSON-RPC. A request whose
//! `A2A-Extensions` header lists the extension is answered with that header naming it (the
//! extension was activated). The first line on stdout is `listening on http://ADDR/` (ADDR with
//! the port the system chose for `:0`). Requests are served one at a time, on one thread:
//! landing is short blocking file I/O under the store's own locks.

use std::convert::Infallible;
use std::net::SocketAddr;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use specmint::taskpack::a2a::answer::RpcError;
use specmint::taskpack::a2a::{self, Door};
use specmint::taskpack::json::Json;

use super::args::{A2a, PassportDir};
use super::passport::open_store;
use super::CliError;

/// The `a2a` command family.
pub fn run(command: A2a) -> Result<u8, CliError> {
    match command {
        A2a::Serve {
            store,
            listen,
            max_pack_bytes,
        } => serve(
            PassportDir { dir: Some(store) },
            listen,
            max_pack_bytes.unwrap_or(a2a::DEFAULT_MAX_PACK_BYTES),
        ),
    }
}

fn serve(store: PassportDir, listen: SocketAddr, max_pack_bytes: usize) -> Result<u8, CliError> {
    let door = Door {
        store: open_store(&store)?,
        max_pack_bytes,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| CliError::Failure(format!("cannot listen on {listen}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failure(format!("cannot read the listening address: {e}")))?;
        println!("listening on http://{local}/");
        let card = a2a::agent_card(&format!("http://{local}/")).to_js_compact();
        // The body may hold a pack in base64 (4 bytes per 3) and the JSON around it.
        let body_limit = max_pack_bytes / 3 * 4 + (1 << 20);
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let door = &door;
            let card = &card;
            let service = hyper::service::service_fn(move |request| async move {
                Ok::<_, Infallible>(answer(door, card, body_limit, request).await)
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            // One connection at a time: a client that keeps its connection open is served
            // until it closes it.
            if let Err(e) = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await
            {
                eprintln!("a2a: connection: {e}");
            }
        }
    })
}

async fn answer(
    door: &Door,
    card: &str,
    body_limit: usize,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let path = request.uri().path().to_owned();
    match (request.method(), path.as_str()) {
        (&Method::GET, "/.well-known/agent-card.json") => {
            json(StatusCode::OK, card.to_owned(), false)
        }
        (&Method::POST, "/") => {
            let activated = a2a::activates(
                request
                    .headers()
                    .get_all(a2a::EXTENSIONS_HEADER)
                    .iter()
                    .filter_map(|v| v.to_str().ok()),
            );
            let body = match Limited::new(request.into_body(), body_limit)
                .collect()
                .await
            {
                Ok(body) => body.to_bytes(),
                Err(_) => {
                    let error = RpcError::new(
                        a2a::INVALID_PARAMS,
                        format!(
                            "the request body is over {body_limit} bytes: too big for this door"
                        ),
                    );
                    let reply = a2a::answer::Response::new(Json::Null, Err(error)).to_js_compact();
                    return json(StatusCode::PAYLOAD_TOO_LARGE, reply, activated);
                }
            };
            let reply = door.handle(&body, activated).to_js_compact();
            json(StatusCode::OK, reply, activated)
        }
        (_, "/" | "/.well-known/agent-card.json") => {
            plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed")
        }
        _ => plain(
            StatusCode::NOT_FOUND,
            "not found: the Agent Card is /.well-known/agent-card.json, JSON-RPC is POST /",
        ),
    }
}

fn json(status: StatusCode, body: String, activated: bool) -> Response<Full<Bytes>> {
    let mut response = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    if activated {
        response = response.header(a2a::EXTENSIONS_HEADER, a2a::EXTENSION_URI);
    }
    response
        .body(Full::new(Bytes::from(body)))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())))
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *response.status_mut() = status;
    response
}
