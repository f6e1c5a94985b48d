//! Emit a Mermaid `stateDiagram-v2` for each state machine of a spec.

use crate::model::*;

/// Renders one machine: states in table order, terminal states into `[*]`, each move
/// labelled with its event when the table has one.
pub(crate) fn emit(m: &Machine, note: &str) -> String {
    let mut out = format!("%% {note}\nstateDiagram-v2\n");
    let id = |i: usize| m.states[i].variant.clone();
    for s in &m.states {
        out.push_str(&format!("    state \"{}\" as {}\n", s.value, s.variant));
    }
    for t in &m.transitions {
        match &t.on {
            Some(on) => out.push_str(&format!("    {} --> {}: {on}\n", id(t.from), id(t.to))),
            None => out.push_str(&format!("    {} --> {}\n", id(t.from), id(t.to))),
        }
    }
    for s in m.states.iter().filter(|s| s.terminal) {
        out.push_str(&format!("    {} --> [*]\n", s.variant));
    }
    out
}
