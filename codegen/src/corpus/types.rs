//! Mutation family: JSON types. The wrong JSON type, null where not nullable, and integer
//! ranges.

use serde_json::{json, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    pub(super) fn wrong_type(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let parse = self.spec.errors.parse.as_str();
        let f = hops.last().expect("non-empty").field;
        if f.ty.base == Base::Any && !f.ty.array {
            return; // every JSON value is one
        }
        let wrong = if f.ty.array {
            json!({})
        } else {
            match &f.ty.base {
                Base::String | Base::Enum(_) => json!(7),
                Base::Bool => json!("false"),
                Base::U32 | Base::U64 | Base::I64 | Base::Number => json!("1"),
                Base::Object(_) => json!([]),
                Base::Union(_) => json!(true),
                Base::Selected(_) => json!([]),
                Base::Any => unreachable!("returned above"),
            }
        };
        let doc = self.with(base, hops, wrong.clone());
        self.push(
            &loc.scope,
            Case::new(
                format!("type.{path}"),
                format!("`{path}` = {wrong}: the wrong JSON type"),
                "type",
                doc,
            )
            .errors(vec![(parse.to_owned(), path.to_owned())]),
        );
        if !f.ty.nullable {
            let doc = self.with(base, hops, Value::Null);
            let code = f.rules.required.clone().unwrap_or_else(|| parse.to_owned());
            self.push(
                &loc.scope,
                Case::new(
                    format!("type.{path}.null"),
                    format!("`{path}` = null: not nullable"),
                    "type",
                    doc,
                )
                .errors(vec![(code, path.to_owned())]),
            );
        }
        if f.ty.array && !matches!(f.ty.base, Base::Bool | Base::Any) {
            let doc = self.with(base, hops, json!([true]));
            self.push(
                &loc.scope,
                Case::new(
                    format!("type.{path}.element"),
                    format!("`{path}[0]` = true: the wrong element type"),
                    "type",
                    doc,
                )
                .errors(vec![(parse.to_owned(), format!("{path}[0]"))]),
            );
        }
    }

    /// Integer ranges, where the bounds are exact in an IEEE double (so every JSON consumer
    /// reads them exactly): `uint32` at its ends, and every unsigned type at -1.
    pub(super) fn integers(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let parse = self.spec.errors.parse.as_str();
        let f = hops.last().expect("non-empty").field;
        if f.ty.array {
            return;
        }
        let mut vals: Vec<(&str, Value, bool)> = Vec::new();
        match f.ty.base {
            Base::U32 => {
                vals.push(("max", json!(u32::MAX), true));
                vals.push(("max+1", json!(u64::from(u32::MAX) + 1), false));
                vals.push(("neg", json!(-1), false));
                vals.push(("fraction", json!(1.5), false));
            }
            Base::U64 => {
                vals.push(("neg", json!(-1), false));
                vals.push(("fraction", json!(1.5), false));
            }
            Base::I64 => vals.push(("fraction", json!(1.5), false)),
            _ => return,
        }
        vals.push(("whole_float", json!(7.0), false));
        for (label, v, ok) in vals {
            let doc = self.with(base, hops, v.clone());
            let errors = unless(ok, parse.to_owned(), path.to_owned());
            let mut case = Case::new(
                format!("integer.{path}.{label}"),
                format!("`{path}` = {v}"),
                "type",
                doc,
            )
            .errors(errors);
            if label == "whole_float" {
                case = case.because("JSON Schema's `integer` accepts a number with a zero fraction (7.0); the Rust reader refuses any float");
            }
            self.push(&loc.scope, case);
        }
    }
}
