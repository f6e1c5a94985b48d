//! The pipeline end to end, pure (no disk): [`load`] (load, check, and the examples judged
//! by the interpreter) → model → [`generate`] (every spec's files emitted).

use std::collections::BTreeMap;

use crate::check;
use crate::diag::{Diagnostic, Diagnostics, Pos};
use crate::emit::{self, Options};
use crate::interpret::Validator;
use crate::loader::SpecSource;
use crate::model;
use crate::names;

/// Loads and checks one spec into its model, then judges its examples with the
/// interpreter ([`Validator`]): a `json valid` example the spec refuses, or a `json invalid`
/// one whose violations are not exactly the ones its fence lists, is a spec error at the
/// fence's line, as every other problem is (so no file is emitted from a spec whose own
/// examples are wrong).
pub fn load(source: &SpecSource) -> Result<model::Spec, Diagnostics> {
    let spec = check::check(source)?;
    let wrong = Validator::new(&spec).judge_examples(&spec);
    if wrong.is_empty() {
        Ok(spec)
    } else {
        Err(Diagnostics(wrong))
    }
}

/// Loads every spec and renders its files: `rust/<name>.rs`, `schema/<name>.schema.json`,
/// and `diagrams/<name>.<states>.mmd` for each state machine.
/// Pure and deterministic; all specs are checked and every problem is returned together.
pub fn generate(
    sources: &[SpecSource],
    options: &Options,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let mut all = Vec::new();
    for (what, p) in [
        ("runtime_path", &options.runtime_path),
        ("derive_path", &options.derive_path),
    ] {
        if syn::parse_str::<syn::Path>(p).is_err() {
            all.push(Diagnostic {
                file: "<options>".to_owned(),
                pos: Pos::default(),
                message: format!("{what} `{p}` is not a Rust path"),
                hint: "write a path such as `::specmint_runtime`".to_owned(),
            });
        }
    }
    let mut specs = Vec::new();
    let mut names = BTreeMap::new();
    for s in sources {
        if let Some(prev) = names.insert(s.name.clone(), s.md_path.clone()) {
            all.push(Diagnostic {
                file: s.md_path.clone(),
                pos: Pos::default(),
                message: format!("spec name `{}` is also used by {prev}", s.name),
                hint: "give every spec its own file stem".to_owned(),
            });
        }
        if !names::is_ident(&s.name) || names::is_raw_keyword(&s.name) {
            all.push(Diagnostic {
                file: s.md_path.clone(),
                pos: Pos::default(),
                message: format!("spec name `{}` cannot be a Rust module name", s.name),
                hint: "name the files in lower_snake_case: `<name>.md` and `<name>.toml`"
                    .to_owned(),
            });
        }
        match load(s) {
            Ok(mut spec) => {
                if let Some(dir) = &options.spec_dir_in_files {
                    spec.md_path = match dir.trim_end_matches('/') {
                        "" => format!("{}.md", spec.name),
                        dir => format!("{dir}/{}.md", spec.name),
                    };
                }
                specs.push(spec)
            }
            Err(d) => all.extend(d.0),
        }
    }
    if all.is_empty() {
        all.extend(emit::check_attribute_paths(&specs, options));
    }
    if !all.is_empty() {
        return Err(Diagnostics(all));
    }
    let mut files = BTreeMap::new();
    for spec in &specs {
        files.extend(emit::files(spec, options));
    }
    Ok(files)
}
