//! Expression rules: the spec format's rules table (`Code | On | Rule`), parsed, checked
//! and evaluated here once for every route (the generated Rust, the interpreter behind the
//! CLI and both bindings).
//!
//! The language is small and arithmetic first (see *Rules tables* in docs/spec-format.md):
//!
//! ```text
//! rule    := or
//! or      := and ("or" and)*
//! and     := not ("and" not)*
//! not     := "not" not | cmp
//! cmp     := add [("=" | "!=" | "<" | "<=" | ">" | ">=") add ["±" add]]
//! add     := mul (("+" | "-") mul)*
//! mul     := unary (("*" | "/") unary)*
//! unary   := "-" unary | atom ("??" atom)*
//! atom    := number | "text" | true | false | "(" or ")" | path
//!          | sum(path) | count(path) | has(path) | abs(add) | min(add, add) | max(add, add)
//!          | round(add, S) | round(add, S, half_up | half_even) | "Σ" path
//! path    := name ["[]"] ("." name ["[]"])*
//! ```
//!
//! - Numbers are exact decimals (28 digits, as [`Decimal`]): integers, `decimal(S)` and
//!   `number` fields (a `number` as Rust writes the double) all compute exactly; a sum or
//!   product that does not fit, or a division by zero, is a [`Fault`], which the rule
//!   reports as its violation, never a panic.
//! - A quotient is written rounded (`round(a / b, 2)`): anywhere else it is refused when the
//!   rule is read, since it would be cut at 28 digits unseen.
//! - `round` is half away from zero (`half_up`, as commerce and EN 16931 round) unless
//!   `half_even` is given.
//! - A path through an absent member, or to one, is absent; arithmetic with an absent
//!   operand is absent, and a comparison with one is unknown. As a SQL `CHECK`, a rule fails
//!   only when it is false: unknown passes (`has(x)` asks for presence). `sum` and `count`
//!   read the items of the path's lists, skipping absent values; a `sum` of none is 0.
//! - `a = b ± t` holds when `|a − b| ≤ t`.
//!
//! ```
//! use specmint_runtime::expr::{AsValue, Expr, Subject, Value};
//!
//! struct Line(&'static str);
//! struct Invoice { total: &'static str, lines: Vec<Line> }
//! impl Subject for Line {
//!     fn member(&self, name: &str) -> Value<'_> {
//!         match name { "net" => Value::Decimal(self.0.parse().unwrap()), _ => Value::Absent }
//!     }
//! }
//! impl AsValue for Line {
//!     fn as_value(&self) -> Value<'_> {
//!         Value::Object(Box::new(self))
//!     }
//! }
//! impl Subject for Invoice {
//!     fn member(&self, name: &str) -> Value<'_> {
//!         match name {
//!             "total" => Value::Decimal(self.total.parse().unwrap()),
//!             "lines" => Value::list(&self.lines),
//!             _ => Value::Absent,
//!         }
//!     }
//! }
//!
//! let rule = Expr::parse("total = sum(lines[].net)").unwrap();
//! let ok = Invoice { total: "30.50", lines: vec![Line("10.25"), Line("20.25")] };
//! assert_eq!(rule.holds(&ok), Ok(true));
//! let off = Invoice { total: "30.49", lines: vec![Line("10.25"), Line("20.25")] };
//! assert_eq!(rule.holds(&off), Ok(false));
//! ```

use core::cmp::Ordering;
use core::fmt;

use rust_decimal::{Decimal as Dec, RoundingStrategy};

use crate::decimal::Decimal;
use crate::path::Path;
use crate::report::{Code, Report, Violation};
use crate::rules::When;

/// The functions of a rule, each as written and what it gives (for messages and editors).
pub const FUNCTIONS: &[(&str, &str)] = &[
    (
        "sum",
        "sum(lines[].amount), or sum(l in lines[] if FILTER, AMOUNT): the sum over the items",
    ),
    (
        "count",
        "count(lines[].id), or count(l in lines[] if FILTER): how many",
    ),
    ("has", "has(member): present and not null"),
    (
        "round",
        "round(x, S) half away from zero, round(x, S, half_even)",
    ),
    ("abs", "abs(x)"),
    ("min", "min(a, b)"),
    ("max", "max(a, b)"),
    (
        "all",
        "all(b in list[] if FILTER, COND): every item (the filter keeps) satisfies COND",
    ),
    ("any", "any(b in list[] if FILTER, COND): some item does"),
];

/// The most words, numbers and signs a rule holds (BR-S-08 of EN 16931 takes about 80): a
/// longer one is refused when read, so reading, computing and showing it never run deep.
pub const MAX_TOKENS: usize = 400;

/// The most parentheses, calls, `not`s and signs a rule nests.
pub const MAX_NESTING: usize = 64;

/// The most fraction digits `round` takes.
pub const MAX_SCALE: u32 = 28;

/// One step of a path: a member's name, and whether the member is a list whose items the
/// path goes on through (`lines[]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The member's JSON key.
    pub name: String,
    /// `[]` follows the name.
    pub each: bool,
}

/// A path as written (`lines[].net_amount`), with the char offset it starts at in the rule.
/// Two paths are equal when their steps are: where they were written does not count.
#[derive(Clone, Debug, Eq)]
pub struct PathExpr {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Where the path starts in the rule's text, in chars.
    pub at: usize,
}

impl PartialEq for PathExpr {
    fn eq(&self, other: &Self) -> bool {
        self.steps == other.steps
    }
}

impl PathExpr {
    /// Whether a step before the last, or the last, goes through a list's items.
    pub fn through_lists(&self) -> bool {
        self.steps.iter().any(|s| s.each)
    }
}

impl fmt::Display for PathExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(&s.name)?;
            if s.each {
                f.write_str("[]")?;
            }
        }
        Ok(())
    }
}

/// `+`, `-`, `*`, `/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `=` (also `==`).
    Eq,
    /// `!=` (also `≠`).
    Ne,
    /// `<`.
    Lt,
    /// `<=` (also `≤`).
    Le,
    /// `>`.
    Gt,
    /// `>=` (also `≥`).
    Ge,
}

impl Cmp {
    pub(crate) fn holds(self, o: Ordering) -> bool {
        match self {
            Cmp::Eq => o == Ordering::Equal,
            Cmp::Ne => o != Ordering::Equal,
            Cmp::Lt => o == Ordering::Less,
            Cmp::Le => o != Ordering::Greater,
            Cmp::Gt => o == Ordering::Greater,
            Cmp::Ge => o != Ordering::Less,
        }
    }

    /// The operator as the canonical text writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// How `round` treats a midpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Away from zero (`2.345` → `2.35`, `-2.345` → `-2.35`): `half_up`, the default.
    HalfUp,
    /// To the even digit (`2.345` → `2.34`, `2.355` → `2.36`): `half_even`.
    HalfEven,
}

impl Rounding {
    fn as_str(self) -> &'static str {
        match self {
            Rounding::HalfUp => "half_up",
            Rounding::HalfEven => "half_even",
        }
    }
}

/// What a binder computes over a list's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// `all(b in list[], cond)`: every item (that the filter keeps) satisfies `cond`.
    All,
    /// `any(b in list[], cond)`: some item does.
    Any,
    /// `sum(l in list[], amount)`: the sum of `amount` over the items.
    Sum,
    /// `count(l in list[])`: how many items.
    Count,
}

impl Aggregate {
    fn as_str(self) -> &'static str {
        match self {
            Aggregate::All => "all",
            Aggregate::Any => "any",
            Aggregate::Sum => "sum",
            Aggregate::Count => "count",
        }
    }
}

/// A binder: `sum(l in lines[] if l.category = "S", l.net_amount)` names each item of a
/// list (`l`), keeps those the filter keeps, and computes over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Over {
    /// What it computes.
    pub what: Aggregate,
    /// The name each item is bound to.
    pub name: String,
    /// The list, ending in `[]` (`lines[]`).
    pub list: PathExpr,
    /// `if …`: the items it keeps.
    pub filter: Option<Box<Expr>>,
    /// What is computed of each item (none for `count`).
    pub body: Option<Box<Expr>>,
}

impl Over {
    /// The members leading to the list, when it is a list of the object itself (only its
    /// last step goes through `[]`): such an `all` reports each item at its own path.
    pub fn own_list(&self) -> Option<Vec<&str>> {
        let (last, before) = self.list.steps.split_last()?;
        (last.each && before.iter().all(|s| !s.each))
            .then(|| self.list.steps.iter().map(|s| s.name.as_str()).collect())
    }
}

/// A parsed rule or a part of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A number literal, exact.
    Number(Decimal),
    /// A text literal (`"S"`).
    Text(String),
    /// `true` or `false`.
    Bool(bool),
    /// A member's value (no `[]` step: a list of values is summed or counted).
    Path(PathExpr),
    /// `sum(path)`: the path's values over its lists' items.
    Sum(PathExpr),
    /// `count(path)`: how many values the path reaches.
    Count(PathExpr),
    /// `has(path)`: the member is present and not `null`.
    Has(PathExpr),
    /// `all(b in list[], …)`, `any(…)`, `sum(l in list[], …)`, `count(l in list[])`.
    Over(Over),
    /// `a ?? b`: `a`, or `b` where `a` is absent (`totals.paid ?? 0`).
    Default(Box<Expr>, Box<Expr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `abs(e)`.
    Abs(Box<Expr>),
    /// `min(a, b)` (`false`) or `max(a, b)` (`true`).
    MinMax(bool, Box<Expr>, Box<Expr>),
    /// `a + b` and the others.
    Arith(Box<Expr>, Arith, Box<Expr>),
    /// `round(e, scale, rounding)`.
    Round(Box<Expr>, u32, Rounding),
    /// `a op b`, with `± tolerance` after an `=`.
    Cmp(Box<Expr>, Cmp, Box<Expr>, Option<Box<Expr>>),
    /// `a and b`.
    And(Box<Expr>, Box<Expr>),
    /// `a or b`.
    Or(Box<Expr>, Box<Expr>),
    /// `not e`.
    Not(Box<Expr>),
}

/// Why a rule's text is not a rule: what, and where (in chars from its start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The char offset in the rule's text.
    pub at: usize,
    /// What is wrong, and what to write instead where that is known.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at char {})", self.message, self.at + 1)
    }
}

impl std::error::Error for ParseError {}

/// Why a rule could not be computed for a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A result needs more than 28 digits.
    Overflow,
    /// A division by zero.
    DivisionByZero,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Overflow => "a result needs more than 28 digits",
            Fault::DivisionByZero => "it divides by zero",
        })
    }
}

/// A value a [`Subject`] gives for a member.
pub enum Value<'a> {
    /// Absent, or `null`.
    Absent,
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A `decimal(S)`.
    Decimal(Decimal),
    /// A `number`.
    Float(f64),
    /// Text, or an enum value as spelled.
    Text(&'a str),
    /// An object.
    Object(Box<dyn Subject + 'a>),
    /// A list.
    List(Box<dyn Items + 'a>),
}

impl<'a> Value<'a> {
    /// A list of values each of which is [`AsValue`].
    pub fn list<T: AsValue>(items: &'a [T]) -> Value<'a> {
        Value::List(Box::new(items))
    }
}

/// An object whose members a rule reads by their JSON key.
pub trait Subject {
    /// The member `name`, or [`Value::Absent`] when it is absent, `null` or no member.
    fn member(&self, name: &str) -> Value<'_>;
}

impl<T: Subject + ?Sized> Subject for &T {
    fn member(&self, name: &str) -> Value<'_> {
        (**self).member(name)
    }
}

/// A list whose items a rule reads.
pub trait Items {
    /// How many items.
    fn count(&self) -> usize;
    /// Item `i` (below [`count`](Items::count)).
    fn item(&self, i: usize) -> Value<'_>;
}

impl<T: AsValue> Items for &[T] {
    fn count(&self) -> usize {
        self.len()
    }

    fn item(&self, i: usize) -> Value<'_> {
        self[i].as_value()
    }
}

/// A field's value as a rule reads it (implemented for the types generated fields have).
pub trait AsValue {
    /// The value.
    fn as_value(&self) -> Value<'_>;
}

impl<T: AsValue> AsValue for Option<T> {
    fn as_value(&self) -> Value<'_> {
        match self {
            Some(v) => v.as_value(),
            None => Value::Absent,
        }
    }
}

impl<T: AsValue> AsValue for Box<T> {
    fn as_value(&self) -> Value<'_> {
        (**self).as_value()
    }
}

impl<T: AsValue> AsValue for Vec<T> {
    fn as_value(&self) -> Value<'_> {
        Value::list(self.as_slice())
    }
}

impl AsValue for String {
    fn as_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl AsValue for bool {
    fn as_value(&self) -> Value<'_> {
        Value::Bool(*self)
    }
}

impl AsValue for f64 {
    fn as_value(&self) -> Value<'_> {
        Value::Float(*self)
    }
}

impl AsValue for Decimal {
    fn as_value(&self) -> Value<'_> {
        Value::Decimal(*self)
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {
        $(impl AsValue for $t {
            fn as_value(&self) -> Value<'_> {
                Value::Int(i128::from(*self))
            }
        })*
    };
}
int_value!(u32, u64, i32, i64);

// ---------------------------------------------------------------------------------------
// Reading a rule.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(String),
    Str(String),
    Name(String),
    Dot,
    Each,
    Open,
    Close,
    Comma,
    Plus,
    Minus,
    Star,
    Slash,
    Cmp(Cmp),
    PlusMinus,
    Sigma,
    Default,
    End,
}

fn tokens(text: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |at: usize, message: String| Err(ParseError { at, message });
    while i < chars.len() {
        let c = chars[i];
        let at = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
        let (tok, len) = match c {
            '0'..='9' => {
                let mut j = i;
                while j < chars.len()
                    && (chars[j].is_ascii_digit()
                        || chars[j] == '.'
                        || chars[j] == 'e'
                        || chars[j] == 'E'
                        || ((chars[j] == '-' || chars[j] == '+')
                            && matches!(chars[j - 1], 'e' | 'E')))
                {
                    j += 1;
                }
                (Tok::Num(chars[i..j].iter().collect()), j - i)
            }
            '"' => {
                let Some(end) = chars[i + 1..].iter().position(|&c| c == '"') else {
                    return err(at, "a text is not closed: `\"` expected".into());
                };
                (
                    Tok::Str(chars[i + 1..i + 1 + end].iter().collect()),
                    end + 2,
                )
            }
            'Σ' | '∑' => (Tok::Sigma, 1),
            c if c.is_alphabetic() || c == '_' => {
                let mut j = i;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                (Tok::Name(chars[i..j].iter().collect()), j - i)
            }
            '[' if two == "[]" => (Tok::Each, 2),
            '.' => (Tok::Dot, 1),
            '(' => (Tok::Open, 1),
            ')' => (Tok::Close, 1),
            ',' => (Tok::Comma, 1),
            '+' => (Tok::Plus, 1),
            '-' => (Tok::Minus, 1),
            '*' | '×' => (Tok::Star, 1),
            '/' | '÷' => (Tok::Slash, 1),
            '±' => (Tok::PlusMinus, 1),
            '=' if two == "==" => (Tok::Cmp(Cmp::Eq), 2),
            '=' => (Tok::Cmp(Cmp::Eq), 1),
            '!' if two == "!=" => (Tok::Cmp(Cmp::Ne), 2),
            '≠' => (Tok::Cmp(Cmp::Ne), 1),
            '<' if two == "<=" => (Tok::Cmp(Cmp::Le), 2),
            '<' => (Tok::Cmp(Cmp::Lt), 1),
            '≤' => (Tok::Cmp(Cmp::Le), 1),
            '>' if two == ">=" => (Tok::Cmp(Cmp::Ge), 2),
            '>' => (Tok::Cmp(Cmp::Gt), 1),
            '≥' => (Tok::Cmp(Cmp::Ge), 1),
            '&' if two == "&&" => (Tok::Name("and".into()), 2),
            '|' if two == "||" => (Tok::Name("or".into()), 2),
            '?' if two == "??" => (Tok::Default, 2),
            '!' => (Tok::Name("not".into()), 1),
            other => return err(at, format!("`{other}` is not part of a rule")),
        };
        out.push((tok, at));
        i += len;
    }
    out.push((Tok::End, chars.len()));
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    /// Inside a `round(...)`: a quotient may stand here.
    rounding: usize,
    /// How deep the reading is nested (parentheses, calls, `not`, signs).
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn at(&self) -> usize {
        self.toks[self.pos].1
    }

    fn next(&mut self) -> (Tok, usize) {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            at: self.at(),
            message: message.into(),
        })
    }

    fn word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == w)
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<(), ParseError> {
        if *self.peek() == tok {
            self.next();
            Ok(())
        } else {
            self.fail(format!("{what} expected here"))
        }
    }

    /// Enters one level of nesting; refuses past [`MAX_NESTING`].
    fn deeper(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.fail(format!(
                "the rule nests more than {MAX_NESTING} levels: split it into rows"
            ));
        }
        Ok(())
    }

    fn or(&mut self) -> Parsed {
        self.deeper()?;
        let e = self.or_inner();
        self.depth -= 1;
        e
    }

    fn or_inner(&mut self) -> Parsed {
        let mut left = self.and()?;
        while self.word("or") {
            self.next();
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Parsed {
        let mut left = self.not()?;
        while self.word("and") {
            self.next();
            left = Expr::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Parsed {
        if self.word("not") {
            self.next();
            self.deeper()?;
            let e = self.not();
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(e?)));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Parsed {
        let left = self.add()?;
        let Tok::Cmp(op) = *self.peek() else {
            if *self.peek() == Tok::PlusMinus {
                return self.fail("a tolerance `± t` follows an `=` comparison");
            }
            return Ok(left);
        };
        self.next();
        let right = self.add()?;
        let tolerance = if *self.peek() == Tok::PlusMinus || self.word("within") {
            if op != Cmp::Eq {
                return self.fail("a tolerance `± t` follows an `=` comparison only");
            }
            self.next();
            Some(Box::new(self.add()?))
        } else {
            None
        };
        if matches!(self.peek(), Tok::Cmp(_)) {
            return self.fail("comparisons do not chain: join them with `and`");
        }
        Ok(Expr::Cmp(Box::new(left), op, Box::new(right), tolerance))
    }

    fn add(&mut self) -> Parsed {
        let mut left = self.mul()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => Arith::Add,
                Tok::Minus => Arith::Sub,
                _ => return Ok(left),
            };
            self.next();
            left = Expr::Arith(Box::new(left), op, Box::new(self.mul()?));
        }
    }

    fn mul(&mut self) -> Parsed {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Star => Arith::Mul,
                Tok::Slash => Arith::Div,
                _ => return Ok(left),
            };
            if op == Arith::Div && self.rounding == 0 {
                return self.fail(
                    "a quotient is written rounded, to the scale it is read at: `round(a / b, 2)`",
                );
            }
            self.next();
            left = Expr::Arith(Box::new(left), op, Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Parsed {
        if *self.peek() == Tok::Minus {
            self.next();
            self.deeper()?;
            let e = self.unary();
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(e?)));
        }
        let mut e = self.atom()?;
        while *self.peek() == Tok::Default {
            self.next();
            e = Expr::Default(Box::new(e), Box::new(self.atom()?));
        }
        Ok(e)
    }

    fn path(&mut self) -> Result<PathExpr, ParseError> {
        let at = self.at();
        let mut steps = Vec::new();
        loop {
            let Tok::Name(name) = self.peek().clone() else {
                return self.fail("a field name expected here");
            };
            self.next();
            let each = *self.peek() == Tok::Each;
            if each {
                self.next();
            }
            steps.push(Step { name, each });
            if *self.peek() != Tok::Dot {
                return Ok(PathExpr { steps, at });
            }
            self.next();
        }
    }

    fn atom(&mut self) -> Parsed {
        let at = self.at();
        match self.peek().clone() {
            Tok::Num(text) => {
                self.next();
                match Decimal::from_json_text(&text) {
                    Ok(d) => Ok(Expr::Number(d)),
                    Err(e) => Err(ParseError {
                        at,
                        message: format!("`{text}` is not a number a rule computes with: {e}"),
                    }),
                }
            }
            Tok::Str(s) => {
                self.next();
                Ok(Expr::Text(s))
            }
            Tok::Open => {
                self.next();
                let e = self.or()?;
                self.expect(Tok::Close, "`)`")?;
                Ok(e)
            }
            Tok::Sigma => {
                self.next();
                let p = self.path()?;
                self.aggregate_path(&p, "Σ")?;
                Ok(Expr::Sum(p))
            }
            Tok::Name(name) => {
                if name == "true" || name == "false" {
                    self.next();
                    return Ok(Expr::Bool(name == "true"));
                }
                if self.toks.get(self.pos + 1).map(|t| &t.0) == Some(&Tok::Open) {
                    return self.call(&name, at);
                }
                if ["and", "or", "not", "within"].contains(&name.as_str()) {
                    return self.fail(format!("a value expected before `{name}`"));
                }
                let p = self.path()?;
                if p.through_lists() {
                    return Err(ParseError {
                        at,
                        message: format!(
                            "`{p}` reaches a list of values: `sum({p})` or `count({p})` reads them"
                        ),
                    });
                }
                Ok(Expr::Path(p))
            }
            Tok::End => self.fail("the rule ends where a value is expected"),
            other => self.fail(format!("a value expected here, not {}", describe(&other))),
        }
    }

    fn aggregate_path(&self, p: &PathExpr, f: &str) -> Result<(), ParseError> {
        if p.through_lists() {
            Ok(())
        } else {
            Err(ParseError {
                at: p.at,
                message: format!(
                    "`{f}` reads a list's items: write the list with `[]` (`{f}(lines[].amount)`)"
                ),
            })
        }
    }

    /// After `all(`, `any(`, `sum(` or `count(`: `b in list[] [if cond]`, then `, body`
    /// (none for `count`).
    fn binder(&mut self, what: Aggregate) -> Parsed {
        let Tok::Name(name) = self.next().0 else {
            return self.fail("a name expected here");
        };
        self.next();
        let list = self.path()?;
        if !list.steps.last().is_some_and(|s| s.each) {
            return Err(ParseError {
                at: list.at,
                message: format!(
                    "`{name} in {list}` names a list's items with `[]`: `{name} in {list}[]`"
                ),
            });
        }
        let filter = if self.word("if") {
            self.next();
            Some(Box::new(self.or()?))
        } else {
            None
        };
        let body = match what {
            Aggregate::Count => None,
            Aggregate::Sum => {
                self.expect(Tok::Comma, "`,` and what is summed of each item")?;
                Some(Box::new(self.add()?))
            }
            Aggregate::All | Aggregate::Any => {
                self.expect(Tok::Comma, "`,` and what each item must satisfy")?;
                Some(Box::new(self.or()?))
            }
        };
        Ok(Expr::Over(Over {
            what,
            name,
            list,
            filter,
            body,
        }))
    }

    fn call(&mut self, name: &str, at: usize) -> Parsed {
        self.next();
        self.next();
        let binds = matches!(self.peek(), Tok::Name(_))
            && matches!(self.toks.get(self.pos + 1).map(|t| &t.0), Some(Tok::Name(w)) if w == "in");
        let what = match name {
            "all" => Some(Aggregate::All),
            "any" => Some(Aggregate::Any),
            "sum" => Some(Aggregate::Sum),
            "count" => Some(Aggregate::Count),
            _ => None,
        };
        if let Some(what) = what {
            if binds || matches!(what, Aggregate::All | Aggregate::Any) {
                if !binds {
                    return self.fail(format!(
                        "`{name}` names each item: `{name}(b in list[], ...)`"
                    ));
                }
                let e = self.binder(what)?;
                self.expect(Tok::Close, "`)`")?;
                return Ok(e);
            }
        }
        let e = match name {
            "sum" | "count" => {
                let p = self.path()?;
                self.aggregate_path(&p, name)?;
                if name == "sum" {
                    Expr::Sum(p)
                } else {
                    Expr::Count(p)
                }
            }
            "has" => {
                let p = self.path()?;
                if p.through_lists() {
                    return Err(ParseError {
                        at: p.at,
                        message: format!("`has` asks for one member: `{p}` goes through a list (`count(...) > 0` asks whether any item has it)"),
                    });
                }
                Expr::Has(p)
            }
            "abs" => Expr::Abs(Box::new(self.add()?)),
            "min" | "max" => {
                let a = self.add()?;
                self.expect(Tok::Comma, "`,`")?;
                let b = self.add()?;
                Expr::MinMax(name == "max", Box::new(a), Box::new(b))
            }
            "round" => {
                self.rounding += 1;
                let e = self.add();
                self.rounding -= 1;
                let e = e?;
                self.expect(Tok::Comma, "`,` and the scale")?;
                let scale_at = self.at();
                let scale = match self.next().0 {
                    Tok::Num(n) => n.parse::<u32>().ok().filter(|s| *s <= MAX_SCALE),
                    _ => None,
                };
                let Some(scale) = scale else {
                    return Err(ParseError {
                        at: scale_at,
                        message: format!(
                            "the scale of `round` is a whole number from 0 to {MAX_SCALE}"
                        ),
                    });
                };
                let rounding = if *self.peek() == Tok::Comma {
                    self.next();
                    let rounding = match self.peek() {
                        Tok::Name(n) if n == "half_up" => Rounding::HalfUp,
                        Tok::Name(n) if n == "half_even" => Rounding::HalfEven,
                        _ => return self.fail("`half_up` or `half_even` expected here"),
                    };
                    self.next();
                    rounding
                } else {
                    Rounding::HalfUp
                };
                Expr::Round(Box::new(e), scale, rounding)
            }
            _ => {
                let names: Vec<&str> = FUNCTIONS.iter().map(|(n, _)| *n).collect();
                return Err(ParseError {
                    at,
                    message: format!("`{name}` is no function of a rule: {}", names.join(", ")),
                });
            }
        };
        self.expect(Tok::Close, "`)`")?;
        Ok(e)
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(n) => format!("`{n}`"),
        Tok::Str(s) => format!("`\"{s}\"`"),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Dot => "`.`".into(),
        Tok::Each => "`[]`".into(),
        Tok::Open => "`(`".into(),
        Tok::Close => "`)`".into(),
        Tok::Comma => "`,`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Minus => "`-`".into(),
        Tok::Star => "`*`".into(),
        Tok::Slash => "`/`".into(),
        Tok::Cmp(c) => format!("`{}`", c.as_str()),
        Tok::PlusMinus => "`±`".into(),
        Tok::Sigma => "`Σ`".into(),
        Tok::Default => "`??`".into(),
        Tok::End => "the end".into(),
    }
}

impl Expr {
    /// Reads a rule's text.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] at the char where the text stops being a rule.
    pub fn parse(text: &str) -> Result<Expr, ParseError> {
        let toks = tokens(text)?;
        if toks.len() > MAX_TOKENS {
            return Err(ParseError {
                at: toks[MAX_TOKENS].1,
                message: format!(
                    "the rule is longer than {MAX_TOKENS} words, numbers and signs: split it into rows"
                ),
            });
        }
        let mut p = Parser {
            toks,
            pos: 0,
            rounding: 0,
            depth: 0,
        };
        let e = p.or()?;
        if *p.peek() != Tok::End {
            let what = describe(p.peek());
            return p.fail(format!("the rule goes on after its end: {what}"));
        }
        Ok(e)
    }

    /// Every path the expression reads, in the order written, with the function that reads
    /// it (`None` for a plain value).
    pub fn paths(&self) -> Vec<(&PathExpr, Option<&'static str>)> {
        let mut out = Vec::new();
        self.visit(&mut |e| match e {
            Expr::Path(p) => out.push((p, None)),
            Expr::Sum(p) => out.push((p, Some("sum"))),
            Expr::Count(p) => out.push((p, Some("count"))),
            Expr::Has(p) => out.push((p, Some("has"))),
            _ => {}
        });
        out
    }

    /// Calls `f` on this expression and each part of it, outside in.
    pub fn visit<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        f(self);
        match self {
            Expr::Neg(a) | Expr::Abs(a) | Expr::Not(a) | Expr::Round(a, _, _) => a.visit(f),
            Expr::MinMax(_, a, b)
            | Expr::Default(a, b)
            | Expr::Arith(a, _, b)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Cmp(a, _, b, None) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Cmp(a, _, b, Some(t)) => {
                a.visit(f);
                b.visit(f);
                t.visit(f);
            }
            Expr::Number(_)
            | Expr::Text(_)
            | Expr::Bool(_)
            | Expr::Path(_)
            | Expr::Sum(_)
            | Expr::Count(_)
            | Expr::Has(_) => {}
            Expr::Over(o) => {
                if let Some(x) = &o.filter {
                    x.visit(f);
                }
                if let Some(x) = &o.body {
                    x.visit(f);
                }
            }
        }
    }

    fn precedence(&self) -> u8 {
        match self {
            Expr::Or(..) => 1,
            Expr::And(..) => 2,
            Expr::Not(_) => 3,
            Expr::Cmp(..) => 4,
            Expr::Arith(_, Arith::Add | Arith::Sub, _) => 5,
            Expr::Arith(_, Arith::Mul | Arith::Div, _) => 6,
            Expr::Neg(_) => 7,
            Expr::Default(..) => 8,
            _ => 9,
        }
    }
}

/// One side of a binary operator, in parentheses when it binds less tightly than `at`
/// (or as tightly, on the right of a left-associative operator).
struct Side<'e>(&'e Expr, u8, bool);

impl fmt::Display for Side<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0.precedence();
        if p < self.1 || (self.2 && p == self.1) {
            write!(f, "({})", self.0)
        } else {
            self.0.fmt(f)
        }
    }
}

/// The canonical text: one space around binary operators, parentheses only where needed
/// (`a - (b - c)`), `Σ p` written `sum(p)`. Reading it back gives the same expression.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.precedence();
        match self {
            Expr::Number(d) => d.fmt(f),
            Expr::Text(s) => write!(f, "\"{s}\""),
            Expr::Bool(b) => b.fmt(f),
            Expr::Path(path) => path.fmt(f),
            Expr::Sum(path) => write!(f, "sum({path})"),
            Expr::Count(path) => write!(f, "count({path})"),
            Expr::Has(path) => write!(f, "has({path})"),
            Expr::Over(o) => {
                write!(f, "{}({} in {}", o.what.as_str(), o.name, o.list)?;
                if let Some(x) = &o.filter {
                    write!(f, " if {x}")?;
                }
                if let Some(x) = &o.body {
                    write!(f, ", {x}")?;
                }
                f.write_str(")")
            }
            Expr::Neg(a) => write!(f, "-{}", Side(a, p, false)),
            Expr::Default(a, b) => write!(f, "{} ?? {}", Side(a, p, false), Side(b, p, true)),
            Expr::Abs(a) => write!(f, "abs({a})"),
            Expr::MinMax(max, a, b) => {
                write!(f, "{}({a}, {b})", if *max { "max" } else { "min" })
            }
            Expr::Arith(a, op, b) => {
                let sym = match op {
                    Arith::Add => "+",
                    Arith::Sub => "-",
                    Arith::Mul => "*",
                    Arith::Div => "/",
                };
                write!(f, "{} {sym} {}", Side(a, p, false), Side(b, p, true))
            }
            Expr::Round(a, scale, Rounding::HalfUp) => write!(f, "round({a}, {scale})"),
            Expr::Round(a, scale, r) => write!(f, "round({a}, {scale}, {})", r.as_str()),
            Expr::Cmp(a, op, b, tolerance) => {
                write!(
                    f,
                    "{} {} {}",
                    Side(a, p + 1, false),
                    op.as_str(),
                    Side(b, p + 1, false)
                )?;
                match tolerance {
                    Some(t) => write!(f, " ± {}", Side(t, p + 1, false)),
                    None => Ok(()),
                }
            }
            Expr::And(a, b) => write!(f, "{} and {}", Side(a, p, false), Side(b, p, true)),
            Expr::Or(a, b) => write!(f, "{} or {}", Side(a, p, false), Side(b, p, true)),
            Expr::Not(a) => write!(f, "not {}", Side(a, p, false)),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Computing a rule.

/// What an expression computes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Computed {
    /// Absent (or, for a comparison, unknown).
    Absent,
    /// A bool.
    Bool(bool),
    /// A number.
    Number(Dec),
    /// Text.
    Text(String),
}

impl fmt::Display for Computed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Computed::Absent => f.write_str("absent"),
            Computed::Bool(b) => b.fmt(f),
            Computed::Number(d) => d.fmt(f),
            Computed::Text(s) => write!(f, "`{}`", crate::rules::shown(s)),
        }
    }
}

fn leaf(v: &Value<'_>) -> Result<Computed, Fault> {
    Ok(match v {
        Value::Absent | Value::Object(_) | Value::List(_) => Computed::Absent,
        Value::Bool(b) => Computed::Bool(*b),
        Value::Int(n) => {
            Computed::Number(Dec::try_from_i128_with_scale(*n, 0).map_err(|_| Fault::Overflow)?)
        }
        Value::Decimal(d) => Computed::Number(d.to_rust_decimal()),
        Value::Float(x) => Computed::Number(
            Decimal::from_json_text(&x.to_string())
                .map_err(|_| Fault::Overflow)?
                .to_rust_decimal(),
        ),
        Value::Text(s) => Computed::Text((*s).to_owned()),
    })
}

/// Calls `each` with every value `steps` reach from `v` (through every `[]`).
fn reach(
    v: &Value<'_>,
    steps: &[Step],
    each: &mut dyn FnMut(&Value<'_>) -> Result<(), Fault>,
) -> Result<(), Fault> {
    let Some((step, rest)) = steps.split_first() else {
        return each(v);
    };
    let Value::Object(o) = v else {
        return Ok(());
    };
    items(&o.member(&step.name), step.each, rest, each)
}

/// `v`, or with `each` the items of the list `v`, each read on by `rest`.
fn items(
    v: &Value<'_>,
    each: bool,
    rest: &[Step],
    f: &mut dyn FnMut(&Value<'_>) -> Result<(), Fault>,
) -> Result<(), Fault> {
    if !each {
        return reach(v, rest, f);
    }
    let Value::List(list) = v else {
        return Ok(());
    };
    for i in 0..list.count() {
        reach(&list.item(i), rest, f)?;
    }
    Ok(())
}

/// The names a binder (`all(b in vat_breakdown[], ...)`) has bound, innermost first.
struct Scope<'s> {
    name: &'s str,
    value: &'s Value<'s>,
    up: Option<&'s Scope<'s>>,
}

impl<'s> Scope<'s> {
    fn find(scope: Option<&'s Scope<'s>>, name: &str) -> Option<&'s Value<'s>> {
        let mut cur = scope;
        while let Some(s) = cur {
            if s.name == name {
                return Some(s.value);
            }
            cur = s.up;
        }
        None
    }
}

/// Calls `f` with every value path `p` reaches: from the value its first step names when a
/// binder bound that name, else from `subject`.
fn reach_path(
    subject: &dyn Subject,
    scope: Option<&Scope<'_>>,
    p: &PathExpr,
    f: &mut dyn FnMut(&Value<'_>) -> Result<(), Fault>,
) -> Result<(), Fault> {
    if let Some((first, rest)) = p.steps.split_first() {
        if let Some(v) = Scope::find(scope, &first.name) {
            return items(v, first.each, rest, f);
        }
    }
    reach(&Value::Object(Box::new(subject)), &p.steps, f)
}

fn number(c: &Computed) -> Option<Dec> {
    match c {
        Computed::Number(d) => Some(*d),
        _ => None,
    }
}

impl Expr {
    /// What the expression computes to on `subject`.
    ///
    /// # Errors
    ///
    /// A [`Fault`] where the arithmetic cannot be done.
    pub fn compute(&self, subject: &dyn Subject) -> Result<Computed, Fault> {
        self.eval(subject, None)
    }

    /// What the expression computes to on `subject` with `name` bound to `value` (the item a
    /// binder reads: `b` in `all(b in vat_breakdown[], ...)`).
    ///
    /// # Errors
    ///
    /// A [`Fault`] where the arithmetic cannot be done.
    pub fn compute_with(
        &self,
        subject: &dyn Subject,
        name: &str,
        value: &Value<'_>,
    ) -> Result<Computed, Fault> {
        let scope = Scope {
            name,
            value,
            up: None,
        };
        self.eval(subject, Some(&scope))
    }

    fn eval(&self, subject: &dyn Subject, scope: Option<&Scope<'_>>) -> Result<Computed, Fault> {
        let num = |e: &Expr| -> Result<Option<Dec>, Fault> { Ok(number(&e.eval(subject, scope)?)) };
        Ok(match self {
            Expr::Number(d) => Computed::Number(d.to_rust_decimal()),
            Expr::Text(s) => Computed::Text(s.clone()),
            Expr::Bool(b) => Computed::Bool(*b),
            Expr::Path(p) => {
                let mut out = Computed::Absent;
                reach_path(subject, scope, p, &mut |v| {
                    out = leaf(v)?;
                    Ok(())
                })?;
                out
            }
            Expr::Has(p) => {
                let mut present = false;
                reach_path(subject, scope, p, &mut |v| {
                    present = !matches!(v, Value::Absent);
                    Ok(())
                })?;
                Computed::Bool(present)
            }
            Expr::Sum(p) => {
                let mut total = Dec::ZERO;
                reach_path(subject, scope, p, &mut |v| {
                    if let Some(d) = number(&leaf(v)?) {
                        total = total.checked_add(d).ok_or(Fault::Overflow)?;
                    }
                    Ok(())
                })?;
                Computed::Number(total)
            }
            Expr::Count(p) => {
                let mut count: u64 = 0;
                reach_path(subject, scope, p, &mut |v| {
                    if !matches!(v, Value::Absent) {
                        count += 1;
                    }
                    Ok(())
                })?;
                Computed::Number(Dec::from(count))
            }
            Expr::Over(over) => over.eval(subject, scope)?,
            Expr::Default(a, b) => match a.eval(subject, scope)? {
                Computed::Absent => b.eval(subject, scope)?,
                present => present,
            },
            Expr::Neg(a) => match num(a)? {
                Some(d) => Computed::Number(-d),
                None => Computed::Absent,
            },
            Expr::Abs(a) => match num(a)? {
                Some(d) => Computed::Number(d.abs()),
                None => Computed::Absent,
            },
            Expr::MinMax(max, a, b) => match (num(a)?, num(b)?) {
                (Some(x), Some(y)) => Computed::Number(if *max { x.max(y) } else { x.min(y) }),
                _ => Computed::Absent,
            },
            Expr::Arith(a, op, b) => {
                let (Some(x), Some(y)) = (num(a)?, num(b)?) else {
                    return Ok(Computed::Absent);
                };
                let r = match op {
                    Arith::Add => x.checked_add(y),
                    Arith::Sub => x.checked_sub(y),
                    Arith::Mul => x.checked_mul(y),
                    Arith::Div if y.is_zero() => return Err(Fault::DivisionByZero),
                    Arith::Div => x.checked_div(y),
                };
                Computed::Number(r.ok_or(Fault::Overflow)?)
            }
            Expr::Round(a, places, r) => match num(a)? {
                Some(d) => Computed::Number(d.round_dp_with_strategy(
                    *places,
                    match r {
                        Rounding::HalfUp => RoundingStrategy::MidpointAwayFromZero,
                        Rounding::HalfEven => RoundingStrategy::MidpointNearestEven,
                    },
                )),
                None => Computed::Absent,
            },
            Expr::Cmp(a, op, b, tolerance) => {
                let (x, y) = (a.eval(subject, scope)?, b.eval(subject, scope)?);
                let t = match tolerance {
                    Some(t) => Some(t.eval(subject, scope)?),
                    None => None,
                };
                match compare(&x, *op, &y, t.as_ref())? {
                    Some(holds) => Computed::Bool(holds),
                    None => Computed::Absent,
                }
            }
            Expr::And(a, b) => {
                match (
                    truth(&a.eval(subject, scope)?),
                    truth(&b.eval(subject, scope)?),
                ) {
                    (Some(false), _) | (_, Some(false)) => Computed::Bool(false),
                    (Some(true), Some(true)) => Computed::Bool(true),
                    _ => Computed::Absent,
                }
            }
            Expr::Or(a, b) => {
                match (
                    truth(&a.eval(subject, scope)?),
                    truth(&b.eval(subject, scope)?),
                ) {
                    (Some(true), _) | (_, Some(true)) => Computed::Bool(true),
                    (Some(false), Some(false)) => Computed::Bool(false),
                    _ => Computed::Absent,
                }
            }
            Expr::Not(a) => match truth(&a.eval(subject, scope)?) {
                Some(b) => Computed::Bool(!b),
                None => Computed::Absent,
            },
        })
    }

    /// Whether the rule holds on `subject`: `Ok(false)` only when it is false (unknown
    /// holds, as a SQL `CHECK`).
    ///
    /// # Errors
    ///
    /// A [`Fault`] where the arithmetic cannot be done.
    pub fn holds(&self, subject: &dyn Subject) -> Result<bool, Fault> {
        Ok(truth(&self.compute(subject)?) != Some(false))
    }
}

impl Over {
    /// Calls `f` with each item of the list that passes the filter, bound to the name.
    fn each_item(
        &self,
        subject: &dyn Subject,
        scope: Option<&Scope<'_>>,
        f: &mut dyn FnMut(Option<&Scope<'_>>) -> Result<(), Fault>,
    ) -> Result<(), Fault> {
        reach_path(subject, scope, &self.list, &mut |item| {
            let inner = Scope {
                name: &self.name,
                value: item,
                up: scope,
            };
            if let Some(filter) = &self.filter {
                if truth(&filter.eval(subject, Some(&inner))?) != Some(true) {
                    return Ok(());
                }
            }
            f(Some(&inner))
        })
    }

    fn eval(&self, subject: &dyn Subject, scope: Option<&Scope<'_>>) -> Result<Computed, Fault> {
        let mut total = Dec::ZERO;
        let mut count: u64 = 0;
        let (mut all, mut any, mut unknown) = (true, false, false);
        self.each_item(subject, scope, &mut |inner| {
            count += 1;
            let Some(body) = &self.body else {
                return Ok(());
            };
            match body.eval(subject, inner)? {
                Computed::Number(d) => total = total.checked_add(d).ok_or(Fault::Overflow)?,
                Computed::Bool(true) => any = true,
                Computed::Bool(false) => all = false,
                _ => unknown = true,
            }
            Ok(())
        })?;
        Ok(match self.what {
            Aggregate::Sum => Computed::Number(total),
            Aggregate::Count => Computed::Number(Dec::from(count)),
            // As `and` and `or` over the items: false (true) as soon as one item says so.
            Aggregate::All if !all => Computed::Bool(false),
            Aggregate::Any if any => Computed::Bool(true),
            Aggregate::All | Aggregate::Any if unknown => Computed::Absent,
            Aggregate::All => Computed::Bool(true),
            Aggregate::Any => Computed::Bool(false),
        })
    }
}

fn truth(c: &Computed) -> Option<bool> {
    match c {
        Computed::Bool(b) => Some(*b),
        _ => None,
    }
}

/// `x op y [± t]`: `None` when an operand is absent.
fn compare(
    x: &Computed,
    op: Cmp,
    y: &Computed,
    tolerance: Option<&Computed>,
) -> Result<Option<bool>, Fault> {
    Ok(match (x, y) {
        (Computed::Number(a), Computed::Number(b)) => match tolerance {
            Some(Computed::Number(t)) => {
                Some(a.checked_sub(*b).ok_or(Fault::Overflow)?.abs() <= t.abs())
            }
            Some(_) => None,
            None => Some(op.holds(a.cmp(b))),
        },
        (Computed::Text(a), Computed::Text(b)) => Some(op.holds(a.cmp(b))),
        (Computed::Bool(a), Computed::Bool(b)) => Some(op.holds(a.cmp(b))),
        _ => None,
    })
}

// ---------------------------------------------------------------------------------------
// Reporting a rule.

/// How a message names a side of a comparison: `` `totals.line_total` ``, `the sum of
/// `lines[].net_amount``, or the side's text.
struct Named<'e> {
    expr: &'e Expr,
    at: Option<&'e str>,
}

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.expr, self.at) {
            (Expr::Path(_), Some(at)) => write!(f, "`{at}`"),
            (Expr::Sum(p), _) => write!(f, "the sum of `{p}`"),
            (Expr::Count(p), _) => write!(f, "the count of `{p}`"),
            (e, _) => write!(f, "`{e}`"),
        }
    }
}

/// Checks the rule `expr` on the object `subject` at `path` (the caller has checked the
/// rule's condition, and passes it as `when` for the message). A comparison that is false
/// is reported at its left side when that is a member of the object
/// (`` `totals.line_total` is 100.00, the sum of `lines[].net_amount` is 110.00 (must be
/// equal) ``), any other false rule at the object (`` `has(iban) or has(card)` does not
/// hold ``); a rule that cannot be computed at the object
/// (`` `round(a / b, 2) = 1` cannot be computed: it divides by zero ``). A rule
/// `all(b in list[] [if ...], ...)` is checked item by item, each false item reported at
/// its own path (`vat_breakdown[1].taxable_amount`), as a rule on the items would be.
pub fn check(
    expr: &Expr,
    subject: &dyn Subject,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let at = At {
        subject,
        when,
        code,
    };
    if let Expr::Over(over) = expr {
        if let (Aggregate::All, Some(body), Some(names)) = (over.what, &over.body, over.own_list())
        {
            with_member(&Value::Object(Box::new(subject)), &names, &mut |list| {
                let Value::List(items) = list else { return };
                path.with_fields(&names, |list_path| {
                    for i in 0..items.count() {
                        let item = items.item(i);
                        let scope = Scope {
                            name: &over.name,
                            value: &item,
                            up: None,
                        };
                        let item_path = list_path.index(i);
                        let kept = match &over.filter {
                            Some(f) => f
                                .eval(subject, Some(&scope))
                                .map(|c| truth(&c) == Some(true)),
                            None => Ok(true),
                        };
                        match kept {
                            Ok(false) => {}
                            Ok(true) => at.rule(body, Some(&scope), (path, &item_path), report),
                            Err(fault) => at.fault(expr, fault, &item_path, report),
                        }
                    }
                });
            });
            return;
        }
    }
    at.rule(expr, None, (path, path), report);
}

/// Calls `f` with the member `names` reach from `v` (nothing when one on the way is absent).
fn with_member(v: &Value<'_>, names: &[&str], f: &mut dyn FnMut(&Value<'_>)) {
    match names.split_first() {
        None => f(v),
        Some((first, rest)) => {
            if let Value::Object(o) = v {
                with_member(&o.member(first), rest, f);
            }
        }
    }
}

/// What every violation of one rule's check shares.
struct At<'a> {
    subject: &'a dyn Subject,
    when: Option<&'a dyn fmt::Display>,
    code: &'a str,
}

impl At<'_> {
    /// Checks `expr` under `scope`: `paths` are the object's and, when a binder's item is
    /// checked, the item's (where a left side that starts with the bound name is reported).
    fn rule(
        &self,
        expr: &Expr,
        scope: Option<&Scope<'_>>,
        (object, item): (&Path<'_>, &Path<'_>),
        report: &mut Report,
    ) {
        let subject = self.subject;
        let computed = match expr {
            Expr::Cmp(a, op, b, tolerance) => {
                let sides = (|| {
                    let (x, y) = (a.eval(subject, scope)?, b.eval(subject, scope)?);
                    let t = match tolerance {
                        Some(t) => Some(t.eval(subject, scope)?),
                        None => None,
                    };
                    let holds = compare(&x, *op, &y, t.as_ref())?;
                    Ok((x, y, t, holds))
                })();
                match sides {
                    Ok((_, _, _, None | Some(true))) => return,
                    Ok((x, y, t, Some(false))) => {
                        let side = Comparison {
                            a,
                            op: *op,
                            b,
                            x: &x,
                            y: &y,
                            tolerance: t.as_ref(),
                        };
                        // The left member: from the item when it starts with the bound name.
                        let (base, steps) = match (&**a, scope) {
                            (Expr::Path(p), Some(s)) if p.steps[0].name == s.name => {
                                (item, &p.steps[1..])
                            }
                            (Expr::Path(p), _) => (object, &p.steps[..]),
                            _ => (item, &[][..]),
                        };
                        let names: Vec<&str> = steps.iter().map(|s| s.name.as_str()).collect();
                        let named = matches!(&**a, Expr::Path(_));
                        base.with_fields(&names, |at| {
                            report.push(side.detail(Violation::with_message(
                                Code::copy_of(self.code),
                                at,
                                |dotted| side.message(dotted, named, self.when),
                            )));
                        });
                        return;
                    }
                    Err(fault) => Err(fault),
                }
            }
            _ => expr.eval(subject, scope).map(|c| truth(&c) != Some(false)),
        };
        match computed {
            Ok(true) => {}
            Ok(false) => report.push(Violation::with_message(
                Code::copy_of(self.code),
                item,
                |_| format!("`{expr}` does not hold{}", When(self.when)),
            )),
            Err(fault) => self.fault(expr, fault, item, report),
        }
    }

    fn fault(&self, expr: &Expr, fault: Fault, path: &Path<'_>, report: &mut Report) {
        report.push(Violation::with_message(
            Code::copy_of(self.code),
            path,
            |_| format!("`{expr}` cannot be computed: {fault}{}", When(self.when)),
        ));
    }
}

/// A false comparison, as its message says it.
struct Comparison<'c> {
    a: &'c Expr,
    op: Cmp,
    b: &'c Expr,
    x: &'c Computed,
    y: &'c Computed,
    tolerance: Option<&'c Computed>,
}

impl Comparison<'_> {
    /// The template detail: `{expected}` is the right side's value (the bound, for a
    /// literal), `{other}` the right side as the rule writes it, unless it is a literal.
    fn detail(&self, v: Violation) -> Violation {
        let literal = matches!(self.b, Expr::Number(_) | Expr::Text(_) | Expr::Bool(_));
        let v = v.with_expected(self.y.to_string());
        if literal {
            v
        } else {
            v.with_other(self.b.to_string())
        }
    }

    /// `` `totals.line_total` is 100.00, the sum of `lines[].net` is 110.00 (must be
    /// equal) ``: the left side named by `at` (its reported path) when `named`, a literal
    /// right side said in the relation (`(must be at least 1)`).
    fn message(&self, at: &str, named: bool, when: Option<&dyn fmt::Display>) -> String {
        let (x, y) = (self.x, self.y);
        let literal = matches!(self.b, Expr::Number(_) | Expr::Text(_) | Expr::Bool(_));
        let within = self
            .tolerance
            .map(|t| format!(" within {t}"))
            .unwrap_or_default();
        let relation = match (self.op, literal) {
            (Cmp::Eq, true) => format!("must be {y}{within}"),
            (Cmp::Ne, true) => format!("must not be {y}"),
            (Cmp::Lt, true) => format!("must be less than {y}"),
            (Cmp::Le, true) => format!("must be at most {y}"),
            (Cmp::Gt, true) => format!("must be greater than {y}"),
            (Cmp::Ge, true) => format!("must be at least {y}"),
            (Cmp::Eq, false) => format!("must be equal{within}"),
            (Cmp::Ne, false) => "must differ".to_owned(),
            (Cmp::Lt, false) => "the first must be less than the second".to_owned(),
            (Cmp::Le, false) => "the first must be at most the second".to_owned(),
            (Cmp::Gt, false) => "the first must be greater than the second".to_owned(),
            (Cmp::Ge, false) => "the first must be at least the second".to_owned(),
        };
        let left = Named {
            expr: self.a,
            at: named.then_some(at),
        };
        if literal {
            format!("{left} is {x} ({relation}{})", When(when))
        } else {
            let right = Named {
                expr: self.b,
                at: None,
            };
            format!("{left} is {x}, {right} is {y} ({relation}{})", When(when))
        }
    }
}

/// A rule's text as read ([`Expr::parse`]): what generated code keeps in a `static`.
pub type Parsed = Result<Expr, ParseError>;

/// [`check`] of a rule read at run time: one this runtime cannot read (generated by a newer
/// specmint than the runtime it is built with) is reported as the rule's violation at `path`,
/// never a panic.
pub fn check_parsed(
    rule: &Parsed,
    subject: &dyn Subject,
    when: Option<&dyn fmt::Display>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    match rule {
        Ok(expr) => check(expr, subject, when, path, code, report),
        Err(e) => report.push(Violation::with_message(Code::copy_of(code), path, |_| {
            format!("the rule cannot be read by this specmint-runtime: {e}")
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Obj(Vec<(&'static str, Val)>);

    enum Val {
        D(&'static str),
        I(i64),
        F(f64),
        T(&'static str),
        L(Vec<Obj>),
        O(Box<Obj>),
    }

    impl Subject for Obj {
        fn member(&self, name: &str) -> Value<'_> {
            match self.0.iter().find(|(n, _)| *n == name) {
                None => Value::Absent,
                Some((_, v)) => match v {
                    Val::D(t) => Value::Decimal(t.parse().unwrap()),
                    Val::I(n) => Value::Int(i128::from(*n)),
                    Val::F(x) => Value::Float(*x),
                    Val::T(s) => Value::Text(s),
                    Val::L(items) => Value::List(Box::new(ObjList(items))),
                    Val::O(o) => Value::Object(Box::new(&**o)),
                },
            }
        }
    }

    struct ObjList<'a>(&'a [Obj]);

    impl Items for ObjList<'_> {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn item(&self, i: usize) -> Value<'_> {
            Value::Object(Box::new(&self.0[i]))
        }
    }

    fn invoice(total: &'static str, lines: &[&'static str]) -> Obj {
        Obj(vec![
            (
                "totals",
                Val::O(Box::new(Obj(vec![("line_total", Val::D(total))]))),
            ),
            (
                "lines",
                Val::L(
                    lines
                        .iter()
                        .map(|n| Obj(vec![("net", Val::D(n))]))
                        .collect(),
                ),
            ),
        ])
    }

    fn messages(rule: &str, o: &Obj) -> Vec<(String, String)> {
        let e = Expr::parse(rule).unwrap();
        let mut report = Report::default();
        check(&e, o, None, &Path::ROOT, "R", &mut report);
        report
            .iter()
            .map(|v| (v.path.clone(), v.message.clone()))
            .collect()
    }

    #[test]
    fn a_sum_names_both_sides_at_the_left_member() {
        let o = invoice("100.00", &["50.00", "60.00"]);
        assert_eq!(
            messages("totals.line_total = sum(lines[].net)", &o),
            [(
                "totals.line_total".to_owned(),
                "`totals.line_total` is 100.00, the sum of `lines[].net` is 110.00 (must be equal)"
                    .to_owned()
            )]
        );
        assert!(messages("totals.line_total = Σ lines[].net ± 10", &o).is_empty());
        assert_eq!(
            messages("totals.line_total = Σ lines[].net ± 9.99", &o)[0].1,
            "`totals.line_total` is 100.00, the sum of `lines[].net` is 110.00 (must be equal within 9.99)"
        );
    }

    #[test]
    fn rounding_is_half_up_unless_half_even_is_said() {
        let o = Obj(vec![
            ("a", Val::D("2.345")),
            ("b", Val::D("2.35")),
            ("c", Val::D("2.34")),
        ]);
        assert!(messages("round(a, 2) = b", &o).is_empty());
        assert!(messages("round(a, 2, half_even) = c", &o).is_empty());
        assert!(messages("round(-a, 2) = -b", &o).is_empty());
        assert_eq!(messages("round(a, 2) = c", &o).len(), 1);
    }

    #[test]
    fn absent_operands_make_a_comparison_unknown_and_unknown_holds() {
        let o = Obj(vec![("a", Val::I(1))]);
        assert!(messages("a = missing + 1", &o).is_empty());
        assert!(messages("not (a = missing)", &o).is_empty());
        assert_eq!(
            messages("has(missing)", &o)[0].1,
            "`has(missing)` does not hold"
        );
        assert!(messages("a = 1 or missing = 2", &o).is_empty());
        assert!(messages("a = missing ?? 1", &o).is_empty());
        assert_eq!(messages("a = (missing ?? 1) + 1", &o).len(), 1);
        assert_eq!(messages("a = 2 and missing = 2", &o).len(), 1);
    }

    #[test]
    fn texts_compare_as_spelled_counts_count_present_values_and_the_condition_is_said() {
        let mut o = invoice("1", &["1", "2"]);
        o.0.push(("category", Val::T("S")));
        assert!(messages("category = \"S\" and count(lines[].net) = 2", &o).is_empty());
        assert_eq!(
            messages("category != \"S\"", &o)[0].1,
            "`category` is `S` (must not be `S`)"
        );
        let e = Expr::parse("count(lines[].net) > 2").unwrap();
        let mut report = Report::default();
        let when = "`category` is `S`";
        check(&e, &o, Some(&when), &Path::ROOT, "R", &mut report);
        assert_eq!(
            report.as_slice()[0].message,
            "the count of `lines[].net` is 2 (must be greater than 2 when `category` is `S`)"
        );
        assert_eq!(report.as_slice()[0].path, "");
    }

    fn breakdown(taxable: [&'static str; 2]) -> Obj {
        let line = |cat: &'static str, rate: &'static str, net: &'static str| {
            Obj(vec![
                ("cat", Val::T(cat)),
                ("rate", Val::D(rate)),
                ("net", Val::D(net)),
            ])
        };
        let group = |cat: &'static str, rate: &'static str, taxable: &'static str| {
            Obj(vec![
                ("cat", Val::T(cat)),
                ("rate", Val::D(rate)),
                ("taxable", Val::D(taxable)),
            ])
        };
        Obj(vec![
            (
                "lines",
                Val::L(vec![
                    line("S", "21", "10.00"),
                    line("S", "9", "5.00"),
                    line("S", "21", "2.50"),
                    line("E", "0", "7.00"),
                ]),
            ),
            (
                "groups",
                Val::L(vec![
                    group("S", "21", taxable[0]),
                    group("S", "9", taxable[1]),
                    group("E", "0", "1.00"),
                ]),
            ),
        ])
    }

    #[test]
    fn a_binder_reports_each_item_at_its_own_path_with_the_outer_item_in_scope() {
        let rule = "all(g in groups[] if g.cat = \"S\", g.taxable = sum(l in lines[] if l.cat = \"S\" and l.rate = g.rate, l.net))";
        assert!(messages(rule, &breakdown(["12.50", "5.00"])).is_empty());
        assert_eq!(
            messages(rule, &breakdown(["12.50", "5.01"])),
            [(
                "groups[1].taxable".to_owned(),
                "`groups[1].taxable` is 5.01, `sum(l in lines[] if l.cat = \"S\" and l.rate = g.rate, l.net)` is 5.00 (must be equal)".to_owned()
            )]
        );
        let e = Expr::parse(rule).unwrap();
        assert_eq!(e.to_string(), rule);
        assert_eq!(Expr::parse(&e.to_string()).unwrap(), e);
        // Nested in another rule: one verdict for the object.
        assert_eq!(
            messages(
                &format!("count(l in lines[]) > 0 and {rule}"),
                &breakdown(["1", "5.00"])
            )[0]
            .0,
            ""
        );
        assert!(messages(
            "any(l in lines[], l.net > 9) and count(l in lines[] if l.cat = \"E\") = 1",
            &breakdown(["0", "0"])
        )
        .is_empty());
        assert_eq!(
            Expr::parse("all(lines[], true)").unwrap_err().message,
            "`all` names each item: `all(b in list[], ...)`"
        );
        assert_eq!(
            Expr::parse("all(l in lines, true)").unwrap_err().message,
            "`l in lines` names a list's items with `[]`: `l in lines[]`"
        );
    }

    #[test]
    fn overflow_and_division_by_zero_are_verdicts() {
        let o = Obj(vec![
            ("big", Val::D("9999999999999999999999999999")),
            ("zero", Val::I(0)),
            ("x", Val::F(1.5)),
        ]);
        assert_eq!(
            messages("big * big > 0", &o)[0].1,
            "`big * big > 0` cannot be computed: a result needs more than 28 digits"
        );
        assert_eq!(
            messages("round(x / zero, 2) = 1", &o)[0].1,
            "`round(x / zero, 2) = 1` cannot be computed: it divides by zero"
        );
        assert!(messages("x * 2 = 3", &o).is_empty());
    }

    #[test]
    fn a_quotient_is_written_rounded_and_paths_through_lists_are_aggregated() {
        let err = Expr::parse("a / b = 1").unwrap_err();
        assert_eq!(err.at, 2);
        assert!(err.message.contains("round(a / b, 2)"), "{err}");
        let err = Expr::parse("lines[].net = 1").unwrap_err();
        assert_eq!((err.at, err.message.as_str()), (0, "`lines[].net` reaches a list of values: `sum(lines[].net)` or `count(lines[].net)` reads them"));
        assert_eq!(Expr::parse("sum(net) = 1").unwrap_err().at, 4);
        assert_eq!(
            Expr::parse("a = b = c").unwrap_err().message,
            "comparisons do not chain: join them with `and`"
        );
        assert_eq!(
            Expr::parse("a < b ± 1").unwrap_err().message,
            "a tolerance `± t` follows an `=` comparison only"
        );
        assert_eq!(Expr::parse("round(a, 29) = 1").unwrap_err().at, 9);
        assert_eq!(
            Expr::parse("frob(a) = 1").unwrap_err().message,
            "`frob` is no function of a rule: sum, count, has, round, abs, min, max, all, any"
        );
        assert_eq!(
            Expr::parse("a = ").unwrap_err().message,
            "the rule ends where a value is expected"
        );
    }

    /// The runtime's sums, products, quotients and rounding against an independent reading
    /// in integer hundredths, over seeded random amounts and rates (both operands varied,
    /// negatives and midpoints among them).
    #[test]
    fn arithmetic_agrees_with_integer_hundredths_on_random_amounts() {
        let mut seed: u64 = 0x5eed_0047;
        let mut next = move |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64 + 1)) as i64 - m
        };
        let text = |cents: i64| {
            let sign = if cents < 0 { "-" } else { "" };
            format!("{sign}{}.{:02}", cents.abs() / 100, cents.abs() % 100)
        };
        // Half away from zero, in integers: round(n / d).
        let round = |n: i128, d: i128| {
            let (q, r) = (n.abs() / d.abs(), n.abs() % d.abs());
            let q = if 2 * r >= d.abs() { q + 1 } else { q };
            if (n < 0) != (d < 0) {
                -q
            } else {
                q
            }
        };
        for _ in 0..2000 {
            let (a, b) = (next(1_000_000), next(1_000_000));
            let rate = next(3000); // hundredths of a percent point: -30.00 ..= 30.00
            let lines: Vec<i64> = (0..(next(5) + 5)).map(|_| next(100_000)).collect();
            let total: i64 = lines.iter().sum::<i64>() + next(1);
            let mut fields = vec![
                ("a", Val::D(Box::leak(text(a).into_boxed_str()))),
                ("b", Val::D(Box::leak(text(b).into_boxed_str()))),
                ("rate", Val::D(Box::leak(text(rate).into_boxed_str()))),
                ("total", Val::D(Box::leak(text(total).into_boxed_str()))),
            ];
            let items = lines
                .iter()
                .map(|c| Obj(vec![("net", Val::D(Box::leak(text(*c).into_boxed_str())))]))
                .collect();
            fields.push(("lines", Val::L(items)));
            let o = Obj(fields);
            let sum: i64 = lines.iter().sum();
            let holds = |rule: &str| Expr::parse(rule).unwrap().holds(&o).unwrap();
            assert_eq!(
                holds("total = sum(lines[].net)"),
                total == sum,
                "{total} {sum}"
            );
            assert!(holds(&format!("a + b - {} = {}", text(b), text(a))));
            // a × rate / 100 in cents: (a/100)·(rate/100)/100·100 = a·rate/10⁴ cents.
            let vat = round(i128::from(a) * i128::from(rate), 10_000);
            assert!(
                holds(&format!("round(a * rate / 100, 2) = {}", text(vat as i64))),
                "{a} {rate}"
            );
            let product = round(i128::from(a) * i128::from(b), 100);
            assert!(
                holds(&format!("round(a * b, 2) = {}", text(product as i64))),
                "{a} {b}"
            );
            if b != 0 {
                let q = round(i128::from(a) * 100, i128::from(b));
                assert!(
                    holds(&format!("round(a / b, 2) = {}", text(q as i64))),
                    "{a} {b}"
                );
            }
        }
    }

    /// Seeded random texts of the rule language's words and signs (and stray characters):
    /// reading never panics; a text that reads has a canonical text that reads back as the
    /// same rule; computing it on an object never panics.
    #[test]
    fn random_texts_read_or_are_refused_and_what_reads_round_trips_and_computes() {
        const WORDS: &[&str] = &[
            "a",
            "b",
            "lines[]",
            ".",
            "net",
            "x",
            "(",
            ")",
            ",",
            "+",
            "-",
            "*",
            "/",
            "=",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "±",
            "??",
            "and",
            "or",
            "not",
            "sum",
            "count",
            "has",
            "round",
            "abs",
            "min",
            "max",
            "all",
            "any",
            "in",
            "if",
            "half_even",
            "0",
            "1",
            "2.5",
            "1e3",
            "\"S\"",
            "true",
            "false",
            "Σ",
            "[",
            "]",
            "#",
            "\"",
            "é",
            "within",
            "l",
            "l.net",
        ];
        let o = invoice("10.00", &["4.00", "6.00"]);
        let mut seed: u64 = 0x0e47_5eed;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut read, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + next(14);
            let text: Vec<&str> = (0..len).map(|_| WORDS[next(WORDS.len())]).collect();
            let sep = if next(2) == 0 { " " } else { "" };
            let text = text.join(sep);
            match Expr::parse(&text) {
                Ok(e) => {
                    read += 1;
                    let canonical = e.to_string();
                    let again = Expr::parse(&canonical)
                        .unwrap_or_else(|err| panic!("{text:?} -> {canonical:?}: {err}"));
                    assert_eq!(again, e, "{text:?} -> {canonical:?}");
                    let _ = e.compute(&o);
                    let mut report = Report::default();
                    check(&e, &o, None, &Path::ROOT, "R", &mut report);
                }
                Err(err) => {
                    refused += 1;
                    assert!(err.at <= text.chars().count(), "{text:?}: {err}");
                }
            }
        }
        assert!(
            read > 500 && refused > 500,
            "{read} read, {refused} refused"
        );
    }

    #[test]
    fn a_hostile_rule_is_refused_when_read_never_overflowing_the_stack() {
        let deep = format!("{}a{} = 1", "(".repeat(150), ")".repeat(150));
        assert!(Expr::parse(&deep)
            .unwrap_err()
            .message
            .contains("nests more than 64"));
        let nots = format!("{}a = 1", "not ".repeat(300));
        assert!(Expr::parse(&nots)
            .unwrap_err()
            .message
            .contains("nests more than 64"));
        let signs = format!("{}a = 1", "-".repeat(300));
        let huge = format!("{}a{} = 1", "(".repeat(100_000), ")".repeat(100_000));
        assert!(Expr::parse(&huge)
            .unwrap_err()
            .message
            .contains("longer than 400"));
        assert!(Expr::parse(&signs)
            .unwrap_err()
            .message
            .contains("nests more than 64"));
        let long = format!("a = {}", vec!["b"; 100_000].join(" + "));
        let err = Expr::parse(&long).unwrap_err();
        assert!(err.message.contains("longer than 400"), "{err}");
        // The longest accepted: computed and shown without trouble.
        let longest = format!("a = {}", vec!["1"; 198].join(" + "));
        let e = Expr::parse(&longest).unwrap();
        assert!(e.holds(&Obj(vec![("a", Val::I(198))])).unwrap());
        assert_eq!(e.to_string(), longest);
        let nested = format!("{}a{} = 1", "(".repeat(60), ")".repeat(60));
        assert!(Expr::parse(&nested).is_ok());
    }

    #[test]
    fn the_canonical_text_reads_back_as_the_same_rule() {
        for (text, canonical) in [
            ("a==b", "a = b"),
            ("Σ lines[].net ≤ total", "sum(lines[].net) <= total"),
            ("a - (b - c) = a - b - c", "a - (b - c) = a - b - c"),
            (
                "(a + b) * c = round(x / y, 2, half_even)",
                "(a + b) * c = round(x / y, 2, half_even)",
            ),
            (
                "not (a = 1 or b = 2) and c != \"S\"",
                "not (a = 1 or b = 2) and c != \"S\"",
            ),
            ("t = b + v ± 0.01", "t = b + v ± 0.01"),
            ("-(a + b) = -a - b", "-(a + b) = -a - b"),
            (
                "due = with - (paid??0) + x ?? y ?? 0",
                "due = with - paid ?? 0 + x ?? y ?? 0",
            ),
        ] {
            let e = Expr::parse(text).unwrap();
            assert_eq!(e.to_string(), canonical);
            assert_eq!(Expr::parse(canonical).unwrap(), e, "{canonical}");
        }
    }
}
