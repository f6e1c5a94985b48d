//! Rules a spec states on an object under a condition (`[[any_of]]`, `[[one_of]]`,
//! `[[value_if]]`): the caller checks the condition and passes what it says
//! (`` `category` is `E` ``), or `None` for a rule without one.

use core::cmp::Ordering;
use core::fmt;

use crate::path::Path;
use crate::report::{Code, Report, Violation};

use super::{Detail as _, Filled};

/// ` when CONDITION`, or nothing (also the rules tables' messages).
pub(crate) struct When<'a>(pub(crate) Option<&'a dyn fmt::Display>);

impl fmt::Display for When<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(c) => write!(f, " when {c}"),
            None => Ok(()),
        }
    }
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
struct Names<'a>(&'a [&'a str]);

impl fmt::Display for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            let sep = match i {
                0 => "",
                _ if i + 1 == self.0.len() => " or ",
                _ => ", ",
            };
            write!(f, "{sep}`{name}`")?;
        }
        Ok(())
    }
}

/// The dotted paths of the fields `names` of the object at `path`, joined by `, ` (a
/// group's `{other}`).
fn group(path: &Path<'_>, names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&path.field(name).dotted());
    }
    out
}

/// The number of `values` given (see [`Filled`]).
pub fn given_count(values: &[&dyn Filled]) -> usize {
    values.iter().filter(|v| v.unfilled().is_none()).count()
}

/// At least one of the fields `names` is given (`given` of them are): otherwise
/// `` `exemption_reason` or `exemption_code` is required when `category` is `E` `` at the
/// object's `path`.
pub fn any_of(
    names: &[&str],
    given: usize,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    if given == 0 {
        report.push_with(|| {
            Violation::with_message(Code::copy_of(code), path, |_| {
                format!("{} is required{}", Names(names), When(when))
            })
            .with_other(group(path, names))
        });
    }
}

/// Exactly one of the fields `names` is given (`given` of them are): otherwise
/// `` exactly one of `iban` or `card` must be given (2 are) `` at the object's `path`.
pub fn one_of(
    names: &[&str],
    given: usize,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    if given != 1 {
        report.push_with(|| {
            Violation::with_message(Code::copy_of(code), path, |_| {
                let are = if given == 0 {
                    "none is".to_owned()
                } else {
                    format!("{given} are")
                };
                format!(
                    "exactly one of {} must be given{} ({are})",
                    Names(names),
                    When(when)
                )
            })
            .with_other(group(path, names))
        });
    }
}

/// A number a `[[value_if]]` compares: an integer exactly, a `number` as a double.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer field's value.
    Int(i128),
    /// A `number` field's value, or a decimal bound.
    Float(f64),
}

impl Num {
    fn compare(self, other: Num) -> Option<Ordering> {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            // Exact for every integer a JSON reader keeps exactly in a double.
            Num::Int(n) => n as f64,
            Num::Float(x) => x,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(n) => n.fmt(f),
            Num::Float(x) => x.fmt(f),
        }
    }
}

macro_rules! num_from {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for Num {
            fn from(n: $t) -> Self {
                Num::$v(n.into())
            }
        })*
    };
}
num_from!(u32 => Int, u64 => Int, i32 => Int, i64 => Int, f64 => Float);

/// How a `[[value_if]]` compares: `<`, `<=`, `=`, `>=`, `>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `=`.
    Eq,
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
}

impl Compare {
    fn holds(self, o: Ordering) -> bool {
        // One reading of an ordering, the rules tables' (`expr::Cmp`).
        let cmp = match self {
            Compare::Lt => crate::expr::Cmp::Lt,
            Compare::Le => crate::expr::Cmp::Le,
            Compare::Eq => crate::expr::Cmp::Eq,
            Compare::Ge => crate::expr::Cmp::Ge,
            Compare::Gt => crate::expr::Cmp::Gt,
        };
        cmp.holds(o)
    }

    fn as_str(self) -> &'static str {
        match self {
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Eq => "=",
            Compare::Ge => ">=",
            Compare::Gt => ">",
        }
    }
}

/// A present value compares with `bound` as `op` says (an absent one is not checked):
/// otherwise `` `rate` is 0 (must be > 0 when `category` is `S`) ``.
pub fn compare(
    value: Option<Num>,
    op: Compare,
    bound: Num,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(value) = value else {
        return;
    };
    if value.compare(bound).is_some_and(|o| op.holds(o)) {
        return;
    }
    report.push_with(|| {
        Violation::with_message(Code::copy_of(code), path, |at| {
            message!(
                at,
                "`{at}` is {value} (must be {} {bound}{})",
                op.as_str(),
                When(when)
            )
        })
        .with_condition(when, false)
        .with_expected(bound.to_string())
    });
}

/// The value is absent or `null` (`present` is `false`): otherwise
/// `` `rate` must be absent when `category` is `O` ``.
pub fn absent(
    present: bool,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    if present {
        report.push_with(|| {
            Violation::with_message(Code::copy_of(code), path, |at| {
                message!(at, "`{at}` must be absent{}", When(when))
            })
            .with_condition(when, true)
        });
    }
}
