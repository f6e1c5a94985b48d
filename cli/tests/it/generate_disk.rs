//! `specmint generate` against a hostile output directory: a write that fails half-way (a
//! full disk) leaves the files as they were, never torn.

use std::process::Command;

use crate::common::scratch;

/// A small spec directory: `spec/notes.md` and its sidecar.
fn notes_spec(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::write(
        dir.join("spec/notes.md"),
        "# Notes v1\n\n## Fields of a `note`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n\
         | `title` | non-blank string | ✔ | The title. |\n\n## Errors\n\n| Code | When |\n|---|---|\n\
         | `bad_note` | Not a note. |\n| `blank` | A blank value. |\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("spec/notes.toml"),
        "[spec]\nroot = \"note\"\n\n[errors]\nenum = \"NoteError\"\nparse = \"bad_note\"\nnon_blank = \"blank\"\n",
    )
    .unwrap();
}

/// No byte can be written (`ulimit -f 0`, SIGXFSZ ignored, so each write fails with EFBIG
/// as on a full disk): `generate` fails naming the file, and the `cases.json` already there
/// keeps its bytes, no temporary file left beside it. It used to be truncated.
#[cfg(unix)]
#[test]
fn a_write_that_fails_leaves_the_old_file_whole() {
    let dir = scratch("generate-full");
    notes_spec(&dir);
    let cases = dir.join("out/corpus/notes/cases.json");
    std::fs::create_dir_all(cases.parent().unwrap()).unwrap();
    std::fs::write(&cases, "[\"the cases of before\"]\n").unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 0; exec \"$0\" generate --spec spec --out out")
        .arg(env!("CARGO_BIN_EXE_specmint"))
        .current_dir(&*dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("specmint: cannot write `out`: `out/corpus/notes/cases.json`: "),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&cases).unwrap(),
        "[\"the cases of before\"]\n"
    );
    let names: Vec<_> = std::fs::read_dir(cases.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["cases.json"]);
}

/// `generate --check` on an output folder holding two links to `.` ends, and names them as
/// drift; `generate` then leaves them (they are no generated file's path) and writes the rest.
#[cfg(unix)]
#[test]
fn check_ends_on_links_to_dot() {
    let dir = scratch("generate-dotlinks");
    notes_spec(&dir);
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_specmint"))
            .args(args)
            .current_dir(&*dir)
            .output()
            .unwrap()
    };
    assert_eq!(
        run(&["generate", "--spec", "spec", "--out", "out"])
            .status
            .code(),
        Some(0)
    );
    std::os::unix::fs::symlink(".", dir.join("out/rust/a")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("out/rust/b")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let checking = dir.to_path_buf();
    std::thread::spawn(move || {
        let out = Command::new(env!("CARGO_BIN_EXE_specmint"))
            .args(["generate", "--check", "--spec", "spec", "--out", "out"])
            .current_dir(checking)
            .output()
            .unwrap();
        let _ = tx.send(out);
    });
    let out = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("--check ends");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("out/rust/a: out of date\nout/rust/b: out of date\n"),
        "{stdout}"
    );
}
