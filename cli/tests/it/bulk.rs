//! `specmint validate --jsonl` and many files (issue 51): verdicts per line in input order,
//! the same as one file at a time, whatever the number of threads; an over-long line refused
//! by its size without being held; blank lines and CRLF; unreadable files in their turn.

use serde_json::Value;

use crate::common::{scratch, specmint, specmint_in};

/// Every document of a bundled spec's corpus, compact (each case's exact text where it has one).
fn corpus_lines(spec: &str) -> Vec<String> {
    let path = crate::common::root().join(format!("generated/corpus/{spec}/cases.json"));
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| match c.get("text").and_then(Value::as_str) {
            Some(text) => text.to_owned(),
            None => c["document"].to_string(),
        })
        .filter(|l| !l.contains('\n'))
        .collect()
}

/// A valid TaskPacket: the corpus's first valid document.
fn valid_packet() -> String {
    let path = crate::common::root().join("generated/corpus/task_packet/cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["valid"] == true)
        .unwrap();
    case["document"].to_string()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .split_terminator('\n')
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn each_line_gets_the_verdict_its_document_gets_alone_in_order_on_any_number_of_threads() {
    for (spec, ty) in [
        ("task_packet", "task-packet"),
        ("action_envelope", "action-envelope"),
    ] {
        let dir = scratch(&format!("bulk-{spec}"));
        let lines = corpus_lines(spec);
        assert!(lines.len() > 100, "{spec}");
        std::fs::write(dir.join("all.jsonl"), lines.join("\n") + "\n").unwrap();
        let mut files = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let name = format!("{i:05}.json");
            std::fs::write(dir.join(&name), line).unwrap();
            files.push(name);
        }
        // One file at a time (one process per file: the reference).
        let alone: Vec<Value> = files
            .iter()
            .map(|f| {
                let out = specmint_in(&dir, &["validate", ty, f, "--format", "json"], b"");
                json_lines(&out.stdout).remove(0)
            })
            .collect();
        for jobs in ["1", "2", "7"] {
            let out = specmint_in(
                &dir,
                &[
                    "validate",
                    ty,
                    "--jsonl",
                    "all.jsonl",
                    "--jobs",
                    jobs,
                    "--format",
                    "json",
                ],
                b"",
            );
            let got = json_lines(&out.stdout);
            assert_eq!(got.len(), lines.len(), "{spec} --jobs {jobs}");
            let invalid = alone.iter().any(|v| v["valid"] == false);
            assert_eq!(out.status.code(), Some(if invalid { 1 } else { 0 }));
            for (n, (mut line, mut one)) in got.into_iter().zip(alone.clone()).enumerate() {
                assert_eq!(line["line"], n + 1, "{spec}: answers in input order");
                assert_eq!(line["file"], "all.jsonl");
                // The same verdict: errors at the file's line instead of the document's 1.
                for e in line["errors"].as_array_mut().unwrap() {
                    if e.get("line").is_some() {
                        assert_eq!(e["line"], n + 1);
                        e["line"] = 1.into();
                    }
                }
                line.as_object_mut().unwrap().remove("line");
                line["file"] = Value::Null;
                one["file"] = Value::Null;
                assert_eq!(line, one, "{spec} line {}", n + 1);
            }
            // Many files at once: the same answers as one by one, in the order given.
            let mut args = vec!["validate", ty];
            args.extend(files.iter().map(String::as_str));
            args.extend(["--jobs", jobs, "--format", "json"]);
            let many = json_lines(&specmint_in(&dir, &args, b"").stdout);
            assert_eq!(many, alone, "{spec}: many files, --jobs {jobs}");
        }
    }
}

#[test]
fn a_line_over_the_limit_is_refused_by_its_size_and_blank_lines_and_crlf_are_read_as_lines() {
    let dir = scratch("bulk-limits");
    let minimal = valid_packet();
    let long = format!(r#"{{"objective":"{}"}}"#, "x".repeat(8 << 20));
    let text = format!("{minimal}\r\n\n   \n{long}\n{minimal}");
    std::fs::write(dir.join("mixed.jsonl"), text).unwrap();
    let out = specmint_in(
        &dir,
        &[
            "validate",
            "task-packet",
            "--jsonl",
            "mixed.jsonl",
            "--format",
            "json",
        ],
        b"",
    );
    let got = json_lines(&out.stdout);
    let lines: Vec<&Value> = got.iter().map(|v| &v["line"]).collect();
    assert_eq!(lines, [1, 4, 5], "blank lines hold no document");
    assert_eq!(
        got[0]["valid"], true,
        "a CRLF line ending is no part of the document"
    );
    assert_eq!(got[2]["valid"], true);
    let size = &got[1]["errors"][0];
    assert_eq!(size["code"], "packet_too_large", "{size}");
    assert_eq!(size["measured"], long.len(), "{size}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stdin_and_an_unreadable_file_answer_in_their_turn() {
    let dir = scratch("bulk-stdin");
    let minimal = valid_packet();
    std::fs::write(dir.join("b.jsonl"), format!("{minimal}\n{{\n")).unwrap();
    let stdin = format!("{minimal}\n");
    let out = specmint_in(
        &dir,
        &[
            "validate",
            "task-packet",
            "--jsonl",
            "-",
            "missing.jsonl",
            "b.jsonl",
        ],
        stdin.as_bytes(),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>:1: valid task-packet\nb.jsonl:1: valid task-packet\nb.jsonl:2:1: error[invalid_packet]: EOF while parsing an object at line 1 column 1\nb.jsonl:2: invalid task-packet (1 error)\n"
    );
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "specmint: cannot read `missing.jsonl`: No such file or directory (os error 2)\n"
    );
    assert_eq!(out.status.code(), Some(2));
    // A usage mistake stays one.
    let bad = specmint(
        &["validate", "task-packet", "--jsonl", "x", "--jobs", "many"],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
}

/// Endless input without a line end is answered as a single document's is (`read_head`'s
/// bound): the line "at least" that long, then the file's reading ends, said, exit 2.
#[test]
fn an_endless_line_is_answered_and_ends_the_files_reading() {
    use specmint::runtime::document::COUNTED_PAST_LIMIT;
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "--jsonl",
            "/dev/zero",
            "--max-input-bytes",
            "1000",
            "--format",
            "json",
        ],
        b"",
    );
    let got = json_lines(&out.stdout);
    let counted = 1001 + COUNTED_PAST_LIMIT;
    assert_eq!(got[0]["line"], 1);
    assert_eq!(got[0]["errors"][0]["code"], "packet_too_large");
    assert_eq!(got[0]["errors"][0]["measured"], counted);
    assert_eq!(
        got[1]["error"]["message"],
        format!("`/dev/zero` line 1 has no end within {counted} bytes: the rest of the file is not read")
    );
    assert_eq!(got.len(), 2);
    assert_eq!(out.status.code(), Some(2));
}

/// A reader that stops reading (`| head -1`) ends the run on one thread and on several, as it
/// ends `cat`: killed by SIGPIPE at the next write, with nothing left waiting on a queue.
#[test]
fn a_closed_output_ends_the_run_whatever_the_threads() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = scratch("bulk-closed");
    let line = valid_packet();
    // About 40 MB: far more than a pipe and the answer queues hold.
    let mut text = String::new();
    while text.len() < 40 << 20 {
        text.push_str(&line);
        text.push('\n');
    }
    std::fs::write(dir.join("many.jsonl"), &text).unwrap();
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
            .current_dir(&*dir)
            .args([
                "validate",
                "task-packet",
                "--jsonl",
                "many.jsonl",
                "--format",
                "json",
            ])
            .args(["--jobs", jobs])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(
            first.starts_with("{\"valid\":true"),
            "--jobs {jobs}: {first}"
        );
        // The pipe's reading end is closed here (the reader dropped).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "--jobs {jobs}: still running two minutes after its output closed"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            status.signal(),
            Some(13),
            "--jobs {jobs}: {status} (not SIGPIPE)"
        );
    }
}
