//! `specmint envelope init|new|apply|show`: the Action Envelope engine.
//!
//! (Arguments and options: [`crate::args::Envelope`].)
//! `new` and `apply` print `{"ok": true, "replayed", "package_id", "revision", "state"}` or
//! `{"ok": false, "code", "message"}`; exit 0 applied or replayed, 1 refused, 2 usage or I/O.
//! A store is created by `init`, `new` and `apply`; `show` on a store that does not exist
//! says so and exits 2, creating nothing.

use specmint::action_envelope::answer;
use specmint::action_envelope::engine::{
    no_package, refusal_of, Applied, ApplyError, PackageStore,
};
use specmint::action_envelope::DOCUMENT;
use specmint::database::Failure;

use crate::args::{Db, Envelope};
use crate::output::{answer_value, print_verdict, read_document, store_failure, CliError, Format};

/// Runs `specmint envelope ...`.
pub fn run(command: Envelope) -> Result<u8, CliError> {
    match command {
        Envelope::Init { store, format } => super::task::init(
            &store,
            format.format,
            |db| PackageStore::open_existing(&db.path),
            |db| PackageStore::open(&db.path),
        ),
        Envelope::New {
            package_id,
            intent,
            store,
            format,
        } => {
            let created = open(&store)?.create(&package_id, intent.as_deref());
            verdict(
                format.format,
                created.map(|manifest| Applied {
                    replayed: false,
                    package_id: manifest.package_id,
                    revision: manifest.revision,
                    state: manifest.state,
                }),
            )
        }
        Envelope::Apply {
            file,
            store,
            format,
        } => {
            let mut store = open(&store)?;
            let outcome = match read_document(&file, &DOCUMENT)? {
                Ok(input) => store.apply_json(&input),
                Err(report) => Err(Failure::Refused(refusal_of(&report))),
            };
            verdict(format.format, outcome)
        }
        Envelope::Show {
            package_id,
            store,
            format,
        } => show(&package_id, &store, format.format),
    }
}

fn open(store: &Db) -> Result<PackageStore, CliError> {
    PackageStore::open(&store.path).map_err(store_failure)
}

fn show(package_id: &str, store: &Db, format: Format) -> Result<u8, CliError> {
    let mut store = PackageStore::open_existing(&store.path)
        .map_err(|err| super::task::missing_store(err, "envelope", "new"))?;
    match store.manifest(package_id).map_err(store_failure)? {
        Some(manifest) => {
            let json = answer_value(&manifest)?;
            let human = serde_json::to_string_pretty(&json).unwrap_or_default();
            print_verdict(format, &json, &human)?;
            Ok(0)
        }
        None => verdict(format, Err(Failure::Refused(no_package(package_id)))),
    }
}

/// Prints an outcome and returns its exit status.
fn verdict(format: Format, outcome: Result<Applied, ApplyError>) -> Result<u8, CliError> {
    match outcome {
        Ok(applied) => {
            let verb = if applied.replayed {
                "replayed"
            } else {
                "applied"
            };
            let human = format!(
                "{verb}: {} at revision {}, {}",
                applied.package_id, applied.revision, applied.state
            );
            print_verdict(format, &answer::Applied::from(&applied), &human)?;
            Ok(0)
        }
        Err(Failure::Refused(refusal)) => {
            print_verdict(format, &refusal, &format!("refused: {refusal}"))?;
            Ok(1)
        }
        Err(Failure::Store(err)) => Err(store_failure(err)),
    }
}
