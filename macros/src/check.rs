//! Phase 2: checks that need the whole model (references between fields).

use crate::errors::Errors;
use crate::model::{Model, StructRule};

/// Records an error for every struct rule naming a field the struct does not have.
pub fn check(model: &Model, errors: &mut Errors) {
    if !model.named_fields {
        return;
    }
    for rule in &model.struct_rules {
        if let StructRule::NotEqual { a, b, .. } = rule {
            for name in [a, b] {
                if !model.fields.iter().any(|f| f.ident == *name) {
                    errors.at(
                        name.span(),
                        format!("`{}` has no field `{name}`", model.ident),
                    );
                }
            }
            if a == b {
                errors.at(
                    b.span(),
                    format!("`not_equal` compares `{a}` with itself; name two different fields"),
                );
            }
        }
    }
}
