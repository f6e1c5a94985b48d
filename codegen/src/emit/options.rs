//! How generated code is written ([`Options`]), and the check of its attribute hooks
//! against the loaded specs: a path naming no type or field, an attribute that does not
//! parse.

use crate::diag::{Diagnostic, Pos};
use crate::model;

/// How generated code is written: where it finds its runtime and derive, attributes added
/// to its types and fields, and what its `@generated` header says.
///
/// Build one with `Options::default()` and struct update syntax, or through
/// [`Config`](crate::Config).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Path of the runtime crate (default `::specmint_runtime`).
    pub runtime_path: String,
    /// Path of the `Validate` derive (default `::specmint_runtime::Validate`, the runtime's
    /// re-export).
    pub derive_path: String,
    /// `(path, attributes)`: outer attributes written on every generated type `path`
    /// names (see [`Config::type_attribute`](crate::Config::type_attribute)).
    pub type_attributes: Vec<(String, String)>,
    /// `(path, attributes)`: outer attributes written on the struct field `path` names
    /// (see [`Config::field_attribute`](crate::Config::field_attribute)).
    pub field_attributes: Vec<(String, String)>,
    /// The command that rewrites committed generated files (`specmint generate`), named in
    /// their `@generated` header; `None` (the default): the files are written by a build
    /// script on every build, and the header says so.
    pub regenerate_with: Option<String>,
    /// The spec directory as the generated files name it (`<dir>/<name>.md` in the
    /// `@generated` note, doc comments, example tests and corpus descriptions); `None` (the
    /// default): as [`SpecSource::md_path`](crate::SpecSource::md_path) names it, which is
    /// also what diagnostics say. `specmint generate` sets it so that its files do not depend
    /// on how the paths were typed.
    pub spec_dir_in_files: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime_path: "::specmint_runtime".to_owned(),
            derive_path: "::specmint_runtime::Validate".to_owned(),
            type_attributes: Vec::new(),
            field_attributes: Vec::new(),
            regenerate_with: None,
            spec_dir_in_files: None,
        }
    }
}

/// `attr` as outer attributes (`#[derive(Hash)] #[serde(default)]`); `None` when it is
/// not one or more of them.
pub(crate) fn parse_attributes(attr: &str) -> Option<Vec<syn::Attribute>> {
    use syn::parse::Parser as _;
    syn::Attribute::parse_outer
        .parse_str(attr)
        .ok()
        .filter(|attrs| !attrs.is_empty())
}

/// Whether a [`Options::type_attributes`] path names type `table` of spec `spec`: `.` (every
/// type of every spec), `<spec>` (every type of that spec) or `<spec>.<table>`.
pub(crate) fn type_path_matches(path: &str, spec: &str, table: &str) -> bool {
    path == "." || path == spec || path.split_once('.') == Some((spec, table))
}

/// Every problem with the attribute hooks of `options` against the loaded `specs`: an
/// attribute that does not parse, a path that names no type or field.
pub(crate) fn check_attribute_paths(specs: &[model::Spec], options: &Options) -> Vec<Diagnostic> {
    use model::TypeDef;
    let problem = |message: String, hint: &str| Diagnostic {
        file: "<options>".to_owned(),
        pos: Pos::default(),
        message,
        hint: hint.to_owned(),
    };
    let mut out = Vec::new();
    for (path, attr) in &options.type_attributes {
        let tables = specs.iter().flat_map(|spec| {
            let machines = spec.machines.iter().map(|m| m.name.as_str());
            spec.types
                .iter()
                .map(TypeDef::name)
                .chain(machines)
                .map(move |t| (spec.name.as_str(), t))
        });
        if !tables
            .clone()
            .any(|(spec, table)| type_path_matches(path, spec, table))
        {
            out.push(problem(
                format!("type_attribute path `{path}` names no generated type"),
                "write `<spec>.<table>` (`orders.line_item`), `<spec>` or `.`",
            ));
        }
        let Some(attrs) = parse_attributes(attr) else {
            out.push(problem(
                format!("type_attribute `{attr}` for `{path}` is not outer attributes (`#[..]`)"),
                "write attributes as in Rust: `#[derive(Hash)]`",
            ));
            continue;
        };
        // `#[validate(..)]` is the derive's: only a struct (a field table) derives `Validate`;
        // an enum, a union or a states table has its checks written out, and rustc would
        // refuse the attribute there.
        if attrs.iter().any(|a| a.path().is_ident("validate")) {
            let not_struct = specs.iter().find_map(|spec| {
                let machines = spec.machines.iter().map(|m| m.name.as_str());
                let others = spec.types.iter().filter_map(|t| match t {
                    TypeDef::Object(_) => None,
                    t => Some(t.name()),
                });
                others
                    .chain(machines)
                    .find(|t| type_path_matches(path, &spec.name, t))
                    .map(|t| format!("{}.{t}", spec.name))
            });
            if let Some(t) = not_struct {
                out.push(problem(
                    format!(
                        "type_attribute `{attr}` for `{path}`: `{t}` is no field table, and only a field table's struct derives `Validate`"
                    ),
                    "name the field tables one by one (`<spec>.<table>`)",
                ));
            }
        }
    }
    for (path, attr) in &options.field_attributes {
        let found = specs.iter().any(|spec| {
            spec.types.iter().any(|t| match t {
                TypeDef::Object(o) => o.fields.iter().any(|f| {
                    let chosen = o
                        .selector
                        .as_ref()
                        .is_some_and(|s| s.by.key == f.key || s.members.contains(&f.key));
                    !chosen && *path == format!("{}.{}.{}", spec.name, o.name, f.key)
                }),
                _ => false,
            })
        });
        if !found {
            out.push(problem(
                format!("field_attribute path `{path}` names no generated struct field"),
                "write `<spec>.<table>.<key>` (`orders.line_item.sku`)",
            ));
        }
        if parse_attributes(attr).is_none() {
            out.push(problem(
                format!("field_attribute `{attr}` for `{path}` is not outer attributes (`#[..]`)"),
                "write attributes as in Rust: `#[serde(alias = \"id\")]`",
            ));
        }
    }
    out
}
