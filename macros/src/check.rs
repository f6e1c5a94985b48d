//! Phase 2: checks that need the whole model (references between fields).

use syn::Ident;

use crate::errors::Errors;
use crate::model::{Model, RuleKind, StructRule};

/// Records an error for every rule naming a field the struct does not have.
pub fn check(model: &Model, errors: &mut Errors) {
    if !model.named_fields {
        return;
    }
    let must_exist = |name: &Ident, errors: &mut Errors| {
        if !model.fields.iter().any(|f| f.ident == *name) {
            errors.at(
                name.span(),
                format!("`{}` has no field `{name}`", model.ident),
            );
        }
    };
    for field in &model.fields {
        for rule in &field.rules {
            if let RuleKind::RequiredIf { field, .. } = &rule.kind {
                must_exist(field, errors);
            }
        }
    }
    for rule in &model.struct_rules {
        match rule {
            StructRule::NotEqual { a, b, .. } | StructRule::Order { a, b, .. } => {
                must_exist(a, errors);
                must_exist(b, errors);
                if a == b {
                    let rule = match rule {
                        StructRule::Order { .. } => "order",
                        _ => "not_equal",
                    };
                    errors.at(
                        b.span(),
                        format!("`{rule}` compares `{a}` with itself; name two different fields"),
                    );
                }
            }
            StructRule::NotContains { list, value, .. } => {
                must_exist(list, errors);
                must_exist(value, errors);
            }
            StructRule::Digest {
                sha256,
                data,
                encoding,
                label,
                length,
                ..
            } => {
                for name in [sha256, data, encoding]
                    .into_iter()
                    .chain(label.as_ref())
                    .chain(length.as_ref())
                {
                    must_exist(name, errors);
                }
            }
            StructRule::MaxJsonBytes { .. } | StructRule::Custom { .. } => {}
        }
    }
}
