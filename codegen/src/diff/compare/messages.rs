//! Messages in other languages (the spec's locale files): a locale added or removed, a code's
//! message added, removed or reworded. None breaks anyone: codes, paths and verdicts stay, only
//! the text a reader of that language sees changes.

use super::*;

impl Cmp<'_> {
    /// Every locale and every message of either side, compared by tag and code.
    pub(super) fn messages(&mut self) {
        let (o, n) = (self.old, self.new);
        let tags: BTreeSet<&str> = o
            .messages
            .iter()
            .chain(&n.messages)
            .map(|m| m.tag.as_str())
            .collect();
        for tag in tags {
            let find = |s: &'_ Spec| s.messages.iter().find(|m| m.tag == tag).cloned();
            match (find(o), find(n)) {
                (None, Some(_)) => self.push(found(
                    "locale-added",
                    &[],
                    format!("messages in `{tag}` added"),
                    Needle::Start,
                    Needle::locale(tag, None),
                )),
                (Some(_), None) => self.push(found(
                    "locale-removed",
                    &[],
                    format!("messages in `{tag}` removed: its readers get English"),
                    Needle::locale(tag, None),
                    Needle::Start,
                )),
                (Some(a), Some(b)) => self.locale(tag, &a, &b),
                (None, None) => {}
            }
        }
    }

    fn locale(&mut self, tag: &str, a: &Messages, b: &Messages) {
        let old: BTreeMap<&str, &str> = a
            .templates
            .iter()
            .map(|(c, t)| (c.as_str(), t.as_str()))
            .collect();
        let new: BTreeMap<&str, &str> = b
            .templates
            .iter()
            .map(|(c, t)| (c.as_str(), t.as_str()))
            .collect();
        let codes: BTreeSet<&str> = old.keys().chain(new.keys()).copied().collect();
        for code in codes {
            let message = match (old.get(code), new.get(code)) {
                (Some(x), Some(y)) if x == y => continue,
                (Some(_), Some(y)) => format!("the `{tag}` message of `{code}` is now \"{y}\""),
                (None, Some(_)) => format!("`{code}` has a `{tag}` message now"),
                (Some(_), None) => format!("`{code}` has no `{tag}` message now (English)"),
                (None, None) => continue,
            };
            let at = |has: bool| {
                if has {
                    Needle::locale(tag, Some(code))
                } else {
                    Needle::locale(tag, None)
                }
            };
            self.push(found(
                "message-changed",
                &[],
                message,
                at(old.contains_key(code)),
                at(new.contains_key(code)),
            ));
        }
    }
}
