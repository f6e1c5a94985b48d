//! The A2A binding's answers (see [`crate::answer`]): the Agent Card, the JSON-RPC replies of the
//! door `specmint a2a serve` serves, and the A2A [`Task`] they carry, which `specmint taskpack
//! to-a2a` prints too. Members are A2A 1.0's protobuf-JSON names, in the order declared here.
//!
//! They are written as `JSON.stringify` writes the reference's ([`Response::to_js_compact`],
//! [`Task::to_js_pretty`]): members in declaration order, numbers as JavaScript prints them. What
//! the door passes on (a pack, a stored passport, a request's `id`, a `data` part) stays
//! [`Json`], as received.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use specmint_runtime::json::Json;

use super::super::TaskPackError;
use super::{EXTENSION_URI, MAX_INLINE_ATTACHMENT_BYTES, PROTOCOL_VERSION, SPEC_ID};

/// A JSON-RPC 2.0 response: `{"jsonrpc": "2.0", "id", "result" | "error"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Response {
    /// `2.0`.
    pub jsonrpc: &'static str,
    /// The request's `id`, as received (`null` when it has none that can be read).
    pub id: Json,
    /// The result, or the error.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// What a [`Response`] holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Outcome {
    /// `result`.
    #[serde(rename = "result")]
    Result(Reply),
    /// `error`.
    #[serde(rename = "error")]
    Error(RpcError),
}

/// A method's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Reply {
    /// `SendMessage`'s: `{"task"}`.
    Sent {
        /// The Task of the passport the pack landed as (or merged into).
        task: Box<Task>,
    },
    /// `GetTask`'s: the Task itself.
    Task(Box<Task>),
}

/// A JSON-RPC error of the door: the A2A code, a message, and (for a pack refused by landing or
/// merging) the TaskPack code in `data.code`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RpcError {
    /// JSON-RPC / A2A error code (`-32602` invalid params, `-32001` task not found, …).
    pub code: i32,
    /// What went wrong, naming the member.
    pub message: String,
    /// The spec's own code, when there is one (`ask_without_accept`, `credential`, …): written
    /// as `"data": {"code"}`.
    #[serde(
        rename = "data",
        skip_serializing_if = "Option::is_none",
        serialize_with = "data"
    )]
    pub taskpack_code: Option<TaskPackError>,
}

impl RpcError {
    /// An error with `code` and `message`, and no TaskPack code.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            taskpack_code: None,
        }
    }
}

/// `{"code": CODE}`.
fn data<S: Serializer>(code: &Option<TaskPackError>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut data = serializer.serialize_map(Some(1))?;
    if let Some(code) = code {
        data.serialize_entry("code", code.code())?;
    }
    data.end()
}

impl Response {
    /// The response to the request `id`.
    pub fn new(id: Json, result: Result<Reply, RpcError>) -> Self {
        Response {
            jsonrpc: "2.0",
            id,
            outcome: match result {
                Ok(reply) => Outcome::Result(reply),
                Err(error) => Outcome::Error(error),
            },
        }
    }

    /// `JSON.stringify(response)`: what the door answers.
    pub fn to_js_compact(&self) -> String {
        javascript::compact(self)
    }
}

/// An A2A `Task`: `{"id", "contextId", "status", "artifacts", "metadata"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// `lineage.root_id`.
    pub id: String,
    /// `lineage.chain` as its compact JSON text.
    pub context_id: String,
    /// Always `TASK_STATE_SUBMITTED`: the work has landed and nothing of it was run.
    pub status: TaskStatus,
    /// The luggage and the passport's artifacts.
    pub artifacts: Vec<Artifact>,
    /// `{EXTENSION_URI: ...}`: what the extension carries.
    pub metadata: Metadata,
}

impl Task {
    /// `JSON.stringify(task, null, 2)`: what `taskpack to-a2a` prints.
    pub fn to_js_pretty(&self) -> String {
        javascript::pretty(self)
    }
}

/// A Task's `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TaskStatus {
    /// The A2A state.
    pub state: &'static str,
}

/// An A2A `Artifact`: `{"artifactId", "name", "parts"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    /// `data/files/<name>` or `passport.artifacts[i]`.
    pub artifact_id: String,
    /// Its name.
    pub name: String,
    /// Its one part.
    pub parts: Vec<Part>,
}

/// An A2A `Part`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Part {
    /// A file's bytes: `{"raw", "filename", "mediaType"}`.
    File {
        /// The bytes, base64.
        raw: String,
        /// The file's name.
        filename: String,
        /// Its media type, from its name.
        #[serde(rename = "mediaType")]
        media_type: &'static str,
    },
    /// `{"text"}`.
    Text {
        /// The text.
        text: String,
    },
    /// `{"data"}`.
    Data {
        /// The value, as written.
        data: Json,
    },
}

/// A Task's `metadata`: the one member keyed by [`EXTENSION_URI`].
#[derive(Debug, Clone, PartialEq)]
pub struct Metadata(pub Carried);

impl Serialize for Metadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut metadata = serializer.serialize_map(Some(1))?;
        metadata.serialize_entry(EXTENSION_URI, &self.0)?;
        metadata.end()
    }
}

/// What the extension carries in a Task's metadata: `{"spec", "pack"}` for a pack; `{"spec",
/// "passport_id", "passport"}` for a stored passport, with what its landing (`landed`) or
/// merging (`merged`) did when the door just did it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Carried {
    /// [`SPEC_ID`].
    pub spec: &'static str,
    /// The pack object, as read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<Json>,
    /// The stored passport's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passport_id: Option<String>,
    /// The stored passport's state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passport: Option<Json>,
    /// What landing the pack did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landed: Option<LandedReport>,
    /// What merging the receipt did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergedReport>,
}

impl Carried {
    /// A pack object.
    pub fn pack(pack: Json) -> Self {
        Carried {
            spec: SPEC_ID,
            pack: Some(pack),
            passport_id: None,
            passport: None,
            landed: None,
            merged: None,
        }
    }

    /// Stored passport `id`, its `state`.
    pub fn passport(id: &str, state: Json) -> Self {
        Carried {
            spec: SPEC_ID,
            pack: None,
            passport_id: Some(id.to_owned()),
            passport: Some(state),
            landed: None,
            merged: None,
        }
    }
}

/// What landing a handoff did, in a Task's metadata (`landed`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LandedReport {
    /// The new passport.
    pub passport_id: String,
    /// Facts sealed on the way in.
    pub sealed_on_arrival: Vec<String>,
    /// How many facts are to be re-verified here.
    pub needs_reverify: usize,
    /// The asks still open.
    pub open_asks: Vec<String>,
    /// The landing checks, required ones first.
    pub landing_checks: Vec<ReportedCheck>,
    /// The imperative sentences found in the pack.
    pub imperatives: Vec<ReportedImperative>,
}

/// What merging a receipt did, in a Task's metadata (`merged`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergedReport {
    /// The passport merged into.
    pub passport_id: String,
    /// Its version after the merge.
    pub version: u64,
    /// Whether anything was written.
    pub written: bool,
    /// Asks whose answer or status was written.
    pub answered: Vec<String>,
    /// Asks already answered as the receipt says.
    pub already_answered: Vec<String>,
    /// Asks of the receipt adopted as open.
    pub adopted_asks: Vec<String>,
    /// Asks still open.
    pub still_open: Vec<String>,
    /// How many facts were adopted.
    pub facts_adopted: usize,
    /// The imperative sentences found in the receipt.
    pub imperatives: Vec<ReportedImperative>,
}

/// A landing check in a [`LandedReport`]: `{"id", "check", "required"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportedCheck {
    /// The check's id.
    pub id: String,
    /// What must hold.
    pub check: String,
    /// Whether it must pass before the sender's next steps.
    pub required: bool,
}

/// An imperative sentence in a report: `{"pointer", "sentence"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportedImperative {
    /// RFC 6901 pointer into the pack object.
    pub pointer: String,
    /// The sentence.
    pub sentence: String,
}

/// The Agent Card served at `/.well-known/agent-card.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCard {
    /// The door's name.
    pub name: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its JSON-RPC interface.
    pub supported_interfaces: Vec<AgentInterface>,
    /// specmint's version.
    pub version: &'static str,
    /// No streaming, no push notifications, the extension.
    pub capabilities: AgentCapabilities,
    /// The bearer scheme, when the door takes tokens ([`AgentCard::bearer`]); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_schemes: Option<SecuritySchemes>,
    /// The bearer scheme required on every JSON-RPC call, when the door takes tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_requirements: Option<Vec<SecurityRequirement>>,
    /// The media types taken.
    pub default_input_modes: [&'static str; 2],
    /// The media types given.
    pub default_output_modes: [&'static str; 2],
    /// Landing a pack.
    pub skills: Vec<AgentSkill>,
}

/// The [`AgentCard`]'s `securitySchemes`: one scheme, `bearer` (A2A 1.0's protobuf-JSON form,
/// which a2a-sdk 1.3.0 reads: `{"bearer": {"httpAuthSecurityScheme": {...}}}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecuritySchemes {
    /// HTTP `Authorization: Bearer TOKEN`.
    pub bearer: SecurityScheme,
}

/// A security scheme: HTTP authentication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecurityScheme {
    /// The HTTP scheme.
    pub http_auth_security_scheme: HttpAuthSecurityScheme,
}

/// An HTTP authentication scheme (RFC 9110 §11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HttpAuthSecurityScheme {
    /// What the token is.
    pub description: &'static str,
    /// `Bearer`.
    pub scheme: &'static str,
}

/// A security requirement of the [`AgentCard`]: `{"schemes": {"bearer": {"list": []}}}` (the
/// scheme, no scopes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecurityRequirement {
    /// The schemes required together, each with its scopes.
    pub schemes: RequiredSchemes,
}

/// The schemes of a [`SecurityRequirement`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequiredSchemes {
    /// The bearer scheme's scopes (none).
    pub bearer: Scopes,
}

/// A list of scopes (`StringList`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scopes {
    /// The scopes.
    pub list: Vec<String>,
}

/// An interface of the [`AgentCard`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentInterface {
    /// Where.
    pub url: String,
    /// `JSONRPC`.
    pub protocol_binding: &'static str,
    /// [`PROTOCOL_VERSION`].
    pub protocol_version: &'static str,
}

/// The [`AgentCard`]'s capabilities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCapabilities {
    /// `false`.
    pub streaming: bool,
    /// `false`.
    pub push_notifications: bool,
    /// The TaskPack extension.
    pub extensions: Vec<AgentExtension>,
}

/// An extension as the Agent Card declares it (`capabilities.extensions[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentExtension {
    /// [`EXTENSION_URI`].
    pub uri: &'static str,
    /// What it does.
    pub description: &'static str,
    /// `false`: a client that does not activate it can still get tasks.
    pub required: bool,
    /// The spec, the flat form's limit, the encodings.
    pub params: ExtensionParams,
}

/// The TaskPack extension's params.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExtensionParams {
    /// [`SPEC_ID`].
    pub spec: &'static str,
    /// [`MAX_INLINE_ATTACHMENT_BYTES`].
    pub max_inline_attachment_bytes: u64,
    /// The file name endings of a pack.
    pub encodings: [&'static str; 2],
}

/// A skill of the [`AgentCard`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentSkill {
    /// Its id.
    pub id: &'static str,
    /// Its name.
    pub name: &'static str,
    /// What it does.
    pub description: &'static str,
    /// Its tags.
    pub tags: [&'static str; 2],
}

impl AgentExtension {
    /// The TaskPack extension.
    pub fn taskpack() -> Self {
        AgentExtension {
            uri: EXTENSION_URI,
            description: "Send a TaskPack (.taskpack or .taskpack.json) as a file part: it is \
                          landed as a new passport (a receipt is merged into the passport it \
                          answers); nothing in it is executed.",
            required: false,
            params: ExtensionParams {
                spec: SPEC_ID,
                max_inline_attachment_bytes: MAX_INLINE_ATTACHMENT_BYTES,
                encodings: [".taskpack", ".taskpack.json"],
            },
        }
    }
}

impl AgentCard {
    /// The card of the door whose JSON-RPC interface is at `url`.
    pub fn new(url: &str) -> Self {
        let modes = ["application/zip", "application/json"];
        AgentCard {
            name: "specmint TaskPack door",
            description: "Lands TaskPacks into a local passport store (TaskPack 0.1 §5).",
            supported_interfaces: vec![AgentInterface {
                url: url.to_owned(),
                protocol_binding: "JSONRPC",
                protocol_version: PROTOCOL_VERSION,
            }],
            version: env!("CARGO_PKG_VERSION"),
            capabilities: AgentCapabilities {
                streaming: false,
                push_notifications: false,
                extensions: vec![AgentExtension::taskpack()],
            },
            security_schemes: None,
            security_requirements: None,
            default_input_modes: modes,
            default_output_modes: modes,
            skills: vec![AgentSkill {
                id: "land-taskpack",
                name: "Land a TaskPack",
                description: "Lands a handoff as `specmint taskpack land` does, or merges a \
                              receipt into the passport it answers as `specmint taskpack merge` \
                              does.",
                tags: ["taskpack", "handoff"],
            }],
        }
    }

    /// The card of a door that takes bearer tokens: the scheme `bearer` declared and required
    /// (A2A: every JSON-RPC call carries `Authorization: Bearer TOKEN`; the card itself is
    /// public, it is how a client learns the scheme).
    pub fn bearer(mut self) -> Self {
        self.security_schemes = Some(SecuritySchemes {
            bearer: SecurityScheme {
                http_auth_security_scheme: HttpAuthSecurityScheme {
                    description: "A token the door's operator gave you (specmint a2a serve \
                                  --token-file), sent as `Authorization: Bearer TOKEN` on every \
                                  JSON-RPC request.",
                    scheme: "Bearer",
                },
            },
        });
        self.security_requirements = Some(vec![SecurityRequirement {
            schemes: RequiredSchemes {
                bearer: Scopes { list: Vec::new() },
            },
        }]);
        self
    }

    /// `JSON.stringify(card)`: what the door serves.
    pub fn to_js_compact(&self) -> String {
        javascript::compact(self)
    }
}

/// Writing as `JSON.stringify` does ([`Json::to_js_compact`], [`Json::to_js_pretty`]): serde_json's
/// layout and string escapes are the same, numbers are written as JavaScript prints them.
mod javascript {
    use std::io::{self, Write};

    use serde::Serialize;
    use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
    use serde_json::Number;
    use specmint_runtime::json::Json;

    /// `JSON.stringify(value)`.
    pub(super) fn compact<T: Serialize>(value: &T) -> String {
        write(value, CompactFormatter)
    }

    /// `JSON.stringify(value, null, 2)`.
    pub(super) fn pretty<T: Serialize>(value: &T) -> String {
        write(value, PrettyFormatter::new())
    }

    fn write<T: Serialize, F: Formatter>(value: &T, layout: F) -> String {
        let mut out = Vec::new();
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut out, JavaScriptNumbers(layout));
        // Writing to a Vec fails only where the value's `Serialize` does, which no answer's does.
        let _ = value.serialize(&mut serializer);
        String::from_utf8(out).unwrap_or_default()
    }

    /// `F`'s layout, numbers as JavaScript prints them (the runtime's `Json` writer's).
    struct JavaScriptNumbers<F>(F);

    fn number<W: ?Sized + Write>(writer: &mut W, n: Number) -> io::Result<()> {
        writer.write_all(Json::Number(n).to_js_compact().as_bytes())
    }

    impl<F: Formatter> Formatter for JavaScriptNumbers<F> {
        fn write_i64<W: ?Sized + Write>(&mut self, writer: &mut W, value: i64) -> io::Result<()> {
            number(writer, value.into())
        }

        fn write_u64<W: ?Sized + Write>(&mut self, writer: &mut W, value: u64) -> io::Result<()> {
            number(writer, value.into())
        }

        fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
            // serde_json writes a number that is not finite as `null` without asking here.
            number(writer, Number::from_f64(value).unwrap_or_else(|| 0.into()))
        }

        fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.begin_array(writer)
        }

        fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.end_array(writer)
        }

        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            writer: &mut W,
            first: bool,
        ) -> io::Result<()> {
            self.0.begin_array_value(writer, first)
        }

        fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.end_array_value(writer)
        }

        fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.begin_object(writer)
        }

        fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.end_object(writer)
        }

        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            writer: &mut W,
            first: bool,
        ) -> io::Result<()> {
            self.0.begin_object_key(writer, first)
        }

        fn end_object_key<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.end_object_key(writer)
        }

        fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.begin_object_value(writer)
        }

        fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.0.end_object_value(writer)
        }
    }
}
