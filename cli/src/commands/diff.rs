//! `specmint diff`: what a spec change breaks (`specmint_codegen::diff`), printed. The
//! comparison, the categories and the witnesses are the library's; this file reads the two
//! sides (a directory, or the spec directory at a git revision) and prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use specmint_codegen::diff::{self, Break};

use crate::args::Diff;
use crate::output::CliError;

/// `specmint diff OLD NEW | --against REV [--spec DIR] [--format human|json|github]
/// [--fail-on LIST]`: exit 1 when a change breaks a `--fail-on` category, 0 otherwise, 2
/// usage or a side that does not load.
pub fn run(args: Diff) -> Result<u8, CliError> {
    let Diff {
        sides: positional,
        against,
        spec: spec_dir,
        format,
        fail_on,
    } = args;
    let fail_on = fail_on.map_or_else(|| Break::ALL.to_vec(), |c| c.0);
    let (old, new) = match (against, positional.as_slice()) {
        (Some(rev), []) => {
            let dir = spec_dir.unwrap_or_else(|| PathBuf::from(specmint::SPEC_DIR));
            (at_revision(&rev, &dir)?, read_dir(&dir)?)
        }
        (Some(_), _) => {
            return Err(CliError::Usage(
                "--against REV compares the working tree's spec directory (--spec DIR): give no OLD NEW".into(),
            ))
        }
        (None, [old, new]) => {
            if spec_dir.is_some() {
                return Err(CliError::Usage("--spec goes with --against; OLD NEW are directories".into()));
            }
            (read_dir(Path::new(old))?, read_dir(Path::new(new))?)
        }
        (None, _) => {
            return Err(CliError::Usage(
                "diff takes OLD NEW (two spec directories) or --against REV".into(),
            ))
        }
    };
    let found = diff::diff(&old, &new).map_err(|e| CliError::Failure(e.to_string()))?;
    print!("{}", found.render(format));
    Ok(u8::from(found.breaks_any(&fail_on)))
}

fn read_dir(dir: &Path) -> Result<Vec<specmint_codegen::SpecSource>, CliError> {
    let display = dir.display().to_string();
    let sources = specmint_codegen::read_spec_dir(dir, &display)
        .map_err(|e| CliError::Failure(format!("cannot read specs in `{display}`: {e}")))?;
    Ok(sources)
}

/// The spec directory `dir` as it is at git revision `rev`, read with `git ls-tree` and
/// `git show` (nothing is checked out). Shown as `REV:DIR/<file>`.
fn at_revision(rev: &str, dir: &Path) -> Result<Vec<specmint_codegen::SpecSource>, CliError> {
    let git = |args: &[&str]| -> Result<String, CliError> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| CliError::Failure(format!("cannot run git: {e}")))?;
        if !out.status.success() {
            return Err(CliError::Failure(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        String::from_utf8(out.stdout)
            .map_err(|_| CliError::Failure(format!("git {}: not UTF-8", args.join(" "))))
    };
    // The directory's path from the top of its repository (`spec/`, or empty at the top).
    let prefix = git(&["rev-parse", "--show-prefix"])?;
    let prefix = prefix.trim_end_matches('\n');
    let names = git(&[
        "ls-tree",
        "--full-tree",
        "--name-only",
        &format!("{rev}:{prefix}"),
    ])?;
    let mut files = BTreeMap::new();
    for name in names.lines() {
        if name.ends_with(".md") || name.ends_with(".toml") {
            files.insert(
                name.to_owned(),
                git(&["show", &format!("{rev}:{prefix}{name}")])?,
            );
        }
    }
    let display = format!("{rev}:{}", dir.display());
    Ok(specmint_codegen::spec_sources(&files, &display))
}
