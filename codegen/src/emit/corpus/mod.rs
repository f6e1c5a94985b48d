//! Emit the conformance corpus: `corpus/<spec>/cases.json`, documents with the verdict the
//! spec's tables give them.
//!
//! Every case is the spec's first valid example (the *base*) with one mutation, or one of the
//! spec's own examples. The expected verdict and `(code, path)` list come from the model, never
//! from running a validator; `tests/it/corpus.rs` then checks that the Rust validator agrees.
//! A case is `schema_expressible` when the rule it exercises is one JSON Schema states
//! (structure, types, enums, `maxLength`, `maxItems`, the non-blank pattern, closed objects);
//! cross-field rules, per-group caps and byte caps are `x-` only.

mod canonical;
mod caps;
mod choices;
mod conditions;
mod cross_field;
mod expressions;
mod fit;
mod formats;
mod guarded;
mod locate;
mod objects;
mod required;
mod strings;
mod synth;
mod types;

use serde_json::{json, Map, Value};

use crate::model::*;

use locate::{dotted, join, owner_path, scope_of, Hop};

/// Expected `(code, path)` violations.
type Expected = Vec<(String, String)>;

/// The unknown key added at each object level.
const UNKNOWN_KEY: &str = "x_unknown_key";

/// A JSON number as a decimal reads it (its text as serde_json writes it); `None` for
/// anything else or what no decimal holds.
pub(crate) fn json_decimal(v: &Value) -> Option<crate::model::Decimal> {
    match v {
        Value::Number(n) => crate::model::Decimal::from_json_text(&n.to_string()).ok(),
        _ => None,
    }
}

/// One corpus case.
struct Case {
    id: String,
    description: String,
    rule: String,
    expressible: bool,
    errors: Expected,
    document: Value,
    /// The document's exact text, when the spelling of a number in it matters (a decimal
    /// past what a double keeps, `1e-2`, `100.000`): `document` then holds what a double
    /// reading of it gives, and a runner sends this text instead.
    text: Option<String>,
    traps: Vec<&'static str>,
    /// Why an x-only case is x-only when its rule is one the schema states elsewhere.
    reason: Option<String>,
}

impl Case {
    /// A case that JSON Schema can judge and that is valid, until said otherwise.
    fn new(id: String, description: String, rule: impl Into<String>, document: Value) -> Self {
        Case {
            id,
            description,
            rule: rule.into(),
            expressible: true,
            errors: Vec::new(),
            document,
            text: None,
            traps: Vec::new(),
            reason: None,
        }
    }

    /// The case's document is `text` exactly (see [`Case::text`]).
    fn text(mut self, text: String) -> Self {
        self.text = Some(text);
        self
    }

    /// The violations the document has.
    fn errors(mut self, errors: Expected) -> Self {
        self.errors = errors;
        self
    }

    /// Whether JSON Schema states the rule the case exercises.
    fn expressible(mut self, expressible: bool) -> Self {
        self.expressible = expressible;
        self
    }

    /// The rule is an `x-` one: JSON Schema cannot state it.
    fn x_only(self) -> Self {
        self.expressible(false)
    }

    /// Why the case is x-only although its rule is one JSON Schema states elsewhere.
    fn because(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self.x_only()
    }

    /// The naive counters that get the case wrong.
    fn traps(mut self, traps: Vec<&'static str>) -> Self {
        self.traps = traps;
        self
    }
}

/// One field location being probed.
struct Loc<'a, 'h> {
    hops: &'h [Hop<'a>],
    /// Its dotted path (`items[0].name`).
    path: String,
    /// The id prefix of its cases: the chosen members on the way (`kind=close:`).
    scope: String,
}

impl<'a, 'h> Loc<'a, 'h> {
    fn new(hops: &'h [Hop<'a>]) -> Self {
        Loc {
            hops,
            path: dotted(hops),
            scope: scope_of(hops),
        }
    }
}

/// Renders `corpus/<spec>/cases.json`: pretty, sorted keys, cases sorted by id, trailing LF.
pub(crate) fn emit(spec: &Spec, note: &str) -> String {
    let mut g = Gen {
        spec,
        cases: Vec::new(),
        notes: Vec::new(),
    };
    g.run();
    let Gen {
        mut cases, notes, ..
    } = g;
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    let mut seen = std::collections::BTreeSet::new();
    for c in &cases {
        assert!(seen.insert(c.id.clone()), "corpus case id `{}` twice", c.id);
    }
    let rendered: Vec<Value> = cases
        .iter()
        .map(|c| {
            let mut m = Map::new();
            m.insert("id".into(), json!(c.id));
            m.insert("description".into(), json!(c.description));
            m.insert("rule".into(), json!(c.rule));
            // Every valid document must be accepted by the schema, whatever rule it probes.
            m.insert(
                "schema_expressible".into(),
                json!(c.expressible || c.errors.is_empty()),
            );
            m.insert("valid".into(), json!(c.errors.is_empty()));
            m.insert(
                "errors".into(),
                json!(c
                    .errors
                    .iter()
                    .map(|(code, path)| json!({"code": code, "path": path}))
                    .collect::<Vec<_>>()),
            );
            m.insert("document".into(), c.document.clone());
            if let Some(text) = &c.text {
                m.insert("text".into(), json!(text));
            }
            if !c.traps.is_empty() {
                m.insert("traps".into(), json!(c.traps));
            }
            if let Some(r) = &c.reason {
                m.insert("x_only_reason".into(), json!(r));
            }
            Value::Object(m)
        })
        .collect();
    let top = json!({
        "$comment": note,
        "spec": spec.name,
        "document": spec.document_name,
        "schema": format!("schema/{}.schema.json", spec.name),
        "notes": notes,
        "cases": rendered,
    });
    specmint_runtime::json_text::pretty_file(&top)
}

/// The corpus of one spec, as it is generated.
struct Gen<'a> {
    spec: &'a Spec,
    cases: Vec<Case>,
    notes: Vec<String>,
}

impl<'a> Gen<'a> {
    /// Adds a case under `scope` (the id prefix of its location); a mutation that also
    /// pushes the document over its byte cap says so.
    fn push(&mut self, scope: &str, mut case: Case) {
        // A value the mutation did not mean to break (a synthesized item that cannot keep
        // its pattern, say): the case would be false, so it is left out.
        // Counted: a list over its cap and two of its groups over theirs is three
        // violations of one code at one path where the codes are shared.
        let mut stray = Vec::new();
        fit::value_violations(
            self.spec,
            self.spec.root_object(),
            &case.document,
            "",
            &mut stray,
        );
        // The guarded rules too, on a document that is the shape (else none is checked).
        if !case
            .errors
            .iter()
            .any(|(c, _)| *c == self.spec.errors.parse)
        {
            let root = self.spec.root_object();
            self.guarded_violations(root, &case.document, "", false, &mut stray);
            // A rules table's row that a mutation breaks on the way (a line's amount changed
            // breaks the sum of the lines) is part of the case's verdict, as the runtime's
            // evaluator computes it on the case's JSON: the case keeps its probe.
            let mut rows = Vec::new();
            self.guarded_violations(root, &case.document, "", true, &mut rows);
            for r in rows {
                if !case.errors.contains(&r) {
                    case.errors.push(r);
                }
            }
            // Such a row's code is carried by `x-rules` only: no schema refuses it.
            let row_codes: Vec<&str> = self
                .spec
                .rules
                .iter()
                .filter(|r| r.kind == RuleKind::Expression)
                .map(|r| r.code.as_str())
                .collect();
            if case
                .errors
                .iter()
                .any(|(c, _)| row_codes.contains(&c.as_str()))
            {
                case.expressible = false;
            }
        }
        let mut expected = case.errors.clone();
        let unmeant = stray
            .into_iter()
            .find(|e| match expected.iter().position(|x| x == e) {
                Some(i) => {
                    expected.swap_remove(i);
                    false
                }
                None => true,
            });
        if let Some((code, path)) = unmeant {
            self.notes.push(format!(
                "{scope}{}: left out, its document also breaks `{code}` at `{path}`",
                case.id
            ));
            return;
        }
        if let Some(cap) = &self.spec.root_object().max_json_bytes {
            // A document that is not the shape is never written back, so never measured.
            let parsed = !case
                .errors
                .iter()
                .any(|(c, _)| *c == self.spec.errors.parse);
            if parsed
                && !case.rule.starts_with("max_bytes")
                && self.canonical_bytes(&case.document) > cap.value
            {
                if case.errors.is_empty() && case.expressible {
                    // Only the byte cap, an x- rule, refuses it.
                    case = case.because(format!(
                        "the document is over the byte cap {}, an x- rule",
                        cap.constant
                    ));
                }
                case.errors.push((cap.code.clone(), String::new()));
                // Refused whatever a naive counter says: no trap.
                case.traps.clear();
            }
        }
        case.id = format!("{scope}{}", case.id);
        self.cases.push(case);
    }

    /// The base, the spec's examples, then every mutation family at every location and
    /// object level.
    fn run(&mut self) {
        let Some(base) = self.base() else {
            self.notes
                .push("no valid example: only the spec's examples are in the corpus".into());
            self.examples();
            return;
        };
        let what = "the base document: the spec's first valid example";
        self.push(
            "",
            Case::new("base".into(), what.into(), "example", base.clone()),
        );
        self.examples();
        let locations = self.locations();
        for hops in &locations {
            let loc = Loc::new(hops);
            self.char_caps(&base, &loc);
            self.item_caps(&base, &loc);
            self.non_blank(&base, &loc);
            self.enums(&base, &loc);
            self.unions(&base, &loc);
            self.wrong_type(&base, &loc);
            self.integers(&base, &loc);
            self.numbers(&base, &loc);
            self.decimals(&base, &loc);
            self.literals(&base, &loc);
            self.patterns(&base, &loc);
            self.formats(&base, &loc);
            self.relative_paths(&base, &loc);
            self.coded_required(&base, &loc);
            self.required_if(&base, &loc);
            self.unique_items(&base, &loc);
            self.required(&base, &loc);
            self.cross_field(&base, &loc);
        }
        self.object_levels(&base, &locations);
        self.byte_cap(&base);
    }

    /// The spec's own examples, as they are.
    fn examples(&mut self) {
        let expressible = self.spec.expressible_codes();
        let examples = self.spec.examples.clone();
        for e in &examples {
            let Ok(document) = serde_json::from_str::<Value>(&e.text) else {
                continue;
            };
            let errors = match &e.kind {
                ExampleKind::Valid => vec![],
                ExampleKind::Invalid(v) => v.clone(),
                ExampleKind::Fragment => continue,
            };
            let ok = errors
                .iter()
                .all(|(c, _)| expressible.contains(&c.as_str()));
            self.cases.push(Case {
                id: format!("example.line{:04}", e.line),
                description: format!("the spec's example at {}:{}", self.spec.md_path, e.line),
                rule: "example".into(),
                expressible: ok,
                errors,
                document,
                // A decimal is read from its text: the example exactly as the spec writes it.
                text: self.spec.has_decimals().then(|| e.text.clone()),
                traps: vec![],
                reason: (!ok).then(|| "a code it names is also produced by an x- rule".to_owned()),
            });
        }
    }
}

/// A case's expected errors: none when `ok`, else the one `code` at `path`.
fn unless(ok: bool, code: impl Into<String>, path: impl Into<String>) -> Expected {
    if ok {
        vec![]
    } else {
        vec![(code.into(), path.into())]
    }
}
