//! Differential testing: the `jsonschema` crate on the emitted schema against the Rust
//! validator, on documents made by mutating every spec's valid corpus cases with a seeded
//! xorshift PRNG (lengths around caps in several scripts, blank strings, missing, unknown and
//! forbidden keys, wrong types, enum near misses, grown and shrunk arrays).
//!
//! The verdicts must agree on every document, except where every violation the Rust validator
//! reports comes from a rule the schema carries only in an `x-` keyword (then the schema must
//! accept). `SPECMINT_DIFFERENTIAL_DOCS` sets the number of documents per spec (default 5,000;
//! `scripts/differential.sh` runs 100,000), `SPECMINT_DIFFERENTIAL_SEED` the seed.

use serde_json::{json, Map, Value};
use specmint::bundled;

use crate::common::Rng;

/// Characters strings are built from: ASCII, 2-byte Latin, CJK, astral emoji, a combining
/// accent, and whitespace that is (or is not) Unicode White_Space.
const CHARS: &[&str] = &[
    "a",
    "Z",
    "7",
    "\u{e9}",
    "\u{5b57}",
    "\u{1f600}",
    "\u{301}",
    " ",
    "\u{3000}",
    "\u{85}",
    "\u{a0}",
    "\u{feff}",
    "\u{200b}",
    "\t",
    "-",
    "_",
];

/// An `x-` rule of the schema: its code and, when it has one, its limit.
#[derive(Debug)]
struct XRule {
    code: String,
    limit: Option<u64>,
}

fn x_rules(v: &Value, out: &mut Vec<XRule>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match k.as_str() {
                    "x-max-items-per-group" | "x-max-bytes" => out.push(XRule {
                        code: x["code"].as_str().unwrap_or_default().to_owned(),
                        limit: x["max"].as_u64(),
                    }),
                    // One rule an object, several an array of them.
                    "x-unique-by" => {
                        for u in x.as_array().map_or(std::slice::from_ref(x), Vec::as_slice) {
                            out.push(XRule {
                                code: u["code"].as_str().unwrap_or_default().to_owned(),
                                limit: None,
                            });
                        }
                    }
                    // Object rules a schema cannot state.
                    "x-not-contains" | "x-digest" => {
                        for c in x.as_array().into_iter().flatten() {
                            out.push(XRule {
                                code: c["code"].as_str().unwrap_or_default().to_owned(),
                                limit: None,
                            });
                        }
                    }
                    // Unique items: `uniqueItems` states an exact comparison, not a folded one.
                    "x-unique" if x["ignore-case"] == true || x["trim"] == true => {
                        out.push(XRule {
                            code: x["code"].as_str().unwrap_or_default().to_owned(),
                            limit: None,
                        })
                    }
                    "x-contradictions" | "x-not-equal-codes" => {
                        for c in x.as_array().into_iter().flatten() {
                            let code = c.get("code").unwrap_or(c);
                            out.push(XRule {
                                code: code.as_str().unwrap_or_default().to_owned(),
                                limit: None,
                            });
                        }
                    }
                    _ => x_rules(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| x_rules(x, out)),
        _ => {}
    }
}

/// Every `maxLength` / `maxItems` in the schema: the lengths worth probing around.
fn limits(v: &Value, out: &mut Vec<usize>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "maxLength" || k == "maxItems" {
                    out.push(x.as_u64().unwrap_or(0) as usize);
                } else if k == "x-max-items-per-group" {
                    out.push(x["max"].as_u64().unwrap_or(0) as usize);
                }
                limits(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| limits(x, out)),
        _ => {}
    }
}

/// JSON pointers of every value in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

struct Mutator<'a> {
    rng: Rng,
    limits: &'a [usize],
    forbidden: &'a [String],
    keys: &'a [String],
}

impl Mutator<'_> {
    fn string(&mut self) -> String {
        let n = match self.rng.below(4) {
            0 => self.rng.below(4),
            1 => {
                let l = *self.rng.pick(self.limits);
                (l + self.rng.below(3)).saturating_sub(1)
            }
            _ => self.rng.below(12),
        };
        let script = self.rng.below(CHARS.len() + 1);
        (0..n)
            .map(|_| {
                if script == CHARS.len() {
                    *self.rng.pick(CHARS)
                } else if self.rng.below(8) == 0 {
                    "a"
                } else {
                    CHARS[script]
                }
            })
            .collect()
    }

    fn scalar(&mut self) -> Value {
        match self.rng.below(8) {
            0 => Value::Null,
            1 => json!(self.rng.below(2) == 0),
            2 => json!(*self.rng.pick(&[0i64, 1, -1, 4_294_967_295, 4_294_967_296])),
            3 => json!(1.5),
            4 => json!([]),
            5 => json!({}),
            _ => json!(self.string()),
        }
    }

    /// A near miss of a string: case, `_`↔`-`, padding.
    fn near_miss(&mut self, s: &str) -> String {
        match self.rng.below(5) {
            0 => s.to_uppercase(),
            1 => s.replace('_', "-"),
            2 => format!(" {s}\u{3000}"),
            3 => {
                let mut c = s.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            }
            _ => format!("{s}x"),
        }
    }

    fn mutate(&mut self, doc: &mut Value) -> &'static str {
        let mut ptrs = Vec::new();
        pointers(doc, String::new(), &mut ptrs);
        let ptr = self.rng.pick(&ptrs).clone();
        let kind = self.rng.below(9);
        let target = doc.pointer_mut(&ptr).expect("a pointer from the walk");
        match (kind, target) {
            (0 | 1, t @ Value::String(_)) => {
                *t = json!(self.string());
                "string length/script"
            }
            (2, t @ Value::String(_)) => {
                let s = t.as_str().unwrap_or_default().to_owned();
                *t = json!(self.near_miss(&s));
                "near miss"
            }
            (3, Value::Object(m)) if !m.is_empty() => {
                let k = m.keys().nth(self.rng.below(m.len())).cloned().unwrap();
                m.remove(&k);
                "missing key"
            }
            (4, Value::Object(m)) => {
                let k = if self.rng.below(2) == 0 && !self.forbidden.is_empty() {
                    self.rng.pick(self.forbidden).clone()
                } else if self.rng.below(2) == 0 {
                    self.rng.pick(self.keys).clone()
                } else {
                    "x_extra".to_owned()
                };
                let v = self.scalar();
                m.insert(k, v);
                "extra key"
            }
            (5, Value::Array(a)) if !a.is_empty() => {
                let grow = self.rng.pick(self.limits) + 1;
                let n = self.rng.below(grow + 1);
                let src = a.clone();
                while a.len() < n {
                    let mut item = self.rng.pick(&src).clone();
                    if let Some(s) = item.as_str() {
                        item = json!(format!("{s}{}", a.len()));
                    } else if let Value::Object(m) = &mut item {
                        // Keep string members distinct (unique keys) most of the time.
                        if self.rng.below(4) != 0 {
                            for v in m.values_mut() {
                                if let Some(s) = v.as_str() {
                                    *v = json!(format!("{s}{}", a.len()));
                                }
                            }
                        }
                    }
                    a.push(item);
                }
                "array length"
            }
            (6, Value::Array(a)) => {
                a.truncate(self.rng.below(a.len() + 1));
                "array length"
            }
            (7, t) => {
                *t = self.scalar();
                "wrong type"
            }
            (_, t @ Value::String(_)) => {
                *t = json!(*self
                    .rng
                    .pick(&["", " ", "\u{3000}", "\u{85}", "\u{feff}", "x"]));
                "blank"
            }
            (_, Value::Object(m)) => {
                m.insert(self.rng.pick(self.keys).clone(), json!(self.string()));
                "extra key"
            }
            (_, t) => {
                *t = self.scalar();
                "wrong type"
            }
        }
    }
}

fn all_keys(v: &Value, out: &mut Vec<String>) {
    if let Value::Object(m) = v {
        if let Some(Value::Object(props)) = m.get("properties") {
            out.extend(props.keys().cloned());
        }
        m.values().for_each(|x| all_keys(x, out));
    } else if let Value::Array(a) = v {
        a.iter().for_each(|x| all_keys(x, out));
    }
}

#[derive(Default, Debug)]
struct Stats {
    docs: usize,
    rust_valid: usize,
    both_invalid: usize,
    x_only: usize,
    over_input_limit: usize,
    disagreements: Vec<String>,
}

fn run(spec_module: &str, docs: usize, seed: u64) -> Stats {
    let b = bundled::ALL
        .iter()
        .find(|b| b.module == spec_module)
        .unwrap();
    let schema: Value = serde_json::from_str(b.json_schema).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let corpus_path = specmint_test_root()
        .join(specmint::GENERATED_DIR)
        .join("corpus")
        .join(spec_module)
        .join("cases.json");
    let corpus: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus_path).unwrap()).unwrap();
    let seeds: Vec<Value> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["valid"] == true)
        .map(|c| c["document"].clone())
        .collect();
    assert!(!seeds.is_empty());
    let mut xr = Vec::new();
    x_rules(&schema, &mut xr);
    let mut lims = Vec::new();
    limits(&schema, &mut lims);
    lims.push(1);
    let forbidden: Vec<String> = schema["x-forbidden-keys"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let mut keys = Vec::new();
    all_keys(&schema, &mut keys);
    keys.sort();
    keys.dedup();
    let mut m = Mutator {
        rng: Rng(seed | 1),
        limits: &lims,
        forbidden: &forbidden,
        keys: &keys,
    };
    let mut stats = Stats::default();
    for _ in 0..docs {
        let mut doc = m.rng.pick(&seeds).clone();
        let count = 1 + m.rng.below(3);
        let mut kinds = Vec::new();
        for _ in 0..count {
            kinds.push(m.mutate(&mut doc));
        }
        stats.docs += 1;
        let input = serde_json::to_vec(&doc).unwrap();
        // Refused unread by the input limit (a transport limit, not a rule): not compared.
        if input.len() > b.document.max_input_bytes {
            stats.over_input_limit += 1;
            continue;
        }
        let rust = b.validate(&input, None);
        let schema_valid = validator.is_valid(&doc);
        let ok = match &rust {
            Ok(_) => {
                stats.rust_valid += 1;
                schema_valid
            }
            Err(report) => {
                let expressible = report.iter().any(|v| {
                    !xr.iter()
                        .any(|x| x.code == v.code && (x.limit.is_none() || x.limit == v.limit))
                });
                if expressible {
                    stats.both_invalid += usize::from(!schema_valid);
                    !schema_valid
                } else {
                    stats.x_only += 1;
                    schema_valid
                }
            }
        };
        if !ok && stats.disagreements.len() < 20 {
            let codes: Vec<String> = rust
                .as_ref()
                .err()
                .map(|r| r.iter().map(|v| format!("{}@{}", v.code, v.path)).collect())
                .unwrap_or_default();
            stats.disagreements.push(format!(
                "{spec_module} ({kinds:?}): rust {codes:?}, schema valid={schema_valid}: {}",
                String::from_utf8_lossy(&input)
            ));
        } else if !ok {
            stats.disagreements.push(String::new());
        }
    }
    stats
}

fn specmint_test_root() -> std::path::PathBuf {
    super::common::root()
}

#[test]
fn the_schema_and_the_rust_validator_agree_on_mutated_documents() {
    let docs: usize = std::env::var("SPECMINT_DIFFERENTIAL_DOCS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000);
    let seed: u64 = std::env::var("SPECMINT_DIFFERENTIAL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_1234_abcd);
    let mut failures = Vec::new();
    for b in bundled::ALL {
        let started = std::time::Instant::now();
        let s = run(b.module, docs, seed);
        eprintln!(
            "differential {}: {} documents (seed {seed}), {} valid, {} refused by both, {} refused by x- rules only (schema accepts), {} over the input limit (not compared), {} disagreements, {:.1}s",
            b.module,
            s.docs,
            s.rust_valid,
            s.both_invalid,
            s.x_only,
            s.over_input_limit,
            s.disagreements.len(),
            started.elapsed().as_secs_f64()
        );
        assert!(
            s.rust_valid > 0 && s.both_invalid > 0,
            "{}: mutations too weak or too strong",
            b.module
        );
        failures.extend(s.disagreements.into_iter().filter(|d| !d.is_empty()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_prng_is_deterministic() {
    let mut a = Rng(42);
    let mut b = Rng(42);
    let xs: Vec<u64> = (0..5).map(|_| a.next()).collect();
    let ys: Vec<u64> = (0..5).map(|_| b.next()).collect();
    assert_eq!(xs, ys);
    let _ = Map::<String, Value>::new();
}
