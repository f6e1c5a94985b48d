//! The spec format and codegen are general: no bundled spec's name appears in the code
//! generator or the derive (outside their tests), so every rule a spec needs is a rule of the
//! format, not a special case.

use crate::common;

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_spec_name_in_codegen_or_macros() {
    let names = [
        "task_packet",
        "action_envelope",
        "task_envelope",
        "taskpack",
    ];
    let mut files = Vec::new();
    for dir in ["codegen/src", "macros/src"] {
        rust_files(&common::root().join(dir), &mut files);
    }
    assert!(files.len() > 5);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        for name in names {
            assert!(!text.contains(name), "{} mentions `{name}`", file.display());
        }
    }
}

/// Words of the bundled specs' domains. Generic code that says one of them was written for
/// one spec. Chosen so that none is an ordinary word of code or of the spec format: `action`
/// and `task` are ordinary in English but not in a code generator's identifiers or messages.
const DOMAIN_WORDS: &[&str] = &[
    "action",
    "agent",
    "audience",
    "envelope",
    "handoff",
    "objective",
    "packet",
    "passport",
    "provider",
    "task",
];

/// The code of a Rust source with its comments removed (line, block and doc comments), so
/// that an example in a doc comment is not taken for code; string literals stay, since a
/// message or hint is what a user reads.
fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                out.push(' ');
            }
            '"' => {
                out.push(c);
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A char literal (`'"'`, `'\''`); a lifetime's quote passes through.
            '\'' => {
                out.push(c);
                let mut ahead = chars.clone();
                let lit = match ahead.next() {
                    Some('\\') => {
                        ahead.next();
                        ahead.next() == Some('\'')
                    }
                    Some(_) => ahead.next() == Some('\''),
                    None => false,
                };
                if lit {
                    while let Some(c) = chars.next() {
                        out.push(c);
                        if c == '\\' {
                            out.extend(chars.next());
                        } else if c == '\'' {
                            break;
                        }
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The words of a text: identifiers split at `_` and at lower→upper case changes
/// (`TaskEnvelope` → `task`, `envelope`), lowercased.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        let boundary = !c.is_alphanumeric() || (c.is_uppercase() && prev_lower);
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Domain words (or their plurals) in the code of `src`, with their line numbers.
fn domain_words(src: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in without_comments(src).lines().enumerate() {
        for w in words(line) {
            let stem = w.strip_suffix('s').unwrap_or(&w);
            if DOMAIN_WORDS.contains(&w.as_str()) || DOMAIN_WORDS.contains(&stem) {
                found.push((i + 1, w));
            }
        }
    }
    found
}

#[test]
fn the_domain_word_guard_finds_words_in_code_not_in_comments() {
    // The hint this guard was written for.
    let old_hint = r#"    "write `✔`: an action without members takes `{}`","#;
    assert_eq!(domain_words(old_hint), [(1, "action".to_owned())]);
    let src = "/// `TaskEnvelope` → `task envelope`\n//! struct Packet {\n/* an agent */ let ok = 1;\nlet c = '\"'; let x = \"the actions\"; // envelope\nstruct HandoffStore;\nlet t = \"a url: http://task\";";
    assert_eq!(
        domain_words(src),
        [
            (4, "actions".to_owned()),
            (5, "handoff".to_owned()),
            (6, "task".to_owned()),
        ]
    );
    // Ordinary words that only contain a domain word are not it.
    assert!(domain_words("let transaction = tasked(stacks);").is_empty());
}

#[test]
fn no_domain_word_in_generic_code() {
    let mut files = Vec::new();
    for dir in ["codegen/src", "runtime/src", "macros/src"] {
        rust_files(&common::root().join(dir), &mut files);
    }
    assert!(files.len() > 10);
    let mut leaks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, word) in domain_words(&text) {
            leaks.push(format!("{}:{line}: `{word}`", file.display()));
        }
    }
    assert!(
        leaks.is_empty(),
        "generic code speaks of one spec's domain (say it in the format's words):\n{}",
        leaks.join("\n")
    );
}
