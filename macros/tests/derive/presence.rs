//! Presence: `required` and `required_if`.

use super::*;

#[test]
fn required_refuses_none_blank_and_empty() {
    let mut e = envelope();
    e.objective = None;
    e.boundaries = None;
    e.budget = None;
    e.count = None;
    assert_eq!(
        violations(&e),
        [
            v(
                "required",
                "objective",
                "/objective",
                "`objective` is required"
            ),
            v(
                "need_boundaries",
                "boundaries",
                "/boundaries",
                "`boundaries` is required"
            ),
            v("required", "budget", "/budget", "`budget` is required"),
            v("required", "count", "/count", "`count` is required"),
        ]
    );
    e = envelope();
    e.objective = Some(" \u{3000}".into());
    e.boundaries = Some(vec![]);
    assert_eq!(
        violations(&e),
        [
            v(
                "required",
                "objective",
                "/objective",
                "`objective` is required (it is blank)"
            ),
            v(
                "need_boundaries",
                "boundaries",
                "/boundaries",
                "`boundaries` is required (it is empty)"
            ),
        ]
    );
    e.objective = Some(String::new());
    e.boundaries = Some(vec![String::new()]); // a list with an element is filled
    assert_eq!(
        violations(&e),
        [v(
            "required",
            "objective",
            "/objective",
            "`objective` is required (it is empty)"
        )]
    );
}

#[test]
fn required_if_checks_only_when_the_sibling_matches() {
    let mut e = envelope();
    e.payload.disposition = Disposition::Excluded;
    assert_eq!(
        violations(&e),
        [v(
            "required",
            "payload.exclusion_reason",
            "/payload/exclusion_reason",
            "`payload.exclusion_reason` is required when `disposition` is `excluded`"
        )]
    );
    e.payload.exclusion_reason = Some("  ".into());
    assert_eq!(
        violations(&e)[0].message,
        "`payload.exclusion_reason` is required when `disposition` is `excluded` (it is blank)"
    );
    e.payload.exclusion_reason = Some("out of scope".into());
    assert_eq!(violations(&e), []);
    e.payload.disposition = Disposition::Included;
    e.payload.exclusion_reason = None;
    assert_eq!(violations(&e), []);
}
