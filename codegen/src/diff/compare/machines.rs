//! State machines: states and transitions added, removed, made final, renamed.

use super::*;

impl Cmp<'_> {
    pub(super) fn machines(&mut self) {
        let (o, n) = (self.old, self.new);
        for m in &o.machines {
            let Some(k) = n.machines.iter().find(|k| k.name == m.name) else {
                self.push(found(
                    "machine-removed",
                    &[Machines, RustApi],
                    format!("state machine `{}` removed", m.name),
                    Needle::table(&m.name),
                    Needle::Start,
                ));
                continue;
            };
            let used = self.path_of(&m.name);
            let hint = Hint {
                path: used.clone(),
                samples: m
                    .states
                    .iter()
                    .chain(&k.states)
                    .map(|s| json!(s.value))
                    .collect(),
                lengths: Vec::new(),
                anywhere: None,
                codes: Vec::new(),
                pad: false,
            };
            if m.rust_name != k.rust_name {
                self.push(found(
                    "type-renamed",
                    &[RustApi],
                    format!(
                        "the Rust type of `{}` is `{}`, was `{}`",
                        m.name, k.rust_name, m.rust_name
                    ),
                    Needle::Toml(m.rust_name.clone()),
                    Needle::Toml(k.rust_name.clone()),
                ));
            }
            for s in &m.states {
                match k.states.iter().find(|t| t.value == s.value) {
                    None => self.push(
                        found(
                            "state-removed",
                            &[Machines, RustApi],
                            format!("`{}` state `{}` removed", m.name, s.value),
                            Needle::row(Some(&m.name), &s.value),
                            Needle::table(&k.name),
                        )
                        .at(&hint)
                        .also(Documents, used.is_some()),
                    ),
                    Some(t) => {
                        if t.variant != s.variant {
                            self.push(found(
                                "state-renamed",
                                &[RustApi],
                                format!(
                                    "the Rust variant of `{}` state `{}` is `{}`, was `{}`",
                                    m.name, s.value, t.variant, s.variant
                                ),
                                Needle::row(Some(&m.name), &s.value),
                                Needle::row(Some(&k.name), &t.value),
                            ));
                        }
                        if t.terminal && !s.terminal {
                            self.push(found(
                                "state-made-final",
                                &[Machines],
                                format!(
                                    "`{}` state `{}` is now final: no move leaves it",
                                    m.name, s.value
                                ),
                                Needle::row(Some(&m.name), &s.value),
                                Needle::row(Some(&k.name), &t.value),
                            ));
                        }
                    }
                }
            }
            for t in &k.states {
                if !m.states.iter().any(|s| s.value == t.value) {
                    self.push(
                        found(
                            "state-added",
                            &[],
                            format!("`{}` state `{}` added", k.name, t.value),
                            Needle::table(&m.name),
                            Needle::row(Some(&k.name), &t.value),
                        )
                        .at(&hint)
                        .also(Readers, used.is_some()),
                    );
                }
            }
            let moves = |m: &Machine| -> Vec<(String, String, Option<String>)> {
                m.transitions
                    .iter()
                    .map(|t| {
                        (
                            m.states[t.from].value.clone(),
                            m.states[t.to].value.clone(),
                            t.on.clone(),
                        )
                    })
                    .collect()
            };
            let (old_moves, new_moves) = (moves(m), moves(k));
            let words = |(from, to, on): &(String, String, Option<String>)| match on {
                Some(on) => format!("`{from}` → `{to}` on `{on}`"),
                None => format!("`{from}` → `{to}`"),
            };
            for mv in &old_moves {
                if !new_moves.contains(mv) {
                    self.push(found(
                        "transition-removed",
                        &[Machines],
                        format!("`{}` move {} removed", m.name, words(mv)),
                        mv_needle(&m.name, mv),
                        Needle::table(&k.name),
                    ));
                }
            }
            for mv in &new_moves {
                if !old_moves.contains(mv) {
                    self.push(found(
                        "transition-added",
                        &[],
                        format!("`{}` move {} added", k.name, words(mv)),
                        Needle::table(&m.name),
                        mv_needle(&k.name, mv),
                    ));
                }
            }
        }
        for k in &n.machines {
            if !o.machines.iter().any(|m| m.name == k.name) {
                self.push(found(
                    "machine-added",
                    &[],
                    format!("state machine `{}` added", k.name),
                    Needle::Start,
                    Needle::table(&k.name),
                ));
            }
        }
    }
}

/// Where a move (from, to, event) is: its transitions row.
fn mv_needle(machine: &str, (from, to, on): &(String, String, Option<String>)) -> Needle {
    Needle::Move {
        machine: machine.to_owned(),
        from: from.clone(),
        to: to.clone(),
        on: on.clone(),
    }
}
