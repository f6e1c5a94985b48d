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
        // typify panics (`unimplemented!`) on constructs it does not support, e.g. if/then/else;
        // that is caught and recorded, not hidden.
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
