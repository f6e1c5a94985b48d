//! `custom = path::to_fn`: hand-written checks on a field, on each element and on the
//! struct, reporting into the same report in document order.

use specmint_runtime::{Path, Report, Violation};

use super::*;

mod checks {
    use super::*;

    /// A sku is upper case (a `String` field coerces to `&str`).
    pub fn sku(value: &str, path: &Path<'_>, report: &mut Report) {
        if value.chars().any(char::is_lowercase) {
            report.push(Violation::with_message("lower_sku", path, |at| {
                format!("`{at}` must be upper case")
            }));
        }
    }

    /// Quantities are even.
    pub fn even(value: &u32, path: &Path<'_>, report: &mut Report) {
        if value % 2 == 1 {
            report.push(Violation::new("odd", path, format!("{value} is odd")));
        }
    }
}

/// The total matches the sum of the quantities.
fn total_matches(order: &Order, path: &Path<'_>, report: &mut Report) {
    if order.quantities.iter().sum::<u32>() != order.total {
        report.push(Violation::new(
            "bad_total",
            path,
            "total is not the sum".into(),
        ));
    }
}

#[derive(Clone, Debug, Validate)]
#[validate(custom = total_matches)]
struct Order {
    #[validate(non_blank, custom = checks::sku)]
    sku: String,
    #[validate(max_items = 3, each(custom = checks::even))]
    quantities: Vec<u32>,
    total: u32,
}

#[test]
fn custom_checks_report_at_their_paths_in_order() {
    let ok = Order {
        sku: "AB".into(),
        quantities: vec![2, 4],
        total: 6,
    };
    assert_eq!(violations(&ok), []);
    let bad = Order {
        sku: "Ab".into(),
        quantities: vec![2, 3, 5],
        total: 1,
    };
    assert_eq!(
        violations(&bad),
        [
            v("lower_sku", "sku", "/sku", "`sku` must be upper case"),
            v("odd", "quantities[1]", "/quantities/1", "3 is odd"),
            v("odd", "quantities[2]", "/quantities/2", "5 is odd"),
            v("bad_total", "", "", "total is not the sum"),
        ]
    );
}
