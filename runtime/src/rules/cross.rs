//! Rules that compare fields of one struct.

use core::fmt::Display;

use crate::path::Path;
use crate::report::{Report, Violation};

use super::{quoted, shown, ListField, Named, TextField};

/// `a` must differ from `b` (both fields of the struct at `path`, named as [`Named`] says);
/// the violation's path is `b`'s.
///
/// Message: `` `to_role` must differ from `from_role` (both `planner`) ``.
pub fn not_equal<A, B>(a: Named<&A>, b: Named<&B>, path: &Path<'_>, code: &str, report: &mut Report)
where
    A: PartialEq<B> + Display + ?Sized,
    B: ?Sized,
{
    if *a.value == *b.value {
        let a_value = a.value;
        let pa = path.field(a.name);
        let pb = path.field(b.name);
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), &pb, |at| {
                message!(at, "`{at}` must differ from `{pa}` (both `{a_value}`)")
            })
            .with_other(pa.dotted())
        });
    }
}

/// No element of the list field `list` (of the struct at `path`) may equal, verbatim,
/// the text of the field `value` (both [`Named`]); a `None` value or element is not checked. Every such
/// element is reported, at its own path (`list[j]`). `owner` names what the struct is
/// (`#[derive(Validate)]` passes the struct's name in lowercase words: `Task` → `task`).
///
/// Message: `` `dependsOn[1]` is the task's own `taskID` `t-9` `` (the value by its bare
/// name, cut to [`SHOWN_CHARS`](super::SHOWN_CHARS) chars).
pub fn not_contains<L, V>(
    list: Named<&L>,
    value: Named<&V>,
    owner: &str,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    L::Item: TextField,
    V: TextField + ?Sized,
{
    let (Some(items), Some(own)) = (list.value.items(), value.value.text()) else {
        return;
    };
    let value_name = value.name;
    let list_path = path.field(list.name);
    for (j, item) in items.iter().enumerate() {
        if item.text() == Some(own) {
            let at = list_path.index(j);
            report.push_with(|| {
                Violation::with_message(crate::report::Code::copy_of(code), &at, |at| {
                    message!(
                        at,
                        "`{at}` is the {owner}'s own `{value_name}` `{}`",
                        shown(own)
                    )
                })
                .with_other(path.field(value_name).dotted())
                .with_expected(quoted(shown(own)))
            });
        }
    }
}
