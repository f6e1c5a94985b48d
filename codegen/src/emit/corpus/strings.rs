//! Mutation family: string rules. Non-blank text, literals, `matching` patterns and
//! relative paths.

use serde_json::{json, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    pub(super) fn non_blank(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        if !f.ty.non_blank || f.ty.base != Base::String {
            return;
        }
        let Some(code) = f.rules.non_blank.clone() else {
            return;
        };
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        let cases: &[(&str, &str, bool, &str)] = &[
            ("empty", "", true, "the empty string"),
            ("spaces", "  \t ", true, "ASCII whitespace only"),
            (
                "ideographic_space",
                "\u{3000}",
                true,
                "U+3000 IDEOGRAPHIC SPACE only (White_Space)",
            ),
            (
                "nel",
                "\u{85}",
                true,
                "U+0085 NEXT LINE only (White_Space, not ECMAScript \\s)",
            ),
            (
                "nbsp",
                "\u{a0}\u{2028}",
                true,
                "U+00A0 + U+2028 only (White_Space)",
            ),
            (
                "bom",
                "\u{feff}",
                false,
                "U+FEFF only: not White_Space, so not blank (ECMAScript \\s says space)",
            ),
            (
                "zwsp",
                "\u{200b}",
                false,
                "U+200B ZERO WIDTH SPACE only: not White_Space, so not blank",
            ),
            (
                "padded",
                "\u{3000}x\u{3000}",
                false,
                "one letter inside U+3000: not blank",
            ),
        ];
        for (label, s, blank, what) in cases {
            let value = if f.ty.array {
                self.first_of(f, json!(s))
            } else {
                json!(s)
            };
            let doc = self.with(base, hops, value);
            // A coded requirement counts blank text as missing and reports its own code
            // first (an element of a list is not the list: only an empty list is missing);
            // a pattern or a format refuses it too.
            let errors = fit::text_violations(f, &at, s);
            debug_assert_eq!(*blank, errors.iter().any(|(c, _)| *c == code));
            self.push(
                &loc.scope,
                Case::new(
                    format!("non_blank.{path}.{label}"),
                    format!("`{at}` is {what}"),
                    "non_blank",
                    doc,
                )
                .errors(errors),
            );
        }
    }

    /// A literal type: the literal, and near misses of it.
    pub(super) fn literals(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let (Some(lit), Some(_)) = (f.ty.literal.clone(), &f.rules.equals) else {
            return;
        };
        let mut misses = vec![
            ("other", format!("{lit}0")),
            ("upper", lit.to_uppercase()),
            ("padded", format!(" {lit}")),
            ("empty", String::new()),
        ];
        misses.retain(|(_, m)| *m != lit);
        let doc = self.with(base, hops, json!(lit));
        self.push(
            &loc.scope,
            Case::new(
                format!("equals.{path}.exact"),
                format!("`{path}` = `{lit}`"),
                "equals",
                doc,
            ),
        );
        for (label, m) in misses {
            let doc = self.with(base, hops, json!(m));
            self.push(
                &loc.scope,
                Case::new(
                    format!("equals.{path}.{label}"),
                    format!("`{path}` = `{m}`, not `{lit}`"),
                    "equals",
                    doc,
                )
                .errors(fit::text_violations(f, path, &m)),
            );
        }
    }

    /// A `matching` type: a matching value and near misses, judged by the spec's regex.
    pub(super) fn patterns(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let (Some(p), Some(code)) = (f.ty.pattern.clone(), f.rules.pattern.as_deref()) else {
            return;
        };
        let Ok(re) = regex_lite::Regex::new(&p) else {
            return;
        };
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        if f.ty.nullable && !f.ty.array {
            // `null` is not a string: no pattern applies.
            let doc = self.with(base, hops, Value::Null);
            self.push(
                &loc.scope,
                Case::new(
                    format!("pattern.{path}.null"),
                    format!("`{path}` = null: a nullable patterned string"),
                    "pattern",
                    doc,
                ),
            );
        }
        let good = self
            .synth_text(f, 0)
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let cands = pattern_candidates(&good, f.ty.non_blank);
        let mut seen = std::collections::BTreeSet::new();
        for (label, v) in cands {
            if !seen.insert(v.clone()) || (label != "valid" && v == good) {
                continue;
            }
            let ok = re.is_match(&v);
            let value = if f.ty.array {
                self.first_of(f, json!(v))
            } else {
                json!(v)
            };
            let doc = self.with(base, hops, value);
            self.push(
                &loc.scope,
                Case::new(
                    format!("pattern.{path}.{label}"),
                    format!(
                        "`{at}` = `{v}` {} `{p}`",
                        if ok { "matches" } else { "does not match" }
                    ),
                    "pattern",
                    doc,
                )
                .errors({
                    let errors = fit::text_violations(f, &at, &v);
                    debug_assert_eq!(ok, !errors.iter().any(|(c, _)| c == code));
                    errors
                }),
            );
        }
    }

    /// A `relative-path` type: relative paths, and absolute ones, drive letters and `..`.
    pub(super) fn relative_paths(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Some(code) = f.rules.relative_path.as_deref() else {
            return;
        };
        if f.ty.array {
            return;
        }
        let mut cases: Vec<(&str, &str, bool)> = vec![
            ("plain", "docs/a.md", true),
            ("dots3", ".../x", true),
            ("inner_dots", "a..b/c", true),
            ("dot", "./a", true),
            ("slash_abs", "/etc/x", false),
            ("backslash_abs", "\\x", false),
            ("unc", "//server/x", false),
            ("drive", "C:\\x", false),
            ("drive_relative", "c:x", false),
            ("dotdot", "..", false),
            ("inner_dotdot", "a/../b", false),
            ("backslash_dotdot", "a\\..", false),
        ];
        if !f.ty.non_blank {
            cases.push(("empty", "", false));
            cases.push(("space", " ", true));
        }
        for (label, v, ok) in cases {
            let doc = self.with(base, hops, json!(v));
            self.push(
                &loc.scope,
                Case::new(
                    format!("relative_path.{path}.{label}"),
                    format!("`{path}` = `{v}`"),
                    "relative_path",
                    doc,
                )
                .errors({
                    let errors = fit::text_violations(f, path, v);
                    debug_assert_eq!(ok, !errors.iter().any(|(c, _)| c == code));
                    errors
                }),
            );
        }
    }
}

/// The values a `matching` probe tries, from a matching value `good`: itself, near misses
/// (spaces, case, a Unicode digit, a final line feed), `x`, and `""` unless the text must not
/// be blank.
pub(super) fn pattern_candidates(good: &str, non_blank: bool) -> Vec<(&'static str, String)> {
    let mut cands = vec![
        ("valid", good.to_owned()),
        ("trailing_space", format!("{good} ")),
        ("leading_space", format!(" {good}")),
        ("upper", good.to_uppercase()),
        ("lower", good.to_lowercase()),
        ("x", "x".to_owned()),
        // Where the engines used to disagree: Unicode digits and spaces, and Python's
        // `$` before a final line feed.
        (
            "arabic_indic_digit",
            good.replacen(|c: char| c.is_ascii_digit(), "\u{663}", 1),
        ),
        ("nbsp", format!("{good}\u{a0}")),
        ("trailing_lf", format!("{good}\n")),
    ];
    if !non_blank {
        cands.push(("empty", String::new()));
    }
    cands
}
