//! The JSON-RPC door `specmint a2a serve` is a thin HTTP wrapper over: `SendMessage` lands
//! or merges the pack a message carries, `GetTask` answers a stored passport as a `Task`.

use std::io::{Read, Seek, Write};
use std::path::Path;

use base64::Engine as _;
use specmint_runtime::json::Json;
use specmint_runtime::messages::Catalog;

use super::answer::{
    self, LandedReport, MergedReport, Reply, ReportedCheck, ReportedImperative, Response, RpcError,
};
use super::quota::{passport_bytes, StoreQuota};
use super::task::passport_task;
use super::wire::{pack_part, read_skeleton, Members, Params, Raws, Request};
use super::{EXTENSIONS_HEADER, EXTENSION_URI};
use crate::taskpack::encodings::flat::MAX_SKELETON_BYTES;
use crate::taskpack::encodings::skeleton::SkeletonError;
use crate::taskpack::encodings::unpack::PackSource;
use crate::taskpack::landing::arrival::{self, ArrivalError};
use crate::taskpack::landing::land;
use crate::taskpack::lenient;
use crate::taskpack::passports::{check_id, PassportStore, PassportStoreError};

/// JSON-RPC: the body is not JSON.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC: not a request object.
pub const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC: no such method.
pub const METHOD_NOT_FOUND: i32 = -32601;
/// JSON-RPC: the params are wrong (a bad or missing file part, a refused pack).
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC: the server failed (I/O).
pub const INTERNAL_ERROR: i32 = -32603;
/// A2A: no task of that id.
pub const TASK_NOT_FOUND: i32 = -32001;
/// A2A: a file part that is not a pack.
pub const CONTENT_TYPE_NOT_SUPPORTED: i32 = -32005;
/// A2A: the extension is required for this request and was not activated.
pub const EXTENSION_SUPPORT_REQUIRED: i32 = -32008;

/// The door `specmint a2a serve` serves: JSON-RPC over a passport store, landing and merging
/// exactly as `taskpack land` / `taskpack merge` do ([`crate::taskpack::landing::arrival`]).
#[derive(Debug, Clone)]
pub struct Door {
    /// Where packs land.
    pub store: PassportStore,
    /// The largest pack a message may carry, in bytes (decoded).
    pub max_pack_bytes: usize,
}

/// The default for [`Door::max_pack_bytes`]: 64 MiB.
pub const DEFAULT_MAX_PACK_BYTES: usize = 64 << 20;

/// The largest JSON text that can carry a pack of `max_pack_bytes`: the pack in base64 (4 bytes
/// per 3) and 1 MiB of the message around it. The door's request bodies and the Task files
/// `taskpack from-a2a` reads are held to it.
#[must_use]
pub fn max_message_bytes(max_pack_bytes: usize) -> u64 {
    (max_pack_bytes / 3 * 4) as u64 + (1 << 20)
}

impl Door {
    /// Answers one JSON-RPC request body. `activated`: the request's `A2A-Extensions` header
    /// lists [`EXTENSION_URI`].
    pub fn handle(&self, body: &[u8], activated: bool) -> Response {
        self.handle_within(body, activated, None)
    }

    /// [`Door::handle`], a landing or merge first reserving its pack's size in `quota` and
    /// refused ([`super::quota::STORE_QUOTA_EXCEEDED`]) when the store would pass it.
    pub fn handle_within(
        &self,
        body: &[u8],
        activated: bool,
        quota: Option<&StoreQuota>,
    ) -> Response {
        self.handle_from(&mut std::io::Cursor::new(body), activated, quota)
    }

    /// [`Door::handle_within`] on a body read from `body` (all of it, from its start), in
    /// bounded memory: the request less its file parts' `raw` strings is held (at most
    /// [`MAX_SKELETON_BYTES`], else refused), and a pack's base64 is decoded from `body` chunk
    /// by chunk, into memory up to [`super::PACK_IN_MEMORY_BYTES`] and past that into a temporary
    /// file, never held whole. (The answer's luggage is then read whole:
    /// [`Door::answer_from`] leaves it in the store.)
    pub fn handle_from<R: Read + Seek>(
        &self,
        body: &mut R,
        activated: bool,
        quota: Option<&StoreQuota>,
    ) -> Response {
        self.answer_from(body, activated, quota).into_response()
    }

    /// [`Door::handle_from`], the answer's luggage left in the store until the answer is written
    /// ([`Answer::write_compact`] streams it), so that neither the request nor the answer is
    /// ever held whole.
    pub fn answer_from<R: Read + Seek>(
        &self,
        body: &mut R,
        activated: bool,
        quota: Option<&StoreQuota>,
    ) -> Answer {
        self.answer_from_in(body, activated, quota, None)
    }

    /// [`Door::answer_from`] with the refusals of a pack written in the reader's language:
    /// the message's `metadata.locale` ([`LOCALE_KEY`]) when it names one, else `wanted` (what
    /// the server chose: the request's `Accept-Language`, its `--locale`, the environment's),
    /// else English. A refusal listing problems at their paths (a pack refused at landing)
    /// gets TaskPack's messages in that language ([`crate::Refusal::localize`]); its A2A code,
    /// `data.code` and every other refusal stay as they are. A `metadata.locale` that is not a
    /// string or not a BCP 47 tag is refused ([`INVALID_PARAMS`]).
    pub fn answer_from_in<R: Read + Seek>(
        &self,
        body: &mut R,
        activated: bool,
        quota: Option<&StoreQuota>,
        wanted: Option<&str>,
    ) -> Answer {
        let mut luggage = Luggage::new();
        let response = self.respond(body, activated, quota, wanted, &mut luggage);
        Answer { response, luggage }
    }

    fn respond<R: Read + Seek>(
        &self,
        body: &mut R,
        activated: bool,
        quota: Option<&StoreQuota>,
        wanted: Option<&str>,
        luggage: &mut Luggage,
    ) -> Response {
        let not_json = || {
            Response::new(
                Json::Null,
                Err(RpcError::new(PARSE_ERROR, "the request body is not JSON")),
            )
        };
        let skeleton = match read_skeleton(body) {
            Ok(Some(skeleton)) => skeleton,
            Ok(None) | Err(SkeletonError::NotJson(_)) => return not_json(),
            Err(SkeletonError::TooLarge) => {
                return Response::new(
                    Json::Null,
                    Err(RpcError::new(
                        INVALID_REQUEST,
                        format!(
                            "the request body less its file parts' `raw` strings is over \
                             {MAX_SKELETON_BYTES} bytes: too big for this door"
                        ),
                    )),
                )
            }
            Err(SkeletonError::Io(e)) => {
                return Response::new(
                    Json::Null,
                    Err(RpcError::new(
                        INTERNAL_ERROR,
                        format!("cannot read the request body: {e}"),
                    )),
                )
            }
        };
        let Ok(request) = Json::parse(&skeleton.text) else {
            return not_json();
        };
        let wire: Request = lenient::view(&request);
        let id = wire.id.unwrap_or(Json::Null);
        let method = wire.method.as_deref();
        if !request.is_object() || wire.jsonrpc.as_deref() != Some("2.0") || method.is_none() {
            return Response::new(
                id,
                Err(RpcError::new(
                    INVALID_REQUEST,
                    "not a JSON-RPC 2.0 request (`jsonrpc` \"2.0\" and a `method` string)",
                )),
            );
        }
        let params = wire.params.unwrap_or(Json::Null);
        let raws = Raws {
            body,
            spans: &skeleton.elided,
        };
        let result = match method.unwrap_or_default() {
            "SendMessage" | "message/send" => self
                .send(&params, raws, activated, quota, wanted, luggage)
                .map(|task| Reply::Sent {
                    task: Box::new(task),
                }),
            "GetTask" | "tasks/get" => self
                .get(&params, luggage)
                .map(|task| Reply::Task(Box::new(task))),
            other => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("no method `{other}` (SendMessage, GetTask)"),
            )),
        };
        Response::new(id, result)
    }

    fn send<R: Read + Seek>(
        &self,
        params: &Json,
        raws: Raws<'_, R>,
        activated: bool,
        quota: Option<&StoreQuota>,
        wanted: Option<&str>,
        luggage: &mut Luggage,
    ) -> Result<answer::Task, RpcError> {
        let params: Params = lenient::view(params);
        let message = params
            .message
            .filter(|m| m.is_object())
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, "`params.message` is not an object"))?;
        let catalog = catalog(message_locale(&message)?.or(wanted));
        // A temporary file it spilled into is removed when it drops, however the landing ends.
        let (name, pack, size) = pack_part(&message, self.max_pack_bytes, raws)?;
        if !activated {
            return Err(RpcError::new(
                EXTENSION_SUPPORT_REQUIRED,
                format!(
                    "`{name}` is a TaskPack: activate the extension `{EXTENSION_URI}` \
                     (header `{EXTENSIONS_HEADER}`) to send one"
                ),
            ));
        }
        // Before anything is landed: released when the landing fails.
        let reservation = quota.map(|q| q.reserve(size)).transpose()?;
        let measured = reservation.is_some();
        let (task, written) = self.arrive(pack.source(), measured, luggage, catalog.as_ref())?;
        if let Some(reservation) = reservation {
            reservation.settle(written);
        }
        Ok(task)
    }

    /// Lands (or, for a receipt, merges) the pack at `source`, as the CLI does: the Task, and
    /// the bytes the store grew by when `measured` (a quota settles them), else 0 (the store is
    /// not walked for nothing).
    fn arrive(
        &self,
        source: PackSource<'_>,
        measured: bool,
        luggage: &mut Luggage,
        catalog: Option<&Catalog>,
    ) -> Result<(answer::Task, u64), RpcError> {
        let arrival_error = |e| arrival_error_in(e, catalog);
        let bytes = |id: &str| {
            if measured {
                passport_bytes(&self.store, id)
            } else {
                0
            }
        };
        // The pack is read once: a receipt is merged, anything else landed.
        let arrival = arrival::receive(&self.store, source).map_err(arrival_error)?;
        if arrival.pack().is_receipt() {
            let (into, _) = land::receipt_target(arrival.pack());
            // The sender's text: checked before any path is made of it (a quota measures one).
            check_id(&into).map_err(|e| arrival_error(e.into()))?;
            let before = bytes(&into);
            let merged = arrival.merge(&self.store, &into).map_err(arrival_error)?;
            let written = bytes(&into).saturating_sub(before);
            let mut task = match merged.passport {
                Some(state) => self.committed_task(&into, &state, luggage),
                None => {
                    let state = self.store.get(&into).map_err(store_error)?;
                    self.task_of(&into, &state, luggage)?
                }
            };
            let report = merged.report;
            task.metadata.0.merged = Some(MergedReport {
                passport_id: into,
                version: merged.version,
                written: merged.written,
                answered: report.answered,
                already_answered: report.already_answered,
                adopted_asks: report.adopted_asks,
                still_open: report.still_open,
                facts_adopted: report.facts_adopted,
                imperatives: imperatives(report.imperatives),
            });
            return Ok((task, written));
        }
        let landed = arrival.land(&self.store, false).map_err(arrival_error)?;
        let written = bytes(&landed.id);
        let mut task = self.committed_task(&landed.id, &landed.passport, luggage);
        let l = landed.landing;
        task.metadata.0.landed = Some(LandedReport {
            passport_id: landed.id,
            sealed_on_arrival: l.sealed_on_arrival,
            needs_reverify: l.needs_reverify,
            open_asks: l.open_asks,
            landing_checks: l
                .landing_checks
                .into_iter()
                .map(|c| ReportedCheck {
                    id: c.id,
                    check: c.check,
                    required: c.required,
                })
                .collect(),
            imperatives: imperatives(l.imperatives),
        });
        Ok((task, written))
    }

    fn get(&self, params: &Json, luggage: &mut Luggage) -> Result<answer::Task, RpcError> {
        let params: Params = lenient::view(params);
        let id = params
            .id
            .filter(|id| !id.is_empty())
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, "`params.id` is not a task id"))?;
        let (local, state) = self.find(&id)?;
        self.task_of(&local, &state, luggage)
    }

    /// The passport of task `id`: the most recently updated one whose `lineage.root_id` is
    /// `id`, else the passport whose own id it is. `updated_at` has whole seconds, so a root
    /// landed twice within one second is told apart by its file's modification time (the
    /// later write wins), never by the order of a listing.
    fn find(&self, id: &str) -> Result<(String, Json), RpcError> {
        let listing = self.store.list().map_err(store_error)?;
        let mut newest: Option<((String, std::time::SystemTime), String, Json)> = None;
        for summary in &listing.passports {
            let Ok(state) = self.store.get(&summary.passport_id) else {
                continue;
            };
            let members: Members = lenient::view(&state);
            let lineage = lenient::lineage(members.lineage.as_ref());
            if lineage.root_id() != Some(id) {
                continue;
            }
            let written = std::fs::metadata(self.store.path(&summary.passport_id))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            let key = (summary.updated_at.clone(), written);
            if newest.as_ref().is_none_or(|(best, _, _)| key > *best) {
                newest = Some((key, summary.passport_id.clone(), state));
            }
        }
        if let Some((_, local, state)) = newest {
            return Ok((local, state));
        }
        match self.store.get(id) {
            Ok(state) => Ok((id.to_owned(), state)),
            Err(_) => Err(RpcError::new(
                TASK_NOT_FOUND,
                format!(
                    "no task `{id}`: no passport of this store has it as lineage.root_id or id"
                ),
            )),
        }
    }

    /// The Task of passport `id` just written (landed, or merged into): the arrival is
    /// committed, and the answer says so whatever fails after. A luggage file that cannot be
    /// opened leaves the Task without luggage, each file named by its `passport.artifacts`
    /// entry alone, rather than turning the answer into an error the client would take for
    /// "nothing arrived".
    fn committed_task(&self, id: &str, state: &Json, luggage: &mut Luggage) -> answer::Task {
        self.task_of(id, state, luggage).unwrap_or_else(|_| {
            luggage.files.clear();
            passport_task(id, state, Vec::new())
        })
    }

    /// The Task of stored passport `id`, its luggage opened in the store and left there
    /// (`luggage` keeps each file, the part's `raw` its marker).
    fn task_of(
        &self,
        id: &str,
        state: &Json,
        luggage: &mut Luggage,
    ) -> Result<answer::Task, RpcError> {
        let prefix = format!("{id}.files/");
        let mut files = Vec::new();
        for entry in &lenient::view::<Members>(state).artifacts {
            let Some(name) = entry.as_str().and_then(|e| e.strip_prefix(&prefix)) else {
                continue;
            };
            let safe = Path::new(name)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !safe {
                continue;
            }
            let shown = format!("{prefix}{name}");
            let raw = luggage.defer(&self.store.dir().join(&prefix).join(name), shown)?;
            files.push((name.to_owned(), raw));
        }
        Ok(passport_task(id, state, files))
    }
}

/// The luggage an answer carries, left in the store: each file part's `raw` is a marker (a
/// random nonce no request can foresee, and the file's index) until the answer is written.
struct Luggage {
    nonce: u128,
    files: Vec<Deferred>,
}

/// One luggage file of an answer.
struct Deferred {
    /// What the part's `raw` holds until written.
    marker: String,
    file: std::fs::File,
    /// Its size when opened.
    len: u64,
    /// Its path in the store, as errors name it.
    shown: String,
}

impl Luggage {
    fn new() -> Self {
        use std::hash::BuildHasher as _;
        let random = || std::collections::hash_map::RandomState::new().hash_one(0u8);
        Luggage {
            nonce: (u128::from(random()) << 64) | u128::from(random()),
            files: Vec::new(),
        }
    }

    /// Opens the file at `path` (`shown` in errors, as reading it whole would fail) and returns
    /// the marker that stands for its base64.
    fn defer(&mut self, path: &Path, shown: String) -> Result<String, RpcError> {
        let cannot = |e: std::io::Error| {
            RpcError::new(INTERNAL_ERROR, format!("cannot read `{shown}`: {e}"))
        };
        let file = std::fs::File::open(path).map_err(cannot)?;
        let metadata = file.metadata().map_err(cannot)?;
        if metadata.is_dir() {
            // Opened, but not readable: the error reading it gives.
            std::fs::read(path).map_err(cannot)?;
        }
        let marker = format!("specmint-luggage-{:032x}-{}", self.nonce, self.files.len());
        self.files.push(Deferred {
            marker: marker.clone(),
            file,
            len: metadata.len(),
            shown,
        });
        Ok(marker)
    }
}

/// What the door answers, its luggage still in the store ([`Door::answer_from`]).
pub struct Answer {
    response: Response,
    luggage: Luggage,
}

impl Answer {
    /// Whether the answer carries no luggage: [`Answer::into_response`] then reads nothing.
    pub fn is_light(&self) -> bool {
        self.luggage.files.is_empty()
    }

    /// The response, each luggage file read and encoded into its part (what [`Door::handle`]
    /// answers). A file that cannot be read makes the answer that error.
    pub fn into_response(self) -> Response {
        let Answer {
            mut response,
            luggage,
        } = self;
        let mut parts: Vec<&mut String> = match &mut response.outcome {
            answer::Outcome::Result(Reply::Sent { task } | Reply::Task(task)) => task
                .artifacts
                .iter_mut()
                .flat_map(|a| a.parts.iter_mut())
                .filter_map(|part| match part {
                    answer::Part::File { raw, .. } => Some(raw),
                    _ => None,
                })
                .collect(),
            answer::Outcome::Error(_) => Vec::new(),
        };
        for mut deferred in luggage.files {
            let mut bytes = Vec::new();
            if let Err(e) = deferred.file.read_to_end(&mut bytes) {
                let message = format!("cannot read `{}`: {e}", deferred.shown);
                return Response::new(response.id, Err(RpcError::new(INTERNAL_ERROR, message)));
            }
            if let Some(raw) = parts.iter_mut().find(|raw| ***raw == deferred.marker) {
                **raw = base64::engine::general_purpose::STANDARD.encode(&bytes);
            }
        }
        response
    }

    /// How many bytes [`Answer::write_compact`] writes (the luggage as large as when opened).
    pub fn compact_len(&self) -> u64 {
        let text = self.response.to_js_compact().len() as u64;
        self.luggage.files.iter().fold(text, |len, file| {
            len - file.marker.len() as u64 + file.len.div_ceil(3) * 4
        })
    }

    /// Writes the answer as [`Response::to_js_compact`] would, each luggage file's base64
    /// streamed from the store in chunks: what is held is the answer less its luggage.
    pub fn write_compact(mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let text = self.response.to_js_compact();
        let mut rest = text.as_str();
        let mut buffer = vec![0u8; 3 << 16];
        let mut encoded = String::with_capacity(4 << 16);
        for deferred in &mut self.luggage.files {
            let quoted = format!("\"{}\"", deferred.marker);
            let Some(at) = rest.find(&quoted) else {
                continue;
            };
            out.write_all(&rest.as_bytes()[..at + 1])?;
            rest = &rest[at + quoted.len() - 1..];
            loop {
                let n = read_full(&mut deferred.file, &mut buffer)?;
                if n == 0 {
                    break;
                }
                encoded.clear();
                base64::engine::general_purpose::STANDARD.encode_string(&buffer[..n], &mut encoded);
                out.write_all(encoded.as_bytes())?;
                if n < buffer.len() {
                    break;
                }
            }
        }
        out.write_all(rest.as_bytes())
    }
}

/// Fills `buffer` from `file` as far as it goes: fewer bytes only at its end (so every chunk but
/// the last is a whole number of base64 quads).
pub(super) fn read_full(file: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

pub(super) fn too_big(at: &str, len: usize, max: usize) -> RpcError {
    RpcError::new(
        INVALID_PARAMS,
        format!("`{at}` is {len} bytes (max {max}): too big for this door"),
    )
}

pub(super) fn internal(e: impl std::fmt::Display) -> RpcError {
    RpcError::new(INTERNAL_ERROR, e.to_string())
}

pub(super) fn store_error(e: PassportStoreError) -> RpcError {
    match e {
        PassportStoreError::NotFound(id) => {
            RpcError::new(TASK_NOT_FOUND, format!("no passport `{id}` in this store"))
        }
        other => internal(other),
    }
}

/// The key of an A2A message's `metadata` that names the language of the door's refusals.
pub const LOCALE_KEY: &str = "locale";

/// The language a message asks for in `metadata.locale`: `None` when it names none (no
/// metadata, no key, `null`).
fn message_locale(message: &Json) -> Result<Option<&str>, RpcError> {
    let Some(value) = message.get("metadata").and_then(|m| m.get(LOCALE_KEY)) else {
        return Ok(None);
    };
    let wrong = |why: String| {
        RpcError::new(
            INVALID_PARAMS,
            format!("`params.message.metadata.{LOCALE_KEY}`: {why}"),
        )
    };
    match value {
        Json::Null => Ok(None),
        Json::Str(tag) => {
            crate::runtime::messages::check_wanted(tag).map_err(|e| wrong(e.0))?;
            Ok(Some(tag))
        }
        _ => Err(wrong(
            "not a string such as \"zh-TW\" (a BCP 47 language tag)".to_owned(),
        )),
    }
}

/// TaskPack's messages serving a reader who asks for `wanted`; `None` (English) for none.
fn catalog(wanted: Option<&str>) -> Option<Catalog> {
    super::super::catalog(wanted?)
}

/// The languages TaskPack's refusals may be written in besides English (its locale files'
/// tags).
pub fn locales() -> Vec<&'static str> {
    crate::bundled::find("taskpack")
        .map(|b| b.messages.iter().map(|(tag, _)| *tag).collect())
        .unwrap_or_default()
}

/// The language an HTTP `Accept-Language` header (RFC 9110 §12.5.4) asks the door's refusals
/// in: its ranges by weight (the order written among equal ones; `q=0` and `*` say nothing),
/// the first the door can serve, a TaskPack locale serving it ([`locales`]) or English (`en`,
/// `en-US`: answered `Some("en")`, which no catalog serves). `None` when no range can be
/// served (`fr`, or a header that does not parse): the header is then disregarded and the
/// server's default applies.
pub fn accept_language(value: &str) -> Option<String> {
    let mut ranges: Vec<(u16, &str)> = value
        .split(',')
        .filter_map(|item| {
            let mut parts = item.split(';');
            let range = parts.next()?.trim();
            let mut weight = 1000;
            for param in parts {
                let (name, q) = param.split_once('=')?;
                if name.trim().eq_ignore_ascii_case("q") {
                    let q: f32 = q.trim().parse().ok()?;
                    if !(0.0..=1.0).contains(&q) {
                        return None;
                    }
                    // Three decimals at most (RFC 9110 §12.4.2).
                    weight = (q * 1000.0).round() as u16;
                }
            }
            (weight > 0 && !range.is_empty() && range != "*").then_some((weight, range))
        })
        .collect();
    ranges.sort_by_key(|(weight, _)| std::cmp::Reverse(*weight));
    let tags = locales();
    ranges.into_iter().find_map(|(_, range)| {
        let id = crate::runtime::messages::parse_locale(range).ok()?;
        if crate::runtime::messages::choose_tag(tags.iter().copied(), range).is_some() {
            Some(range.to_owned())
        } else {
            (id.language.as_str() == "en").then(|| "en".to_owned())
        }
    })
}

/// What a pack that did not arrive is answered: its refusal (a refused pack's problems written
/// in `catalog`'s language), or the store's error.
pub(super) fn arrival_error_in(e: ArrivalError, catalog: Option<&Catalog>) -> RpcError {
    match e {
        ArrivalError::Refused(mut r) | ArrivalError::Receipt { refusal: mut r, .. } => {
            if let Some(catalog) = catalog {
                r.localize(catalog);
            }
            RpcError {
                code: INVALID_PARAMS,
                message: r.to_string(),
                taskpack_code: Some(r.code),
            }
        }
        ArrivalError::Store(PassportStoreError::NotFound(id)) => RpcError::new(
            TASK_NOT_FOUND,
            format!("this receipt answers passport `{id}`, which is not in this store"),
        ),
        // A verdict on the request (an id that is no passport id): a bad request, with the
        // store's code, as a refused pack is.
        ArrivalError::Store(other) => match other.code() {
            Some(code) => RpcError {
                code: INVALID_PARAMS,
                message: other.to_string(),
                taskpack_code: Some(code),
            },
            None => internal(other),
        },
        other @ (ArrivalError::NoEncoding(_) | ArrivalError::Io { .. }) => internal(other),
    }
}

pub(super) fn imperatives(found: Vec<land::Imperative>) -> Vec<ReportedImperative> {
    found
        .into_iter()
        .map(|i| ReportedImperative {
            pointer: i.at,
            sentence: i.sentence,
        })
        .collect()
}
