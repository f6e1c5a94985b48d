//! The mapping between a pack and an A2A `Task` (see the binding table of [`super`]): a pack or
//! a stored passport as a `Task` (`specmint taskpack to-a2a`, the door's answers), and the pack
//! a `Task` carries (`specmint taskpack from-a2a`).

use std::path::Path;

use base64::Engine as _;
use specmint_runtime::json::Json;

use super::answer::{self, Artifact, Metadata, TaskStatus};
use super::wire::{Carried, Members, Task};
use super::{EXTENSION_URI, SPEC_ID};
use crate::taskpack::encodings::convert::Encoding;
use crate::taskpack::encodings::flat::LuggageFile;
use crate::taskpack::lenient::{self, LineageView};

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
pub(super) fn names_file(entry: &Json, name: &str) -> bool {
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
pub(super) fn artifacts(state: &Json, files: &[LuggageFile]) -> Vec<Artifact> {
    artifacts_raw(state, encoded(files))
}

/// Each file's name and bytes in base64.
pub(super) fn encoded(files: &[LuggageFile]) -> Vec<(String, String)> {
    let engine = base64::engine::general_purpose::STANDARD;
    files
        .iter()
        .map(|file| (file.name.clone(), engine.encode(&file.bytes)))
        .collect()
}

/// [`artifacts`] of luggage given as each file's name and `raw` text.
pub(super) fn artifacts_raw(state: &Json, files: Vec<(String, String)>) -> Vec<Artifact> {
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

pub(super) fn task(
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
pub(super) fn passport_task(id: &str, state: &Json, files: Vec<(String, String)>) -> answer::Task {
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
    if let Some(state) = crate::taskpack::member_mut(&mut pack, "passport") {
        sealed = crate::taskpack::pack::seal_for_packing(state, &actor, &machine);
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
    #[error("`{}` is not a .taskpack or .taskpack.json", .0.display())]
    Extension(std::path::PathBuf),
    /// The pack cannot be encoded (the flat writer refused an attachment) (exit 1).
    #[error(transparent)]
    Encode(crate::taskpack::encodings::flat::FlatError),
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
    let flat = crate::taskpack::encodings::flat::write_flat(&made.pack, &made.attachments, None)
        .map_err(FromA2aError::Encode)?;
    crate::taskpack::FlatTaskPack::from_json_str(&flat).map_err(FromA2aError::Invalid)?;
    let bytes =
        crate::taskpack::encodings::convert::encode(encoding, &made.pack, &made.attachments, None)
            .map_err(FromA2aError::Encode)?;
    crate::atomic_file::write_atomically_for_sharing(out, &bytes)
        .map_err(|e| FromA2aError::Io(out.to_owned(), e))?;
    Ok(made)
}
