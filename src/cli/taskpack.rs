//! `specmint taskpack`: the TaskPack encodings and the conformance judge.
//!
//! ```text
//! specmint taskpack convert IN OUT [--max-inline-bytes N]
//! specmint taskpack conformance FILE [--format human|json]
//! specmint taskpack land FILE [--store DIR] [--trust-machine-facts] [--format human|json]
//! specmint taskpack merge RECEIPT --into ID [--store DIR] [--format human|json]
//! ```
//! (`land` and `merge` live in `landing.rs`.)
//! `convert`: exit 0 done, 1 refused (the input is not a pack this reader accepts, or the flat
//! writer refuses an attachment), 2 usage or I/O. `conformance`: exit 0 conformant, 2 not (the
//! spec's contract) or usage/I/O; 1 is never used.

use std::io::Write;
use std::path::Path;

use specmint::taskpack::bag::Limits;
use specmint::taskpack::conformance::{self, Verdict};
use specmint::taskpack::convert::{self, ConvertError};

use super::{Format, UsageError};

/// The `taskpack` command family.
pub fn run(args: &[String]) -> Result<u8, UsageError> {
    match args.first().map(String::as_str) {
        Some("convert") => convert_command(&args[1..]),
        Some("conformance") => conformance_command(&args[1..]),
        Some("land") => super::landing::land_command(&args[1..]),
        Some("merge") => super::landing::merge_command(&args[1..]),
        Some(other) => Err(UsageError(format!(
            "unknown taskpack command `{other}` (convert, conformance, land, merge)"
        ))),
        None => Err(UsageError(
            "missing taskpack command (convert, conformance, land, merge)".to_owned(),
        )),
    }
}

fn convert_command(args: &[String]) -> Result<u8, UsageError> {
    let mut positional = Vec::new();
    let mut max_inline = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--max-inline-bytes" => max_inline = Some(super::count::<u64>(arg, rest.next())?),
            flag if flag.starts_with("--") => {
                return Err(UsageError(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let [input, output] = positional[..] else {
        return Err(UsageError(
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
        Err(ConvertError::Io(path, e)) => Err(UsageError(format!(
            "cannot access `{}`: {e}",
            path.display()
        ))),
        Err(e @ (ConvertError::UnknownExtension(_) | ConvertError::NeverWritten(_))) => {
            Err(UsageError(e.to_string()))
        }
        Err(refused) => {
            eprintln!("specmint: {input}: {refused}");
            Ok(1)
        }
    }
}

fn conformance_command(args: &[String]) -> Result<u8, UsageError> {
    let mut positional = Vec::new();
    let mut format = Format::Human;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--format" => format = Format::parse(rest.next())?,
            flag if flag.starts_with("--") => {
                return Err(UsageError(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let [file] = positional[..] else {
        return Err(UsageError(
            "taskpack conformance takes one FILE (.taskpack or .taskpack.json)".to_owned(),
        ));
    };
    let verdict = conformance::judge_path(Path::new(file), Limits::default())
        .map_err(|e| UsageError(format!("cannot read `{file}`: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        Format::Json => writeln!(stdout, "{}", json_verdict(file, &verdict)),
        Format::Human => human_verdict(&mut stdout, file, &verdict),
    };
    written.map_err(|e| UsageError(format!("cannot write output: {e}")))?;
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
        writeln!(
            out,
            "{:<3} {}  {}",
            check.id,
            check.status.as_str(),
            check.reason
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
