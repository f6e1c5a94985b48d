//! `--store` values that cannot surprise (issue 34, item 4): a command that only reads never
//! creates a store, `init` does; libpq's keyword form is PostgreSQL or refused, never a path; no
//! password reaches a message in any form.

use std::path::Path;

use serde_json::json;

use crate::common;

/// `specmint ARGS` in `dir`: exit code, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::specmint_in(dir, args, b"");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The directory's entries, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn commands_that_only_read_a_missing_store_exit_2_and_create_nothing() {
    let dir = common::scratch("store-missing");
    std::fs::write(dir.join("ledger.json"), r#"["fs_read"]"#).unwrap();
    std::fs::write(dir.join("evidence.json"), "{}").unwrap();
    let tasks = "store `typo.db` does not exist (no tasks tables there); nothing was created: create it with `specmint task init --store DB` or `specmint task submit`\n";
    let packages = "store `typo.db` does not exist (no packages tables there); nothing was created: create it with `specmint envelope init --store DB` or `specmint envelope new`\n";
    let commands: [(&[&str], &str); 11] = [
        (&["task", "list"], tasks),
        (&["task", "list", "--counts"], tasks),
        (&["task", "list", "--claimable"], tasks),
        (&["task", "show", "t-1"], tasks),
        (&["task", "claim", "t-1"], tasks),
        (&["task", "claim", "--next"], tasks),
        (&["task", "move", "t-1", "working"], tasks),
        (&["task", "reject", "t-1", "--reason", "no"], tasks),
        (
            &["task", "complete", "t-1", "--evidence", "evidence.json"],
            tasks,
        ),
        (&["task", "bind", "t-1", "--ledger", "ledger.json"], tasks),
        (&["envelope", "show", "pkg_x"], packages),
    ];
    for (args, message) in commands {
        for format in ["human", "json"] {
            let mut all = args.to_vec();
            all.extend(["--store", "typo.db", "--format", format]);
            let (code, stdout, stderr) = run(&dir, &all);
            assert_eq!(
                (code, stdout.as_str(), stderr.as_str()),
                (Some(2), "", format!("specmint: {message}").as_str()),
                "{all:?}"
            );
        }
    }
    assert_eq!(entries(&dir), ["evidence.json", "ledger.json"]);
}

#[test]
fn a_file_that_holds_no_store_is_left_exactly_as_it_was() {
    let dir = common::scratch("store-empty-file");
    // An empty file (touched, or a download cut short), and a SQLite database of another
    // program's: neither is a store, and reading one must not turn it into WAL mode.
    std::fs::write(dir.join("empty.db"), b"").unwrap();
    let other = rusqlite::Connection::open(dir.join("other.db")).unwrap();
    other
        .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept');")
        .unwrap();
    drop(other);
    let before: Vec<(String, Vec<u8>)> = ["empty.db", "other.db"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(dir.join(n)).unwrap()))
        .collect();
    for store in ["empty.db", "other.db"] {
        for args in [
            &["task", "list", "--store", store][..],
            &["envelope", "show", "pkg_x", "--store", store][..],
        ] {
            let (code, _, stderr) = run(&dir, args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("store `{store}` does not exist (no ")),
                "{stderr}"
            );
        }
    }
    let after: Vec<(String, Vec<u8>)> = ["empty.db", "other.db"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(dir.join(n)).unwrap()))
        .collect();
    assert!(after == before, "a file that holds no store was changed");
    assert_eq!(entries(&dir), ["empty.db", "other.db"]);
}

#[test]
fn init_creates_a_store_once_and_the_writing_commands_create_one() {
    let dir = common::scratch("store-init");
    for family in ["task", "envelope"] {
        let db = format!("{family}.db");
        for created in [true, false] {
            let (code, stdout, stderr) =
                run(&dir, &[family, "init", "--store", &db, "--format", "json"]);
            assert_eq!(code, Some(0), "{stderr}");
            let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(answer, json!({"ok": true, "store": db, "created": created}));
        }
    }
    let (code, stdout, _) = run(&dir, &["task", "list", "--store", "task.db"]);
    assert_eq!((code, stdout.as_str()), (Some(0), "(no tasks)\n"));
    let (code, _, stderr) = run(
        &dir,
        &["envelope", "show", "pkg_x", "--store", "envelope.db"],
    );
    assert_eq!(
        code,
        Some(1),
        "a package that is not there, in a store that is: {stderr}"
    );
    // A task store is not a package store: show on it says the package tables are missing.
    let (code, _, stderr) = run(&dir, &["envelope", "show", "pkg_x", "--store", "task.db"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("(no packages tables there)"), "{stderr}");
    // The commands that write still create: `envelope new` and `task submit`.
    let (code, _, stderr) = run(&dir, &["envelope", "new", "pkg_x", "--store", "new.db"]);
    assert_eq!(code, Some(0), "{stderr}");
    let envelope = common::minimal_task(None).to_string();
    let out = common::specmint_in(
        &dir,
        &["task", "submit", "-", "--store", "submit.db"],
        envelope.as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        entries(&dir)
            .into_iter()
            .filter(|n| n.ends_with(".db"))
            .collect::<Vec<_>>(),
        ["envelope.db", "new.db", "submit.db", "task.db"]
    );
}

#[test]
fn a_keyword_form_is_postgresql_or_refused_and_never_a_path() {
    let dir = common::scratch("store-keyword");
    // Not libpq's keywords: refused, naming the URL form, the value (a password) not shown.
    for value in [
        "date=2024.db",
        "host=db.example passwd=hunter2secret",
        "host='db.example password=hunter2secret",
        "postgres:agent:hunter2secret@db/tasks",
    ] {
        for args in [&["task", "list"][..], &["task", "submit", "-"]] {
            let mut all = args.to_vec();
            all.extend(["--store", value]);
            let (code, stdout, stderr) = run(&dir, &all);
            assert_eq!((code, stdout.as_str()), (Some(2), ""), "{value}: {stderr}");
            assert!(
                stderr.contains(
                    "postgresql://USER@HOST:PORT/DB?sslmode=verify-full&sslrootcert=CA.pem"
                ),
                "{value}: {stderr}"
            );
            assert!(!stderr.contains("hunter2secret"), "{stderr}");
        }
    }
    assert_eq!(
        run(&dir, &["task", "list", "--store", "date=2024.db"]).2,
        "specmint: the store address looks like libpq's keyword form (key=value ...) but has a key that is not a libpq connection keyword (host, port, dbname, user, password, sslmode, ...); write a PostgreSQL server as a URL, postgresql://USER@HOST:PORT/DB?sslmode=verify-full&sslrootcert=CA.pem, and a SQLite file whose name starts `key=` as ./key=...\n"
    );
    // libpq's keywords: PostgreSQL (no server listens on port 1), the password starred.
    let (code, _, stderr) = run(
        &dir,
        &[
            "task",
            "list",
            "--store",
            "host=127.0.0.1 port=1 user=u password='hunter2 secret' dbname=db",
        ],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("specmint: cannot open store `host='127.0.0.1' port='1' user='u' password=*** dbname='db'`: error connecting to server: "),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
    // A SQLite file whose name starts `key=` is written as a path.
    let (code, _, stderr) = run(&dir, &["task", "init", "--store", "./date=2024.db"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(entries(&dir), ["date=2024.db"]);
}

#[test]
fn no_password_appears_in_an_error_in_any_form() {
    let dir = common::scratch("store-password");
    let password = "p@ss:w0rd 'q' %40x";
    let encoded = "p%40ss%3Aw0rd%20%27q%27%20%2540x";
    let quoted = r"p@ss:w0rd \'q\' %40x";
    let cases = [
        (
            format!("postgresql://agent:{encoded}@127.0.0.1:1/tasks"),
            "postgresql://agent:***@127.0.0.1:1/tasks",
        ),
        (
            format!("postgres://agent@127.0.0.1:1/tasks?password={encoded}&sslmode=disable"),
            "postgres://agent@127.0.0.1:1/tasks?password=***&sslmode=disable",
        ),
        (
            format!("host=127.0.0.1 port=1 user=agent password='{quoted}' dbname=tasks"),
            "host='127.0.0.1' port='1' user='agent' password=*** dbname='tasks'",
        ),
    ];
    for (store, shown) in &cases {
        for command in [
            &["task", "list"][..],
            &["envelope", "show", "pkg_x"],
            &["task", "init"],
        ] {
            let mut all = command.to_vec();
            all.extend(["--store", store]);
            let (code, _, stderr) = run(&dir, &all);
            assert_eq!(code, Some(2), "{stderr}");
            assert!(
                stderr.starts_with(&format!("specmint: cannot open store `{shown}`: ")),
                "{stderr}"
            );
            for form in [password, encoded, quoted, "w0rd"] {
                assert!(!stderr.contains(form), "{form} in {stderr}");
            }
        }
    }
    // PGPASSWORD: used, never shown.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args([
            "task",
            "list",
            "--store",
            "postgresql://agent@127.0.0.1:1/tasks",
        ])
        .env("PGPASSWORD", password)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(!stderr.contains("w0rd"), "{stderr}");
    assert_eq!(entries(&dir), Vec::<String>::new());
}
