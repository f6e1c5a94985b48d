//! `specmint taskpack`: the TaskPack encodings and the conformance judge.
//!
//! (Arguments and options: [`crate::args::Taskpack`].)
//! (`land` and `merge` live in `landing.rs`.)
//! `convert`: exit 0 done, 1 refused (the input is not a pack this reader accepts, or the flat
//! writer refuses an attachment), 2 usage or I/O. `conformance`: exit 0 conformant, 2 not (the
//! spec's contract) or usage/I/O; 1 is never used. `pack`: exit 0 written, 1 refused (every
//! reason, each with its code, naming the field or file and the pattern; nothing is written),
//! 2 usage or I/O.

use std::io::Write;
use std::path::Path;

use specmint::taskpack::a2a::{self, FromA2aError};
use specmint::taskpack::answer::{Conformance, PackRefused, Packed};
use specmint::taskpack::bag::Limits;
use specmint::taskpack::conformance::{self, Verdict};
use specmint::taskpack::convert::{self, ConvertError, Encoding};
use specmint::taskpack::json::Json;
use specmint::taskpack::land;
use specmint::taskpack::pack::{self, PackError, PackOptions};
use specmint::taskpack::passports::{login_name, this_machine};
use specmint::taskpack::TaskPackError;
use specmint::Refusal;

use super::passport::{open_store, store_verdict};
use crate::args::{Pack, Taskpack};
use crate::output::{answer_value, print_verdict, CliError, Format};

/// The `taskpack` command family.
pub fn run(command: Taskpack) -> Result<u8, CliError> {
    match command {
        Taskpack::Convert {
            input,
            output,
            max_inline_bytes,
        } => convert_command(&input, &output, max_inline_bytes),
        Taskpack::Conformance { file, format } => conformance_command(&file, format.format),
        Taskpack::Pack(args) => pack_command(args),
        Taskpack::Land {
            file,
            trust_machine_facts,
            store,
            format,
            locale,
        } => super::landing::land_command(
            &file,
            trust_machine_facts,
            &store,
            format.format,
            super::wanted_locale(locale)?.as_deref(),
        ),
        Taskpack::Merge {
            file,
            into,
            store,
            format,
            locale,
        } => super::landing::merge_command(
            &file,
            &into,
            &store,
            format.format,
            super::wanted_locale(locale)?.as_deref(),
        ),
        Taskpack::ToA2a { file } => to_a2a_command(&file),
        Taskpack::FromA2a {
            file,
            out,
            machine,
            actor,
        } => from_a2a_command(&file, &out, machine, actor),
    }
}

fn convert_command(input: &str, output: &str, max_inline: Option<u64>) -> Result<u8, CliError> {
    match convert::convert(
        Path::new(input),
        Path::new(output),
        Limits::default(),
        max_inline,
    ) {
        Ok(()) => {
            println!("{input} -> {output}");
            Ok(0)
        }
        Err(err) => convert_failed(err, |refused| format!("{input}: {refused}")),
    }
}

fn conformance_command(file: &str, format: Format) -> Result<u8, CliError> {
    let verdict = conformance::judge_path(Path::new(file), Limits::default())
        .map_err(|e| CliError::Failure(format!("cannot read `{file}`: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        Format::Json => writeln!(
            stdout,
            "{}",
            answer_value(&Conformance::new(file, &verdict))?
        ),
        Format::Human => human_verdict(&mut stdout, file, &verdict),
    };
    written.map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    Ok(if verdict.conformant() { 0 } else { 2 })
}

fn human_verdict(out: &mut impl Write, file: &str, verdict: &Verdict) -> std::io::Result<()> {
    for check in &verdict.checks {
        // A reason names what it found in the pack (an attachment, a key): escaped, so the
        // pack being judged cannot steer the terminal.
        writeln!(
            out,
            "{:<3} {}  {}",
            check.id,
            check.status.as_str(),
            land::escaped(&check.reason)
        )?;
    }
    let failed = verdict.failed();
    if verdict.conformant() {
        writeln!(
            out,
            "{file}: conformant ({} of {} checks pass)",
            verdict.checks.len(),
            verdict.checks.len()
        )
    } else {
        let skipped = verdict.skipped();
        let not_judged = if skipped.is_empty() {
            String::new()
        } else {
            format!("; not judged: {}", skipped.join(", "))
        };
        writeln!(
            out,
            "{file}: not conformant (failed: {}{not_judged})",
            failed.join(", ")
        )
    }
}

fn pack_command(args: Pack) -> Result<u8, CliError> {
    let Pack {
        id,
        out,
        flat,
        kind,
        asks,
        checks,
        attach,
        actor,
        machine,
        note,
        store,
        format,
    } = args;
    let encoding = if flat { Encoding::Flat } else { Encoding::Zip };
    if Encoding::of(Path::new(&out)) != Some(encoding) {
        return Err(CliError::Usage(format!(
            "`{out}`: --out must end in {}",
            if flat {
                ".taskpack.json with --flat"
            } else {
                ".taskpack (or .taskpack.json with --flat)"
            }
        )));
    }
    let pack_options = PackOptions {
        kind,
        encoding,
        asks,
        checks,
        attach,
        actor: actor.unwrap_or_else(login_name),
        machine: machine.unwrap_or_else(this_machine),
        note: note.unwrap_or_default(),
        packed_at: None,
    };
    let store = open_store(&store)?;
    match pack::pack(&store, &id, Path::new(&out), &pack_options) {
        Ok(packed) => {
            let mut human = format!(
                "packed {}@{} into {out} ({}): {} asks{}, {} landing checks, {} facts sealed, {} attachments",
                packed.passport_id,
                packed.version,
                kind.as_str(),
                packed.asks.len(),
                if packed.asks_recorded { " (recorded in the passport)" } else { "" },
                packed.landing_checks,
                packed.sealed,
                packed.luggage.len()
            );
            for (given, kept) in &packed.renamed {
                human.push_str(&format!("\nrenamed: `{given}` travels as `{kept}` (a writer keeps only some characters of a name)"));
            }
            let answer = Packed::new(&packed, &out, &pack_options);
            print_verdict(format.format, &answer, &human)?;
            Ok(0)
        }
        Err(PackError::Refused(refusals)) => refused_to_pack(format.format, &refusals),
        Err(PackError::Store(err)) => store_verdict(format.format, err),
        // An attachment that cannot be read, or a pack that cannot be written: a failure, not
        // bad usage (as every other I/O error of the CLI).
        Err(err @ PackError::Io(..)) => Err(CliError::Failure(err.to_string())),
    }
}

/// A pack that could not be read or converted: a file that cannot be reached is a failure (exit
/// 2), a name with no known extension a usage error, anything else the pack's refusal, said as
/// `say` words it (exit 1).
fn convert_failed(
    err: ConvertError,
    say: impl FnOnce(&ConvertError) -> String,
) -> Result<u8, CliError> {
    match err {
        ConvertError::Io(path, e) => Err(CliError::Failure(format!(
            "cannot access `{}`: {e}",
            path.display()
        ))),
        e @ (ConvertError::UnknownExtension(_) | ConvertError::NeverWritten(_)) => {
            Err(CliError::Usage(e.to_string()))
        }
        refused => {
            eprintln!("specmint: {}", say(&refused));
            Ok(1)
        }
    }
}

/// Every reason `pack` refused, exit 1: the first one's `{"ok": false, "code", "message"}` with
/// all of them under `refusals`; a `refused: code: message` line each for a human.
///
/// An ask without `accept` gets the flag that gives one (`--ask "WHAT|ACCEPT"`), inside the
/// parentheses that cite the spec.
fn refused_to_pack(format: Format, refusals: &[Refusal<TaskPackError>]) -> Result<u8, CliError> {
    let mut refusals = refusals.to_vec();
    for refusal in &mut refusals {
        if refusal.code == TaskPackError::AskWithoutAccept {
            if let Some(head) = refusal.message.strip_suffix(')') {
                refusal.message = format!("{head}; --ask \"WHAT|ACCEPT\")");
            }
        }
    }
    let refusals = &refusals[..];
    let human: Vec<String> = refusals.iter().map(|r| format!("refused: {r}")).collect();
    print_verdict(format, &PackRefused::new(refusals), &human.join("\n"))?;
    Ok(1)
}

/// `taskpack to-a2a PACK`: the A2A Task of a pack (§5), printed as JSON. Exit 0 printed, 1
/// the pack cannot be read as one, 2 usage or I/O.
fn to_a2a_command(file: &str) -> Result<u8, CliError> {
    match convert::read_pack(Path::new(file), Limits::default()) {
        Ok((pack, attachments)) => {
            let task = a2a::pack_to_task(&pack, &attachments);
            println!("{}", task.to_js_pretty());
            Ok(0)
        }
        Err(err) => convert_failed(err, |refused| {
            format!("{file}: invalid_taskpack: {refused}")
        }),
    }
}

/// `taskpack from-a2a TASK.json --out PACK [--machine NAME] [--actor NAME]`: the pack an A2A
/// Task carries, sealed as packing seals. Exit 0 written, 1 refused (no pack in the Task, or
/// one that breaks the spec: every violation), 2 usage or I/O.
fn from_a2a_command(
    file: &str,
    out: &str,
    machine: Option<String>,
    actor: Option<String>,
) -> Result<u8, CliError> {
    // No more than a Task carrying the largest pack the door takes: endless input is refused,
    // not read for ever.
    let limit = a2a::max_message_bytes(a2a::DEFAULT_MAX_PACK_BYTES);
    let (display, input, total) =
        crate::output::read_input(file, usize::try_from(limit).unwrap_or(usize::MAX))?;
    if total > input.len() as u64 {
        return Err(CliError::Failure(format!(
            "cannot read `{display}`: over the {limit} bytes a Task carrying a pack may hold \
             (a pack of at most {} bytes, in base64, and 1 MiB besides)",
            a2a::DEFAULT_MAX_PACK_BYTES
        )));
    }
    let task = match std::str::from_utf8(&input).ok().map(Json::parse) {
        Some(Ok(task)) => task,
        _ => {
            eprintln!("specmint: {display}: not_a_task: the file is not JSON");
            return Ok(1);
        }
    };
    let machine = machine.unwrap_or_else(this_machine);
    let actor = actor.unwrap_or_else(login_name);
    match a2a::write_task_as_pack(&task, Path::new(out), &machine, &actor) {
        Ok(made) => {
            println!(
                "{display} -> {out} ({} attachment(s), {} fact(s) sealed, {} history message(s) not carried)",
                made.attachments.len(),
                made.sealed,
                made.history_dropped
            );
            Ok(0)
        }
        Err(err @ (FromA2aError::NotAPack(_) | FromA2aError::Encode(_))) => {
            eprintln!("specmint: {display}: {err}");
            Ok(1)
        }
        Err(FromA2aError::Invalid(report)) => {
            for v in &report {
                eprintln!(
                    "specmint: {display}: {} at `{}`: {}",
                    v.code, v.path, v.message
                );
            }
            Ok(1)
        }
        // The file is the one `--out` names.
        Err(err @ FromA2aError::Extension(_)) => Err(CliError::Usage(format!("--out {err}"))),
        Err(err @ FromA2aError::Io(..)) => Err(CliError::Failure(err.to_string())),
    }
}
