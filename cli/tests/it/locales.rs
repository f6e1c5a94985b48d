//! Messages in the reader's language (issue 50): `validate --locale TAG` (and the
//! environment's locale) writes the spec's messages for that locale; codes, paths, pointers,
//! numbers and places stay English's.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{root, specmint, specmint_ok};

/// Every case of a bundled spec's corpus, one per line, as `--jsonl` reads them.
fn corpus_lines(spec: &str) -> String {
    let corpus: Value = serde_json::from_slice(
        &std::fs::read(root().join(format!("generated/corpus/{spec}/cases.json"))).unwrap(),
    )
    .unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{}\n", c["document"]))
        .collect()
}

/// `validate TYPE FILE --jsonl --format json` plus `extra`, with `env` set and the
/// environment's own locale cleared: one verdict a line.
fn verdicts(ty: &str, file: &Path, extra: &[&str], env: &[(&str, &str)]) -> Vec<Value> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_specmint"));
    cmd.args(["validate", ty])
        .arg(file)
        .args(["--jsonl", "--format", "json"])
        .args(extra)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c) || ('\u{3000}'..='\u{303f}').contains(&c)
}

/// The verdict less its messages: what a locale must leave as English has it.
fn without_messages(verdict: &Value) -> Value {
    let mut v = verdict.clone();
    for e in v["errors"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("message");
    }
    v
}

fn corpus_file(spec: &str) -> tempfile_path::TempFile {
    tempfile_path::TempFile::new(&format!("locales-{spec}.jsonl"), &corpus_lines(spec))
}

mod tempfile_path {
    use std::path::PathBuf;

    /// A file under the target's temporary folder, removed when dropped.
    pub struct TempFile(pub PathBuf);

    impl TempFile {
        pub fn new(name: &str, text: &str) -> TempFile {
            // One file per call: the tests run on threads of one process.
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
            let path = dir.join(format!("{}-{n}-{name}", std::process::id()));
            std::fs::write(&path, text).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Every case of the bundled spec's corpus in zh-TW: each message Chinese and none left as
/// English, no placeholder left, and everything but the messages as English has it.
fn every_case_in_zh_tw(spec: &str, ty: &str, parse: Option<&str>, at_least: usize) {
    let file = corpus_file(spec);
    let english = verdicts(ty, &file.0, &[], &[]);
    let chinese = verdicts(ty, &file.0, &["--locale", "zh-TW"], &[]);
    assert_eq!(english.len(), chinese.len());
    let mut refused = 0;
    for (en, zh) in english.iter().zip(&chinese) {
        assert_eq!(
            without_messages(en),
            without_messages(zh),
            "only messages change"
        );
        for (e, z) in en["errors"]
            .as_array()
            .unwrap()
            .iter()
            .zip(zh["errors"].as_array().unwrap())
        {
            refused += 1;
            let m = z["message"].as_str().unwrap();
            assert!(m.chars().any(is_cjk), "{spec}: not Chinese: {m}");
            // Each of the parse code's messages names its kind of problem: the locale's row
            // for that kind was read, not the code's own. (Action Envelope's parse code is
            // also its rules' code, whose messages take the code's own row.)
            if parse.is_some_and(|p| e["code"] == p) {
                let english = e["message"].as_str().unwrap();
                assert!(
                    specmint::runtime::messages::problem_kind(english).is_some(),
                    "{spec}: no problem kind in {english}"
                );
            }
            assert_ne!(m, e["message"].as_str().unwrap());
            // No placeholder left (a `{` in a message comes only from the English text
            // `{message}` quotes).
            for name in [
                "{path",
                "{pointer",
                "{code",
                "{measured",
                "{limit",
                "{message",
            ] {
                assert!(!m.contains(name), "{spec}: a placeholder is left: {m}");
            }
        }
    }
    assert!(
        refused >= at_least,
        "{spec}: the corpus refuses {refused} documents"
    );
}

#[test]
fn every_task_packet_case_in_zh_tw_is_chinese_with_english_codes_and_places() {
    every_case_in_zh_tw("task_packet", "task-packet", Some("invalid_packet"), 300);
}

#[test]
fn every_case_of_the_other_bundled_specs_in_zh_tw_is_chinese_too() {
    every_case_in_zh_tw("action_envelope", "action-envelope", None, 100);
    every_case_in_zh_tw(
        "task_envelope",
        "task-envelope",
        Some("invalid_task_envelope"),
        100,
    );
    every_case_in_zh_tw("taskpack", "taskpack", Some("invalid_taskpack"), 100);
}

#[test]
fn the_environment_chooses_the_locale_and_c_or_an_unknown_one_is_english() {
    let file = corpus_file("task_packet");
    let english = verdicts("task-packet", &file.0, &[], &[]);
    let flag = verdicts("task-packet", &file.0, &["--locale", "zh-TW"], &[]);
    // POSIX order: LC_ALL over LC_MESSAGES over LANG; a codeset is dropped.
    assert_eq!(
        verdicts("task-packet", &file.0, &[], &[("LANG", "zh_TW.UTF-8")]),
        flag
    );
    assert_eq!(
        verdicts(
            "task-packet",
            &file.0,
            &[],
            &[("LANG", "zh_TW.UTF-8"), ("LC_MESSAGES", "C")]
        ),
        english
    );
    assert_eq!(
        verdicts(
            "task-packet",
            &file.0,
            &[],
            &[("LC_MESSAGES", "C"), ("LC_ALL", "zh_TW.UTF-8")]
        ),
        flag
    );
    // `--locale` wins over the environment; a script subtag is served by the region's file.
    assert_eq!(
        verdicts(
            "task-packet",
            &file.0,
            &["--locale", "en"],
            &[("LANG", "zh_TW.UTF-8")]
        ),
        english
    );
    assert_eq!(
        verdicts("task-packet", &file.0, &["--locale", "zh-Hant-TW"], &[]),
        flag
    );
    for english_after_all in ["C", "POSIX", "C.UTF-8", "fr-FR", "zh-HK"] {
        assert_eq!(
            verdicts(
                "task-packet",
                &file.0,
                &["--locale", english_after_all],
                &[]
            ),
            english,
            "{english_after_all}"
        );
    }
}

#[test]
fn one_document_is_rendered_as_many_are() {
    let out = specmint(
        &["validate", "task-packet", "-", "--locale", "zh-TW"],
        br#"{"packet_id":"p","goal_id":"g","round":1,"from_role":"planner","to_role":"planner","objective":" ","output_format":"markdown"}"#,
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>:1:96: error[blank_field]: `objective` 不可為空白\n\
         <stdin>:1:74: error[self_handoff]: 接收角色 `to_role` 必須與寄件角色 `from_role` 不同：不能把封包交給自己\n\
         <stdin>: invalid task-packet (2 errors)\n"
    );
}

#[test]
fn a_locale_that_is_not_a_tag_is_a_usage_error() {
    let out = specmint(
        &["validate", "task-packet", "-", "--locale", "zh TW"],
        b"{}",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("specmint: --locale: `zh TW` is not a BCP 47 language tag"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_own_spec_with_a_locale_missing_a_code_is_refused_at_the_line() {
    let dir = root()
        .join("target")
        .join(format!("locales-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("note.md"),
        "# Note\n\n## Fields of a `note`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `title` | non-blank string | ✔ | The title. |\n\n## Error codes\n\n| Code | When |\n|---|---|\n| `bad_note` | Not the shape. |\n| `blank` | Blank. |\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("note.toml"),
        "[spec]\nroot = \"note\"\n\n[errors]\nenum = \"NoteError\"\nparse = \"bad_note\"\nnon_blank = \"blank\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("note.zh-TW.md"),
        "# 訊息\n\n| Code | Message |\n|---|---|\n| `bad_note` | {path, select, empty {這份文件} other {`{path}`}} 格式不符 |\n",
    )
    .unwrap();
    let spec = dir.to_str().unwrap();
    let out = specmint(
        &["validate", "--spec", spec, "note", "-"],
        br#"{"title":" "}"#,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("note.zh-TW.md:3:1: error: `blank` has no message in `zh-TW`"),
        "{stderr}"
    );
    // Completed, the locale is used for that spec's documents.
    std::fs::write(
        dir.join("note.zh-TW.md"),
        "# 訊息\n\n| Code | Message |\n|---|---|\n| `bad_note` | {path, select, empty {這份文件} other {`{path}`}} 格式不符 |\n| `blank` | `{path}` 不可為空白 |\n",
    )
    .unwrap();
    let out = specmint(
        &[
            "validate", "--spec", spec, "note", "-", "--locale", "zh-TW", "--format", "json",
        ],
        br#"{"title":" "}"#,
    );
    let verdict: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["errors"][0]["code"], "blank");
    assert_eq!(verdict["errors"][0]["message"], "`title` 不可為空白");
    let out = specmint(
        &[
            "validate", "--spec", spec, "note", "-", "--locale", "zh-TW", "--format", "json",
        ],
        b"[]",
    );
    let verdict: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["errors"][0]["message"], "這份文件 格式不符");
    // Its schema in that locale: the rule's keyword carries the message; the note names the
    // command, as the plain schema's does.
    let out = specmint_ok(
        &["schema", "--spec", spec, "note", "--locale", "zh-TW"],
        b"",
    );
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        schema["$defs"]["note"]["properties"]["title"]["errorMessage"]["minLength"],
        "`title` 不可為空白"
    );
    assert_eq!(schema["errorMessage"]["_"], "這份文件 格式不符");
    let plain: Value =
        serde_json::from_slice(&specmint(&["schema", "--spec", spec, "note"], b"").stdout).unwrap();
    assert_eq!(schema["$comment"], plain["$comment"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_german_task_packet_messages_take_cldr_plurals() {
    let out = specmint(
        &["validate", "task-packet", "-", "--locale", "de-AT"],
        br#"{"packet_id":"p","goal_id":"g","round":1,"from_role":"planner","to_role":"executor","objective":"o","output_format":"markdown","audience":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]}"#,
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>:1:139: error[too_many_items]: `audience` hat 17 Einträge (höchstens 16)\n\
         <stdin>: invalid task-packet (1 error)\n"
    );
    // Every case: German, no placeholder left, all but the messages as in English.
    let file = corpus_file("task_packet");
    let english = verdicts("task-packet", &file.0, &[], &[]);
    let german = verdicts("task-packet", &file.0, &["--locale", "de"], &[]);
    for (en, de) in english.iter().zip(&german) {
        assert_eq!(without_messages(en), without_messages(de));
        for (e, d) in en["errors"]
            .as_array()
            .unwrap()
            .iter()
            .zip(de["errors"].as_array().unwrap())
        {
            let m = d["message"].as_str().unwrap();
            assert_ne!(m, e["message"].as_str().unwrap());
            for name in [
                "{path",
                "{measured",
                "{limit",
                "{message",
                "plural,",
                "select,",
            ] {
                assert!(!m.contains(name), "a placeholder is left: {m}");
            }
        }
    }
}

/// A `${` that a message quotes as text (an enum value, a member's key) is written `$`, WORD
/// JOINER, `{`: ajv-errors reads every `${…}` as an interpolation of the document (an enum value
/// `${title}` stopped ajv compiling the schema), so the only ones left are the schema's own key
/// and value interpolations. The values and keys themselves, data, are as the spec writes them,
/// also under a member named `errorMessage`.
/// (tests/peers/conformance/run.sh compiles this schema with ajv-errors over the spec's corpus.)
#[test]
fn a_dollar_brace_a_message_quotes_is_written_apart_for_ajv_errors() {
    let out = specmint_ok(
        &[
            "schema",
            "--spec",
            "tests/fixtures/dollar_spec",
            "--locale",
            "zh-TW",
            "note",
        ],
        b"",
    );
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let note = &schema["$defs"]["note"];
    let slot = &note["properties"]["slot"];
    assert_eq!(
        slot["errorMessage"]["enum"],
        "`slot`的形狀不對（應為 `$\u{2060}{title}`, `$\u{2060}{/body}`, `plain`）"
    );
    assert_eq!(
        slot["enum"],
        serde_json::json!(["${title}", "${/body}", "plain"])
    );
    // A member named `errorMessage` is a schema like any other: its values are as written.
    let named = &note["properties"]["errorMessage"]["anyOf"][0];
    assert_eq!(named["enum"], slot["enum"]);
    assert_eq!(
        named["errorMessage"]["enum"],
        "`errorMessage`的形狀不對（應為 `$\u{2060}{title}`, `$\u{2060}{/body}`, `plain`）"
    );
    let lang = &note["properties"]["${lang}"];
    assert_eq!(lang["errorMessage"]["type"], "`$\u{2060}{lang}`的形狀不對");
    assert_eq!(
        note["additionalProperties"]["errorMessage"],
        "`${0#}`的形狀不對（應為 `id`, `slot`, `text`, `$\u{2060}{lang}`, `errorMessage`）"
    );
    // Every `${` left in a message is one of the schema's own interpolations.
    let mut messages = Vec::new();
    messages_in(&schema, false, false, &mut messages);
    assert!(messages.len() > 10, "{messages:?}");
    for m in messages {
        let rest = m.replace("${0#}", "").replace("${0}", "");
        assert!(!rest.contains("${"), "a `${{` in a message: {m}");
    }
}

/// The strings under every `errorMessage` keyword of the schema `v` (`message`: `v` is under
/// one; `names`: `v` maps names to schemas, as `properties` and `$defs` do, where a member may
/// be named `errorMessage` without being the keyword).
fn messages_in<'v>(v: &'v Value, message: bool, names: bool, out: &mut Vec<&'v str>) {
    match v {
        Value::String(s) if message => out.push(s),
        Value::Object(m) => {
            for (k, inner) in m {
                let keyword = !names && !message;
                let is = |word: &str| keyword && k == word;
                messages_in(
                    inner,
                    message || is("errorMessage"),
                    is("properties") || is("$defs"),
                    out,
                );
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|i| messages_in(i, message, false, out)),
        _ => {}
    }
}

/// `schema --locale TAG`: the schema with `errorMessage` in that locale (as ajv-errors reads
/// it; tests/peers/conformance/check_error_messages.mjs runs it over every corpus); without
/// `--locale` the schema as generated, byte for byte; a locale the spec lacks is a usage error.
#[test]
fn schema_with_a_locale_carries_error_messages() {
    let plain = specmint(&["schema", "task-packet"], b"");
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(
        plain.stdout,
        std::fs::read(root().join("generated/schema/task_packet.schema.json")).unwrap()
    );
    let out = specmint_ok(&["schema", "--locale", "zh-TW", "task-packet"], b"");
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let packet = &schema["$defs"]["packet"];
    assert_eq!(
        packet["properties"]["constraints"]["errorMessage"]["maxItems"],
        "`constraints` 超過上限 12 個項目"
    );
    assert_eq!(
        packet["properties"]["audience"]["items"]["errorMessage"]["maxLength"],
        "`audience[${0#}]` 超過上限 64 個字元"
    );
    // An enum's table is written where it is used, its message naming the member.
    assert_eq!(
        packet["properties"]["from_role"]["errorMessage"]["enum"],
        "`from_role` 不是允許的值之一：允許的值為 `planner`, `executor`, `verifier`, `utility`"
    );
    assert_eq!(
        packet["errorMessage"]["required"]["objective"],
        "`objective` 處缺少必填欄位"
    );
    // The closest locale serves a reader, as for `validate`.
    let hant = specmint(&["schema", "--locale", "zh-Hant-TW", "task-packet"], b"");
    assert_eq!(hant.stdout, out.stdout);
    let fr = specmint(&["schema", "--locale", "fr", "task-packet"], b"");
    assert_eq!(fr.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&fr.stderr).starts_with(
            "specmint: --locale: `task-packet` has no messages in `fr` (it has de, zh-TW)"
        ),
        "{}",
        String::from_utf8_lossy(&fr.stderr)
    );
    let bad = specmint(&["schema", "--locale", "zh TW", "task-packet"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
}
