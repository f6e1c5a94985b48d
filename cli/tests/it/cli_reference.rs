//! The CLI reference (guide/src/cli-reference.md) and the man pages (man/*.1) are generated
//! from the command line's one declaration (`specmint_cli::args::command()`, the one `--help`
//! prints): every command, its usage, arguments and options with their help, and its exit
//! status. Both are committed; these tests regenerate them and fail when the committed files
//! differ. To rewrite them: `SPECMINT_OVERWRITE=1 cargo test -p specmint-cli --test it
//! cli_reference::` (then read the diff).

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Where the reference chapter lives, from the repository's root.
const REFERENCE: &str = "guide/src/cli-reference.md";
/// Where the man pages live, from the repository's root.
const MAN_DIR: &str = "man";

fn overwrite() -> bool {
    std::env::var_os("SPECMINT_OVERWRITE").is_some_and(|v| v == "1")
}

/// The declared command line as the program parses it, built (clap's `--help` and `--version`
/// added, each command's `bin_name` set), less clap's `help` commands.
fn built_command() -> clap::Command {
    let mut command = without_help_commands(specmint_cli::args::command());
    command.build();
    command
}

/// `command`'s subcommands a reader can run (not hidden), in the order `--help` lists them.
fn subcommands(command: &clap::Command) -> Vec<&clap::Command> {
    let mut subs: Vec<&clap::Command> = command
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .collect();
    subs.sort_by_key(|s| s.get_display_order());
    subs
}

/// `command` and all its subcommands, depth first, in the order `--help` lists them.
fn commands(command: &clap::Command) -> Vec<&clap::Command> {
    let mut all = vec![command];
    for sub in subcommands(command) {
        all.extend(commands(sub));
    }
    all
}

/// One paragraph of help text, its lines joined (clap wraps; Markdown reflows).
fn paragraph(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How an argument is written on the command line: `-s, --long <VALUE>`, `<FILE>...`.
fn signature(arg: &clap::Arg) -> String {
    let values: Vec<String> = match arg.get_value_names() {
        Some(names) => names.iter().map(|n| n.to_string()).collect(),
        None => vec![arg.get_id().as_str().to_uppercase()],
    };
    let multiple = arg
        .get_num_args()
        .is_some_and(|n| n.max_values() > 1 || n.max_values() == usize::MAX)
        || matches!(arg.get_action(), clap::ArgAction::Append);
    let dots = if multiple { "..." } else { "" };
    if arg.is_positional() {
        let v = values.join(" ");
        return if arg.is_required_set() {
            format!("<{v}>{dots}")
        } else {
            format!("[{v}]{dots}")
        };
    }
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("--{long}"));
    }
    let mut sig = names.join(", ");
    if arg.get_action().takes_values() {
        for v in &values {
            write!(sig, " <{v}>").unwrap();
        }
        sig.push_str(dots);
    }
    sig
}

/// One argument's line: its signature, its help, its possible and default values.
fn argument_line(arg: &clap::Arg) -> String {
    let mut line = format!("- `{}`", signature(arg));
    let help = arg.get_long_help().or(arg.get_help());
    if let Some(help) = help {
        write!(line, ": {}", paragraph(&help.to_string())).unwrap();
    }
    let mut notes = Vec::new();
    if arg.get_action().takes_values() && !arg.is_hide_possible_values_set() {
        let possible: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|p| !p.is_hide_set())
            .map(|p| format!("`{}`", p.get_name()))
            .collect();
        if !possible.is_empty() {
            notes.push(format!("one of {}", possible.join(", ")));
        }
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|d| format!("`{}`", d.to_string_lossy()))
        .collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() && arg.get_action().takes_values() {
        notes.push(format!("default {}", defaults.join(", ")));
    }
    if arg.is_required_set() && !arg.is_positional() {
        notes.push("required".to_owned());
    }
    if !notes.is_empty() {
        write!(line, " ({})", notes.join("; ")).unwrap();
    }
    line
}

/// The CLI reference chapter, in Markdown.
fn reference(root: &clap::Command) -> String {
    let mut out = String::from(
        "# CLI reference: every command\n\n\
         <!-- Generated from cli/src/args.rs by cli/tests/it/cli_reference.rs; do not edit.\n     \
         SPECMINT_OVERWRITE=1 cargo test -p specmint-cli --test it cli_reference:: rewrites it. -->\n\n\
         Every command of `specmint`, with its usage, its arguments and options and its exit \
         status, as `specmint COMMAND --help` prints them ([the overview](cli.md) groups them \
         by task). The same text is in the man pages, `man/specmint.1` and one \
         `man/specmint-COMMAND.1` per command.\n",
    );
    for command in commands(root) {
        let path = command
            .get_bin_name()
            .unwrap_or(command.get_name())
            .to_owned();
        // `specmint` and its commands at one level, a family's commands under theirs.
        let level = if path.split(' ').count() <= 2 {
            "##"
        } else {
            "###"
        };
        write!(out, "\n{level} `{path}`\n\n").unwrap();
        if let Some(about) = command.get_long_about().or(command.get_about()) {
            writeln!(out, "{}\n", paragraph(&about.to_string())).unwrap();
        }
        let usage = command.clone().render_usage().to_string();
        let usage = usage.trim_start_matches("Usage: ").trim_end();
        write!(out, "```text\n{usage}\n```\n").unwrap();
        let subcommands = subcommands(command);
        if !subcommands.is_empty() {
            out.push_str("\nCommands:\n\n");
            for sub in subcommands {
                let about = sub.get_about().map(|a| paragraph(&a.to_string()));
                writeln!(out, "- `{}`: {}", sub.get_name(), about.unwrap_or_default()).unwrap();
            }
        }
        let (positionals, options): (Vec<&clap::Arg>, Vec<&clap::Arg>) = command
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .partition(|a| a.is_positional());
        for (title, args) in [("Arguments", positionals), ("Options", options)] {
            if !args.is_empty() {
                write!(out, "\n{title}:\n\n").unwrap();
                for arg in args {
                    writeln!(out, "{}", argument_line(arg)).unwrap();
                }
            }
        }
        if let Some(after) = command.get_after_help() {
            write!(out, "\n```text\n{}\n```\n", after.to_string().trim_end()).unwrap();
        }
    }
    out
}

/// `command` and its commands without clap's `help` command (`specmint help validate` is
/// `specmint validate --help`, said once, in the top page).
fn without_help_commands(command: clap::Command) -> clap::Command {
    command
        .disable_help_subcommand(true)
        .mut_subcommands(without_help_commands)
}

/// The man pages, by file name: `specmint.1` and one `specmint-<command>[-<sub>].1` per
/// command, written by clap_mangen.
fn man_pages() -> BTreeMap<String, Vec<u8>> {
    let root = built_command();
    // Every page's footer names the program and its version, as the top page's does.
    let source = format!("specmint {}", root.get_version().unwrap());
    commands(&root)
        .into_iter()
        .map(|c| {
            let man = clap_mangen::Man::new(c.clone())
                .source(&source)
                .manual("specmint manual");
            let mut page = Vec::new();
            man.render(&mut page).unwrap();
            (man.get_filename(), page)
        })
        .collect()
}

/// The `.1` files now in `dir`.
fn committed_pages(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "1"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Which of `wanted` differ from `have`, are missing, or are extra.
fn stale(wanted: &BTreeMap<String, Vec<u8>>, have: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut stale: Vec<String> = wanted
        .iter()
        .filter(|(name, bytes)| have.get(*name) != Some(*bytes))
        .map(|(name, _)| name.clone())
        .collect();
    stale.extend(
        have.keys()
            .filter(|n| !wanted.contains_key(*n))
            .map(|n| format!("{n} (no such command)")),
    );
    stale
}

#[test]
fn the_cli_reference_chapter_is_what_the_declaration_generates() {
    let text = reference(&built_command());
    let path = common::root().join(REFERENCE);
    if overwrite() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{REFERENCE} is stale: SPECMINT_OVERWRITE=1 cargo test -p specmint-cli --test it cli_reference:: rewrites it"
    );
}

#[test]
fn the_man_pages_are_what_the_declaration_generates() {
    let pages = man_pages();
    let dir = common::root().join(MAN_DIR);
    if overwrite() {
        std::fs::create_dir_all(&dir).unwrap();
        for name in committed_pages(&dir).keys() {
            if !pages.contains_key(name) {
                std::fs::remove_file(dir.join(name)).unwrap();
            }
        }
        for (name, bytes) in &pages {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        return;
    }
    let stale = stale(&pages, &committed_pages(&dir));
    assert!(
        stale.is_empty(),
        "man/ is stale in {stale:?}: SPECMINT_OVERWRITE=1 cargo test -p specmint-cli --test it cli_reference:: rewrites it"
    );
}

#[test]
fn the_reference_and_the_man_pages_cover_every_command_and_option() {
    let root = built_command();
    let text = reference(&root);
    let pages = man_pages();
    let mut count = 0;
    for command in commands(&root) {
        let path = command
            .get_bin_name()
            .unwrap_or(command.get_name())
            .to_owned();
        count += 1;
        assert!(
            text.contains(&format!("`{path}`\n")),
            "no heading for {path}"
        );
        let page = format!("{}.1", path.replace(' ', "-"));
        let man = String::from_utf8(pages.get(&page).cloned().unwrap_or_default()).unwrap();
        assert!(!man.is_empty(), "no man page {page} for {path}");
        for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                assert!(
                    text.contains(&format!("--{long}")),
                    "{path}: --{long} is not in the reference"
                );
                // roff escapes each `-` of an option as `\-`.
                assert!(
                    man.contains(&format!("\\-\\-{}", long.replace('-', "\\-"))),
                    "{path}: --{long} is not in {page}"
                );
            }
        }
    }
    // The families and their commands: validate, task claim, taskpack pack, a2a serve, ...
    assert!(count > 35, "only {count} commands");
    for probe in [
        "## `specmint validate`",
        "### `specmint task claim`",
        "### `specmint a2a serve`",
    ] {
        assert!(text.contains(probe), "{probe}");
    }
    // A change to the declaration is a change to the generated text: the check can fail.
    let changed = reference(
        &root
            .clone()
            .mut_subcommand("validate", |c| c.about("Something else.")),
    );
    assert_ne!(changed, text);
}
