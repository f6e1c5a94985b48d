//! The handoff's answers (see [`crate::answer`]): what `specmint handoff` prints with `--format
//! json` and the `team_handoff` tool of `specmint mcp` returns. A refusal is answered by the
//! [`Refusal`](crate::Refusal) itself.

use serde::Serialize;

use super::compose::{self, LegReading};
use super::handoff;
use super::TaskPacket;

/// A filed packet: `{"bytes", "ok": true, "path"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Filed<'a> {
    /// The size of the file written.
    pub bytes: usize,
    /// Always `true`.
    pub ok: bool,
    /// Where it was written, relative to the home, `/`-separated.
    pub path: &'a str,
}

impl<'a> From<&'a handoff::Filed> for Filed<'a> {
    fn from(filed: &'a handoff::Filed) -> Self {
        Filed {
            bytes: filed.bytes,
            ok: true,
            path: &filed.path,
        }
    }
}

// Here rather than beside `handoff::Filed`: the answers read the behaviour's types, never the
// other way round (no import circle between the two modules).
impl handoff::Filed {
    /// The tool's result, [`Filed`], as a JSON value.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        crate::answer::to_value(&Filed::from(self)).unwrap_or_default()
    }
}

/// A leg read back (`handoff read`): `{"ok": true, "packets", "skipped"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegRead<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The valid packets, in slot order.
    pub packets: Vec<PacketRead<'a>>,
    /// The files skipped, and why.
    pub skipped: Vec<FileSkipped<'a>>,
}

/// A valid packet of a leg: `{"packet", "path", "rendered"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PacketRead<'a> {
    /// The packet, in its canonical form.
    pub packet: &'a TaskPacket,
    /// Its file, relative to the home.
    pub path: &'a str,
    /// The packet rendered for the role that receives it ([`compose::render_for_role`]).
    pub rendered: String,
}

/// A file of a leg that was skipped: `{"code", "message", "path"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FileSkipped<'a> {
    /// The first violation's code, `leg_mismatch`, or `unreadable`.
    pub code: &'a str,
    /// What is wrong with it.
    pub message: &'a str,
    /// Its file, relative to the home.
    pub path: &'a str,
}

impl<'a> From<&'a LegReading> for LegRead<'a> {
    fn from(reading: &'a LegReading) -> Self {
        LegRead {
            ok: true,
            packets: reading
                .packets
                .iter()
                .map(|p| PacketRead {
                    packet: &p.packet,
                    path: &p.path,
                    rendered: compose::render_for_role(&p.packet),
                })
                .collect(),
            skipped: reading
                .skipped
                .iter()
                .map(|s| FileSkipped {
                    code: s.code,
                    message: &s.message,
                    path: &s.path,
                })
                .collect(),
        }
    }
}
