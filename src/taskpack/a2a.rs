//! TaskPack's A2A binding (§5): the extension `https://taskpack.org/a2a/ext/taskpack/v1`, the
//! mapping between a pack and an A2A `Task`, and the JSON-RPC door `specmint a2a serve` is a
//! thin HTTP wrapper over.
//!
//! The wire is A2A 1.0 as the official SDK (`a2a-sdk` 1.3.0, pinned in tests/peers/a2a/) speaks it:
//! JSON-RPC 2.0 methods `SendMessage` and `GetTask` (the 0.3 names `message/send` and
//! `tasks/get` are accepted too, with the same 1.0 shapes), protobuf-JSON member names
//! (`contextId`, `artifactId`, `mediaType`), a `Part` that is one of `text`, `raw` (base64),
//! `url` or `data`, and `TASK_STATE_*` states.
//!
//! The binding table, as specmint maps it:
//!
//! | A2A | TaskPack |
//! |---|---|
//! | `Task.id` | `lineage.root_id` |
//! | `Task.contextId` | `lineage.chain`, as its compact JSON text (a string cannot hold a list; JSON keeps every entry exact, whatever it contains) |
//! | `Artifact` | one per `data/files/*` (a `raw` part, `artifactId` `data/files/<name>`), then one per `passport.artifacts` entry that does not name one of those files (`artifactId` `passport.artifacts[i]`, a `text` part for a string, else `data`) |
//! | `Message` | nothing: a Task never carries `history`, and a message's text parts are not kept |
//! | `metadata[<extension URI>]` | `{"spec": "taskpack/0.1", "pack": <the pack object>}`: facts with their scope, asks and landing checks travel there, the one place A2A has for them |
//!
//! A `Task` made from a stored passport (what the door answers) carries
//! `{"spec", "passport_id", "passport": <the stored state>}` instead of `pack`. Its state is
//! `TASK_STATE_SUBMITTED`: the work has landed and nothing of it was run.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use base64::Engine as _;

pub mod answer;
pub mod quota;

use answer::{
    AgentCard, AgentExtension, Artifact, LandedReport, MergedReport, Metadata, Reply,
    ReportedCheck, ReportedImperative, Response, RpcError, TaskStatus,
};

use quota::{passport_bytes, StoreQuota};

use super::arrival::{self, ArrivalError};
use super::bag::{self, Limits};
use super::conformance;
use super::convert::Encoding;
use super::flat::MAX_SKELETON_BYTES;
use super::flat::{self, FlatError, LuggageFile};
use super::land;
use super::lenient::{self, LineageView, OriginView};
use super::passports::{check_id, PassportStore, PassportStoreError};
use super::skeleton::{self, SkeletonError, Span};
use super::spill::{Spill, Spilled};
use super::unpack::PackSource;
use serde::Deserialize;
use specmint_runtime::json::{present, Json};

/// The extension's URI (§5).
pub const EXTENSION_URI: &str = "https://taskpack.org/a2a/ext/taskpack/v1";
/// The spec id the extension's params name.
pub const SPEC_ID: &str = "taskpack/0.1";
/// The flat form's per-attachment limit (§2.2), declared in the extension's params.
pub const MAX_INLINE_ATTACHMENT_BYTES: u64 = 1 << 20;
/// The A2A protocol version served.
pub const PROTOCOL_VERSION: &str = "1.0";
/// The HTTP header that activates extensions (and that the server echoes).
pub const EXTENSIONS_HEADER: &str = "A2A-Extensions";

// The A2A wire objects this binding reads, as the SDK's protobuf-JSON writes them: only the
// members read, each optional as A2A leaves it and read leniently (a member of another type
// reads as absent, as before). What is passed through (the pack, a stored state, `data` parts,
// a request's `id`) stays `Json`, as received.

/// A JSON-RPC 2.0 request.
#[derive(Default, Deserialize)]
struct Request {
    #[serde(default, deserialize_with = "lenient::or_default")]
    jsonrpc: Option<String>,
    /// Echoed in the response as received.
    #[serde(default, deserialize_with = "present")]
    id: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    method: Option<String>,
    /// Read by the method.
    #[serde(default, deserialize_with = "present")]
    params: Option<Json>,
}

/// `SendMessage`'s and `GetTask`'s params.
#[derive(Default, Deserialize)]
struct Params {
    #[serde(default, deserialize_with = "present")]
    message: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    id: Option<String>,
}

/// A `Message` (its `parts`) or an `Artifact` (its `parts`).
#[derive(Default, Deserialize)]
struct WithParts {
    #[serde(default, deserialize_with = "lenient::views")]
    parts: Vec<Part>,
}

/// A `Part`: a file part has `raw` (base64) and a `filename`, or a `url`.
#[derive(Default, Deserialize)]
struct Part {
    #[serde(default, deserialize_with = "present")]
    raw: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    filename: Option<String>,
    #[serde(default, deserialize_with = "present")]
    url: Option<Json>,
}

/// A `Task`, as `from-a2a` reads it.
#[derive(Default, Deserialize)]
struct Task {
    #[serde(default, deserialize_with = "lenient::or_default")]
    id: Option<String>,
    /// Keyed by extension URI.
    #[serde(default, deserialize_with = "present")]
    metadata: Option<Json>,
    #[serde(default, deserialize_with = "lenient::views")]
    artifacts: Vec<WithParts>,
    #[serde(default, deserialize_with = "lenient::items")]
    history: Vec<Json>,
}

/// This extension's member of a Task's `metadata`.
#[derive(Default, Deserialize)]
struct Carried {
    #[serde(default, deserialize_with = "lenient::or_default")]
    spec: Option<String>,
    /// The pack object, passed on as received.
    #[serde(default, deserialize_with = "present")]
    pack: Option<Json>,
}

/// What the binding reads of a pack object or a task state: `lineage`, `origin` (a pack's),
/// `version` and `artifacts` (a state's), `kind` and `passport` (a pack's).
#[derive(Default, Deserialize)]
struct Members {
    #[serde(default, deserialize_with = "present")]
    lineage: Option<Json>,
    #[serde(default, deserialize_with = "lenient::view_or_default")]
    origin: OriginView,
    #[serde(default, deserialize_with = "present")]
    version: Option<Json>,
    #[serde(default, deserialize_with = "lenient::items")]
    artifacts: Vec<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    kind: Option<String>,
    /// A pack's task state.
    #[serde(default, deserialize_with = "present")]
    passport: Option<Json>,
}

/// The extension as the Agent Card declares it (`capabilities.extensions[]`).
pub fn extension_declaration() -> AgentExtension {
    AgentExtension::taskpack()
}

/// The Agent Card served at `/.well-known/agent-card.json`, its JSON-RPC interface at `url`.
pub fn agent_card(url: &str) -> AgentCard {
    AgentCard::new(url)
}

/// The media type an artifact's file part declares, from its name.
pub fn media_type(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "txt" | "log" => "text/plain",
        "md" => "text/markdown",
        "json" => "application/json",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "zip" | "taskpack" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// Whether a `passport.artifacts` entry names the luggage file `name` (`data/files/<name>` in a
/// pack, `<id>.files/<name>` once landed).
fn names_file(entry: &Json, name: &str) -> bool {
    let Some(entry) = entry.as_str() else {
        return false;
    };
    entry == format!("data/files/{name}")
        || entry
            .strip_suffix(name)
            .and_then(|head| head.strip_suffix('/'))
            .is_some_and(|dir| dir.ends_with(".files") || dir.ends_with(".files/data/files"))
}

/// The artifacts of a task state and its luggage (see the module's table).
fn artifacts(state: &Json, files: &[LuggageFile]) -> Vec<Artifact> {
    artifacts_raw(state, encoded(files))
}

/// Each file's name and bytes in base64.
fn encoded(files: &[LuggageFile]) -> Vec<(String, String)> {
    let engine = base64::engine::general_purpose::STANDARD;
    files
        .iter()
        .map(|file| (file.name.clone(), engine.encode(&file.bytes)))
        .collect()
}

/// [`artifacts`] of luggage given as each file's name and `raw` text.
fn artifacts_raw(state: &Json, files: Vec<(String, String)>) -> Vec<Artifact> {
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let mut out: Vec<Artifact> = files
        .into_iter()
        .map(|(name, raw)| Artifact {
            artifact_id: format!("data/files/{name}"),
            name: name.clone(),
            parts: vec![answer::Part::File {
                raw,
                media_type: media_type(&name),
                filename: name,
            }],
        })
        .collect();
    let state: Members = lenient::view(state);
    for (index, entry) in state.artifacts.iter().enumerate() {
        if names.iter().any(|name| names_file(entry, name)) {
            continue;
        }
        let part = match entry {
            Json::Str(s) => answer::Part::Text { text: s.clone() },
            other => answer::Part::Data {
                data: other.clone(),
            },
        };
        out.push(Artifact {
            artifact_id: format!("passport.artifacts[{index}]"),
            name: Json::js_string(Some(entry)),
            parts: vec![part],
        });
    }
    out
}

/// `Task.contextId` for a lineage: its chain as compact JSON (`[]` when it has none).
pub fn context_id(lineage: Option<&Json>) -> String {
    let lineage = lenient::lineage(lineage);
    Json::Array(lineage.chain().to_vec()).to_js_compact()
}

fn task(
    lineage: Option<&Json>,
    artifacts: Vec<Artifact>,
    carried: answer::Carried,
) -> answer::Task {
    let view = lenient::lineage(lineage);
    answer::Task {
        id: Json::js_string(view.root_id.as_ref()),
        context_id: context_id(lineage),
        status: TaskStatus {
            state: "TASK_STATE_SUBMITTED",
        },
        artifacts,
        metadata: Metadata(carried),
    }
}

/// The A2A `Task` of a pack and its luggage (`specmint taskpack to-a2a`).
pub fn pack_to_task(pack: &Json, files: &[LuggageFile]) -> answer::Task {
    let empty = Json::Object(Vec::new());
    let members: Members = lenient::view(pack);
    task(
        members.lineage.as_ref(),
        artifacts(members.passport.as_ref().unwrap_or(&empty), files),
        answer::Carried::pack(pack.clone()),
    )
}

/// The A2A `Task` of a stored passport `id` (its state as stored, luggage as landed).
pub fn passport_to_task(id: &str, state: &Json, files: &[LuggageFile]) -> answer::Task {
    passport_task(id, state, encoded(files))
}

/// [`passport_to_task`] of luggage given as each file's name and `raw` text.
fn passport_task(id: &str, state: &Json, files: Vec<(String, String)>) -> answer::Task {
    let own;
    let members: Members = lenient::view(state);
    let lineage = match &members.lineage {
        Some(l) if lenient::view::<LineageView>(l).root_id.is_some() => Some(l),
        // A passport made here (not landed) is its own root.
        _ => {
            own = Json::Object(vec![
                ("root_id".to_owned(), Json::Str(id.to_owned())),
                (
                    "chain".to_owned(),
                    Json::Array(vec![Json::Str(format!(
                        "{id}@{}",
                        Json::js_string(members.version.as_ref())
                    ))]),
                ),
            ]);
            Some(&own)
        }
    };
    task(
        lineage,
        artifacts_raw(state, files),
        answer::Carried::passport(id, state.clone()),
    )
}

/// Why a `Task` is not a pack (`from-a2a`), naming the member.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotAPack(pub String);

/// What [`task_to_pack`] made, and what it left behind.
#[derive(Debug, Clone)]
pub struct FromTask {
    /// The pack object.
    pub pack: Json,
    /// The luggage, from the artifacts' `raw` parts.
    pub attachments: Vec<LuggageFile>,
    /// Facts sealed on the way (machine-scoped ones, as packing seals them), by index.
    pub sealed: usize,
    /// Messages of `history` not carried (transcripts do not travel).
    pub history_dropped: usize,
}

/// The pack a `Task` carries (`specmint taskpack from-a2a`): the pack object from the
/// extension's metadata, `lineage.root_id` checked against `Task.id`, the luggage from every
/// artifact part with `raw` bytes and a `filename`, machine-scoped facts sealed as packing
/// seals them (`verified_on` the pack's origin machine, else `machine`; an `org` fact without
/// `source` annotated with the origin actor, else `actor`). `history` is dropped and counted.
pub fn task_to_pack(task: &Json, machine: &str, actor: &str) -> Result<FromTask, NotAPack> {
    if !task.is_object() {
        return Err(NotAPack("the Task is not a JSON object".to_owned()));
    }
    let wire: Task = lenient::view(task);
    let meta = wire
        .metadata
        .as_ref()
        .and_then(|m| m.get(EXTENSION_URI))
        .ok_or_else(|| {
            NotAPack(format!(
                "`metadata` has no `{EXTENSION_URI}` member: the Task carries no TaskPack"
            ))
        })?;
    let carried: Carried = lenient::view(meta);
    let spec = carried.spec.as_deref();
    if spec != Some(SPEC_ID) {
        return Err(NotAPack(format!(
            "`metadata[\"{EXTENSION_URI}\"].spec` is {}, not `{SPEC_ID}`",
            spec.map_or("missing".to_owned(), |s| format!("`{s}`"))
        )));
    }
    let mut pack = match carried.pack {
        Some(p) if p.is_object() => p,
        _ => {
            return Err(NotAPack(format!(
                "`metadata[\"{EXTENSION_URI}\"].pack` is not an object (a Task of a stored \
                 passport is answered by the door, not converted back into a pack)"
            )))
        }
    };
    let members: Members = lenient::view(&pack);
    let lineage = lenient::lineage(members.lineage.as_ref());
    let root = lineage.root_id();
    let id = wire.id.as_deref();
    if id.is_some() && id != root {
        return Err(NotAPack(format!(
            "`id` is `{}` but the pack's `lineage.root_id` is {} (Task.id is lineage.root_id, §5)",
            id.unwrap_or_default(),
            root.map_or("missing".to_owned(), |r| format!("`{r}`"))
        )));
    }
    let mut attachments = Vec::new();
    for (a, artifact) in wire.artifacts.iter().enumerate() {
        for (p, part) in artifact.parts.iter().enumerate() {
            let Some(raw) = &part.raw else {
                continue;
            };
            let where_ = format!("artifacts[{a}].parts[{p}]");
            let name = part
                .filename
                .as_deref()
                .filter(|n| !n.trim().is_empty())
                .ok_or_else(|| NotAPack(format!("`{where_}` has `raw` bytes but no `filename`")))?;
            let bytes = raw
                .as_str()
                .and_then(|r| base64::engine::general_purpose::STANDARD.decode(r).ok())
                .ok_or_else(|| NotAPack(format!("`{where_}.raw` is not standard base64")))?;
            if attachments.iter().any(|x: &LuggageFile| x.name == name) {
                return Err(NotAPack(format!(
                    "`{where_}` repeats the file name `{name}`: a pack holds one file per name"
                )));
            }
            attachments.push(LuggageFile {
                name: name.to_owned(),
                bytes,
            });
        }
    }
    let origin = |given: &Option<String>, default: &str| {
        given
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or(default)
            .to_owned()
    };
    let (machine, actor) = (
        origin(&members.origin.machine, machine),
        origin(&members.origin.actor, actor),
    );
    let mut sealed = 0;
    if let Some(state) = super::member_mut(&mut pack, "passport") {
        sealed = super::pack::seal_for_packing(state, &actor, &machine);
    }
    Ok(FromTask {
        pack,
        attachments,
        sealed,
        history_dropped: wire.history.len(),
    })
}

/// Why `from-a2a` wrote no pack.
#[derive(Debug, thiserror::Error)]
pub enum FromA2aError {
    /// The Task carries no pack (exit 1).
    #[error("not_a_task: {0}")]
    NotAPack(#[source] NotAPack),
    /// The pack it carries breaks the spec: every violation (exit 1).
    #[error("{0}")]
    Invalid(specmint_runtime::Report),
    /// The output's extension is not `.taskpack` or `.taskpack.json` (usage).
    #[error("--out `{}` is not a .taskpack or .taskpack.json", .0.display())]
    Extension(std::path::PathBuf),
    /// The pack cannot be encoded (the flat writer refused an attachment) (exit 1).
    #[error(transparent)]
    Encode(super::flat::FlatError),
    /// The output cannot be written (exit 2).
    #[error("cannot write `{}`: {}", .0.display(), .1)]
    Io(std::path::PathBuf, #[source] std::io::Error),
}

/// `specmint taskpack from-a2a`: the pack `task` carries ([`task_to_pack`]), checked against
/// the spec as a flat pack (every violation, with the spec's codes), written to `out` in the
/// encoding its extension names, as packing writes (atomically, readable by others).
pub fn write_task_as_pack(
    task: &Json,
    out: &Path,
    machine: &str,
    actor: &str,
) -> Result<FromTask, FromA2aError> {
    let encoding = match Encoding::of(out) {
        Some(e @ (Encoding::Zip | Encoding::Flat)) => e,
        _ => return Err(FromA2aError::Extension(out.to_owned())),
    };
    let made = task_to_pack(task, machine, actor).map_err(FromA2aError::NotAPack)?;
    let flat = super::flat::write_flat(&made.pack, &made.attachments, None)
        .map_err(FromA2aError::Encode)?;
    super::FlatTaskPack::from_json_str(&flat).map_err(FromA2aError::Invalid)?;
    let bytes = super::convert::encode(encoding, &made.pack, &made.attachments, None)
        .map_err(FromA2aError::Encode)?;
    crate::atomic_file::write_atomically_for_sharing(out, &bytes)
        .map_err(|e| FromA2aError::Io(out.to_owned(), e))?;
    Ok(made)
}

/// Whether the `A2A-Extensions` header values (each a comma-separated list of URIs) activate
/// this extension.
pub fn activates<'a>(values: impl IntoIterator<Item = &'a str>) -> bool {
    values
        .into_iter()
        .flat_map(|v| v.split(','))
        .any(|uri| uri.trim() == EXTENSION_URI)
}

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
/// exactly as `taskpack land` / `taskpack merge` do ([`super::arrival`]).
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
    /// refused ([`quota::STORE_QUOTA_EXCEEDED`]) when the store would pass it.
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
    /// by chunk, into memory up to [`PACK_IN_MEMORY_BYTES`] and past that into a temporary
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
        let mut luggage = Luggage::new();
        let response = self.respond(body, activated, quota, &mut luggage);
        Answer { response, luggage }
    }

    fn respond<R: Read + Seek>(
        &self,
        body: &mut R,
        activated: bool,
        quota: Option<&StoreQuota>,
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
                .send(&params, raws, activated, quota, luggage)
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
        luggage: &mut Luggage,
    ) -> Result<answer::Task, RpcError> {
        let params: Params = lenient::view(params);
        let message = params
            .message
            .filter(|m| m.is_object())
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, "`params.message` is not an object"))?;
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
        let (task, written) = self.arrive(pack.source(), measured, luggage)?;
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
    ) -> Result<(answer::Task, u64), RpcError> {
        let bytes = |id: &str| {
            if measured {
                passport_bytes(&self.store, id)
            } else {
                0
            }
        };
        let receipt = pack_object(source)
            .filter(|pack| lenient::view::<Members>(pack).kind.as_deref() == Some("receipt"));
        if let Some(pack) = receipt {
            let (into, _) = land::receipt_target(&pack);
            // The sender's text: checked before any path is made of it (a quota measures one).
            check_id(&into).map_err(|e| arrival_error(e.into()))?;
            let before = bytes(&into);
            let merged = arrival::merge_pack(&self.store, source, &into).map_err(arrival_error)?;
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
        let landed = arrival::land_pack(&self.store, source, false).map_err(arrival_error)?;
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
fn read_full(file: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
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

/// The pack object of the pack at `source`, read as [`super::convert::read_pack`] reads it but in bounded memory
/// (the luggage streamed past, never held): `None` when it does not read (the landing then
/// says why).
fn pack_object(source: PackSource<'_>) -> Option<Json> {
    let encoding = source.encoding()?;
    let mut opened = source.open().ok()?;
    match encoding {
        Encoding::Zip => {
            let reader = std::io::BufReader::new(opened);
            let read = bag::read_zip(reader, Limits::default(), false, &mut bag::Ignore).ok()?;
            if !bag::verify(&read).is_empty() {
                return None;
            }
            conformance::read_passport(&read).ok()
        }
        Encoding::Flat | Encoding::RetiredTpx => {
            flat::read_flat_from(&mut opened, &mut bag::Ignore)
                .ok()
                .map(|read| read.passport)
        }
    }
}

/// The skeleton of a JSON-RPC body, its file parts' `raw` strings left out (numbered). `None`
/// when the body starts with a byte order mark: JSON text has none (`Json::parse` refuses one).
fn read_skeleton<R: Read + Seek>(
    body: &mut R,
) -> Result<Option<skeleton::Skeleton>, SkeletonError> {
    let io = |e: std::io::Error| SkeletonError::Io(e.to_string());
    body.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut head = Vec::with_capacity(3);
    (&mut *body).take(3).read_to_end(&mut head).map_err(io)?;
    if head == b"\xef\xbb\xbf" {
        return Ok(None);
    }
    body.seek(SeekFrom::Start(0)).map_err(io)?;
    skeleton::skeleton_of(
        std::io::BufReader::with_capacity(1 << 16, &mut *body),
        skeleton::PARTS_RAW,
    )
    .map(Some)
}

/// The body a request was read from, and where its file parts' `raw` strings lie in it (the
/// skeleton writes each as its index here).
struct Raws<'a, R> {
    body: &'a mut R,
    spans: &'a [Span],
}

impl<R: Read + Seek> Raws<'_, R> {
    /// The span a part's `raw` member names: `None` when it is not a string (read as empty).
    fn span(&self, raw: &Json) -> Result<Option<Span>, RpcError> {
        let Some(index) = raw.as_str() else {
            return Ok(None);
        };
        index
            .parse::<usize>()
            .ok()
            .and_then(|i| self.spans.get(i))
            .map(|span| Some(*span))
            .ok_or_else(|| internal(format!("`raw` names no string of the body: {index:?}")))
    }

    /// Decodes the base64 at `span` into `sink`: the decoded length, or `Ok(None)` when it is not
    /// standard base64.
    fn decode(
        &mut self,
        span: Option<Span>,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> Result<Option<u64>, RpcError> {
        let Some(span) = span else {
            return Ok(Some(0));
        };
        let mut len = 0u64;
        let decoded = flat::decode_span(self.body, span, true, "", &mut |bytes| {
            len += bytes.len() as u64;
            sink(bytes)
        });
        match decoded {
            Ok(()) => Ok(Some(len)),
            Err(FlatError::Attachment { reason, .. }) if reason.starts_with(flat::NOT_BASE64) => {
                Ok(None)
            }
            Err(FlatError::Attachment { reason, .. }) => {
                Err(internal(format!("the pack's `raw` {reason}")))
            }
            Err(other) => Err(internal(other)),
        }
    }
}

/// The one file part of `message` that holds a pack: its name, its decoded bytes, and their
/// size. Every pack part is checked in order, as a whole read would: the first is decoded, any
/// other only counted (the answer then refuses them all).
fn pack_part<R: Read + Seek>(
    message: &Json,
    max: usize,
    mut raws: Raws<'_, R>,
) -> Result<(String, DecodedPack, u64), RpcError> {
    let mut found = Vec::new();
    let message: WithParts = lenient::view(message);
    for (i, part) in message.parts.iter().enumerate() {
        let at = format!("message.parts[{i}]");
        let name = part.filename.as_deref().unwrap_or_default();
        if part.url.is_some() {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!(
                    "`{at}` refers to a file by `url`: the door fetches nothing, send the \
                     pack's bytes inline (`raw`)"
                ),
            ));
        }
        let Some(raw) = &part.raw else {
            continue;
        };
        let encoding = match Encoding::of(Path::new(name)) {
            Some(e @ (Encoding::Zip | Encoding::Flat)) => e,
            _ => {
                return Err(RpcError::new(
                    CONTENT_TYPE_NOT_SUPPORTED,
                    format!(
                        "`{at}` is {}, not a .taskpack or .taskpack.json",
                        if name.is_empty() {
                            "a file with no `filename`".to_owned()
                        } else {
                            format!("`{name}`")
                        }
                    ),
                ))
            }
        };
        let span = raws.span(raw)?;
        let raw_len = span.map_or(0, |s| usize::try_from(s.unescaped).unwrap_or(usize::MAX));
        // base64 is 4 characters per 3 bytes: refuse before decoding what could not fit.
        if raw_len / 4 * 3 > max.saturating_add(3) {
            return Err(too_big(&at, raw_len / 4 * 3, max));
        }
        let decoded = if found.is_empty() {
            let mut pack = DecodedPack::new(encoding);
            raws.decode(span, &mut |bytes| pack.bytes.write_all(bytes))?
                .map(|len| (len, Some(pack)))
        } else {
            raws.decode(span, &mut |_| Ok(()))?.map(|len| (len, None))
        };
        let Some((len, file)) = decoded else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("`{at}.raw` is not standard base64"),
            ));
        };
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if len > max {
            return Err(too_big(&at, len, max));
        }
        found.push((at, name.to_owned(), file, len));
    }
    match found.len() {
        0 => Err(RpcError::new(
            INVALID_PARAMS,
            "no part of the message is a file part (`raw` and a `filename` ending .taskpack or \
             .taskpack.json) holding a pack",
        )),
        1 => {
            let (_, name, pack, len) = found.remove(0);
            let pack = pack.expect("the first pack part is decoded");
            Ok((name, pack, len as u64))
        }
        n => Err(RpcError::new(
            INVALID_PARAMS,
            format!(
                "the message holds {n} packs ({} and {}): send one per message",
                found[0].0, found[1].0
            ),
        )),
    }
}

/// The most bytes of a pack held in memory as it is decoded: a larger one goes on into a
/// temporary file, so that what an answer holds stays bounded whatever the pack's size.
pub const PACK_IN_MEMORY_BYTES: usize = 1 << 20;

/// A pack decoded from a request: in memory up to [`PACK_IN_MEMORY_BYTES`] (a small landing
/// touches no file but the store's), past that in a temporary file named for its encoding.
struct DecodedPack {
    bytes: Spill,
    encoding: Encoding,
}

impl DecodedPack {
    fn new(encoding: Encoding) -> Self {
        let suffix = match encoding {
            Encoding::Flat => ".taskpack.json",
            _ => ".taskpack",
        };
        DecodedPack {
            bytes: Spill::new(PACK_IN_MEMORY_BYTES, "specmint-a2a-", suffix),
            encoding,
        }
    }

    /// Where the landing reads it.
    fn source(&self) -> PackSource<'_> {
        match self.bytes.spilled() {
            Spilled::Memory(held) => PackSource::Bytes(held, self.encoding),
            Spilled::File(path) => PackSource::File(path),
        }
    }
}

fn too_big(at: &str, len: usize, max: usize) -> RpcError {
    RpcError::new(
        INVALID_PARAMS,
        format!("`{at}` is {len} bytes (max {max}): too big for this door"),
    )
}

fn internal(e: impl std::fmt::Display) -> RpcError {
    RpcError::new(INTERNAL_ERROR, e.to_string())
}

fn store_error(e: PassportStoreError) -> RpcError {
    match e {
        PassportStoreError::NotFound(id) => {
            RpcError::new(TASK_NOT_FOUND, format!("no passport `{id}` in this store"))
        }
        other => internal(other),
    }
}

fn arrival_error(e: ArrivalError) -> RpcError {
    match e {
        ArrivalError::Refused(r) => RpcError {
            code: INVALID_PARAMS,
            message: r.to_string(),
            taskpack_code: Some(r.code),
        },
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

fn imperatives(found: Vec<land::Imperative>) -> Vec<ReportedImperative> {
    found
        .into_iter()
        .map(|i| ReportedImperative {
            pointer: i.at,
            sentence: i.sentence,
        })
        .collect()
}
