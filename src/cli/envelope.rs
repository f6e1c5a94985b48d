//! `specmint envelope new|apply|show --store DB ...`: the Action Envelope engine.
//!
//! ```text
//! specmint envelope new PACKAGE_ID [--intent TEXT] --store DB [--format json]
//! specmint envelope apply --store DB FILE|- [--format json]
//! specmint envelope show PACKAGE_ID --store DB [--format json]
//! ```
//! `new` and `apply` print `{"ok": true, "replayed", "package_id", "revision", "state"}` or
//! `{"ok": false, "code", "message"}`; exit 0 applied or replayed, 1 refused, 2 usage or I/O.

use serde_json::{json, Value};
use specmint::action_envelope::engine::{
    no_package, refusal_of, Applied, ApplyError, PackageStore,
};
use specmint::action_envelope::DOCUMENT;
use specmint::store::Failure;

use super::{print_verdict, read_document, store_failure, CliError, Format, Options};

/// Runs `specmint envelope ARGS`.
pub fn run(args: &[String]) -> Result<u8, CliError> {
    let (command, rest) = args
        .split_first()
        .ok_or_else(|| CliError::Usage("missing envelope command (new, apply, show)".to_owned()))?;
    match command.as_str() {
        "new" => new(rest),
        "apply" => apply(rest),
        "show" => show(rest),
        other => Err(CliError::Usage(format!(
            "unknown envelope command `{other}` (new, apply, show)"
        ))),
    }
}

fn open(options: &Options) -> Result<PackageStore, CliError> {
    PackageStore::open(options.store()?).map_err(store_failure)
}

fn new(args: &[String]) -> Result<u8, CliError> {
    let options = Options::parse(args, &["--intent"])?;
    let [package_id] = options.positional(&["PACKAGE_ID"])? else {
        unreachable!("positional checks the count")
    };
    let created = open(&options)?.create(package_id, options.value("--intent"));
    verdict(
        options.format,
        created.map(|manifest| Applied {
            replayed: false,
            package_id: manifest.package_id,
            revision: manifest.revision,
            state: manifest.state,
        }),
    )
}

fn apply(args: &[String]) -> Result<u8, CliError> {
    let options = Options::parse(args, &[])?;
    let [file] = options.positional(&["FILE (or `-` for stdin)"])? else {
        unreachable!("positional checks the count")
    };
    let mut store = open(&options)?;
    let outcome = match read_document(file, &DOCUMENT)? {
        Ok(input) => store.apply_json(&input),
        Err(report) => Err(Failure::Refused(refusal_of(&report))),
    };
    verdict(options.format, outcome)
}

fn show(args: &[String]) -> Result<u8, CliError> {
    let options = Options::parse(args, &[])?;
    let [package_id] = options.positional(&["PACKAGE_ID"])? else {
        unreachable!("positional checks the count")
    };
    match open(&options)?
        .manifest(package_id)
        .map_err(store_failure)?
    {
        Some(manifest) => {
            let json = serde_json::to_value(&manifest)
                .map_err(|e| CliError::Failure(format!("cannot write the manifest: {e}")))?;
            let human = serde_json::to_string_pretty(&json).unwrap_or_default();
            print_verdict(options.format, &json, &human)?;
            Ok(0)
        }
        None => verdict(
            options.format,
            Err(Failure::Refused(no_package(package_id))),
        ),
    }
}

/// Prints an outcome and returns its exit status.
fn verdict(format: Format, outcome: Result<Applied, ApplyError>) -> Result<u8, CliError> {
    match outcome {
        Ok(applied) => {
            let json = applied_json(&applied);
            let verb = if applied.replayed {
                "replayed"
            } else {
                "applied"
            };
            let human = format!(
                "{verb}: {} at revision {}, {}",
                applied.package_id, applied.revision, applied.state
            );
            print_verdict(format, &json, &human)?;
            Ok(0)
        }
        Err(Failure::Refused(refusal)) => {
            print_verdict(format, &refusal.to_json(), &format!("refused: {refusal}"))?;
            Ok(1)
        }
        Err(Failure::Store(err)) => Err(store_failure(err)),
    }
}

/// `envelope apply --format json`'s object for an applied (or replayed) envelope.
pub fn applied_json(applied: &Applied) -> Value {
    json!({
        "ok": true,
        "replayed": applied.replayed,
        "package_id": applied.package_id,
        "revision": applied.revision,
        "state": applied.state,
    })
}
