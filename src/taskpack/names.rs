//! The name rule of a pack's attachments, shared by every reader of both encodings and by the
//! judge of the flat form (`validate taskpack`, in every build: it needs none of the
//! `taskpack` feature's crates), and the escaping of a pack's strings for human output.

use std::collections::HashSet;

use specmint_runtime::Violation;

use crate::taskpack::TaskPackError;

/// The folder of a bag that holds the attachments.
pub const FILES_DIR: &str = "data/files/";

/// Whether `name` stays inside the bag: relative, no `.`/`..` or empty segment, no backslash,
/// no drive letter, no NUL, no line break (a CR or LF would break the manifest line that lists
/// the name; other control characters are kept, and escaped where shown).
pub(crate) fn safe_name(name: &str) -> bool {
    let directory = name.strip_suffix('/').unwrap_or(name);
    !(name.is_empty()
        || name.starts_with('/')
        || name.contains(['\\', '\0', '\n', '\r'])
        || directory.split('/').any(|segment| {
            segment.is_empty()
                || segment == "."
                || segment == ".."
                || (segment.len() == 2 && segment.ends_with(':'))
        }))
}

/// The first file of `names` (in their order) that another of `names` uses as a folder:
/// `(file, inside)`, as `a` and `a/b.txt`. A name ending in `/` is a folder and is never the
/// file. The zip and flat readers and packing all refuse such a set: no file system holds
/// both, so the pack could never be landed.
pub(crate) fn file_used_as_folder<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
) -> Option<(&'a str, &'a str)> {
    let files: HashSet<&str> = names.clone().filter(|n| !n.ends_with('/')).collect();
    names.into_iter().find_map(|inside| {
        inside
            .match_indices('/')
            .map(|(at, _)| &inside[..at])
            .find(|folder| files.contains(folder))
            .map(|file| (file, inside))
    })
}

/// The name rule of an attachment, given the names before it: the zip's rule for a name under
/// `data/files/` ([`safe_name`]), where a trailing `/` would name a folder and an attachment
/// is a file; and no name twice. (With [`file_used_as_folder`] over all names, this is the
/// one rule every reader of the flat form applies: `convert`, `land`, `conformance` and
/// `validate taskpack`.)
pub(crate) fn name_problem<'a>(
    name: &str,
    mut earlier: impl Iterator<Item = &'a str>,
) -> Option<&'static str> {
    if name.ends_with('/') || !safe_name(&format!("{FILES_DIR}{name}")) {
        return Some("the name is not a safe relative path under data/files/");
    }
    if earlier.any(|e| e == name) {
        return Some("the name appears twice");
    }
    None
}

/// The name rule (`name_problem` and `file_used_as_folder`) over a typed flat pack, as
/// `attachment_name` violations at each name: what `validate taskpack` adds to the spec's
/// generated rules, so that it never calls valid a pack the readers refuse. A blank name is
/// left to the generated `blank_field` rule.
pub fn name_violations(pack: &crate::taskpack::FlatTaskPack) -> Vec<Violation> {
    let names: Vec<&str> = pack.attachments.iter().map(|a| a.name.as_str()).collect();
    let at = |index: usize, message: String| {
        Violation::from_parts(
            TaskPackError::AttachmentName.code(),
            format!("attachments[{index}].name"),
            format!("/attachments/{index}/name"),
            message,
        )
    };
    let mut violations = Vec::new();
    for (index, name) in names.iter().enumerate() {
        if name.trim().is_empty() {
            continue;
        }
        if let Some(problem) = name_problem(name, names[..index].iter().copied()) {
            violations.push(at(
                index,
                format!("attachment `{}`: {problem}", escaped(name)),
            ));
        }
    }
    if let Some((file, inside)) = file_used_as_folder(names.iter().copied()) {
        let index = names
            .iter()
            .position(|n| *n == file)
            .expect("a name of the list");
        violations.push(at(
            index,
            format!(
                "attachment `{}`: it is both a file and a folder (attachment `{}` is inside it): \
                 no file system holds both",
                escaped(file),
                escaped(inside)
            ),
        ));
    }
    violations
}

/// `s` with every character that could steer a terminal written as an escape: C0 controls
/// (line breaks and ESC included), DEL, C1 controls, the line and paragraph separators and the
/// bidirectional overrides and isolates, as `\n`, `\r`, `\t` or `\u001b` (JSON's spelling).
/// Human output of a pack's strings goes through it, so a pack cannot add a line, move the
/// cursor or recolour the text.
pub fn escaped(s: &str) -> std::borrow::Cow<'_, str> {
    let steers = |c: char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    if !s.chars().any(steers) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if steers(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}
