//! Property: what loads, compiles. Every rule on every field type, table types and optional
//! ones included, is either refused by the loader with a diagnostic or produces Rust that
//! rustc accepts without a hand-written impl; never a rustc error in the author's crate.
//!
//! The specs: a matrix of field type × requirement (`✔`, `—`, a coded `✔`, and ``if … is …``
//! on an enum, a `bool` and a text sibling) × shape (`T`, `T?`, `T[]`, `T[]?`), and of
//! sidecar rule × field type (`[[order]]`, `[[not_equal]]`, `[[unique]]`, compound unique keys
//! with `enum` codes on the items' members), each candidate field
//! loaded alone first, then the ones that load gathered into one spec per row of the matrix;
//! and the first random specs of `random_spec.rs`. All of them are generated into one crate
//! (a module each) that depends on `specmint-runtime` alone, and `cargo build` must pass.
//! One crate keeps the cost to one build of its own code: the dependencies are those of
//! `cli/tests/it/downstream.rs`, built once in the same scratch target directory.

use specmint_codegen::{generate, load, Options, SpecSource};

use crate::common::{self, source};
use crate::random_spec::random_sources;

/// The field types under test, as spelled in a Type cell: the type, then (after the shape,
/// `?` or `[]`) its range or pattern.
const TYPES: &[(&str, &str)] = &[
    ("string", ""),
    ("non-blank string", ""),
    ("string", " matching `^a+$`"),
    ("date-time", ""),
    ("date", ""),
    ("uri", ""),
    ("uint32", ""),
    ("uint64", ""),
    ("int32", " 1..=5"),
    ("int64", " ..=0"),
    ("number", ""),
    ("number", " -90..=90.5"),
    ("bool", ""),
    ("part", ""),
    ("mode", ""),
    ("shape", ""),
    ("any", ""),
];

/// Every error code a spec of the matrix may use.
const CODES: &[&str] = &[
    "bad_doc",
    "missing",
    "blank",
    "bad_pattern",
    "bad_format",
    "out_of_range",
    "too_early",
    "same",
    "duplicate",
    "bad_enum",
];

const SHAPES: &[&str] = &["", "?", "[]", "[]?"];

/// Required cells.
const REQUIRED: &[&str] = &[
    "✔",
    "—",
    "✔ `missing`",
    "if `mode` is `a`",
    "if `flag` is `true`",
    "if `label` is `x`",
    // The field the condition reads, varied too (issue 46): a coded requirement (read as
    // `Option`), a default, `T?` and a conditional field (refused), a field with a pattern.
    "if `cmode` is `a`",
    "if `cflag` is `false`",
    "if `clabel` is `x`",
    "if `dmode` is `b`",
    "if `omode` is `a`",
    "if `rlabel` is `x`",
    "if `plabel` is `aa`",
    // The other forms of a condition (issue 46): a set, negation, a path through an
    // optional table, the items of lists.
    "if `mode` is `a` or `b`",
    "unless `cmode` is `a`",
    "if `omode` is not `b`",
    "if `clabel` is `x`, `y` or `z`",
    "if any `parts[].pmode` is `b`",
    "if every `parts[].name` is `x`",
    "unless any `modes[]` is `a`",
    "if `sub.pmode` is `a`",
    "if any `parts[].pflag` is `true`",
];

/// The `[errors]` lines: rule kind and code.
const KINDS: &[(&str, &str)] = &[
    ("required_if", "missing"),
    ("non_blank", "blank"),
    ("pattern", "bad_pattern"),
    ("format", "bad_format"),
    ("range", "out_of_range"),
];

/// A spec named `name` whose root `doc` has the fixed siblings and then `rows` (whole table
/// rows), with `sidecar` appended to the TOML; the `[errors]` lines and error codes nothing in
/// it uses are left out (the loader refuses both).
fn spec(name: &str, rows: &[String], sidecar: &str) -> SpecSource {
    spec_with_tables(name, rows, "", sidecar)
}

/// [`spec`] with more tables (whole Markdown sections) after the fixed ones.
fn spec_with_tables(name: &str, rows: &[String], tables: &str, sidecar: &str) -> SpecSource {
    let mut unused: Vec<String> = Vec::new();
    loop {
        let spec = spec_without(name, rows, tables, sidecar, &unused);
        let Err(d) = load(&spec) else { return spec };
        let more: Vec<String> = d
            .to_string()
            .lines()
            .filter_map(|l| {
                let l = l.split_once(": error: ")?.1;
                let quoted = l.split('`').nth(1)?;
                (l.ends_with("is produced by nothing")
                    || l.starts_with("no rule of the spec is a "))
                .then(|| quoted.to_owned())
            })
            .filter(|k| !unused.contains(k))
            .collect();
        if more.is_empty() {
            return spec;
        }
        unused.extend(more);
    }
}

/// [`spec`] without the code rows and `[errors]` kinds named in `unused`.
fn spec_without(
    name: &str,
    rows: &[String],
    tables: &str,
    sidecar: &str,
    unused: &[String],
) -> SpecSource {
    let used = |k: &str| !unused.iter().any(|u| u == k);
    let codes: String = CODES
        .iter()
        .filter(|c| used(c))
        .map(|c| format!("| `{c}` | A violation. |\n"))
        .collect();
    let kinds: String = KINDS
        .iter()
        .filter(|(k, _)| used(k))
        .map(|(k, c)| format!("{k} = \"{c}\"\n"))
        .collect();
    let md = format!(
        "# {name} v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `mode` | mode | ✔ | Chooses. |
| `flag` | bool | — (default false) | A switch. |
| `label` | string | — (default y) | A label. |
| `cmode` | mode | ✔ `missing` | Chooses, its absence coded. |
| `cflag` | bool | ✔ `missing` | A switch, its absence coded. |
| `clabel` | non-blank string | ✔ `missing` | A label, its absence coded. |
| `dmode` | mode | — (default a) | Chooses, by default `a`. |
| `omode` | mode? | — | Chooses, maybe. |
| `rlabel` | string? | if `flag` is `true` | A label under a condition. |
| `plabel` | string matching `^a+$` | ✔ | A label with a pattern. |
| `parts` | part[] | — | Parts. |
| `sub` | part? | — | A part, maybe. |
| `modes` | mode[] | — | Modes. |
{rows}

## Fields of a `part`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | string | ✔ | Its name. |
| `pmode` | mode? | — | Its mode, maybe. |
| `pflag` | bool | ✔ `missing` | A switch, its absence coded. |

## Modes: `mode`

| Value | Meaning |
|---|---|
| `a` | One. |
| `b` | Other. |

## Kinds of a `shape`

| kind | Fields | Meaning |
|---|---|---|
| `dot` | — | A dot. |
| `line` | `len: uint32` | A line. |
| `ruled` | `n: int32 1..=5`, `x: number? -1.5..=2`, `code: string matching ^[a-z]+$`, `when: date-time?`, `tags: string[] matching ^t$`, `at: uri` | Members with rules. |
{tables}
## Error codes

| Code | When |
|---|---|
{codes}",
        rows = rows.join("\n")
    );
    let toml = format!("[spec]\nroot = \"doc\"\n\n[errors]\nparse = \"bad_doc\"\n{kinds}{sidecar}");
    source(name, &md, &toml)
}

fn row(key: &str, ty: &str, required: &str) -> String {
    format!("| `{key}` | {ty} | {required} | Under test. |")
}

/// Every candidate `(row, sidecar)` of one matrix row that loads on its own, gathered into one
/// spec (which must load too); the candidates refused are counted in `refused`.
fn gathered(name: &str, candidates: Vec<(Vec<String>, String)>, refused: &mut usize) -> SpecSource {
    let (mut rows, mut sidecar) = (Vec::new(), String::new());
    for (i, (r, s)) in candidates.into_iter().enumerate() {
        // The loader refuses with a diagnostic or accepts; a panic fails the test here.
        match load(&spec(&format!("{name}_{i}"), &r, &s)) {
            Ok(_) => {
                rows.extend(r);
                sidecar.push_str(&s);
            }
            Err(d) => {
                if std::env::var_os("COMPILES_SHOW").is_some() {
                    eprintln!(
                        "REFUSED {name} {:?}: {}",
                        r,
                        d.to_string().lines().next().unwrap_or("")
                    );
                }
                *refused += 1;
            }
        }
    }
    let spec = spec(name, &rows, &sidecar);
    if let Err(d) = load(&spec) {
        panic!(
            "{name}: each row loads alone, not together:\n{d}\n{}",
            spec.md
        );
    }
    spec
}

fn key_of(ty: &str) -> String {
    ty.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(2)
        .collect::<Vec<_>>()
        .join("_")
}

/// A sidecar rule between two fields, by their keys.
type Sidecar = fn(&str, &str) -> String;

/// The matrix's specs and how many candidates the loader refused.
fn matrix() -> (Vec<SpecSource>, usize) {
    let mut refused = 0;
    let mut specs = Vec::new();
    for (r, required) in REQUIRED.iter().enumerate() {
        for (s, shape) in SHAPES.iter().enumerate() {
            let candidates = TYPES
                .iter()
                .map(|(ty, rule)| {
                    let ty = format!("{ty}{shape}{rule}");
                    (
                        vec![row(&format!("t_{}", key_of(&ty)), &ty, required)],
                        String::new(),
                    )
                })
                .collect();
            specs.push(gathered(
                &format!("req{r}_shape{s}"),
                candidates,
                &mut refused,
            ));
        }
    }
    // Sidecar rules between two fields of one type (optional or not).
    // `[[not_equal]]` is one per object: each of its candidates that loads is a spec.
    let rules: [(&str, Sidecar); 8] = [
        // The sidecar's rules under a condition (issue 46), on every type and shape: the
        // loader refuses what cannot hold (a bound on text, `absent` on a plain field).
        ("any_of", |a, b| {
            format!("\n[[any_of]]\nfields = [\"{a}\", \"{b}\"]\nif = \"`mode` is `a`\"\ncode = \"same\"\n")
        }),
        ("one_of", |a, b| {
            format!("\n[[one_of]]\nfields = [\"{a}\", \"{b}\"]\nunless = \"any `parts[].pmode` is `b`\"\ncode = \"same\"\n")
        }),
        ("value_if", |a, _| {
            format!("\n[[value_if]]\nfield = \"{a}\"\nmust = \"> 0\"\nif = \"every `modes[]` is `b`\"\ncode = \"out_of_range\"\n")
        }),
        ("value_if_absent", |a, _| {
            format!("\n[[value_if]]\nfield = \"{a}\"\nmust = \"absent\"\nif = \"`sub.pmode` is `a`\"\ncode = \"out_of_range\"\n")
        }),
        ("required_if", |a, _| {
            format!("\n[[required_if]]\nfield = \"{a}\"\nif = \"`cflag` is `true`\"\ncode = \"missing\"\n")
        }),
        ("order", |a, b| {
            format!("\n[[order]]\na = \"{a}\"\nb = \"{b}\"\nstrict = true\ncode = \"too_early\"\n")
        }),
        ("not_equal", |a, b| {
            format!("\n[[not_equal]]\na = \"{a}\"\nb = \"{b}\"\ncode = \"same\"\n")
        }),
        ("unique", |a, _| {
            format!("\n[[unique]]\npath = \"{a}\"\ncode = \"duplicate\"\n")
        }),
    ];
    for (name, rule) in rules {
        for shape in SHAPES {
            let candidates: Vec<_> = TYPES
                .iter()
                .map(|(ty, qualifier)| {
                    let ty = format!("{ty}{shape}{qualifier}");
                    let k = key_of(&ty);
                    let (a, b) = (format!("a_{k}"), format!("b_{k}"));
                    let required = if shape.contains('?') { "—" } else { "✔" };
                    (
                        vec![row(&a, &ty, required), row(&b, &ty, required)],
                        rule(&a, &b),
                    )
                })
                .collect();
            let shape_name = ["plain", "opt", "list", "optlist"]
                [SHAPES.iter().position(|s| s == shape).unwrap()];
            let name = format!("{name}_{shape_name}");
            if name.starts_with("not_equal") {
                for (i, c) in candidates.into_iter().enumerate() {
                    let spec = spec(&format!("{name}_{i}"), &c.0, &c.1);
                    match load(&spec) {
                        Ok(_) => specs.push(spec),
                        Err(_) => refused += 1,
                    }
                }
            } else {
                specs.push(gathered(&name, candidates, &mut refused));
            }
        }
    }
    keyed(&mut specs, &mut refused);
    (specs, refused)
}

/// Compound unique keys and enum codes (issue 46): for each requirement and shape of the keyed
/// member, one spec with a list per field type, its items `k<i>` keyed by (`km`, a coded
/// `mode`; `kx`, the type under test), and `enum` codes on the items' coded `km`, their
/// `mode?` `ke` and their defaulted `kd`. Each candidate loads alone or is counted refused
/// (a list member, `any`, a table, a union: not a single value).
fn keyed(specs: &mut Vec<SpecSource>, refused: &mut usize) {
    // An optional member is `T?` (a plain optional type needs a default).
    let combos = [
        ("✔", ""),
        ("✔", "?"),
        ("—", "?"),
        ("✔ `missing`", ""),
        ("✔ `missing`", "?"),
    ];
    for (r, (required, shape)) in combos.iter().enumerate() {
        let (mut rows, mut tables, mut sidecar) = (Vec::new(), String::new(), String::new());
        for (i, (ty, qualifier)) in TYPES.iter().enumerate() {
            let row = vec![format!("| `l{i}` | k{i}[] | — | A keyed list. |")];
            let table = format!(
                "
## Fields of a `k{i}`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `km` | mode | ✔ `missing` | Chooses. |
| `kx` | {ty}{shape}{qualifier} | {required} | Under test. |
| `ke` | mode? | — | Coded, maybe. |
| `kd` | mode | — (default b) | Coded, by default `b`. |
"
            );
            let mut rule = format!(
                "\n[[unique]]\npath = \"l{i}\"\nkey = [\"km\", \"kx\"]\ncode = \"duplicate\"\n"
            );
            for m in ["km", "ke", "kd"] {
                rule.push_str(&format!(
                    "\n[errors.rules.\"l{i}[].{m}\"]\nenum = \"bad_enum\"\n"
                ));
            }
            let alone = spec_with_tables(&format!("keyed{r}_{i}"), &row, &table, &rule);
            match load(&alone) {
                Ok(_) => {
                    rows.extend(row);
                    tables.push_str(&table);
                    sidecar.push_str(&rule);
                }
                Err(d) => {
                    if std::env::var_os("COMPILES_SHOW").is_some() {
                        eprintln!("REFUSED keyed {ty}{shape} {required}: {d}");
                    }
                    *refused += 1;
                }
            }
        }
        let name = format!("keyed{r}");
        let spec = spec_with_tables(&name, &rows, &tables, &sidecar);
        if let Err(d) = load(&spec) {
            panic!("{name}: each list loads alone, not together:\n{d}");
        }
        assert!(
            rows.len() >= 8,
            "{name}: only {} keyed lists load",
            rows.len()
        );
        specs.push(spec);
    }
}

/// How many of the random specs join the crate.
const RANDOM: u64 = 40;

#[test]
fn every_spec_that_loads_compiles() {
    let (mut specs, refused) = matrix();
    let accepted: usize = specs
        .iter()
        .map(|s| s.md.matches("Under test.").count())
        .sum();
    // The matrix reaches the table types the loader accepts, and the loader refuses some
    // combinations (a range on `bool`) with a diagnostic rather than letting them through.
    eprintln!(
        "{accepted} accepted, {refused} refused, {} specs",
        specs.len()
    );
    assert!(
        accepted > 300 && refused > 50,
        "{accepted} accepted, {refused} refused"
    );
    let random = random_sources(RANDOM);
    // Half of them carry a rules table, so every struct shape the generator draws also gives
    // its members to the runtime's expressions (`expr::Subject`) in the compiled crate.
    let with_rows = random
        .iter()
        .filter(|s| s.md.contains("| Code | On | Rule |"))
        .count();
    assert!(
        with_rows * 3 > random.len(),
        "{with_rows} of {} random specs have rules tables",
        random.len()
    );
    specs.extend(random);

    // The derive's own attributes through the hooks (issue 46): a struct-level and a
    // field-level `custom` check on every root and its `mode`, written after the derive.
    let mut options = Options::default();
    for spec in &specs {
        let loaded = load(spec).unwrap_or_else(|d| panic!("{d}"));
        let root = format!("{}.{}", loaded.name, loaded.root);
        for attr in [
            "#[validate(custom = crate::checks::anything)]",
            "#[allow(clippy::all)]",
        ] {
            options
                .type_attributes
                .push((root.clone(), attr.to_owned()));
        }
        if spec.md.contains("| `mode` | mode | ✔ |") {
            options.field_attributes.push((
                format!("{root}.mode"),
                "#[validate(custom = crate::checks::anything)]".to_owned(),
            ));
        }
    }
    assert_builds("compiles", &specs, &options, None);
}

/// The crate's own checks, named by the `#[validate(custom = ..)]` attributes of the hooks.
const CHECKS: &str = "pub mod checks {
    pub fn anything<T: ?Sized>(_: &T, _: &specmint_runtime::Path<'_>, _: &mut specmint_runtime::Report) {}
}
";

/// Generates `specs` (with `options`) into one crate (a module each, and [`CHECKS`]) under the
/// test's scratch directory `name`, and builds it: the Rust must compile. With `main`, the crate
/// has that `src/main.rs` too, which is run: its standard output is returned.
pub(crate) fn assert_builds(
    name: &str,
    specs: &[SpecSource],
    options: &Options,
    main: Option<&str>,
) -> String {
    assert_builds_with(name, specs, options, main, &[])
}

/// [`assert_builds`] with `features` of `specmint-runtime` turned on (`messages`).
pub(crate) fn assert_builds_with(
    name: &str,
    specs: &[SpecSource],
    options: &Options,
    main: Option<&str>,
    features: &[&str],
) -> String {
    // A package of its own per test (its library still `specmint_compiles`): the scratch
    // crates share one target directory, and one package name would share its artifacts.
    let dir = crate::common::runtime_crate(name, &format!("specmint-compiles-{name}"));
    let manifest = dir.join("Cargo.toml");
    let mut toml = std::fs::read_to_string(&manifest).unwrap()
        + "\n[lib]\nname = \"specmint_compiles\"\npath = \"src/lib.rs\"\n";
    if !features.is_empty() {
        toml = toml.replacen(
            "specmint-runtime = { path = ",
            &format!("specmint-runtime = {{ features = {features:?}, path = "),
            1,
        );
    }
    std::fs::write(&manifest, toml).unwrap();
    let mut lib = format!("#![deny(warnings)]\n#![allow(dead_code)]\n{CHECKS}");
    let files = generate(specs, options).unwrap_or_else(|d| panic!("{d}"));
    for spec in specs {
        let rust = &files[&format!("rust/{}.rs", spec.name)];
        std::fs::write(dir.join(format!("src/{}.rs", spec.name)), rust).unwrap();
        lib.push_str(&format!("pub mod {};\n", spec.name));
    }
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    if let Some(main) = main {
        std::fs::write(dir.join("src/main.rs"), main).unwrap();
        // A binary named after the test: the scratch crates share one target directory, and
        // `cargo run` would otherwise run a binary another test left under one name.
        let toml = std::fs::read_to_string(&manifest).unwrap().replacen(
            "publish = false\n",
            "publish = false\nautobins = false\n",
            1,
        ) + &format!("\n[[bin]]\nname = \"{name}\"\npath = \"src/main.rs\"\n");
        std::fs::write(manifest, toml).unwrap();
    }

    let args: &[&str] = if main.is_some() {
        &["run", "--offline", "--quiet"]
    } else {
        &["build", "--offline", "--lib", "--quiet"]
    };
    let out = common::scratch_cargo(&dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{} specs generated Rust that does not compile:\n{}",
        specs.len(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The generated Rust's verdict on each of `docs`: `spec` generated (with `options`) into the
/// scratch crate `scratch`, whose `main` reads each document as `root` (`einv::Invoice`) and
/// prints its violations; per document, each as `code@path: message`, in report order.
pub(crate) fn compiled_verdicts(
    scratch: &str,
    spec: &SpecSource,
    root: &str,
    docs: &[&str],
    options: &Options,
) -> Vec<Vec<String>> {
    let main = format!(
        "const DOCS: &[&str] = &{docs:?};
fn main() {{
    for doc in DOCS {{
        if let Err(report) = specmint_compiles::{root}::from_json_str(doc) {{
            for v in report.iter() {{
                println!(\"{{}}@{{}}: {{}}\", v.code, v.path, v.message);
            }}
        }}
        println!(\"--\");
    }}
}}
"
    );
    let out = assert_builds(scratch, std::slice::from_ref(spec), options, Some(&main));
    let mut blocks: Vec<Vec<String>> = out
        .split_terminator("--\n")
        .map(|b| b.lines().map(str::to_owned).collect())
        .collect();
    blocks.resize(docs.len(), Vec::new());
    blocks
}

/// The property's first find besides `Filled`: a `[[unique]]` key with a coded requirement is
/// read as `Option`, and the derive took only `AsRef<str>` keys. The generated code now skips
/// an item without its key (its requirement reports it); the interpreter does the same (it
/// read an absent key as `""`, so two entries without one were also duplicates).
#[test]
fn an_item_without_its_unique_key_duplicates_nothing() {
    let md = "# Roster v1

## Fields of a `roster`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `people` | person[] | ✔ | Who. |

## Fields of a `person`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ `missing` | The name. |

## Error codes

| Code | When |
|---|---|
| `bad_roster` | Not the shape. |
| `missing` | No name. |
| `blank` | A blank name. |
| `dup` | Two people of one name. |
";
    let toml = "[spec]\nroot = \"roster\"\n\n[errors]\nparse = \"bad_roster\"\nnon_blank = \"blank\"\n\n[[unique]]\npath = \"people\"\nkey = \"name\"\nignore_case = true\ncode = \"dup\"\n";
    let verdict = |doc: &str| crate::common::verdict("roster", md, toml, doc);
    assert_eq!(
        verdict(r#"{"people": [{}, {"name": "a"}, {}, {"name": "A"}]}"#),
        [
            "missing@people[0].name: `people[0].name` is required",
            "missing@people[2].name: `people[2].name` is required",
            "dup@people[3].name: `people[3].name` `A` duplicates `people[1].name`",
        ]
    );
}

/// Tables that hold each other through nullable members (`node.next: link?`, `link.back:
/// node?`, `link.me: link?`), or through an optional table read as `{}` when absent (`node.again:
/// link`), load, and their
/// Rust compiles: the members that close a cycle are boxed (`Option<Box<B>>`). They were
/// plain (`Option<Link>`), and rustc refused the types (E0072, recursive without indirection).
/// A list (`items: node[]`) needs no box. The interpreter reads such documents to any depth.
#[test]
fn tables_holding_each_other_through_nullable_members_compile() {
    let md = "# Cyc v1

## Fields of a `node`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | A name. |
| `next` | link? | — | The next. |
| `again` | link | — | Read as `{}` when absent. |
| `items` | node[] | — | Through a list: no box. |
| `shape` | shape? | — | A union holding `node` again. |

## Fields of a `link`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `back` | node? | — | Back. |
| `me` | link? | — | Itself. |

## Kinds of a `shape`

| kind | Fields | Meaning |
|---|---|---|
| `dot` | — | A dot. |
| `ring` | `inner: node?` | Holds a `node`. |

## Error codes

| Code | When |
|---|---|
| `bad_node` | Not the shape. |
| `blank` | A blank name. |
";
    let toml = "[spec]\nroot = \"node\"\n\n[errors]\nparse = \"bad_node\"\nnon_blank = \"blank\"\n";
    let spec = crate::common::source("cyc", md, toml);
    load(&spec).unwrap_or_else(|d| panic!("{d}"));
    let files = generate(std::slice::from_ref(&spec), &Options::default()).unwrap();
    assert_builds(
        "compiles-recursive",
        std::slice::from_ref(&spec),
        &Options::default(),
        None,
    );
    let rust = &files["rust/cyc.rs"];
    for boxed in [
        "pub next: ::core::option::Option<::std::boxed::Box<Link>>",
        "pub again: ::std::boxed::Box<Link>",
        "pub back: ::core::option::Option<::std::boxed::Box<Node>>",
        "pub me: ::core::option::Option<::std::boxed::Box<Link>>",
        "pub shape: ::core::option::Option<::std::boxed::Box<Shape>>",
        "pub items: ::std::vec::Vec<Node>",
    ] {
        assert!(rust.contains(boxed), "no `{boxed}` in:\n{rust}");
    }
    let verdict = |doc: &str| crate::common::verdict("cyc", md, toml, doc);
    assert_eq!(
        verdict(
            r#"{"name": "x", "next": {"back": {"name": " "}, "me": {}}, "shape": {"kind": "ring", "inner": {"name": "y"}}}"#
        ),
        ["blank@next.back.name: `next.back.name` must not be blank"]
    );
}

/// Issue 46, the user's shape: a field required under a condition that reads a field with a
/// coded requirement (`type_code`, ✔ `` `BR-04` ``), which the Rust reads as `Option` so that
/// its absence is `BR-04`. The derive's `required_if` compared and showed the `Option` itself
/// (E0277, E0308); the condition is now checked by the struct's own function, and holds while
/// `type_code` is absent as the interpreter's does: never. The compiled validator and the
/// interpreter give the same verdicts.
#[test]
fn a_condition_on_a_field_with_a_coded_requirement_compiles_and_agrees() {
    let md = "# Einv v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `number` | non-blank string | ✔ | The invoice number. |
| `type_code` | type_code | ✔ `BR-04` | The invoice type code. |
| `preceding_invoice` | string? | if `type_code` is `381` | The invoice a credit note corrects. |
| `note` | non-blank string | — (default n) | A note, after the conditional field. |

## Type codes: `type_code`

| Value | Meaning |
|---|---|
| `380` | A commercial invoice. |
| `381` | A credit note. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `BR-04` | No invoice type code. |
| `BR-55` | A credit note without its preceding invoice. |
| `blank` | A blank text. |
";
    let toml = "[spec]\nroot = \"invoice\"\n\n[errors]\nparse = \"bad_invoice\"\nrequired_if = \"BR-55\"\nnon_blank = \"blank\"\n";
    let docs = [
        r#"{"number": "1", "type_code": "381"}"#,
        r#"{"number": "1", "type_code": "381", "preceding_invoice": "0"}"#,
        r#"{"number": "1", "type_code": "380"}"#,
        r#"{"number": "1"}"#,
        r#"{"number": " ", "type_code": "381", "note": " "}"#,
    ];
    let spec = crate::common::source("einv", md, toml);
    // With the README's hook too: the struct's own check and the user's are one function.
    let mut options = Options::default();
    options.type_attributes.push((
        "einv.invoice".to_owned(),
        "#[validate(custom = crate::checks::anything)] #[derive(PartialOrd)]".to_owned(),
    ));
    let compiled = compiled_verdicts("compiles-einv", &spec, "einv::Invoice", &docs, &options);
    let interpreted: Vec<Vec<String>> = docs
        .iter()
        .map(|doc| crate::common::verdict("einv", md, toml, doc))
        .collect();
    // The user's documents: the same violations in the same order.
    assert_eq!(compiled[..4], interpreted[..4]);
    assert_eq!(
        interpreted[..4],
        [
            vec!["BR-55@preceding_invoice: `preceding_invoice` is required when `type_code` is `381`"],
            vec![],
            vec![],
            vec!["BR-04@type_code: `type_code` is required"],
        ]
    );
    // With violations of other fields too, the same ones in the same order: both check the
    // condition after the field rules (the struct's own check).
    assert_eq!(compiled[4], interpreted[4]);
    assert_eq!(interpreted[4].len(), 3, "{:?}", interpreted[4]);
}

/// `#[validate(..)]` through `type_attribute` on a type that derives no `Validate` (an enum)
/// would be a rustc error in the author's crate: it is a diagnostic instead.
#[test]
fn a_validate_attribute_on_an_enum_is_a_diagnostic() {
    let spec = spec("venum", &[], "");
    let mut options = Options::default();
    options.type_attributes.push((
        "venum.mode".to_owned(),
        "#[validate(custom = crate::checks::anything)]".to_owned(),
    ));
    let d = generate(std::slice::from_ref(&spec), &options)
        .expect_err("an enum derives no Validate")
        .to_string();
    crate::common::assert_holds(&d, &["`venum.mode` is no field table"]);
    // On the struct, the same attribute is fine.
    options.type_attributes[0].0 = "venum.doc".to_owned();
    generate(std::slice::from_ref(&spec), &options).unwrap_or_else(|d| panic!("{d}"));
}
