//! The imperative sentences of a pack's prose (§4.5): found and reported to the human, never
//! executed. A heuristic tuned to miss little: what it finds is listed, never acted on.

use super::*;

/// One imperative sentence found in a pack: where, and the sentence as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imperative {
    /// RFC 6901 pointer into the pack object.
    pub at: String,
    /// The sentence.
    pub sentence: String,
}

/// Words that open a command to whoever reads the text. A heuristic, tuned to miss little:
/// what it finds is listed for the human, never acted on, so a false alarm costs one line.
pub(super) const IMPERATIVE_OPENERS: &[&str] = &[
    "always",
    "call",
    "cat",
    "chmod",
    "chown",
    "click",
    "clone",
    "commit",
    "copy",
    "curl",
    "delete",
    "deploy",
    "disable",
    "disregard",
    "do",
    "don't",
    "download",
    "drop",
    "email",
    "enable",
    "eval",
    "exec",
    "execute",
    "export",
    "fetch",
    "forget",
    "format",
    "git",
    "grant",
    "ignore",
    "install",
    "invoke",
    "kill",
    "never",
    "npm",
    "open",
    "overwrite",
    "paste",
    "pip",
    "please",
    "post",
    "print",
    "push",
    "python",
    "read",
    "reboot",
    "remove",
    "replace",
    "restart",
    "reveal",
    "rm",
    "run",
    "send",
    "set",
    "sh",
    "bash",
    "start",
    "stop",
    "sudo",
    "tell",
    "type",
    "uninstall",
    "upload",
    "visit",
    "wget",
    "wipe",
    "write",
];

/// The same, in Chinese: sentences that open with a request or an order.
pub(super) const IMPERATIVE_OPENERS_ZH: &[&str] = &[
    "请",
    "执行",
    "运行",
    "安装",
    "删除",
    "忽略",
    "不要",
    "务必",
    "必须",
    "立即",
    "马上",
    "打开",
    "下载",
    "上传",
    "发送",
    "复制",
    "先运行",
    "先执行",
];

/// Whether a sentence reads as an order: its first word is an imperative opener, or it opens
/// with `you must` / `you should` / `you need to`, or with a shell prompt (`$ `).
pub fn is_imperative(sentence: &str) -> bool {
    let trimmed = sentence
        .trim_start_matches(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '-' | '*' | '•' | '·' | '>' | '#' | '"' | '\'' | '`' | '“' | '「'
                )
        })
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches(['.', ')'])
        .trim_start();
    if trimmed.starts_with("$ ") {
        return true;
    }
    if IMPERATIVE_OPENERS_ZH.iter().any(|o| trimmed.starts_with(o)) {
        return true;
    }
    let lower = trimmed.to_lowercase();
    if ["you must ", "you should ", "you need to ", "make sure "]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return true;
    }
    let first = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .next()
        .unwrap_or_default();
    IMPERATIVE_OPENERS.contains(&first)
}

/// The sentences of a text: split at `!?;` (and their full-width forms), line breaks, and a
/// `.` that ends a word (followed by whitespace or the end, so `install.sh` stays whole).
pub(super) fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let ends = matches!(c, '!' | '?' | ';' | '\n' | '。' | '！' | '？' | '；')
            || (c == '.' && next.is_none_or(char::is_whitespace));
        if ends {
            out.push(&text[start..at]);
            start = at + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// Members whose strings are already shown as the sender's proposals (the plan and the landing
/// checks, `how` quoted) or are not prose (identity, lineage, timestamps): not searched.
pub(super) const NOT_PROSE: &[&str] = &[
    "/spec",
    "/kind",
    "/packed_at",
    "/origin",
    "/lineage",
    "/landing_checks",
    "/passport/next_steps",
    "/passport/landing_checks",
    "/passport/lineage",
];

/// Members anywhere whose value is a code, a name or a time, not prose (`"status": "open"` is
/// not an order).
pub(super) const NOT_PROSE_KEYS: &[&str] = &[
    "id",
    "status",
    "scope",
    "to",
    "verified_on",
    "verified_by",
    "answered_by",
    "answered_at",
    "source",
    "at",
    "created_at",
    "updated_at",
    "machine_id",
    "harness",
    "kind",
    "spec",
];

/// Every imperative sentence in the pack object's prose, in document order (§4.5: reported to
/// the human, never executed).
pub fn imperatives(pack: &Json) -> Vec<Imperative> {
    let mut found = Vec::new();
    pack.walk(&mut String::new(), &mut |pointer, value| {
        let Json::Str(string) = value else { return };
        let skipped = NOT_PROSE.iter().any(|p| {
            pointer == *p
                || pointer
                    .strip_prefix(p)
                    .is_some_and(|rest| rest.starts_with('/'))
        });
        let key = pointer.rsplit('/').next().unwrap_or_default();
        if skipped || NOT_PROSE_KEYS.contains(&key) {
            return;
        }
        for sentence in sentences(string) {
            if is_imperative(sentence) {
                found.push(Imperative {
                    at: pointer.to_owned(),
                    sentence: sentence.trim().to_owned(),
                });
            }
        }
    });
    found
}
