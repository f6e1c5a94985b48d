//! The shell examples of README.md and the guide run, and print what they show.
//!
//! The convention (CONTRIBUTING.md, "Examples that run"), invisible to a reader:
//!
//! - A fence whose info string has `file=PATH` (```` ```toml file=spec/order.toml ````) is a
//!   file the page's examples use: it is written to `PATH` in the page's scratch directory,
//!   in page order, before the examples after it run.
//! - A ```` ```console ```` fence is an example that runs: each `$ ` line is a command (a line
//!   ending in `\` continues on the next), the lines after it up to the next `$ ` line are what
//!   it prints, stdout and stderr together, compared exactly; a line `...` stands for any
//!   number of lines. The commands run in `sh`, in the page's scratch directory, with the
//!   `specmint` this test run built first on `PATH`, and `tests/` of the repository reachable
//!   as `tests/`. Each `specmint` command must exit 0, or `N` when the fence says `status=N`;
//!   every other command 0. `output=any` checks the exit status alone.
//!
//! Every ```` ```console ```` fence of the pages runs; ```` ```sh ```` fences are not run
//! (installing, building a crate of one's own, a synopsis with `[optional]` parts).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// The pages whose examples run: the front door and the guide's chapters.
fn pages() -> Vec<PathBuf> {
    let root = common::root();
    let mut pages = vec![root.join("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("guide/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    pages.extend(chapters);
    pages
}

/// A fenced block of a page: its info string, its first line's number and its text.
struct Fence {
    info: String,
    line: usize,
    text: String,
}

/// Every fenced code block of `text`, in order.
fn fences(text: &str) -> Vec<Fence> {
    let mut fences = Vec::new();
    let mut open: Option<Fence> = None;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some(Fence {
                    info: info.into_string(),
                    line: text[..range.start].matches('\n').count() + 2,
                    text: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(f) = open.as_mut() {
                    f.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => fences.extend(open.take()),
            _ => {}
        }
    }
    fences
}

/// The value of `key=` in a fence's info string.
fn attribute<'a>(info: &'a str, key: &str) -> Option<&'a str> {
    info.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// One `$ ` command of a console example and what it shows.
struct Step {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The commands of a console fence starting at `first_line`.
fn steps(text: &str, first_line: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        if continued {
            let step = steps.last_mut().unwrap();
            step.command.push('\n');
            step.command.push_str(line);
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                line: first_line + i,
                command: command.to_owned(),
                shown: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.shown.push(line.to_owned());
        } else {
            panic!(
                "line {}: a console example starts with a `$ ` command",
                first_line + i
            );
        }
        continued = line.ends_with('\\');
    }
    steps
}

/// Whether `actual` is what `shown` shows, a `...` line standing for any number of lines.
fn matches(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == first && matches(rest, more)),
    }
}

/// The byte that ends each command's output in the script's output, before its status.
const MARK: char = '\u{1e}';

/// Runs one console example in `dir`; what is wrong with it, each as `name:line: ...`.
fn run_console(name: &str, fence: &Fence, dir: &Path) -> Vec<String> {
    let steps = steps(&fence.text, fence.line);
    let status: i32 = attribute(&fence.info, "status").map_or(0, |s| s.parse().unwrap());
    let output_any = attribute(&fence.info, "output") == Some("any");
    // One script, so `cd`, variables and `$?` carry from a command to the next; after each, its
    // status is printed behind MARK and given back to `$?`.
    let mut script = String::from("exec 2>&1\n");
    for step in &steps {
        script.push_str(&step.command);
        script.push_str(&format!(
            "\n__s=$?; printf '{MARK}%s\\n' \"$__s\"; (exit $__s)\n"
        ));
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_specmint"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join(".local/share"))
        // English, whatever the machine's locale (an example that wants another says so).
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    check_steps(
        name,
        &steps,
        &String::from_utf8_lossy(&output.stdout),
        status,
        output_any,
    )
}

/// What is wrong with `steps`, given `text`, what the script printed (each command's output
/// followed by MARK and its status).
fn check_steps(
    name: &str,
    steps: &[Step],
    text: &str,
    status: i32,
    output_any: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rest = text;
    for step in steps {
        let Some((printed, after)) = rest.split_once(MARK) else {
            problems.push(format!(
                "{name}:{}: `{}` did not finish (the script stopped)",
                step.line, step.command
            ));
            break;
        };
        let (code, next) = after.split_once('\n').unwrap_or((after, ""));
        rest = next;
        let code: i32 = code.trim().parse().unwrap_or(-1);
        let wanted = if step.command.trim_start().starts_with("specmint ") {
            status
        } else {
            0
        };
        if code != wanted {
            problems.push(format!(
                "{name}:{}: `{}` exited {code}, not {wanted}; it printed:\n{printed}",
                step.line, step.command
            ));
        }
        let actual: Vec<&str> = printed.lines().collect();
        if !output_any && !matches(&step.shown, &actual) {
            problems.push(format!(
                "{name}:{}: `{}` printed\n{}\nnot what the page shows\n{}",
                step.line,
                step.command,
                actual.join("\n"),
                step.shown.join("\n")
            ));
        }
    }
    problems
}

/// Runs the examples of one page (its text `text`, named `name` in messages) in a fresh
/// scratch directory: the `file=` fences written, the console fences run, in page order.
/// What is wrong, each problem as `name:line: ...`, and how many examples ran.
fn run_page(name: &str, text: &str) -> (Vec<String>, usize) {
    let dir = common::scratch("docs-examples");
    std::os::unix::fs::symlink(common::root().join("tests"), dir.join("tests")).unwrap();
    let mut problems = Vec::new();
    let mut ran = 0;
    for fence in fences(text) {
        if let Some(path) = attribute(&fence.info, "file") {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fence.text).unwrap();
        }
        if fence.info.split_whitespace().next() == Some("console") {
            ran += 1;
            problems.extend(run_console(name, &fence, &dir));
        }
    }
    (problems, ran)
}

#[test]
fn every_console_example_of_the_readme_and_the_guide_prints_what_it_shows() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let name = page
            .strip_prefix(common::root())
            .unwrap()
            .display()
            .to_string();
        let (p, n) = run_page(&name, &std::fs::read_to_string(&page).unwrap());
        problems.extend(p);
        ran += n;
    }
    assert!(
        problems.is_empty(),
        "{} examples are wrong:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    assert!(ran >= 9, "only {ran} console examples ran");
}

#[test]
fn a_tampered_example_fails_the_runner() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let (problems, ran) = run_page("README.md", &readme);
    assert!(ran > 0 && problems.is_empty(), "{problems:?}");
    // An output line altered: the line of its command is named.
    let shown = "order.json: invalid order (2 errors)";
    assert!(readme.contains(shown));
    let tampered = readme.replace(shown, "order.json: invalid order (3 errors)");
    let (problems, _) = run_page("README.md", &tampered);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("`specmint validate --spec spec order order.json` printed"),
        "{}",
        problems[0]
    );
    // A file the example uses altered: the verdict changes.
    let tampered = readme.replace(r#""quantity": 0}]}"#, r#""quantity": 1}]}"#);
    let (problems, _) = run_page("README.md", &tampered);
    assert!(!problems.is_empty());
    // An exit status other than the fence's.
    let tampered = readme.replace("```console status=1", "```console");
    let (problems, _) = run_page("README.md", &tampered);
    assert!(
        problems.iter().any(|p| p.contains("exited 1, not 0")),
        "{problems:?}"
    );
}

#[test]
fn the_runner_reads_the_convention() {
    let page = "text\n\n```toml file=dir/a.toml\nx = 1\n```\n\n```console output=any\n$ cat dir/a.toml\nnot this\n```\n\n```console\n$ cat dir/a.toml\nx = 1\n$ printf 'a\\nb\\nc\\n'; \\\n  echo d\na\n...\nd\n$ false\n```\n";
    let (problems, ran) = run_page("page.md", page);
    assert_eq!(ran, 2);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("page.md:20: `false` exited 1, not 0"),
        "{}",
        problems[0]
    );
    assert!(matches(&["...".into()], &[]));
    assert!(matches(&["a".into(), "...".into()], &["a", "b"]));
    assert!(!matches(&["a".into()], &["a", "b"]));
    assert!(!matches(&["...".into(), "c".into()], &["a", "b"]));
}

#[test]
fn every_page_with_a_rust_example_is_a_doc_test_of_the_library() {
    let lib = std::fs::read_to_string(common::root().join("src/lib.rs")).unwrap();
    let mut pages_with_rust = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        if !fences(&text)
            .iter()
            .any(|f| f.info.split([' ', ',']).next() == Some("rust"))
        {
            continue;
        }
        pages_with_rust += 1;
        let from_src = format!(
            "../{}",
            page.strip_prefix(common::root()).unwrap().display()
        );
        assert!(
            lib.contains(&format!("#[doc = include_str!(\"{from_src}\")]\nmod ")),
            "{from_src} has a ```rust example: src/lib.rs must include it as a doc test \
             (#[cfg(doctest)] #[doc = include_str!(\"{from_src}\")] mod ...)"
        );
    }
    assert!(pages_with_rust >= 3, "{pages_with_rust}");
}
