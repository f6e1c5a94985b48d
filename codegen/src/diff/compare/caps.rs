//! Caps and constants: a cap or minimum added, removed, tightened or loosened, a cap
//! constant renamed or removed, a text constant changed.

use super::*;

impl Cmp<'_> {
    /// A cap (or a minimum, when `minimum`) that is added, removed, tightened or loosened:
    /// each side's number, if any, and where it is.
    pub(super) fn cap(
        &mut self,
        what: &str,
        hint: &Hint,
        minimum: bool,
        (old, old_at): (Option<u64>, Needle),
        (new, new_at): (Option<u64>, Needle),
    ) {
        let (id, breaks, message) = match (old, new) {
            (Some(a), Some(b)) if a == b => return,
            (Some(a), Some(b)) => {
                let tighter = if minimum { b > a } else { b < a };
                let id = match (minimum, tighter) {
                    (false, true) => "cap-tightened",
                    (false, false) => "cap-loosened",
                    (true, true) => "minimum-raised",
                    (true, false) => "minimum-lowered",
                };
                let b_ = if tighter { Documents } else { Readers };
                (id, b_, format!("{what} is {b}, was {a}"))
            }
            (None, Some(b)) => (
                if minimum {
                    "minimum-added"
                } else {
                    "cap-added"
                },
                Documents,
                format!("{what} of {b} added"),
            ),
            (Some(a), None) => (
                if minimum {
                    "minimum-removed"
                } else {
                    "cap-removed"
                },
                Readers,
                format!("{what} of {a} removed"),
            ),
            (None, None) => return,
        };
        self.push(found(id, &[breaks], message, old_at, new_at).at(hint));
    }

    /// A cap row kept under another constant name.
    pub(super) fn constant_use(&mut self, a: Option<&CapUse>, b: Option<&CapUse>) {
        if let (Some(a), Some(b)) = (a, b) {
            if a.constant != b.constant {
                self.push(found(
                    "constant-renamed",
                    &[RustApi],
                    format!("constant `{}` is now `{}`", a.constant, b.constant),
                    Needle::text(&a.constant),
                    Needle::text(&b.constant),
                ));
            }
        }
    }

    /// Cap constants whose row is gone, and text constants.
    pub(super) fn constants(&mut self) {
        let (o, n) = (self.old, self.new);
        for c in &o.caps {
            if !n.caps.iter().any(|d| d.constant == c.constant)
                && !n.caps.iter().any(|d| d.binding == c.binding)
            {
                self.push(found(
                    "constant-removed",
                    &[RustApi],
                    format!("constant `{}` removed", c.constant),
                    Needle::text(&c.constant),
                    Needle::Start,
                ));
            }
        }
        for t in &o.texts {
            match n.texts.iter().find(|u| u.constant == t.constant) {
                Some(u) if u.value != t.value => self.push(found(
                    "text-constant-changed",
                    &[],
                    format!(
                        "constant `{}` is `{}`, was `{}`",
                        t.constant, u.value, t.value
                    ),
                    Needle::text(&t.constant),
                    Needle::text(&u.constant),
                )),
                Some(_) => {}
                None => match n.texts.iter().find(|u| {
                    u.value == t.value && !o.texts.iter().any(|x| x.constant == u.constant)
                }) {
                    Some(u) => self.push(found(
                        "constant-renamed",
                        &[RustApi],
                        format!("constant `{}` is now `{}`", t.constant, u.constant),
                        Needle::text(&t.constant),
                        Needle::text(&u.constant),
                    )),
                    None => self.push(found(
                        "constant-removed",
                        &[RustApi],
                        format!("constant `{}` removed", t.constant),
                        Needle::text(&t.constant),
                        Needle::Start,
                    )),
                },
            }
        }
    }
}

/// Each number and its neighbours.
pub(super) fn around(numbers: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut out: Vec<u64> = numbers
        .into_iter()
        .flat_map(|n| [n.saturating_sub(1), n, n.saturating_add(1)])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The cap and minimum numbers of a field, and its range bounds.
pub(super) fn numbers(f: &Field) -> Vec<u64> {
    let r = &f.rules;
    let mut n: Vec<u64> = [&r.max_chars, &r.max_items, &r.min_chars, &r.min_items]
        .into_iter()
        .flatten()
        .map(|c| c.value)
        .chain(r.max_items_per_group.iter().map(|g| g.cap.value))
        .collect();
    if let Some(range) = f.ty.range {
        for b in [range.min, range.max].into_iter().flatten() {
            n.push(b.clamp(0, u64::MAX.into()) as u64);
        }
    }
    n
}

pub(super) fn cap_needle(c: Option<&CapUse>, table: &str) -> Needle {
    c.map_or_else(|| Needle::table(table), |c| Needle::text(&c.constant))
}

pub(super) fn cap_or(c: Option<&CapUse>, row: &impl Fn() -> Needle) -> Needle {
    c.map_or_else(row, |c| Needle::text(&c.constant))
}
