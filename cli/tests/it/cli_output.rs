//! The CLI's shared output: a closed pipe on stdout or stderr ends every command quietly
//! (killed by SIGPIPE, as `cat` is), and each family's `--help` is true to its parser.

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A scratch directory holding `m.json`, a valid packet.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("specmint-cli-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("m.json"),
        specmint::task_packet::MINIMAL_PACKET_EXAMPLE,
    )
    .unwrap();
    dir
}

/// Which of the child's stdout and stderr are a pipe whose reader is already gone; the
/// others are captured.
#[cfg(unix)]
fn run_with_closed(args: &[String], dir: &PathBuf, stdout: bool, stderr: bool) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let closed = || Stdio::from(writer.try_clone().unwrap());
    Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(if stdout { closed() } else { Stdio::piped() })
        .stderr(if stderr { closed() } else { Stdio::piped() })
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("pipe");
    let many = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["validate".to_owned(), "task-packet".to_owned()];
        args.extend(std::iter::repeat_n("m.json".to_owned(), 300));
        args.extend(extra.iter().map(|s| (*s).to_owned()));
        args
    };
    let strings = |args: &[&str]| -> Vec<String> { args.iter().map(|s| (*s).to_owned()).collect() };
    for (args, stdout, stderr) in [
        // `validate … | head -1`: one SIGPIPE at the first verdict, no line per file.
        (many(&[]), true, false),
        (many(&["--format", "json"]), true, false),
        // `validate … --format json 2>&1 | head -1`: was a panic (exit 101).
        (many(&["--format", "json"]), true, true),
        // Only stderr closed: a message that cannot be shown, and the usage text.
        (
            strings(&["validate", "task-packet", "missing.json"]),
            false,
            true,
        ),
        (strings(&["frobnicate"]), false, true),
        (strings(&["--help"]), true, false),
        (strings(&["task", "--help"]), true, true),
        (strings(&["taskpack", "conformance", "m.json"]), true, false),
    ] {
        let out = run_with_closed(&args, &dir, stdout, stderr);
        let shown = format!("{:?} ({} args)", &args[..args.len().min(4)], args.len());
        let stderr_head: String = String::from_utf8_lossy(&out.stderr)
            .chars()
            .take(300)
            .collect();
        assert_eq!(out.status.code(), None, "{shown}: {stderr_head}");
        assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{shown}");
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{shown}: {stderr_head}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The lines of `specmint WORDS --help` under `heading` (`Commands:`, `Options:`), up to the
/// next blank line that ends the section.
fn help_section(words: &[String], heading: &str) -> Vec<String> {
    let mut args = words.to_vec();
    args.push("--help".to_owned());
    let out = common::specmint(&args.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    let help = String::from_utf8(out.stdout).unwrap();
    let Some((_, section)) = help.split_once(&format!("\n{heading}\n")) else {
        return Vec::new();
    };
    // A section ends at the first line that is not indented (the next heading, or the text
    // after the help).
    section
        .lines()
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .map(str::to_owned)
        .collect()
}

/// Every command `specmint --help` reaches, as the words that run it (`task claim`), with the
/// options its own `--help` lists.
fn help_commands() -> Vec<(Vec<String>, Vec<String>)> {
    let mut commands = Vec::new();
    let mut pending = vec![Vec::<String>::new()];
    while let Some(words) = pending.pop() {
        let subcommands: Vec<String> = help_section(&words, "Commands:")
            .iter()
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .filter(|name| name != "help")
            .collect();
        // `handoff` runs itself and has `read`.
        if subcommands.is_empty() || words == ["handoff"] {
            let flags: Vec<String> = help_section(&words, "Options:")
                .iter()
                .filter_map(|l| {
                    let l = l.trim_start().trim_start_matches("-h, ");
                    let flag = l.split([' ', ',']).next()?;
                    (flag.starts_with("--") && flag != "--help").then(|| flag.to_owned())
                })
                .collect();
            commands.push((words.clone(), flags));
        }
        for sub in subcommands {
            let mut deeper = words.clone();
            deeper.push(sub);
            pending.push(deeper);
        }
    }
    commands
}

#[test]
fn every_option_a_help_shows_is_one_its_command_takes() {
    let dir = scratch("help");
    let run = |args: &[String]| {
        let out = Command::new(env!("CARGO_BIN_EXE_specmint"))
            .args(args)
            .current_dir(&dir)
            .env("HOME", &dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        String::from_utf8(out.stderr).unwrap()
    };
    let mut seen = 0;
    for (words, flags) in help_commands() {
        for flag in &flags {
            // The flag alone, with no value: refused for what follows, never as unknown.
            let mut args = words.clone();
            args.push(flag.clone());
            let stderr = run(&args);
            assert!(
                !stderr.contains(&format!("unknown option `{flag}`"))
                    && !stderr.contains(&format!("unexpected argument `{flag}`"))
                    && !stderr.contains(&format!("TYPE `{flag}`")),
                "{args:?}: {stderr}"
            );
        }
        // `--format` is listed exactly where the parser takes it (`diff` takes three).
        let mut args = words.clone();
        args.extend(["--format".to_owned(), "xml".to_owned()]);
        let stderr = run(&args);
        let takes = stderr.contains("--format takes `human` or `json`, got `xml`")
            || stderr.contains("--format takes `human`, `json` or `github`, got `xml`");
        assert_eq!(
            takes,
            flags.iter().any(|f| f == "--format"),
            "{args:?}: {stderr}"
        );
        seen += 1;
    }
    // Every command: validate, schema, generate, diff, handoff and handoff read, mcp, lsp, 4
    // envelope, 9 task, 7 taskpack, a2a serve, 3 passport, completions.
    assert_eq!(seen, 33);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn each_familys_help_states_its_own_exit_status() {
    let help = |family: &str| {
        let out = common::specmint(&[family, "--help"], b"");
        let text = String::from_utf8(out.stdout).unwrap();
        text.split_once("\nexit status: ").unwrap().1.to_owned()
    };
    assert_eq!(
        help("taskpack"),
        "convert, pack, land, merge: 0 done, 1 refused (with a code), 2 usage or I/O error;\n             \
         conformance: 0 conformant, 2 not conformant or a usage or I/O error (1 is never used)\n"
    );
    // As `taskpack conformance` does: 2 for a file that is not a pack.
    let dir = scratch("exit");
    let out = common::specmint_in(&dir, &["taskpack", "conformance", "m.json"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        help("validate"),
        "the worst of all FILEs: 0 all valid, 1 one invalid, 2 a usage error or one could not be read\n"
    );
    assert_eq!(
        help("task"),
        "0 done, 1 refused with the spec's code, 2 usage or I/O error\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn validate_taskpack_on_a_zip_names_the_commands_that_read_zips() {
    use std::io::Write;
    let dir = scratch("zip");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("bagit.txt", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")
        .unwrap();
    let bytes = zip.finish().unwrap().into_inner();
    std::fs::write(dir.join("w.taskpack"), &bytes).unwrap();
    let hint = "; this is a zip (the `.taskpack` form) and `validate` reads the flat form \
                (`.taskpack.json`): judge the zip with `specmint taskpack conformance FILE`, or \
                write its flat form with `specmint taskpack convert FILE OUT.taskpack.json`";
    let out = common::specmint_in(
        &dir,
        &["validate", "taskpack", "w.taskpack", "--format", "json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "invalid_taskpack");
    let message = errors[0]["message"].as_str().unwrap();
    let offset = std::str::from_utf8(&bytes).unwrap_err().valid_up_to();
    assert_eq!(
        message,
        format!(
            "the taskpack is not valid UTF-8: invalid byte 0x{:02X} at byte offset {offset}{hint}",
            bytes[offset]
        )
    );
    // In the reader's language (issue 50), both notes follow the message: the library's
    // (the zip form) and the CLI's (its commands), `{message}` the English message alone.
    let out = common::specmint_in(
        &dir,
        &[
            "validate",
            "taskpack",
            "w.taskpack",
            "--format",
            "json",
            "--locale",
            "zh-TW",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "invalid_taskpack");
    assert_eq!(errors[0]["path"], "");
    assert_eq!(
        errors[0]["message"],
        format!(
            "這份任務包不是有效的 JSON，或不只是單一個 JSON 物件（英文原文：the taskpack is not \
             valid UTF-8: invalid byte 0x{:02X} at byte offset {offset}）；這是 zip 檔\
             （`.taskpack` 格式），而 `validate` 讀取的是扁平格式（`.taskpack.json`）：請用 \
             `specmint taskpack conformance FILE` 檢查這個 zip 檔，或用 `specmint taskpack \
             convert FILE OUT.taskpack.json` 寫出它的扁平格式",
            bytes[offset]
        )
    );
    // A language the library's notes have but TaskPack's messages do not: all English.
    let out = common::specmint_in(
        &dir,
        &[
            "validate",
            "taskpack",
            "w.taskpack",
            "--format",
            "json",
            "--locale",
            "de",
        ],
        b"",
    );
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["errors"][0]["message"].as_str(), Some(message));
    // The flat form, and other types, are refused as before: no hint.
    std::fs::write(dir.join("p.json"), &bytes).unwrap();
    let out = common::specmint_in(&dir, &["validate", "task-packet", "p.json"], b"");
    assert!(!String::from_utf8(out.stdout).unwrap().contains("is a zip"));
    std::fs::remove_dir_all(dir).unwrap();
}
