//! What the benchmarks compare, per spec: fixtures (input bytes) and contenders (bytes in →
//! verdict out, and validate-only on an already-parsed value).
//!
//! Adding a bundled spec is a few lines in [`specs`]: `spec_bench!(module::Root)` gives
//! the spec's own examples as fixtures (the minimal one and the largest valid one) and the
//! contenders that need nothing written by hand: specmint, the serde-only floor and the
//! `jsonschema` crate. A spec module such as [`task_packet`] adds its extra fixtures and
//! the hand-written comparisons (garde, a plain validate function).

pub mod task_packet;

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use specmint::runtime::document::{accepts, parse_document, DocumentSpec};

/// One input document.
pub struct Fixture {
    /// Short name, used in benchmark ids (`minimal`, `full`, `cjk_near_cap`, ...).
    pub name: String,
    /// The exact input bytes.
    pub bytes: Vec<u8>,
    /// Whether specmint accepts it (checked before any timing).
    pub valid: bool,
}

/// Bytes in, verdict out. `true` means "valid".
pub type Check = Box<dyn Fn(&[u8]) -> bool>;
/// Parses the bytes once (outside the timing) and returns the validate-only step.
pub type Prepare = Box<dyn Fn(&[u8]) -> Box<dyn Fn() -> bool>>;

/// One way of reaching a verdict.
pub struct Contender {
    /// Benchmark id: `specmint`, `serde_floor`, `jsonschema`, `garde`, `hand_written`, ...
    pub name: &'static str,
    /// Bytes → verdict.
    pub check: Check,
    /// Validate-only on a parsed value, when the contender separates the two steps.
    pub validate_only: Option<Prepare>,
    /// Whether its verdict must agree with specmint's (false for the floor, which does not
    /// validate, and for JSON Schema, which cannot state every rule).
    pub full_rules: bool,
}

/// Everything benchmarked for one spec.
pub struct SpecBench {
    /// The spec's module name (`task_packet`).
    pub spec: &'static str,
    pub fixtures: Vec<Fixture>,
    pub contenders: Vec<Contender>,
}

impl SpecBench {
    /// Checks every contender's verdict on every fixture before anything is timed: a
    /// benchmark of a validator that gets the wrong answer measures nothing.
    pub fn assert_verdicts(&self) {
        for fixture in &self.fixtures {
            for c in &self.contenders {
                let verdict = (c.check)(&fixture.bytes);
                let expected = if c.full_rules { fixture.valid } else { true };
                // The floor accepts every fixture that parses; JSON Schema refuses the
                // invalid fixtures it can express, so only its valid verdicts are checked.
                if c.name.starts_with("jsonschema") && !fixture.valid {
                    continue;
                }
                assert_eq!(
                    verdict, expected,
                    "{}: contender `{}` says valid={verdict} on fixture `{}`",
                    self.spec, c.name, fixture.name
                );
                if let Some(prepare) = &c.validate_only {
                    let run = prepare(&fixture.bytes);
                    assert_eq!(
                        run(),
                        fixture.valid,
                        "{}: `{}` validate-only on `{}`",
                        self.spec,
                        c.name,
                        fixture.name
                    );
                }
            }
        }
    }
}

/// specmint: the generated type's document entry point (size, encoding, strict typed parse,
/// every rule).
pub fn specmint<T>(document: &'static DocumentSpec) -> Contender
where
    T: DeserializeOwned + specmint::Validate + 'static,
{
    Contender {
        name: "specmint",
        check: Box::new(move |bytes| parse_document::<T>(bytes, document).is_ok()),
        validate_only: Some(Box::new(move |bytes| {
            let value: T = parse_document_unchecked(bytes);
            Box::new(move || specmint::Validate::validate(&value).is_ok())
        })),
        full_rules: true,
    }
}

/// specmint's verdict alone ([`accepts`]): every rule applied, but a refusal is not
/// diagnosed (no violation rendered, no path-tracking re-parse), the document read into a
/// value the thread keeps: what a binding's `valid` runs, and the match for `jsonschema`'s
/// `is_valid`.
pub fn specmint_verdict<T>(document: &'static DocumentSpec) -> Contender
where
    T: DeserializeOwned + specmint::Validate + 'static,
{
    Contender {
        name: "specmint_verdict",
        check: Box::new(move |bytes| accepts::<T>(bytes, document)),
        validate_only: None,
        full_rules: true,
    }
}

/// The floor: `serde_json` typed deserialization of the same bytes into the same plain
/// serde structs (the generated types are plain serde structs with
/// `deny_unknown_fields`; their `Validate` derive does not touch deserialization), no
/// validation, no size/encoding/strict-shape checks.
pub fn serde_floor<T: DeserializeOwned + 'static>() -> Contender {
    Contender {
        name: "serde_floor",
        check: Box::new(|bytes| serde_json::from_slice::<T>(bytes).is_ok()),
        validate_only: None,
        full_rules: false,
    }
}

/// The `jsonschema` crate with the emitted schema: bytes → `serde_json::Value` →
/// validator. `all_errors`: collect every error (like the others' full reports) instead of
/// stopping at the first (`is_valid`).
pub fn jsonschema(schema: &'static str, all_errors: bool) -> Contender {
    let schema: serde_json::Value = serde_json::from_str(schema).expect("schema is JSON");
    let validator = jsonschema::draft202012::new(&schema).expect("the emitted schema compiles");
    let validator2 = validator.clone();
    let check: Check = if all_errors {
        Box::new(
            move |bytes| match serde_json::from_slice::<serde_json::Value>(bytes) {
                Ok(value) => validator.iter_errors(&value).count() == 0,
                Err(_) => false,
            },
        )
    } else {
        Box::new(
            move |bytes| match serde_json::from_slice::<serde_json::Value>(bytes) {
                Ok(value) => validator.is_valid(&value),
                Err(_) => false,
            },
        )
    };
    Contender {
        name: if all_errors {
            "jsonschema_all_errors"
        } else {
            "jsonschema"
        },
        check,
        validate_only: Some(Box::new(move |bytes| {
            let value: serde_json::Value = serde_json::from_slice(bytes).expect("JSON");
            let validator = validator2.clone();
            if all_errors {
                Box::new(move || validator.iter_errors(&value).count() == 0)
            } else {
                Box::new(move || validator.is_valid(&value))
            }
        })),
        full_rules: false,
    }
}

/// garde on hand-written structs `G` mirroring the spec (chars length mode, custom rules
/// for what garde has no rule for).
pub fn garde<G>() -> Contender
where
    G: DeserializeOwned + garde::Validate<Context = ()> + 'static,
{
    Contender {
        name: "garde",
        check: Box::new(|bytes| match serde_json::from_slice::<G>(bytes) {
            Ok(value) => value.validate().is_ok(),
            Err(_) => false,
        }),
        validate_only: Some(Box::new(|bytes| {
            let value: G = serde_json::from_slice(bytes).expect("parses");
            Box::new(move || value.validate().is_ok())
        })),
        full_rules: true,
    }
}

/// A plain validate function over plain serde structs `T`, as a user would write it without
/// specmint. It returns every violation as a message.
pub fn hand_written<T>(validate: fn(&T) -> Result<(), Vec<String>>) -> Contender
where
    T: DeserializeOwned + 'static,
{
    Contender {
        name: "hand_written",
        check: Box::new(move |bytes| match serde_json::from_slice::<T>(bytes) {
            Ok(value) => validate(&value).is_ok(),
            Err(_) => false,
        }),
        validate_only: Some(Box::new(move |bytes| {
            let value: T = serde_json::from_slice(bytes).expect("parses");
            Box::new(move || validate(&value).is_ok())
        })),
        full_rules: true,
    }
}

/// Parses without validating (for validate-only benchmarks of values that may be invalid).
fn parse_document_unchecked<T: DeserializeOwned>(bytes: &[u8]) -> T {
    serde_json::from_slice(bytes).expect("fixture parses")
}

/// The library's package root (where `spec/` lives).
pub fn root() -> PathBuf {
    crate::repository_root().to_path_buf()
}

/// The spec's own fenced examples: `minimal` (the shortest valid one) and `full` (the
/// longest valid one).
pub fn spec_examples(module: &str) -> Vec<Fixture> {
    let sources = specmint_codegen::read_spec_dir(&root().join(specmint::SPEC_DIR), "spec")
        .expect("spec/ is readable");
    let source = sources
        .iter()
        .find(|s| s.name == module)
        .unwrap_or_else(|| panic!("no spec `{module}`"));
    let spec = specmint_codegen::load(source).unwrap_or_else(|d| panic!("{d}"));
    let mut valid: Vec<&str> = spec
        .examples
        .iter()
        .filter(|e| e.kind == specmint_codegen::model::ExampleKind::Valid)
        .map(|e| e.text.as_str())
        .collect();
    valid.sort_by_key(|t| t.len());
    let mut out = Vec::new();
    if let (Some(min), Some(max)) = (valid.first(), valid.last()) {
        out.push(Fixture {
            name: "minimal".to_owned(),
            bytes: min.as_bytes().to_vec(),
            valid: true,
        });
        if valid.len() > 1 {
            out.push(Fixture {
                name: "full".to_owned(),
                bytes: max.as_bytes().to_vec(),
                valid: true,
            });
        }
    }
    out
}

/// The part of a [`SpecBench`] that needs nothing hand-written: the spec's examples as
/// fixtures; specmint (its full report, and its verdict alone), the serde floor and the
/// `jsonschema` crate (first error, and every error) as contenders.
macro_rules! spec_bench {
    ($module:ident :: $root:ident) => {
        $crate::contenders::SpecBench {
            spec: stringify!($module),
            fixtures: $crate::contenders::spec_examples(stringify!($module)),
            contenders: vec![
                $crate::contenders::serde_floor::<specmint::$module::$root>(),
                $crate::contenders::specmint::<specmint::$module::$root>(
                    &specmint::$module::DOCUMENT,
                ),
                $crate::contenders::specmint_verdict::<specmint::$module::$root>(
                    &specmint::$module::DOCUMENT,
                ),
                $crate::contenders::jsonschema(specmint::$module::JSON_SCHEMA, false),
                $crate::contenders::jsonschema(specmint::$module::JSON_SCHEMA, true),
            ],
        }
    };
}
pub(crate) use spec_bench;

/// Every spec benchmarked. A new bundled spec: `spec_bench!(module::Root)`, plus its own
/// fixtures and hand-written contenders when it has them.
pub fn specs() -> Vec<SpecBench> {
    vec![
        task_packet::bench(),
        spec_bench!(action_envelope::ActionEnvelope),
        spec_bench!(task_envelope::TaskEnvelope),
        spec_bench!(taskpack::FlatTaskPack),
    ]
}
