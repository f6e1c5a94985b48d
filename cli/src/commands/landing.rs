//! `specmint taskpack land|merge`: a pack arriving into the local passport store (TaskPack §3.1,
//! §4.4, §4.4.1, §4.5).
//!
//! (Arguments and options: [`crate::args::Taskpack`].)
//! `land` mints a new passport from a handoff; `merge` writes a receipt's answers into the
//! passport it answers. Exit 0 done; 1 refused, with a code and a message naming what and where
//! (`{"ok": false, "code", "message"}` with `--format json`); 2 usage or I/O. Luggage lands in
//! `<store>/<ID>.files/` (a receipt's under `receipt-<version>/` there); it is written to a hidden
//! folder first and renamed into place only once the pack is admitted, so a refusal leaves
//! nothing behind. Nothing a pack says is run: a landing check's `how` is printed quoted, as the
//! sender's suggestion, and imperative sentences are listed for the human.

use std::path::Path;

use specmint::taskpack::answer::{Landed, Merged};
use specmint::taskpack::arrival::{self, ArrivalError};
use specmint::taskpack::land::{self, Imperative, LandingCheck};
use specmint::taskpack::TaskPackError;
use specmint::Refusal;

use super::passport::{open_store, store_verdict};
use crate::args::PassportDir;
use crate::output::{print_verdict, CliError, Format};

/// A failed arrival as the CLI reports it: a refusal (exit 1, `{"ok": false, "code",
/// "message"}`), its problems' messages in `locale` when TaskPack has it (as the A2A door
/// answers), a store verdict (exit 1) or failure (exit 2), I/O (exit 2).
fn failed(
    format: Format,
    file: &str,
    err: ArrivalError,
    locale: Option<&str>,
) -> Result<u8, CliError> {
    let localize = |refusal: &mut Refusal<TaskPackError>| {
        if let Some(catalog) = locale.and_then(specmint::taskpack::catalog) {
            refusal.localize(&catalog);
        }
    };
    match err {
        ArrivalError::Refused(mut refusal) => {
            localize(&mut refusal);
            // A handoff is landed, not merged: the command that does it.
            if refusal.code == TaskPackError::NotAReceipt {
                refusal.message.push_str(": specmint taskpack land FILE");
            }
            refused(format, file, &refusal)
        }
        // A receipt is merged into the passport it answers (an id, which needs no quoting).
        ArrivalError::Receipt {
            mut refusal,
            answers,
        } => {
            localize(&mut refusal);
            refusal
                .message
                .push_str(&format!(": specmint taskpack merge FILE --into {answers}"));
            refused(format, file, &refusal)
        }
        ArrivalError::Store(err) => store_verdict(format, err),
        err @ (ArrivalError::NoEncoding(_) | ArrivalError::Io { .. }) => {
            Err(CliError::Failure(err.to_string()))
        }
    }
}

/// A refusal as printed: `{"ok": false, "code", "message"}`, exit 1.
fn refused(format: Format, file: &str, refusal: &Refusal<TaskPackError>) -> Result<u8, CliError> {
    let line = format!("refused: {file}: {refusal}");
    print_verdict(format, refusal, &land::escaped(&line))?;
    Ok(1)
}

/// The human output: `lines`, each with its control characters escaped ([`land::escaped`]).
/// Nearly every line carries a string from the pack (an id, a check, a name, a refusal that
/// quotes one), and a pack is untrusted: none of them may add a line or steer the terminal.
fn human(lines: &[String]) -> String {
    let shown: Vec<_> = lines.iter().map(|line| land::escaped(line)).collect();
    shown.join("\n")
}

/// `specmint taskpack land FILE`.
/// (`trust`: `--trust-machine-facts` restores a ✓ on facts sealed on this very machine, §4.2.)
pub fn land_command(
    file: &str,
    trust: bool,
    store: &PassportDir,
    format: Format,
    locale: Option<&str>,
) -> Result<u8, CliError> {
    let store = open_store(store)?;
    let landed = match arrival::land_file(&store, Path::new(file), trust) {
        Ok(landed) => landed,
        Err(err) => return failed(format, file, err, locale),
    };
    let answer = Landed::from(&landed);
    let human = land_human(file, &landed.id, &landed.landing, &answer.luggage);
    print_verdict(format, &answer, &human)?;
    Ok(0)
}

fn checks_human(lines: &mut Vec<String>, checks: &[LandingCheck], heading: &str) {
    if checks.is_empty() {
        return;
    }
    lines.push(heading.to_owned());
    for check in checks {
        let required = if check.required {
            "required"
        } else {
            "optional"
        };
        lines.push(format!("  {} [{required}] {}", check.id, check.check));
        if let Some(how) = &check.how {
            lines.push(format!(
                "      the sender suggests (not run): {}",
                land::quoted(how)
            ));
        }
    }
}

fn imperatives_human(lines: &mut Vec<String>, found: &[Imperative]) {
    if found.is_empty() {
        return;
    }
    lines.push(
        "imperative sentences in the pack (data, not instructions; nothing was run):".to_owned(),
    );
    for i in found {
        lines.push(format!("  {}: {}", i.at, land::quoted(&i.sentence)));
    }
}

fn land_human(file: &str, id: &str, landing: &land::Landing, luggage: &[String]) -> String {
    let mut lines = vec![format!("landed {file} as passport {id}")];
    checks_human(
        &mut lines,
        &landing.landing_checks,
        "landing checks (required ones now head the next steps):",
    );
    for (what, list) in [
        (
            "sealed on arrival (the pack carried them unsealed)",
            &landing.sealed_on_arrival,
        ),
        (
            "✓ restored (proven on this machine, by your choice)",
            &landing.restored,
        ),
    ] {
        if !list.is_empty() {
            lines.push(format!("{what}: {}", list.join(", ")));
        }
    }
    if landing.needs_reverify > 0 {
        lines.push(format!(
            "facts to re-verify here: {}",
            landing.needs_reverify
        ));
    }
    if !landing.open_asks.is_empty() {
        lines.push(format!("open asks: {}", landing.open_asks.join(", ")));
    }
    imperatives_human(&mut lines, &landing.imperatives);
    for path in luggage {
        lines.push(format!("luggage: {path}"));
    }
    human(&lines)
}

/// `specmint taskpack merge RECEIPT --into ID`.
pub fn merge_command(
    file: &str,
    into: &str,
    store: &PassportDir,
    format: Format,
    locale: Option<&str>,
) -> Result<u8, CliError> {
    let store = open_store(store)?;
    let merged = match arrival::merge_file(&store, Path::new(file), into) {
        Ok(merged) => merged,
        Err(err) => return failed(format, file, err, locale),
    };
    let (report, version) = (&merged.report, merged.version);
    let answer = Merged::new(&merged, into);
    let mut lines = vec![if merged.written {
        format!(
            "merged {file} into {into} (version {version}): answered {}",
            if report.answered.is_empty() {
                "none".to_owned()
            } else {
                report.answered.join(", ")
            }
        )
    } else {
        format!("merged {file} into {into}: nothing new, nothing written (version {version} kept)")
    }];
    if !report.already_answered.is_empty() {
        lines.push(format!(
            "already answered here, as the receipt says: {}",
            report.already_answered.join(", ")
        ));
    }
    for (id, was, now) in &report.overwritten {
        lines.push(format!(
            "  {id}: answer replaced ({} -> {})",
            was.to_js_compact(),
            now.to_js_compact()
        ));
    }
    if !report.adopted_asks.is_empty() {
        lines.push(format!(
            "asked of you, adopted as open: {}",
            report.adopted_asks.join(", ")
        ));
    }
    if !report.still_open.is_empty() {
        lines.push(format!("still open: {}", report.still_open.join(", ")));
    }
    if report.facts_adopted > 0 {
        lines.push(format!(
            "facts adopted (machine ones sealed): {}",
            report.facts_adopted
        ));
    }
    checks_human(
        &mut lines,
        &report.landing_checks,
        "the sender's landing checks (about their machine; reported, not adopted):",
    );
    imperatives_human(&mut lines, &report.imperatives);
    for path in &answer.luggage {
        lines.push(format!("luggage: {path}"));
    }
    print_verdict(format, &answer, &human(&lines))?;
    Ok(0)
}
