//! `specmint passport new|show|list`: the passports that stay home (TaskPack
//! §3.1, §4.3), in the local store of `taskpack::passports`.
//!
//! (Arguments and options: [`crate::args::Passport`].)
//! `--store` defaults to `PassportStore::default_dir()`. `new` writes a passport of the shape
//! task-passport's `new` writes (`--file` gives a starting object instead, e.g. one with facts);
//! `show --format json` prints the passport exactly as stored. Exit 0 done, 1 refused
//! (`invalid_passport_id`, `unknown_passport`, `passport_exists`), 2 usage or I/O.

use std::io::Write as _;

use specmint::taskpack::answer::{Created, Listed};
use specmint::taskpack::json::Json;
use specmint::taskpack::passports::{self, PassportStore, PassportStoreError, PassportView};
use specmint::taskpack::{land, set_member};
use specmint::Refusal;

use crate::args::{NewPassport, Passport, PassportDir};
use crate::output::{print_verdict, read_input, CliError, Format};

/// The largest `--file` read by `passport new`.
const MAX_STATE_BYTES: usize = 64 << 20;

/// Runs `specmint passport ...`.
pub fn run(command: Passport) -> Result<u8, CliError> {
    match command {
        Passport::New {
            given,
            store,
            format,
        } => new(&given, &store, format.format),
        Passport::Show { id, store, format } => show(&id, &store, format.format),
        Passport::List { store, format } => list(&store, format.format),
    }
}

/// The store `--store DIR` names, else the default one.
pub fn open_store(store: &PassportDir) -> Result<PassportStore, CliError> {
    let dir = match &store.dir {
        Some(dir) => dir.clone(),
        None => PassportStore::default_dir().ok_or_else(|| {
            CliError::Failure("no --store DIR and no user data directory to default to".to_owned())
        })?,
    };
    PassportStore::open(&dir).map_err(|e| CliError::Failure(e.to_string()))
}

/// A store error as the CLI reports it: a verdict (exit 1, `{"ok": false, "code", "message"}`)
/// or a failure of the store (exit 2).
pub fn store_verdict(format: Format, err: PassportStoreError) -> Result<u8, CliError> {
    match err.code() {
        Some(code) => {
            let refusal = Refusal::new(code, err.to_string());
            print_verdict(format, &refusal, &format!("refused: {refusal}"))?;
            Ok(1)
        }
        None => Err(CliError::Failure(err.to_string())),
    }
}

fn new(given: &NewPassport, store: &PassportDir, format: Format) -> Result<u8, CliError> {
    let text = |value: &Option<String>| value.as_ref().map(|v| Json::Str(v.trim().to_owned()));
    let mut passport = match &given.file {
        Some(file) => read_state(file)?,
        None => {
            let required = |flag: &str, value: &Option<String>| {
                text(value)
                    .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
                    .ok_or_else(|| CliError::Usage(format!("{flag} is required (or --file FILE)")))
            };
            let (title, goal) = (
                required("--title", &given.title)?,
                required("--goal", &given.goal)?,
            );
            let next_step = text(&given.next_step).unwrap_or_else(|| {
                Json::Str("read the goal, then plan and take the first verifiable step".to_owned())
            });
            passports::reference_passport(title, goal, next_step)
        }
    };
    for (value, key) in [
        (&given.title, "title"),
        (&given.goal, "goal"),
        (&given.current_state, "current_state"),
    ] {
        if let Some(value) = text(value) {
            set_member(&mut passport, key, value);
        }
    }
    if let Some(id) = &given.id {
        set_member(&mut passport, "id", Json::Str(id.clone()));
    }
    let store = open_store(store)?;
    let mint =
        given.id.is_none() && (given.file.is_none() || PassportView::of(&passport).id.is_none());
    let created = if mint {
        store.create_minted(passport)
    } else {
        store.create(passport)
    };
    match created {
        Ok(passport) => {
            let id = PassportView::of(&passport).id;
            let id = id.as_ref().and_then(Json::as_str).unwrap_or_default();
            print_verdict(
                format,
                &Created::new(id),
                &format!("created {id} (version 1)"),
            )?;
            Ok(0)
        }
        Err(err) => store_verdict(format, err),
    }
}

/// The starting object of `new --file`: a JSON object (a leading BOM tolerated).
fn read_state(file: &str) -> Result<Json, CliError> {
    let (display, input, total) = read_input(file, MAX_STATE_BYTES)?;
    if total > input.len() as u64 {
        return Err(CliError::Failure(format!(
            "`{display}` is over {MAX_STATE_BYTES} bytes"
        )));
    }
    let text = std::str::from_utf8(&input)
        .map_err(|e| CliError::Failure(format!("`{display}` is not UTF-8: {e}")))?;
    match Json::parse(specmint::taskpack::json::strip_bom(text)) {
        Ok(state @ Json::Object(_)) => Ok(state),
        Ok(_) => Err(CliError::Failure(format!(
            "`{display}` is not a JSON object"
        ))),
        Err(e) => Err(CliError::Failure(format!("`{display}` is not JSON: {e}"))),
    }
}

fn show(id: &str, store: &PassportDir, format: Format) -> Result<u8, CliError> {
    let passport = match open_store(store)?.get(id) {
        Ok(passport) => passport,
        Err(err) => return store_verdict(format, err),
    };
    let human = match format {
        Format::Json => String::new(),
        Format::Human => human_passport(&passport),
    };
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        // Exactly the stored bytes.
        Format::Json => writeln!(stdout, "{}", passport.to_js_pretty()),
        Format::Human => write!(stdout, "{human}"),
    };
    written.map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    Ok(0)
}

/// The human view of a passport. A landed passport holds a sender's words, so every value
/// has its control characters escaped ([`land::escaped`]); a member the passport lacks reads
/// `(none)`, not JavaScript's `undefined`.
fn human_passport(passport: &Json) -> String {
    let shown = |value: Option<&Json>| match value {
        None | Some(Json::Null) => "(none)".to_owned(),
        value => land::escaped(&Json::js_string(value)).into_owned(),
    };
    let view = PassportView::of(passport);
    let chain: Vec<String> = view
        .lineage
        .chain()
        .iter()
        .map(|hop| shown(Some(hop)))
        .collect();
    format!(
        "{} (version {})\n  title: {}\n  goal: {}\n  current state: {}\n  lineage: root {}, chain [{}]\n  {} facts, {} asks, {} next steps\n",
        shown(view.id.as_ref()),
        shown(view.version.as_ref()),
        shown(view.title.as_ref()),
        shown(view.goal.as_ref()),
        shown(view.current_state.as_ref()),
        shown(view.lineage.root_id.as_ref()),
        chain.join(", "),
        view.facts,
        view.asks,
        view.next_steps,
    )
}

fn list(store: &PassportDir, format: Format) -> Result<u8, CliError> {
    let store = open_store(store)?;
    let listing = match store.list() {
        Ok(listing) => listing,
        Err(err) => return store_verdict(format, err),
    };
    for skipped in &listing.skipped {
        eprintln!("specmint: skipped {skipped}");
    }
    let answer = Listed {
        count: listing.passports.len(),
        passports: &listing.passports,
        skipped: &listing.skipped,
        store: store.dir(),
    };
    let human: Vec<String> = listing
        .passports
        .iter()
        .map(|p| {
            land::escaped(&format!(
                "{}  v{}  {}  {}",
                p.passport_id, p.state_version, p.updated_at, p.title
            ))
            .into_owned()
        })
        .collect();
    let human = if human.is_empty() {
        format!("no passports in {}", store.dir().display())
    } else {
        human.join("\n")
    };
    print_verdict(format, &answer, &human)?;
    Ok(0)
}
