//! `specmint taskpack`: the TaskPack encodings and the conformance judge.
//!
//! ```text
//! specmint taskpack convert IN OUT [--max-inline-bytes N]
//! specmint taskpack conformance FILE [--format human|json]
//! specmint taskpack pack ID --out FILE [--store DIR] [--flat] [--kind handoff|receipt]
//!                        [--ask "WHAT|ACCEPT[|WHY]"]... [--check "CHECK[|HOW]"]...
//!                        [--attach PATH...]... [--actor NAME] [--machine NAME] [--note TEXT]
//!                        [--format human|json]
//! specmint taskpack land FILE [--store DIR] [--trust-machine-facts] [--format human|json]
//! specmint taskpack merge RECEIPT --into ID [--store DIR] [--format human|json]
//! specmint taskpack to-a2a PACK
//! specmint taskpack from-a2a TASK.json --out PACK [--machine NAME] [--actor NAME]
//! ```
//! (`land` and `merge` live in `landing.rs`.)
//! `convert`: exit 0 done, 1 refused (the input is not a pack this reader accepts, or the flat
//! writer refuses an attachment), 2 usage or I/O. `conformance`: exit 0 conformant, 2 not (the
//! spec's contract) or usage/I/O; 1 is never used. `pack`: exit 0 written, 1 refused (every
//! reason, each with its code, naming the field or file and the pattern; nothing is written),
//! 2 usage or I/O.

use std::io::Write;
use std::path::Path;

use specmint::taskpack::a2a::{self, FromA2aError};
use specmint::taskpack::bag::Limits;
use specmint::taskpack::conformance::{self, Verdict};
use specmint::taskpack::convert::{self, ConvertError, Encoding};
use specmint::taskpack::json::Json;
use specmint::taskpack::land;
use specmint::taskpack::pack::{self, AskArg, CheckArg, Kind, PackError, PackOptions};
use specmint::taskpack::store::{login_name, this_machine};
use specmint::taskpack::TaskPackError;
use specmint::Refusal;

use super::passport::{open_store, store_verdict};
use super::{print_verdict, CliError, Format, Options};

/// The `taskpack` command family.
pub fn run(args: &[String]) -> Result<u8, CliError> {
    match args.first().map(String::as_str) {
        Some("convert") => convert_command(&args[1..]),
        Some("conformance") => conformance_command(&args[1..]),
        Some("pack") => pack_command(&args[1..]),
        Some("land") => super::landing::land_command(&args[1..]),
        Some("merge") => super::landing::merge_command(&args[1..]),
        Some("to-a2a") => to_a2a_command(&args[1..]),
        Some("from-a2a") => from_a2a_command(&args[1..]),
        Some(other) => Err(CliError::Usage(format!(
            "unknown taskpack command `{other}` (convert, conformance, pack, land, merge, to-a2a, from-a2a)"
        ))),
        None => Err(CliError::Usage(
            "missing taskpack command (convert, conformance, pack, land, merge, to-a2a, from-a2a)".to_owned(),
        )),
    }
}

fn convert_command(args: &[String]) -> Result<u8, CliError> {
    let mut positional = Vec::new();
    let mut max_inline = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--max-inline-bytes" => max_inline = Some(super::count::<u64>(arg, rest.next())?),
            flag if flag.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let [input, output] = positional[..] else {
        return Err(CliError::Usage(
            "taskpack convert takes IN and OUT (.taskpack, .taskpack.json; .tpx read only)"
                .to_owned(),
        ));
    };
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
        Err(ConvertError::Io(path, e)) => Err(CliError::Failure(format!(
            "cannot access `{}`: {e}",
            path.display()
        ))),
        Err(e @ (ConvertError::UnknownExtension(_) | ConvertError::NeverWritten(_))) => {
            Err(CliError::Usage(e.to_string()))
        }
        Err(refused) => {
            eprintln!("specmint: {input}: {refused}");
            Ok(1)
        }
    }
}

fn conformance_command(args: &[String]) -> Result<u8, CliError> {
    let mut positional = Vec::new();
    let mut format = Format::Human;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--format" => format = Format::parse(rest.next())?,
            flag if flag.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let [file] = positional[..] else {
        return Err(CliError::Usage(
            "taskpack conformance takes one FILE (.taskpack or .taskpack.json)".to_owned(),
        ));
    };
    let verdict = conformance::judge_path(Path::new(file), Limits::default())
        .map_err(|e| CliError::Failure(format!("cannot read `{file}`: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        Format::Json => writeln!(stdout, "{}", json_verdict(file, &verdict)),
        Format::Human => human_verdict(&mut stdout, file, &verdict),
    };
    written.map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    Ok(if verdict.conformant() { 0 } else { 2 })
}

fn json_verdict(file: &str, verdict: &Verdict) -> serde_json::Value {
    let checks: Vec<serde_json::Value> = verdict
        .checks
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.id,
                "status": c.status.as_str(),
                "requirement": c.requirement,
                "reason": c.reason,
            })
        })
        .collect();
    serde_json::json!({
        "file": file,
        "conformant": verdict.conformant(),
        "failed": verdict.failed(),
        "skipped": verdict.skipped(),
        "checks": checks,
    })
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

fn pack_command(args: &[String]) -> Result<u8, CliError> {
    // `--flat` takes no value and `--attach` takes every argument up to the next option, so
    // the shared option parser sees the rest.
    let mut flat = false;
    let mut attach = Vec::new();
    let mut rest = Vec::new();
    let mut args = args.iter().peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--flat" => flat = true,
            "--attach" => {
                let before = attach.len();
                while let Some(path) = args.next_if(|a| !a.starts_with("--")) {
                    attach.push(std::path::PathBuf::from(path));
                }
                if attach.len() == before {
                    return Err(CliError::Usage(
                        "--attach takes one or more paths".to_owned(),
                    ));
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    let value_flags = [
        "--out",
        "--kind",
        "--ask",
        "--check",
        "--actor",
        "--machine",
        "--note",
    ];
    let options = Options::parse(&rest, &value_flags)?;
    let [id] = options.positional(&["ID"])? else {
        unreachable!("positional checks the count")
    };
    let out = options
        .value("--out")
        .ok_or_else(|| CliError::Usage("missing --out FILE".to_owned()))?;
    let encoding = if flat { Encoding::Flat } else { Encoding::Zip };
    if Encoding::of(Path::new(out)) != Some(encoding) {
        return Err(CliError::Usage(format!(
            "`{out}`: --out must end in {}",
            if flat {
                ".taskpack.json with --flat"
            } else {
                ".taskpack (or .taskpack.json with --flat)"
            }
        )));
    }
    let kind = match options.value("--kind") {
        None | Some("handoff") => Kind::Handoff,
        Some("receipt") => Kind::Receipt,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "--kind takes `handoff` or `receipt`, got `{other}`"
            )))
        }
    };
    let all = |flag: &str| -> Vec<&str> {
        let mut values = Vec::new();
        let mut args = rest.iter();
        while let Some(arg) = args.next() {
            if arg == flag {
                values.extend(args.next().map(String::as_str));
            }
        }
        values
    };
    let asks = all("--ask")
        .into_iter()
        .map(AskArg::parse)
        .collect::<Result<_, _>>()
        .map_err(CliError::Usage)?;
    let checks = all("--check")
        .into_iter()
        .map(CheckArg::parse)
        .collect::<Result<_, _>>()
        .map_err(CliError::Usage)?;
    let actor = options
        .value("--actor")
        .map(str::to_owned)
        .unwrap_or_else(login_name);
    let pack_options = PackOptions {
        kind,
        encoding,
        asks,
        checks,
        attach,
        actor,
        machine: options
            .value("--machine")
            .map_or_else(this_machine, str::to_owned),
        note: options.value("--note").unwrap_or_default().to_owned(),
        packed_at: None,
    };
    let store = open_store(&options)?;
    match pack::pack(&store, id, Path::new(out), &pack_options) {
        Ok(packed) => {
            let json = serde_json::json!({
                "ok": true,
                "pack": out,
                "encoding": if flat { "flat" } else { "bagit-zip" },
                "kind": kind.as_str(),
                "passport_id": packed.passport_id,
                "state_version": packed.version,
                "lineage": serde_json::from_str::<serde_json::Value>(&packed.lineage.to_js_compact())
                    .unwrap_or_default(),
                "asks": packed.asks,
                "asks_recorded": packed.asks_recorded,
                "landing_checks": packed.landing_checks,
                "sealed_facts": packed.sealed,
                "luggage": packed.luggage,
                "renamed": packed.renamed.iter().map(|(given, kept)| serde_json::json!({ "given": given, "kept": kept })).collect::<Vec<_>>(),
            });
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
            print_verdict(options.format, &json, &human)?;
            Ok(0)
        }
        Err(PackError::Refused(refusals)) => refused_to_pack(options.format, &refusals),
        Err(PackError::Store(err)) => store_verdict(options.format, err),
        // An attachment that cannot be read, or a pack that cannot be written: a failure, not
        // bad usage (as every other I/O error of the CLI).
        Err(err @ PackError::Io(..)) => Err(CliError::Failure(err.to_string())),
    }
}

/// Every reason `pack` refused, exit 1: the first one's `{"ok": false, "code", "message"}` with
/// all of them under `refusals`; a `refused: code: message` line each for a human.
fn refused_to_pack(format: Format, refusals: &[Refusal<TaskPackError>]) -> Result<u8, CliError> {
    let listed: Vec<serde_json::Value> = refusals
        .iter()
        .map(|r| serde_json::json!({ "code": r.code.code(), "message": r.message }))
        .collect();
    let json = serde_json::json!({
        "ok": false,
        "code": refusals[0].code.code(),
        "message": refusals[0].message,
        "refusals": listed,
    });
    let human: Vec<String> = refusals.iter().map(|r| format!("refused: {r}")).collect();
    print_verdict(format, &json, &human.join("\n"))?;
    Ok(1)
}

/// `taskpack to-a2a PACK`: the A2A Task of a pack (§5), printed as JSON. Exit 0 printed, 1
/// the pack cannot be read as one, 2 usage or I/O.
fn to_a2a_command(args: &[String]) -> Result<u8, CliError> {
    let options = Options::parse(args, &[])?;
    let [file] = options.positional(&["PACK"])? else {
        unreachable!("positional checked the count")
    };
    match convert::read_pack(Path::new(file), Limits::default()) {
        Ok((pack, attachments)) => {
            let task = a2a::pack_to_task(&pack, &attachments);
            println!("{}", task.to_js_pretty());
            Ok(0)
        }
        Err(ConvertError::Io(path, e)) => Err(CliError::Failure(format!(
            "cannot access `{}`: {e}",
            path.display()
        ))),
        Err(e @ (ConvertError::UnknownExtension(_) | ConvertError::NeverWritten(_))) => {
            Err(CliError::Usage(e.to_string()))
        }
        Err(refused) => {
            eprintln!("specmint: {file}: invalid_taskpack: {refused}");
            Ok(1)
        }
    }
}

/// `taskpack from-a2a TASK.json --out PACK [--machine NAME] [--actor NAME]`: the pack an A2A
/// Task carries, sealed as packing seals. Exit 0 written, 1 refused (no pack in the Task, or
/// one that breaks the spec: every violation), 2 usage or I/O.
fn from_a2a_command(args: &[String]) -> Result<u8, CliError> {
    let options = Options::parse(args, &["--out", "--machine", "--actor"])?;
    let [file] = options.positional(&["TASK.json"])? else {
        unreachable!("positional checked the count")
    };
    let out = options.value("--out").ok_or_else(|| {
        CliError::Usage("missing --out PACK (.taskpack or .taskpack.json)".to_owned())
    })?;
    let (display, input, _) = super::read_input(file, usize::MAX - 1)?;
    let task = match std::str::from_utf8(&input).ok().map(Json::parse) {
        Some(Ok(task)) => task,
        _ => {
            eprintln!("specmint: {display}: not_a_task: the file is not JSON");
            return Ok(1);
        }
    };
    let machine = options
        .value("--machine")
        .map_or_else(this_machine, str::to_owned);
    let actor = options
        .value("--actor")
        .map_or_else(login_name, str::to_owned);
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
        Err(err @ FromA2aError::Extension(_)) => Err(CliError::Usage(err.to_string())),
        Err(err @ FromA2aError::Io(..)) => Err(CliError::Failure(err.to_string())),
    }
}
