//! The CLI's shared output: a closed pipe on stdout or stderr ends every command quietly
//! (killed by SIGPIPE, as `cat` is), and each family's `--help` is true to its parser.

mod common;

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
