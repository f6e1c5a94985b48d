//! Property: `diff` is sound and complete on random spec pairs. The random specs of `random_spec.rs`
//! (the generator `random_specs` uses, the same seeds), each edited once by every edit
//! kind below that applies to it (an edit whose spec no longer loads, such as a cap tightened
//! under the example's own length, is skipped and counted):
//! - every edit of a breaking kind is reported, with its id and exactly its categories;
//! - every witness really flips: both models' interpreters, run here, give the verdicts the
//!   report states, one accepting and the other refusing;
//! - complete: every verdict flip found by re-judging both sides' generated corpora with both
//!   interpreters is reported, as a change with that category (`documents` for a document
//!   the old accepts and the new refuses, `readers` for the reverse); so an edit reported
//!   with neither (a rename, a prose edit) has no flip.
//!
//! Some edits first prepare the spec on both sides (two ordered fields added for an
//! `[[order]]` whose `strict` the edit then flips).
//!
//! Each edit kind must apply to at least 3 specs, so a generator change cannot make the test
//! vacuous.

use crate::random_spec;

use std::collections::BTreeMap;

use serde_json::Value;
use specmint_codegen::diff::{diff, Break, Proof};
use specmint_codegen::{generate, load, Options, SpecSource, Validator};

/// How many random specs; the generator is seeded, so a failure replays.
const SPECS: u64 = 12;

/// An edit: its name, the change id and categories it must report, and how it rewrites a
/// source (`None`: it does not apply to this spec).
struct Edit {
    name: &'static str,
    /// The change id and its categories (`None`: whatever the witnesses prove, which the
    /// completeness check holds to the corpora's flips).
    expect: Option<(&'static str, Option<&'static [Break]>)>,
    /// What both sides are made of first (`None`: the random spec as generated).
    prepare: Option<fn(&SpecSource) -> Option<SpecSource>>,
    apply: fn(&SpecSource) -> Option<SpecSource>,
}

/// Two optional `uint32?` fields at the root, `zz_lo` before `zz_hi` (`[[order]]`, `strict`
/// as given, code `zz_order`).
fn ordered(s: &SpecSource, strict: bool) -> Option<SpecSource> {
    let mut out = root_row(s, "| `zz_lo` | uint32? | — | Low. |", None)?;
    out = root_row(&out, "| `zz_hi` | uint32? | — | High. |", None)?;
    let codes = "| Code | When |\n|---|---|\n";
    let at = out.md.find(codes)? + codes.len();
    out.md.insert_str(at, "| `zz_order` | Out of order. |\n");
    out.toml.push_str(&format!(
        "\n[[order]]\na = \"zz_lo\"\nb = \"zz_hi\"\nstrict = {strict}\ncode = \"zz_order\"\n"
    ));
    Some(out)
}

/// The first `from` in the sidecar replaced by `to`.
fn in_toml(s: &SpecSource, from: &str, to: &str) -> Option<SpecSource> {
    let mut out = s.clone();
    out.toml = s.toml.replacen(from, to, 1);
    (out.toml != s.toml).then_some(out)
}

/// The first `| N chars |` row with N > 1, its number replaced by `f(N)`.
fn char_cap(s: &SpecSource, f: fn(u64) -> u64) -> Option<SpecSource> {
    let at = s.md.find(" chars | ")?;
    let start = s.md[..at].rfind("| ")? + 2;
    let n: u64 = s.md[start..at].parse().ok()?;
    if n < 2 || s.md[..start].ends_with("at least ") {
        return None;
    }
    let mut out = s.clone();
    out.md = format!("{}{}{}", &s.md[..start], f(n), &s.md[at..]);
    Some(out)
}

fn replaced(s: &SpecSource, md: (&str, &str), toml: Option<(&str, &str)>) -> Option<SpecSource> {
    if !s.md.contains(md.0) {
        return None;
    }
    let mut out = s.clone();
    out.md = s.md.replace(md.0, md.1);
    if let Some((a, b)) = toml {
        if !s.toml.contains(a) {
            return None;
        }
        out.toml = s.toml.replace(a, b);
    }
    Some(out)
}

/// A row added after the root field table's header.
fn root_row(s: &SpecSource, row: &str, example_member: Option<&str>) -> Option<SpecSource> {
    let header = "| Field | Type | Required | Meaning |\n|---|---|---|---|\n";
    let at = s.md.find(header)? + header.len();
    let mut out = s.clone();
    out.md = format!("{}{row}\n{}", &s.md[..at], &s.md[at..]);
    if let Some(member) = example_member {
        let fence = "```json valid\n{";
        let at = out.md.find(fence)? + fence.len();
        out.md = format!("{}{member}, {}", &out.md[..at], &out.md[at..]);
    }
    Some(out)
}

const EDITS: &[Edit] = &[
    Edit {
        name: "cap tightened",
        expect: Some(("cap-tightened", Some(&[Break::Documents]))),
        prepare: None,
        apply: |s| char_cap(s, |n| n - 1),
    },
    Edit {
        name: "cap loosened",
        expect: Some(("cap-loosened", Some(&[Break::Readers]))),
        prepare: None,
        apply: |s| char_cap(s, |n| n + 3),
    },
    Edit {
        name: "enum value removed",
        expect: Some((
            "enum-value-removed",
            Some(&[Break::Documents, Break::RustApi]),
        )),
        prepare: None,
        apply: |s| replaced(s, ("| `dim` | dim. |\n", ""), None),
    },
    Edit {
        name: "optional field added",
        expect: Some(("field-added-optional", Some(&[Break::Readers]))),
        prepare: None,
        apply: |s| root_row(s, "| `zz_new` | string? | — | New. |", None),
    },
    Edit {
        name: "required field added",
        expect: Some((
            "field-added-required",
            Some(&[Break::Documents, Break::Readers]),
        )),
        prepare: None,
        apply: |s| {
            root_row(
                s,
                "| `zz_new` | string | ✔ | New. |",
                Some("\"zz_new\": \"z\""),
            )
        },
    },
    Edit {
        name: "error code renamed",
        expect: Some(("error-code-renamed", Some(&[Break::RustApi, Break::Codes]))),
        prepare: None,
        apply: |s| {
            replaced(
                s,
                ("| `bad_doc` |", "| `bad_document` |"),
                Some(("\"bad_doc\"", "\"bad_document\"")),
            )
        },
    },
    Edit {
        name: "constant renamed",
        expect: Some(("constant-renamed", Some(&[Break::RustApi]))),
        prepare: None,
        apply: |s| {
            let at = s.md.find("_MAX_CHARS |")? + "_MAX_CHARS".len();
            let mut out = s.clone();
            out.md = format!("{}_V2{}", &s.md[..at], &s.md[at..]);
            Some(out)
        },
    },
    Edit {
        name: "transition removed",
        expect: Some(("transition-removed", Some(&[Break::Machines]))),
        prepare: None,
        apply: |s| replaced(s, ("| `new` | `active` |\n", ""), None),
    },
    Edit {
        name: "prose edit",
        expect: None,
        prepare: None,
        apply: |s| {
            replaced(
                s,
                ("## Caps\n", "## Caps\n\nEvery limit, in one place.\n"),
                None,
            )
        },
    },
    Edit {
        name: "order strict loosened",
        expect: Some(("rule-loosened", Some(&[Break::Readers]))),
        prepare: Some(|s| ordered(s, true)),
        apply: |s| in_toml(s, "strict = true", "strict = false"),
    },
    Edit {
        name: "order strict tightened",
        expect: Some(("rule-tightened", Some(&[Break::Documents]))),
        prepare: Some(|s| ordered(s, false)),
        apply: |s| in_toml(s, "strict = false", "strict = true"),
    },
    Edit {
        name: "unique ignore_case loosened",
        expect: Some(("rule-loosened", Some(&[Break::Readers]))),
        prepare: None,
        apply: |s| in_toml(s, "ignore_case = true", "ignore_case = false"),
    },
    Edit {
        name: "unique trim tightened",
        expect: Some(("rule-tightened", Some(&[Break::Documents]))),
        prepare: None,
        apply: |s| in_toml(s, "trim = false", "trim = true"),
    },
    // Compound unique keys (issue 46): a member added loosens the rule, one removed tightens.
    Edit {
        name: "unique key member added",
        expect: Some(("rule-loosened", Some(&[Break::Readers]))),
        prepare: None,
        apply: |s| in_toml(s, "key = \"name\"", "key = [\"name\", \"note\"]"),
    },
    Edit {
        name: "unique key member removed",
        expect: Some(("rule-tightened", Some(&[Break::Documents]))),
        prepare: Some(|s| in_toml(s, "key = \"name\"", "key = [\"name\", \"note\"]")),
        apply: |s| in_toml(s, "key = [\"name\", \"note\"]", "key = \"name\""),
    },
    Edit {
        name: "default changed",
        expect: Some(("default-changed", None)),
        prepare: None,
        apply: |s| {
            replaced(s, ("— (default false)", "— (default true)"), None)
                .or_else(|| replaced(s, ("— (default dark)", "— (default light)"), None))
        },
    },
];

/// `(valid, [(code, path)])` of `text` under `v`.
fn verdict(v: &Validator, text: &str) -> (bool, Vec<(String, String)>) {
    match v.validate(text.as_bytes()) {
        Ok(_) => (true, Vec::new()),
        Err(r) => (
            false,
            r.iter()
                .map(|x| (x.code.to_string(), x.path.clone()))
                .collect(),
        ),
    }
}

/// Every corpus document of `source`.
fn corpus(source: &SpecSource) -> Vec<String> {
    let files = generate(std::slice::from_ref(source), &Options::default()).unwrap();
    let cases: Value =
        serde_json::from_str(&files[&format!("corpus/{}/cases.json", source.name)]).unwrap();
    cases["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["document"].to_string())
        .collect()
}

#[test]
fn diff_is_sound_and_complete_on_random_spec_pairs() {
    let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
    let mut skipped: BTreeMap<&str, usize> = BTreeMap::new();
    for generated in random_spec::random_sources(SPECS) {
        let plain = (load(&generated).unwrap(), corpus(&generated));
        for edit in EDITS {
            let prepared = match edit.prepare {
                None => None,
                Some(prepare) => match prepare(&generated) {
                    Some(p) if load(&p).is_ok() => Some(p),
                    _ => continue,
                },
            };
            let source = prepared.as_ref().unwrap_or(&generated);
            let Some(edited) = (edit.apply)(source) else {
                continue;
            };
            let own;
            let (old_model, old_corpus) = match &prepared {
                None => (&plain.0, &plain.1),
                Some(p) => {
                    own = (load(p).unwrap(), corpus(p));
                    (&own.0, &own.1)
                }
            };
            let old_v = Validator::new(old_model);
            let Ok(new_model) = load(&edited) else {
                *skipped.entry(edit.name).or_default() += 1;
                continue;
            };
            *applied.entry(edit.name).or_default() += 1;
            let new_v = Validator::new(&new_model);
            let why = || {
                format!(
                    "{} / {}:\n{}\n{}",
                    source.name, edit.name, edited.md, edited.toml
                )
            };
            let report = diff(std::slice::from_ref(source), std::slice::from_ref(&edited))
                .unwrap_or_else(|e| panic!("{e}\n{}", why()));
            match edit.expect {
                Some((id, breaks)) => {
                    let found = report.changes.iter().find(|c| c.id == id);
                    let found = found.unwrap_or_else(|| {
                        panic!("{id} not reported: {:#?}\n{}", report.changes, why())
                    });
                    if let Some(breaks) = breaks {
                        let mut want = breaks.to_vec();
                        want.sort();
                        assert_eq!(found.breaks, want, "{}", why());
                    }
                }
                None => assert!(
                    report.changes.is_empty(),
                    "{:#?}\n{}",
                    report.changes,
                    why()
                ),
            }
            for change in &report.changes {
                for proof in &change.proofs {
                    let Proof::Found(w) = proof else {
                        continue;
                    };
                    let (o, n) = (verdict(&old_v, &w.document), verdict(&new_v, &w.document));
                    assert_eq!(
                        (o.0, &o.1),
                        (w.old.valid(), &w.old.errors),
                        "{}: {}",
                        change.id,
                        why()
                    );
                    assert_eq!(
                        (n.0, &n.1),
                        (w.new.valid(), &w.new.errors),
                        "{}: {}",
                        change.id,
                        why()
                    );
                    match w.proves {
                        Break::Documents => assert!(o.0 && !n.0, "{}: {}", change.id, why()),
                        // A code changed: both refuse it, with other codes.
                        Break::Codes => {
                            assert!(!o.0 && !n.0 && o.1 != n.1, "{}: {}", change.id, why())
                        }
                        _ => assert!(!o.0 && n.0, "{}: {}", change.id, why()),
                    }
                }
            }
            // Complete: every flip among both corpora is reported with its category.
            for doc in old_corpus.iter().chain(&corpus(&edited)) {
                let flip = match (verdict(&old_v, doc).0, verdict(&new_v, doc).0) {
                    (true, false) => Break::Documents,
                    (false, true) => Break::Readers,
                    _ => continue,
                };
                assert!(
                    report.changes.iter().any(|c| c.breaks.contains(&flip)),
                    "{doc} flips ({flip}), which no change reports: {:#?}\n{}",
                    report.changes,
                    why()
                );
            }
        }
    }
    eprintln!("edits applied {applied:?}, skipped (the edited spec does not load) {skipped:?}");
    for edit in EDITS {
        let n = applied.get(edit.name).copied().unwrap_or(0);
        assert!(n >= 3, "edit `{}` applied to {n} specs only", edit.name);
    }
}
