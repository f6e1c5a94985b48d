//! A DFA for the patterns specs write most: anchored at both ends (`^…$`) and made only of
//! ASCII literals and ASCII classes, grouped, alternated and repeated
//! (`^pkg_[A-Za-z0-9_-]{1,63}$`, an RFC 3339 timestamp). [`Dfa::compile`] builds one from
//! such a pattern, else `None`, and [`Pattern`](super::Pattern) then keeps `regex-lite`.
//!
//! `regex-lite` runs a Pike VM: tens of instructions per input byte for every thread alive,
//! ~3,300 instructions to match a 30-byte id against a 63-fold bounded repeat. A DFA reads
//! each byte once with one table look-up. The languages are the same: every construct
//! accepted here means in `regex-lite` exactly what it means here (a byte at or above 0x80
//! can match none of them, so a non-ASCII input is refused at its first such byte), and
//! anything else (flags, `.`, `\d`-style classes, negated or nested classes, anchors or word
//! boundaries inside the pattern, non-ASCII literals) is left to `regex-lite`. The tests below
//! check that on random patterns and inputs against `regex-lite` itself.

use std::collections::HashMap;

/// A set of ASCII bytes.
type Set = u128;

/// The most NFA states a pattern may expand to (a counted repeat copies its operand).
const MAX_NFA_STATES: usize = 2048;
/// The largest count of a counted repeat (`x{n,m}`) compiled here.
const MAX_COUNT: u32 = 1000;
/// The most DFA states the subset construction may produce before giving up.
const MAX_DFA_STATES: usize = 512;

/// A pattern's syntax tree, for the subset this module compiles.
#[derive(Clone, Debug)]
enum Node {
    /// One byte of the set.
    Byte(Set),
    /// The parts one after another.
    Concat(Vec<Node>),
    /// Any one of the branches.
    Alt(Vec<Node>),
    /// `min` to `max` (`None`: unbounded) repetitions.
    Repeat(Box<Node>, u32, Option<u32>),
}

/// The parser of the subset: `None` for anything outside it.
struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        self.at += usize::from(found);
        found
    }

    fn alternation(&mut self) -> Option<Node> {
        let mut branches = vec![self.concat()?];
        while self.eat(b'|') {
            branches.push(self.concat()?);
        }
        Some(if branches.len() == 1 {
            branches.pop()?
        } else {
            Node::Alt(branches)
        })
    }

    fn concat(&mut self) -> Option<Node> {
        let mut parts = Vec::new();
        while let Some(b) = self.peek() {
            if b == b'|' || b == b')' {
                break;
            }
            let atom = self.atom()?;
            parts.push(self.quantified(atom)?);
        }
        Some(Node::Concat(parts))
    }

    fn atom(&mut self) -> Option<Node> {
        let b = self.peek()?;
        self.at += 1;
        match b {
            b'(' => {
                // A non-capturing group; any other `(?` (flags, names) is not in the subset.
                if self.eat(b'?') && !self.eat(b':') {
                    return None;
                }
                let inner = self.alternation()?;
                self.eat(b')').then_some(inner)
            }
            b'[' => self.class().map(Node::Byte),
            b'\\' => escaped(self.next()?).map(|b| Node::Byte(bit(b))),
            _ if is_literal(b) => Some(Node::Byte(bit(b))),
            _ => None,
        }
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    /// A class after its `[`: ASCII characters, ranges and escaped punctuation. Negation,
    /// nesting, set operations and POSIX classes are not in the subset.
    fn class(&mut self) -> Option<Set> {
        let mut set: Set = 0;
        let mut first = true;
        loop {
            let b = self.next()?;
            match b {
                b']' if !first => return (set != 0).then_some(set),
                b'[' | b']' => return None,
                b'^' if first => return None,
                // `-` stands for itself only first or last (`[-a]`, `[a-]`).
                b'-' if !first && self.peek() != Some(b']') => return None,
                _ => {}
            }
            first = false;
            let low = self.class_char(b)?;
            // `a-z`, unless the `-` ends the class (`[a-]`).
            if self.peek() == Some(b'-') && self.bytes.get(self.at + 1) != Some(&b']') {
                self.at += 1;
                let high_byte = self.next()?;
                let high = self.class_char(high_byte)?;
                if high < low || high_byte == b'-' {
                    return None;
                }
                for c in low..=high {
                    set |= bit(c);
                }
            } else {
                set |= bit(low);
            }
        }
    }

    /// One character of a class: `b`, or the character `\b` escapes. `-` may only stand at
    /// a class's end or beside a `-` range's ends as written; a doubled `&&`, `--` or `~~`
    /// (set operations in `regex-lite`) is refused.
    fn class_char(&mut self, b: u8) -> Option<u8> {
        if matches!(b, b'&' | b'-' | b'~') && self.peek() == Some(b) {
            return None;
        }
        if b == b'\\' {
            return escaped(self.next()?);
        }
        (b.is_ascii_graphic() || b == b' ').then_some(b)
    }

    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some(b'?') => (0, Some(1)),
            Some(b'*') => (0, None),
            Some(b'+') => (1, None),
            Some(b'{') => return self.counted(atom),
            _ => return Some(atom),
        };
        self.at += 1;
        self.lazy_marker()?;
        Some(Node::Repeat(Box::new(atom), min, max))
    }

    /// `{n}`, `{n,}` or `{n,m}` after an atom.
    fn counted(&mut self, atom: Node) -> Option<Node> {
        self.at += 1;
        let min = self.number()?;
        let max = if self.eat(b',') {
            if self.peek() == Some(b'}') {
                None
            } else {
                Some(self.number()?)
            }
        } else {
            Some(min)
        };
        if !self.eat(b'}') || max.is_some_and(|max| max < min) || max.unwrap_or(min) > MAX_COUNT {
            return None;
        }
        self.lazy_marker()?;
        Some(Node::Repeat(Box::new(atom), min, max))
    }

    /// A `?` making the repeat lazy changes what a search reports, not whether the whole
    /// text matches; a second quantifier right after is not in the subset.
    fn lazy_marker(&mut self) -> Option<()> {
        self.eat(b'?');
        (!matches!(self.peek(), Some(b'?' | b'*' | b'+' | b'{'))).then_some(())
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.at])
            .ok()?
            .parse()
            .ok()
    }
}

/// A literal outside a class: ASCII, printable, not a metacharacter.
fn is_literal(b: u8) -> bool {
    (b.is_ascii_graphic() || b == b' ') && !META.contains(&b)
}

/// What stands for itself only when escaped, outside a class.
const META: &[u8] = b"\\.+*?()|[]{}^$";

/// The character `\b` stands for when it is escaped punctuation (`\.`, `\-`); letters and
/// digits after `\` are classes, anchors or escapes of their own, and so are `\<` and `\>`
/// (word boundaries): none of them is in the subset.
fn escaped(b: u8) -> Option<u8> {
    (b.is_ascii_punctuation() && b != b'<' && b != b'>').then_some(b)
}

const fn bit(b: u8) -> Set {
    1 << b
}

/// One NFA state: consume a byte of the set and go on, split, or accept.
#[derive(Clone, Copy, Debug)]
enum State {
    Byte(Set, u32),
    Split(u32, u32),
    Match,
}

/// Thompson's construction; a state's targets are patched once the next fragment exists.
struct Nfa {
    states: Vec<State>,
}

/// A fragment: its start and the states whose dangling target (`u32::MAX`) is its exit.
struct Frag {
    start: u32,
    holes: Vec<u32>,
}

const HOLE: u32 = u32::MAX;

impl Nfa {
    fn push(&mut self, state: State) -> Option<u32> {
        if self.states.len() >= MAX_NFA_STATES {
            return None;
        }
        self.states.push(state);
        u32::try_from(self.states.len() - 1).ok()
    }

    fn patch(&mut self, holes: &[u32], to: u32) {
        for &h in holes {
            match &mut self.states[h as usize] {
                State::Byte(_, next) => *next = to,
                State::Split(a, b) => {
                    if *a == HOLE {
                        *a = to;
                    } else {
                        *b = to;
                    }
                }
                State::Match => {}
            }
        }
    }

    /// The fragment for `node`; `None` for a pattern that expands past the state limit.
    fn frag(&mut self, node: &Node) -> Option<Option<Frag>> {
        Some(match node {
            Node::Byte(set) => {
                let s = self.push(State::Byte(*set, HOLE))?;
                Some(Frag {
                    start: s,
                    holes: vec![s],
                })
            }
            Node::Concat(parts) => self.concat(parts.iter().map(Some))?,
            Node::Alt(branches) => {
                let mut frags = Vec::new();
                let mut empty = false;
                for b in branches {
                    match self.frag(b)? {
                        Some(f) => frags.push(f),
                        None => empty = true,
                    }
                }
                let mut result = frags.pop()?;
                while let Some(f) = frags.pop() {
                    let s = self.push(State::Split(f.start, result.start))?;
                    let mut holes = f.holes;
                    holes.extend(result.holes);
                    result = Frag { start: s, holes };
                }
                if empty {
                    result = self.optional(result)?;
                }
                Some(result)
            }
            Node::Repeat(inner, min, max) => {
                let required = (0..*min).map(|_| Some(&**inner));
                let mut frag = self.concat(required)?;
                match max {
                    None => {
                        let Some(body) = self.frag(inner)? else {
                            return Some(frag);
                        };
                        let s = self.push(State::Split(body.start, HOLE))?;
                        self.patch(&body.holes, s);
                        let star = Frag {
                            start: s,
                            holes: vec![s],
                        };
                        frag = self.join(frag, Some(star));
                    }
                    Some(max) => {
                        // `x{n,m}`: n copies, then m - n nested optional ones
                        // (`x(x(x)?)?`), so no copy may follow a skipped one.
                        let mut tail: Option<Frag> = None;
                        for _ in *min..*max {
                            let Some(body) = self.frag(inner)? else { break };
                            let body = self.join(Some(body), tail)?;
                            tail = Some(self.optional(body)?);
                        }
                        frag = self.join(frag, tail);
                    }
                }
                frag
            }
        })
    }

    /// The parts in sequence (`None` for an empty one).
    fn concat<'n>(
        &mut self,
        parts: impl Iterator<Item = Option<&'n Node>>,
    ) -> Option<Option<Frag>> {
        let mut result = None;
        for part in parts.flatten() {
            let f = self.frag(part)?;
            result = self.join(result, f);
        }
        Some(result)
    }

    fn join(&mut self, a: Option<Frag>, b: Option<Frag>) -> Option<Frag> {
        match (a, b) {
            (Some(a), Some(b)) => {
                self.patch(&a.holes, b.start);
                Some(Frag {
                    start: a.start,
                    holes: b.holes,
                })
            }
            (a, b) => a.or(b),
        }
    }

    /// `f` or nothing.
    fn optional(&mut self, f: Frag) -> Option<Frag> {
        let s = self.push(State::Split(f.start, HOLE))?;
        let mut holes = f.holes;
        holes.push(s);
        Some(Frag { start: s, holes })
    }

    /// The states reachable from `from` through splits only, the byte and match states kept.
    fn closure(&self, from: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let mut seen = vec![false; self.states.len()];
        let mut stack: Vec<u32> = from.into_iter().collect();
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if std::mem::replace(&mut seen[s as usize], true) {
                continue;
            }
            match self.states[s as usize] {
                State::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                _ => out.push(s),
            }
        }
        out.sort_unstable();
        out
    }
}

/// A compiled pattern of the subset: a transition per state and ASCII byte.
#[derive(Debug)]
pub(crate) struct Dfa {
    /// `next[state * 128 + byte]`; state 0 is dead.
    next: Vec<u16>,
    accepting: Vec<bool>,
    start: u16,
}

impl Dfa {
    /// The DFA of `source`, or `None` when it is outside the subset (or too large). Call it
    /// only for a pattern `regex-lite` compiles: the subset's parser does not diagnose.
    pub(crate) fn compile(source: &str) -> Option<Dfa> {
        // (A pattern ending `\$` ends with an escape left open here: refused below.)
        let bytes = source.strip_prefix('^')?.strip_suffix('$')?.as_bytes();
        let mut parser = Parser { bytes, at: 0 };
        let tree = parser.alternation()?;
        if parser.at != bytes.len() {
            return None;
        }
        let mut nfa = Nfa { states: Vec::new() };
        let accept = nfa.push(State::Match)?;
        let start = match nfa.frag(&tree)? {
            Some(f) => {
                nfa.patch(&f.holes, accept);
                f.start
            }
            None => accept,
        };
        Self::determinize(&nfa, start)
    }

    fn determinize(nfa: &Nfa, start: u32) -> Option<Dfa> {
        let mut ids: HashMap<Vec<u32>, u16> = HashMap::new();
        let mut sets: Vec<Vec<u32>> = vec![Vec::new()];
        ids.insert(Vec::new(), 0);
        let first = nfa.closure([start]);
        ids.insert(first.clone(), 1);
        sets.push(first);
        // A row per state: the dead one and the start, then one per state found.
        let mut next = vec![0u16; 2 * 128];
        let mut i = 1;
        while i < sets.len() {
            for byte in 0..128u8 {
                let targets: Vec<u32> = sets[i]
                    .iter()
                    .filter_map(|&s| match nfa.states[s as usize] {
                        State::Byte(set, to) if set & bit(byte) != 0 => Some(to),
                        _ => None,
                    })
                    .collect();
                if targets.is_empty() {
                    continue; // dead, state 0
                }
                let set = nfa.closure(targets);
                let id = match ids.get(&set) {
                    Some(&id) => id,
                    None => {
                        if sets.len() >= MAX_DFA_STATES {
                            return None;
                        }
                        let id = u16::try_from(sets.len()).ok()?;
                        ids.insert(set.clone(), id);
                        sets.push(set);
                        next.extend([0u16; 128]);
                        id
                    }
                };
                next[i * 128 + usize::from(byte)] = id;
            }
            i += 1;
        }
        let accepting = sets
            .iter()
            .map(|set| {
                set.iter()
                    .any(|&s| matches!(nfa.states[s as usize], State::Match))
            })
            .collect();
        Some(Dfa {
            next,
            accepting,
            start: 1,
        })
    }

    /// Whether the whole of `s` matches.
    pub(crate) fn is_match(&self, s: &str) -> bool {
        let mut state = self.start;
        for &b in s.as_bytes() {
            if b >= 128 {
                return false;
            }
            state = self.next[usize::from(state) * 128 + usize::from(b)];
            if state == 0 {
                return false;
            }
        }
        self.accepting[usize::from(state)]
    }
}

#[cfg(test)]
mod tests {
    use super::Dfa;
    use crate::test_rng::Rng;

    /// A random pattern body of the subset, `depth` levels of groups deep at most.
    fn body(rng: &mut Rng, depth: u32) -> String {
        const ATOMS: &[&str] = &[
            "a",
            "b",
            "-",
            "_",
            "\\.",
            "\\-",
            "\\$",
            "[ab]",
            "[a-c]",
            "[0-9]",
            "[-a]",
            "[b-]",
            "[A-Za-z0-9_-]",
            "[+-]",
            "[\\]a]",
            "x",
            " ",
            "&",
            "~",
            "#",
        ];
        const QUANTS: &[&str] = &[
            "", "", "", "?", "*", "+", "{2}", "{0,2}", "{1,3}", "{2,}", "??", "+?", "{1,2}?",
        ];
        let mut out = String::new();
        for _ in 0..=rng.below(4) {
            let atom = if depth > 0 && rng.below(4) == 0 {
                let branches: Vec<String> =
                    (0..=rng.below(3)).map(|_| body(rng, depth - 1)).collect();
                let open = if rng.below(2) == 0 { "(" } else { "(?:" };
                format!("{open}{})", branches.join("|"))
            } else {
                rng.pick(ATOMS).to_owned()
            };
            out.push_str(&atom);
            out.push_str(rng.pick(QUANTS));
        }
        out
    }

    /// A random input over the patterns' alphabet, with a non-ASCII character now and then.
    fn input(rng: &mut Rng) -> String {
        const PARTS: &[&str] = &[
            "a",
            "b",
            "c",
            "x",
            "0",
            "5",
            "-",
            "_",
            ".",
            "$",
            "]",
            "+",
            " ",
            "&",
            "~",
            "#",
            "A",
            "é",
            "\u{1F600}",
            "\n",
        ];
        (0..rng.below(9)).map(|_| rng.pick(PARTS)).collect()
    }

    #[test]
    fn the_dfa_says_what_regex_lite_says_on_random_patterns_and_inputs() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut compiled = 0;
        for _ in 0..600 {
            let inner = body(&mut rng, 2);
            let pattern = format!("^{inner}$");
            let re = regex_lite::Regex::new(&pattern)
                .unwrap_or_else(|e| panic!("`{pattern}` is a valid regex: {e}"));
            let Some(dfa) = Dfa::compile(&pattern) else {
                continue;
            };
            compiled += 1;
            for _ in 0..60 {
                let s = input(&mut rng);
                assert_eq!(dfa.is_match(&s), re.is_match(&s), "`{pattern}` on {s:?}");
            }
            // Inputs the pattern is likely to match: strings regex-lite finds in a longer text.
            let text: String = (0..40).map(|_| input(&mut rng)).collect();
            let search = regex_lite::Regex::new(&inner).expect("the body is a regex");
            for m in search.find_iter(&text) {
                let s = m.as_str();
                assert_eq!(dfa.is_match(s), re.is_match(s), "`{pattern}` on {s:?}");
            }
        }
        // The generator stays inside the subset: nearly every pattern compiles to a DFA.
        assert!(
            compiled > 550,
            "only {compiled} of 600 random patterns compiled"
        );
    }

    #[test]
    fn the_specs_patterns_compile_to_a_dfa_and_match_as_regex_lite_does() {
        let cases: &[(&str, &[&str])] = &[
            (
                "^pkg_[A-Za-z0-9_-]{1,63}$",
                &["pkg_a", "pkg_", "pkg_a-b_C9", "pkg_é", "xpkg_a", "pkg_a\n"],
            ),
            (
                "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$",
                &[
                    "2026-12-04T10:00:00Z",
                    "2026-12-04T10:00:00.123+01:00",
                    "2026-12-04T10:00:00.Z",
                    "2026-12-04 10:00:00Z",
                    "2026-12-04T10:00:00-0100",
                    "2026-12-04T10:00:00Z ",
                ],
            ),
        ];
        for (pattern, inputs) in cases {
            let dfa = Dfa::compile(pattern).expect("in the subset");
            let re = regex_lite::Regex::new(pattern).expect("a regex");
            for s in *inputs {
                assert_eq!(dfa.is_match(s), re.is_match(s), "`{pattern}` on {s:?}");
            }
        }
        let long = format!("pkg_{}", "a".repeat(63));
        let too_long = format!("pkg_{}", "a".repeat(64));
        let dfa = Dfa::compile(cases[0].0).expect("in the subset");
        assert!(dfa.is_match(&long));
        assert!(!dfa.is_match(&too_long));
    }

    #[test]
    fn what_is_outside_the_subset_is_left_to_regex_lite() {
        for pattern in [
            "pkg_[a-z]+$",   // not anchored at the start
            "^pkg_[a-z]+",   // nor at the end
            "^.$",           // `.` matches non-ASCII characters
            "^\\d+$",        // a class escape
            "^[^a]$",        // a negated class
            "^(?i)a$",       // a flag
            "^a|^b$",        // an anchor inside
            "^é$",           // a non-ASCII literal
            "^[[:alpha:]]$", // a POSIX class
            "^[a&&b]$",      // a set operation
            "^a{1,5000}$",   // too many copies
            "^\\<a$",        // a word boundary
            "^a\\$",         // ends in an escape, not the anchor
        ] {
            assert!(Dfa::compile(pattern).is_none(), "`{pattern}` compiled");
        }
    }
}
