//! Machines phase: states tables, the sidecar's `[machines.*]`, and the transitions tables
//! that give each machine its moves.

use std::collections::BTreeSet;

use super::index::Kind;
use super::tables::{Named, Names};
use super::Checker;
use crate::diag::Context;
use crate::loader::markdown::{Cell, CodeSpan, Row, Table};
use crate::model::*;
use crate::names::{suggest, upper_camel};

/// The states of `m` that code spans name; reports those it does not have.
fn lookup(ctx: &mut Context, m: &Machine, s: &CodeSpan) -> Option<usize> {
    let i = m.states.iter().position(|x| x.value == s.text);
    if i.is_none() {
        let names: Vec<String> = m.states.iter().map(|x| format!("`{}`", x.value)).collect();
        ctx.md(
            s.pos,
            format!("`{}` is no state of `{}`", s.text, m.name),
            format!("states: {}", names.join(", ")),
        );
    }
    i
}

/// What a transitions table's rows are read against.
struct Moves<'m> {
    machine: &'m Machine,
    /// Whether the table has an On column.
    with_on: bool,
    /// The `on` enum's name and values, when the sidecar names one.
    on_enum: Option<String>,
    on_values: Vec<String>,
}

impl Checker<'_> {
    /// States tables with their transitions tables.
    pub(super) fn machines(
        &mut self,
        states: &[Named<'_>],
        transitions: &[&Table],
    ) -> Vec<Machine> {
        let mut machines: Vec<Machine> = states
            .iter()
            .map(|n| self.states_table(&n.name, n.table))
            .collect();
        self.machine_events(&mut machines);
        let mut done = BTreeSet::new();
        for t in transitions {
            self.transitions_table(&mut machines, &mut done, t);
        }
        for (i, n) in states.iter().enumerate() {
            if i < machines.len() && machines[i].transitions.is_empty() {
                self.ctx.md(
                    n.pos,
                    format!("the machine `{}` has no transitions", n.name),
                    format!("add a table `| From | To |` (or `| From | To | On |`) under a heading naming `{}`", n.name),
                );
            }
        }
        machines
    }

    fn states_table(&mut self, name: &str, t: &Table) -> Machine {
        let mut list: Vec<State> = Vec::new();
        let mut names = Names::default();
        for row in &t.rows {
            let [state, terminal, meaning, ..] = row.cells.as_slice() else {
                self.ctx.md(
                    row.pos,
                    "a state row needs three cells",
                    "write `| `STATE` | no | meaning |`",
                );
                continue;
            };
            let value = state.key().to_owned();
            let variant = upper_camel(&value);
            if value.is_empty() || variant.is_empty() {
                self.ctx.md(
                    state.pos,
                    "empty state",
                    "write the state in the State cell",
                );
                continue;
            }
            if names.add(&value, &variant).is_some() {
                self.ctx.md(
                    state.pos,
                    format!("duplicate state `{value}` in `{name}`"),
                    "give each row its own state",
                );
                continue;
            }
            let terminal = match terminal.plain.trim().to_lowercase().as_str() {
                "yes" => true,
                "no" => false,
                other => {
                    self.ctx.md(
                        terminal.pos,
                        format!("cannot read the Terminal cell `{other}`"),
                        "write `yes` or `no`",
                    );
                    false
                }
            };
            list.push(State {
                value,
                variant,
                terminal,
                doc: meaning.md.clone(),
            });
        }
        if list.is_empty() {
            self.ctx.md(
                t.pos,
                format!("states table `{name}` has no states"),
                "add at least one row",
            );
        }
        Machine {
            name: name.to_owned(),
            rust_name: self.index.rust_name_of(name),
            doc: t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default(),
            states: list,
            transitions: Vec::new(),
            on: None,
        }
    }

    /// `[machines.<states>] on`: the enum whose values label the moves.
    fn machine_events(&mut self, machines: &mut [Machine]) {
        for (k, on) in std::mem::take(&mut self.side.machines) {
            let Some(i) = machines.iter().position(|m| m.name == k.value) else {
                self.ctx.toml(
                    k.pos,
                    format!("[machines.{}] names no states table", k.value),
                    suggest(
                        &k.value,
                        machines.iter().map(|m| m.name.as_str()),
                        "states tables have the header `State | Terminal | Meaning`",
                    ),
                );
                continue;
            };
            match on {
                None => self.ctx.toml(
                    k.pos,
                    format!("[machines.{}] has no `on`", k.value),
                    "add `on = \"<enum table>\"`: the enum whose values label the moves",
                ),
                Some(on) if self.index.kinds.get(&on.value) == Some(&Kind::Enum) => {
                    machines[i].on = Some(on.value);
                }
                Some(on) => self.ctx.toml(
                    on.pos,
                    format!("`on = \"{}\"` names no enum table", on.value),
                    suggest(
                        &on.value,
                        self.index.names_of(Some(Kind::Enum)),
                        "name the enum table whose values fill the On column",
                    ),
                ),
            }
        }
    }

    /// One transitions table: the machine its heading names gets its moves.
    fn transitions_table(
        &mut self,
        machines: &mut [Machine],
        done: &mut BTreeSet<usize>,
        t: &Table,
    ) {
        let Some(code) = t.heading.as_ref().and_then(|h| h.first_code.clone()) else {
            self.ctx.md(
                t.pos,
                "this transitions table names no states table",
                "put the states table's name in a code span in the heading: ### Transitions of a `name`",
            );
            return;
        };
        let Some(mi) = machines.iter().position(|m| m.name == code.text) else {
            self.ctx.md(
                code.pos,
                format!("`{}` is no states table", code.text),
                "states tables have the header `State | Terminal | Meaning`",
            );
            return;
        };
        if !done.insert(mi) {
            self.ctx.md(
                code.pos,
                format!("a second transitions table for `{}`", code.text),
                "keep all moves of one machine in one table",
            );
            return;
        }
        let with_on = t.header.len() == 3;
        let on_enum = machines[mi].on.clone();
        if with_on && on_enum.is_none() {
            self.ctx.md(
                t.pos,
                format!(
                    "the transitions of `{}` have an On column, but no enum names its values",
                    code.text
                ),
                format!(
                    "add `[machines.{}]` with `on = \"<enum table>\"` to the sidecar",
                    code.text
                ),
            );
        }
        if !with_on && on_enum.is_some() {
            self.ctx.md(
                t.pos,
                format!(
                    "[machines.{}] names an `on` enum, but the table has no On column",
                    code.text
                ),
                "add an On column, or remove `on` from the sidecar",
            );
        }
        let on_values: Vec<String> = on_enum
            .as_ref()
            .and_then(|n| self.index.enum_named(n))
            .map(|e| e.values.iter().map(|v| v.value.clone()).collect())
            .unwrap_or_default();
        let m = machines[mi].clone();
        let moves = Moves {
            machine: &m,
            with_on,
            on_enum,
            on_values,
        };
        let mut edges: Vec<Transition> = Vec::new();
        for row in &t.rows {
            self.transition_row(&moves, row, &mut edges);
        }
        machines[mi].transitions = edges;
    }

    /// The From states of a row: `*` for every non-terminal state, else code spans.
    fn origins(&mut self, m: &Machine, from_cell: &Cell) -> Vec<usize> {
        if from_cell.plain.trim() == "*" {
            return (0..m.states.len())
                .filter(|&i| !m.states[i].terminal)
                .collect();
        }
        if from_cell.codes.is_empty() {
            self.ctx.md(
                from_cell.pos,
                format!("cannot read the From cell `{}`", from_cell.plain),
                "write states in code spans, comma-separated, or `*` for every non-terminal state",
            );
        }
        let mut out = Vec::new();
        for c in &from_cell.codes {
            if let Some(i) = lookup(&mut self.ctx, m, c) {
                if m.states[i].terminal {
                    self.ctx.md(
                        c.pos,
                        format!("terminal state `{}` has an outgoing move", c.text),
                        "a terminal state has no moves: remove it from From, or mark it `no` in Terminal",
                    );
                } else {
                    out.push(i);
                }
            }
        }
        out
    }

    /// One row of a transitions table: its moves added to `edges`.
    fn transition_row(&mut self, moves: &Moves<'_>, row: &Row, edges: &mut Vec<Transition>) {
        let m = moves.machine;
        let (Some(from_cell), Some(to_cell)) = (row.cells.first(), row.cells.get(1)) else {
            return;
        };
        let froms = self.origins(m, from_cell);
        if to_cell.codes.is_empty() {
            self.ctx.md(
                to_cell.pos,
                format!("cannot read the To cell `{}`", to_cell.plain),
                "write states in code spans, comma-separated",
            );
        }
        let tos: Vec<usize> = to_cell
            .codes
            .iter()
            .filter_map(|c| lookup(&mut self.ctx, m, c))
            .collect();
        let on = if moves.with_on {
            let cell = row.cells.get(2);
            let v = cell.map(|c| c.key().to_owned()).unwrap_or_default();
            if moves.on_enum.is_some() && !moves.on_values.contains(&v) {
                self.ctx.md(
                    cell.map_or(row.pos, |c| c.pos),
                    format!(
                        "`{v}` is not a value of `{}`",
                        moves.on_enum.as_deref().unwrap_or("")
                    ),
                    format!(
                        "values: {}",
                        moves
                            .on_values
                            .iter()
                            .map(|v| format!("`{v}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                return;
            }
            Some(v)
        } else {
            None
        };
        for &f in &froms {
            for &to in &tos {
                if edges
                    .iter()
                    .any(|e| e.from == f && e.to == to && e.on == on)
                {
                    continue;
                }
                if let Some(other) = edges
                    .iter()
                    .find(|e| on.is_some() && e.from == f && e.on == on)
                {
                    self.ctx.md(
                        row.pos,
                        format!(
                            "`{}` on `{}` goes to both `{}` and `{}`",
                            m.states[f].value,
                            on.as_deref().unwrap_or(""),
                            m.states[other.to].value,
                            m.states[to].value
                        ),
                        "one state and one event lead to one state: remove one row",
                    );
                    continue;
                }
                edges.push(Transition {
                    from: f,
                    to,
                    on: on.clone(),
                });
            }
        }
    }
}
