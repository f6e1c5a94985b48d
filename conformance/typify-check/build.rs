//! Runs typify on every `generated/schema/*.schema.json` and writes one module per spec plus a
//! dispatcher into `OUT_DIR/specs.rs`. What typify cannot do is reported as a comment in the
//! generated file and via `SKIPPED`, never hidden.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    let dir = root.join("generated/schema");
    println!("cargo:rerun-if-changed={}", dir.display());
    std::panic::set_hook(Box::new(|_| {}));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("generated/schema exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".schema.json"))
        .collect();
    paths.sort();
    let mut out = String::new();
    let mut arms = String::new();
    let mut specs = Vec::new();
    let mut adaptations: Vec<String> = Vec::new();
    for path in &paths {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".schema.json")
            .to_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let root_def = value["$ref"]
            .as_str()
            .and_then(|r| r.rsplit('/').next())
            .unwrap_or_default()
            .to_owned();
        // typify 0.5 refuses `"default": null` (InvalidValue) although null is a member of the
        // field's type; null is what an absent `Option` means anyway, so it is dropped here.
        let mut value = value;
        let dropped = drop_null_defaults(&mut value);
        if dropped > 0 {
            adaptations.push(format!("{name}: dropped {dropped} `\"default\": null` (typify 0.5 rejects them as InvalidValue)"));
        }
        // typify 0.5 panics (`unimplemented!`) on if/then/else, which the schema uses for a
        // conditional requirement. The conditions are dropped, and that is recorded: the typify
        // types then accept a document missing a conditionally required member (they are a
        // looser reader), which does not matter for loading valid cases, the point here.
        let dropped = drop_conditionals(&mut value);
        if dropped > 0 {
            adaptations.push(format!("{name}: dropped {dropped} if/then/else conditional requirement(s) (typify 0.5 panics on them); its types do not enforce them"));
        }
        // Any other construct typify cannot handle panics too; that is caught and recorded,
        // not hidden.
        let result = std::panic::catch_unwind(move || -> Result<String, String> {
            let schema: schemars::schema::RootSchema =
                serde_json::from_value(value).map_err(|e| e.to_string())?;
            let mut space = typify::TypeSpace::new(
                typify::TypeSpaceSettings::default().with_struct_builder(false),
            );
            space.add_root_schema(schema).map_err(|e| e.to_string())?;
            let file: syn::File = syn::parse2(space.to_stream()).map_err(|e| e.to_string())?;
            Ok(prettyplease::unparse(&file))
        })
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "typify panicked".to_owned());
            Err(format!("typify panicked: {why}"))
        });
        match result {
            Ok(code) => {
                let root_ty = typify_name(&root_def);
                writeln!(out, "/// typify's types for `generated/schema/{name}.schema.json`.\n#[allow(clippy::all, dead_code, missing_docs, unused_imports, irrefutable_let_patterns)]\npub mod {name} {{\n{code}\n}}").unwrap();
                writeln!(arms, "        \"{name}\" => Some(serde_json::from_str::<{name}::{root_ty}>(json).map(|_| ()).map_err(|e| e.to_string())),").unwrap();
                specs.push(name);
            }
            Err(e) => {
                adaptations.push(format!("{name}: typify cannot read the schema: {e}"));
            }
        }
    }
    writeln!(
        out,
        "/// What had to be adapted for typify, or could not be done, one line per item.\npub const ADAPTATIONS: &[&str] = &{adaptations:?};"
    )
    .unwrap();
    write!(
        out,
        "/// Specs typify turned into types.\npub const SPECS: &[&str] = &{specs:?};\n\n\
         /// Deserializes `json` into the root type typify made for `spec`.\n\
         #[allow(unused_variables)]\npub fn load(spec: &str, json: &str) -> Option<Result<(), String>> {{\n    match spec {{\n{arms}        _ => None,\n    }}\n}}\n"
    )
    .unwrap();
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("specs.rs");
    std::fs::write(dest, out).unwrap();
}

/// Removes every `"default": null`; returns how many.
fn drop_null_defaults(v: &mut serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(m) => {
            let mut n = usize::from(m.get("default") == Some(&serde_json::Value::Null));
            if n == 1 {
                m.remove("default");
            }
            for x in m.values_mut() {
                n += drop_null_defaults(x);
            }
            n
        }
        serde_json::Value::Array(a) => a.iter_mut().map(drop_null_defaults).sum(),
        _ => 0,
    }
}

/// Removes every `if`/`then`/`else` (and an `allOf` left holding only such conditions);
/// returns how many conditions were dropped.
fn drop_conditionals(v: &mut serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(m) => {
            let mut n = usize::from(m.remove("if").is_some());
            m.remove("then");
            m.remove("else");
            if let Some(serde_json::Value::Array(all)) = m.get_mut("allOf") {
                for x in all.iter_mut() {
                    n += drop_conditionals(x);
                }
                all.retain(|x| x.as_object().is_none_or(|o| !o.is_empty()));
                if all.is_empty() {
                    m.remove("allOf");
                }
            }
            for (key, x) in m.iter_mut() {
                if key != "allOf" {
                    n += drop_conditionals(x);
                }
            }
            n
        }
        serde_json::Value::Array(a) => a.iter_mut().map(drop_conditionals).sum(),
        _ => 0,
    }
}

/// typify's type name for a `$defs` key: UpperCamelCase.
fn typify_name(def: &str) -> String {
    def.split(['_', '-'])
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}
