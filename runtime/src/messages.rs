//! Violations in the reader's language (feature `messages`): a spec's locale tables
//! (`<stem>.<locale>.md`, see docs/spec-format.md, "Messages in other languages") hold a
//! message template per code, and a [`Catalog`] renders a [`Violation`]'s message from it.
//!
//! Only `message` changes: the code, path, pointer and numbers stay. English, the messages the
//! rules write, is the default and is never touched: a caller that asks for no locale (or one
//! the spec does not have) renders nothing.
//!
//! A template is text with placeholders in the ICU MessageFormat style:
//!
//! - `{path}`, `{pointer}`, `{code}`, `{measured}`, `{limit}`, `{expected}`, `{other}`,
//!   `{message}` ([`PLACEHOLDERS`]);
//! - `{measured, plural, one {# char} other {# chars}}`: the arm of the number's CLDR plural
//!   category in the catalog's language (or an exact `=N` arm), `#` the number;
//! - `{path, select, empty {the document} other {`{path}`}}`: `empty` when the value is empty
//!   (the document itself, or a number the violation does not carry);
//! - `{{` and `}}` for a literal brace.
//!
//! ```
//! use specmint_runtime::messages::Catalog;
//! use specmint_runtime::{Path, Violation};
//!
//! let catalog = Catalog::new(
//!     "fr",
//!     [("too_long", "`{path}` a {measured, plural, one {# caractère} other {# caractères}} (max {limit})")],
//! )
//! .unwrap();
//! let mut v = Violation::new("too_long", &Path::ROOT.field("title"), "`title` is 9 chars (max 8)".into())
//!     .with_numbers(9, 8);
//! catalog.localize(&mut v);
//! assert_eq!(v.message, "`title` a 9 caractères (max 8)");
//! assert_eq!(v.code, "too_long");
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use unic_langid::LanguageIdentifier;

use crate::report::Violation;
use crate::Report;

/// Every placeholder a template may name, with what it holds (what a translator reads, and
/// what the language server offers).
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    (
        "path",
        "the item's dotted path (`constraints[3].text`); empty for the document itself",
    ),
    (
        "pointer",
        "the item's RFC 6901 pointer (`/constraints/3/text`); empty for the document itself",
    ),
    ("code", "the violation's code (`field_too_long`)"),
    (
        "measured",
        "the measured quantity (chars, items or bytes) of a rule with numbers; empty otherwise",
    ),
    (
        "limit",
        "the rule's limit (the cap) of a rule with numbers; empty otherwise",
    ),
    (
        "expected",
        "the expected value(s) as the English message quotes them (`` `a`, `b`, `c` ``, a pattern, a format, a bound); empty otherwise",
    ),
    (
        "other",
        "the other field(s) of a cross-field rule, as dotted paths (`from_role`; a group `iban, card`); empty otherwise",
    ),
    (
        "message",
        "the English message, for detail no placeholder carries",
    ),
];

/// The kinds of problem the parse code of a spec covers (the document is not JSON, a member
/// is missing or unknown, a value has the wrong type): a locale file may give its parse code
/// a message per kind (a row `` `bad_doc` missing ``), read before the code's own.
pub const PROBLEM_KINDS: &[(&str, &str)] = &[
    ("syntax", "the input is not JSON, or not one JSON object"),
    ("missing", "a required member is missing"),
    ("unknown_key", "a member the spec does not define"),
    ("duplicate_key", "a member given twice"),
    ("type", "a value of the wrong JSON type"),
    (
        "enum",
        "a value outside the listed ones (an enum's values, a union's kinds)",
    ),
    ("value", "a value outside its type's range"),
];

/// The kind of problem ([`PROBLEM_KINDS`]) a parse-code message states, as the strict reader
/// (`document`, `shape`) and serde word them; `None` for another message.
pub fn problem_kind(message: &str) -> Option<&'static str> {
    const SYNTAX: &[&str] = &[
        "expected ",
        "EOF while parsing",
        "trailing ",
        "key must be ",
        "invalid escape",
        "invalid number",
        "invalid unicode",
        "control character",
        "lone leading surrogate",
        "unexpected end of hex escape",
        "number out of range",
        "recursion limit exceeded",
    ];
    let m = message;
    Some(
        if m.starts_with("missing field `") || m.contains("` is required but missing") {
            "missing"
        } else if m.starts_with("unknown field `") || m.contains("` is an unknown key") {
            "unknown_key"
        } else if m.starts_with("duplicate field `") {
            "duplicate_key"
        } else if m.starts_with("invalid type: ") {
            "type"
        } else if m.starts_with("unknown variant `")
            || (m.starts_with("unknown ") && m.contains("`, expected "))
        {
            "enum"
        } else if m.starts_with("invalid value: ") || m.starts_with("invalid length ") {
            "value"
        } else if SYNTAX.iter().any(|p| m.starts_with(p)) || m.contains(" is not valid UTF-8") {
            "syntax"
        } else {
            return None;
        },
    )
}

/// The CLDR plural categories an arm may name, besides `=N`.
pub const PLURAL_CATEGORIES: &[&str] = &["zero", "one", "two", "few", "many", "other"];

/// A placeholder's value source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Var {
    Path,
    Pointer,
    Code,
    Measured,
    Limit,
    Expected,
    Other,
    Message,
}

impl Var {
    fn named(name: &str) -> Option<Var> {
        Some(match name {
            "path" => Var::Path,
            "pointer" => Var::Pointer,
            "code" => Var::Code,
            "measured" => Var::Measured,
            "limit" => Var::Limit,
            "expected" => Var::Expected,
            "other" => Var::Other,
            "message" => Var::Message,
            _ => return None,
        })
    }

    fn number(self, v: &Violation) -> Option<u64> {
        match self {
            Var::Measured => v.measured,
            Var::Limit => v.limit,
            _ => None,
        }
    }

    fn write(self, v: &Violation, out: &mut String) {
        match self {
            Var::Path => out.push_str(&v.path),
            Var::Pointer => out.push_str(&v.pointer),
            Var::Code => out.push_str(&v.code),
            Var::Expected => out.push_str(&v.expected),
            Var::Other => out.push_str(&v.other),
            Var::Message => out.push_str(&v.message),
            Var::Measured | Var::Limit => {
                if let Some(n) = self.number(v) {
                    let _ = write!(out, "{n}");
                }
            }
        }
    }
}

/// A plural arm's key.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PluralKey {
    Exact(u64),
    Category(&'static str),
}

#[derive(Debug, Clone)]
enum Part {
    Text(String),
    Var(Var),
    /// `#` inside a plural arm: the number.
    Hash,
    Plural {
        var: Var,
        arms: Vec<(PluralKey, Template)>,
        other: Template,
    },
    Select {
        var: Var,
        empty: Option<Template>,
        other: Template,
    },
}

/// One message template, parsed ([`Template::parse`]).
#[derive(Debug, Clone)]
pub struct Template {
    parts: Vec<Part>,
}

/// Why a template does not parse: where (a char offset in its text) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// 0-based offset, in chars, of the problem in the template's text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

struct Parser {
    chars: Vec<(usize, char)>,
    at: usize,
}

fn placeholder_hint() -> String {
    let names: Vec<String> = PLACEHOLDERS
        .iter()
        .map(|(n, _)| format!("`{{{n}}}`"))
        .collect();
    format!("the placeholders are {}", names.join(", "))
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }

    fn error(&self, at: usize, message: String, hint: impl Into<String>) -> TemplateError {
        TemplateError {
            offset: at,
            message,
            hint: hint.into(),
        }
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '=')
        {
            w.push(c);
            self.at += 1;
        }
        w
    }

    /// Parts up to an unmatched `}` (inside an arm) or the end (top level).
    fn parts(&mut self, in_arm: bool, in_plural: bool) -> Result<Vec<Part>, TemplateError> {
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.peek() else {
                if in_arm {
                    return Err(self.error(
                        self.at,
                        "an arm is not closed".into(),
                        "close each arm's text with `}`",
                    ));
                }
                break;
            };
            match c {
                '{' if self.chars.get(self.at + 1).map(|p| p.1) == Some('{') => {
                    text.push('{');
                    self.at += 2;
                }
                '}' if self.chars.get(self.at + 1).map(|p| p.1) == Some('}') && !in_arm => {
                    text.push('}');
                    self.at += 2;
                }
                '}' if in_arm => break,
                '}' => {
                    return Err(self.error(
                        self.at,
                        "a `}` closes nothing".into(),
                        "write `}}` for a literal brace",
                    ))
                }
                '#' if in_plural => {
                    if !text.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut text)));
                    }
                    parts.push(Part::Hash);
                    self.at += 1;
                }
                '{' => {
                    if !text.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut text)));
                    }
                    parts.push(self.placeholder(in_plural)?);
                }
                c => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(parts)
    }

    fn placeholder(&mut self, in_plural: bool) -> Result<Part, TemplateError> {
        let open = self.at;
        self.at += 1;
        self.skip_spaces();
        let name_at = self.at;
        let name = self.word();
        let var = Var::named(&name).ok_or_else(|| {
            let shown = if name.is_empty() {
                "an empty placeholder".to_owned()
            } else {
                format!("unknown placeholder `{{{name}}}`")
            };
            let meant = crate::__private::did_you_mean(&name, PLACEHOLDERS.iter().map(|p| p.0));
            let hint = match meant {
                Some(m) => format!("did you mean `{{{m}}}`? {}", placeholder_hint()),
                None => placeholder_hint(),
            };
            self.error(name_at, shown, hint)
        })?;
        self.skip_spaces();
        match self.peek() {
            Some('}') => {
                self.at += 1;
                Ok(Part::Var(var))
            }
            Some(',') => {
                self.at += 1;
                self.skip_spaces();
                let kind_at = self.at;
                let kind = self.word();
                self.skip_spaces();
                if self.peek() != Some(',') {
                    return Err(self.error(
                        self.at,
                        format!("`{{{name}, {kind}` needs its arms after a `,`"),
                        "write `{measured, plural, one {…} other {…}}`",
                    ));
                }
                self.at += 1;
                let part =
                    match kind.as_str() {
                        "plural" => {
                            if !matches!(var, Var::Measured | Var::Limit) {
                                return Err(self.error(
                                    name_at,
                                    format!("`{{{name}}}` is not a number: it has no plural"),
                                    "only `{measured}` and `{limit}` take `plural`",
                                ));
                            }
                            self.plural(var, open)?
                        }
                        "select" => self.select(var, open, in_plural)?,
                        _ => return Err(self.error(
                            kind_at,
                            format!("unknown format `{kind}`"),
                            "a placeholder is `{name}`, `{name, plural, …}` or `{name, select, …}`",
                        )),
                    };
                Ok(part)
            }
            _ => Err(self.error(
                open,
                format!("placeholder `{{{name}` is not closed"),
                "close it with `}` (write `{{` for a literal brace)",
            )),
        }
    }

    /// `key {arm} key {arm} … }`, after the second comma.
    fn arms(
        &mut self,
        open: usize,
        in_plural: bool,
    ) -> Result<Vec<(usize, String, Template)>, TemplateError> {
        let mut arms = Vec::new();
        loop {
            self.skip_spaces();
            match self.peek() {
                Some('}') => {
                    self.at += 1;
                    return Ok(arms);
                }
                None => {
                    return Err(self.error(
                        open,
                        "a placeholder is not closed".into(),
                        "close it with `}` after its last arm",
                    ))
                }
                _ => {}
            }
            let key_at = self.at;
            let key = self.word();
            self.skip_spaces();
            if key.is_empty() || self.peek() != Some('{') {
                return Err(self.error(
                    key_at,
                    "an arm is a key followed by its text in braces".into(),
                    "write `one {# item} other {# items}`",
                ));
            }
            self.at += 1;
            let parts = self.parts(true, in_plural)?;
            self.at += 1; // the arm's `}`
            arms.push((key_at, key, Template { parts }));
        }
    }

    fn plural(&mut self, var: Var, open: usize) -> Result<Part, TemplateError> {
        let mut keyed = Vec::new();
        let mut other = None;
        for (at, key, template) in self.arms(open, true)? {
            let parsed = if let Some(n) = key.strip_prefix('=') {
                n.parse().ok().map(PluralKey::Exact)
            } else {
                category(&key).map(PluralKey::Category)
            };
            match parsed {
                Some(PluralKey::Category("other")) => other = Some(template),
                Some(k) => keyed.push((k, template)),
                None => {
                    return Err(self.error(
                        at,
                        format!("unknown plural arm `{key}`"),
                        "an arm is `=N` or a CLDR category: zero, one, two, few, many, other",
                    ))
                }
            }
        }
        let other = other.ok_or_else(|| {
            self.error(
                open,
                "a plural has no `other` arm".into(),
                "every plural needs `other {…}`: the category of most numbers in every language",
            )
        })?;
        Ok(Part::Plural {
            var,
            arms: keyed,
            other,
        })
    }

    fn select(&mut self, var: Var, open: usize, in_plural: bool) -> Result<Part, TemplateError> {
        let mut empty = None;
        let mut other = None;
        for (at, key, template) in self.arms(open, in_plural)? {
            match key.as_str() {
                "empty" => empty = Some(template),
                "other" => other = Some(template),
                _ => {
                    return Err(self.error(
                        at,
                        format!("unknown select arm `{key}`"),
                        "a select has `empty {…}` (no value) and `other {…}`",
                    ))
                }
            }
        }
        let other = other.ok_or_else(|| {
            self.error(
                open,
                "a select has no `other` arm".into(),
                "write `{path, select, empty {…} other {…}}`",
            )
        })?;
        Ok(Part::Select { var, empty, other })
    }
}

/// The category's name as an arm writes it.
fn category(key: &str) -> Option<&'static str> {
    PLURAL_CATEGORIES.iter().copied().find(|c| *c == key)
}

/// The name of a category CLDR selected.
fn category_name(category: &PluralCategory) -> &'static str {
    match category {
        PluralCategory::ZERO => "zero",
        PluralCategory::ONE => "one",
        PluralCategory::TWO => "two",
        PluralCategory::FEW => "few",
        PluralCategory::MANY => "many",
        PluralCategory::OTHER => "other",
    }
}

impl Template {
    /// Parses a template ([the module](self) says the syntax).
    ///
    /// # Errors
    ///
    /// The first problem: an unknown placeholder, a brace that closes nothing or is not
    /// closed, a plural without `other`, an unknown arm.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut p = Parser {
            chars: text.char_indices().collect(),
            at: 0,
        };
        let parts = p.parts(false, false)?;
        Ok(Template { parts })
    }

    /// The placeholder names the template uses, in order, each once.
    pub fn placeholders(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<&'static str>) {
        fn add(out: &mut Vec<&'static str>, var: Var) {
            let name = PLACEHOLDERS
                .iter()
                .find(|(n, _)| Var::named(n) == Some(var))
                .map_or("", |p| p.0);
            if !out.contains(&name) {
                out.push(name);
            }
        }
        for part in &self.parts {
            match part {
                Part::Var(v) => add(out, *v),
                Part::Plural { var, arms, other } => {
                    add(out, *var);
                    for (_, t) in arms {
                        t.collect(out);
                    }
                    other.collect(out);
                }
                Part::Select { var, empty, other } => {
                    add(out, *var);
                    if let Some(t) = empty {
                        t.collect(out);
                    }
                    other.collect(out);
                }
                Part::Text(_) | Part::Hash => {}
            }
        }
    }

    fn render_into(
        &self,
        v: &Violation,
        rules: Option<&PluralRules>,
        hash: Option<u64>,
        out: &mut String,
    ) {
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Var(var) => var.write(v, out),
                Part::Hash => {
                    if let Some(n) = hash {
                        let _ = write!(out, "{n}");
                    }
                }
                Part::Plural { var, arms, other } => {
                    let n = var.number(v);
                    let arm = n
                        .and_then(|n| {
                            let exact = arms
                                .iter()
                                .find(|(k, _)| *k == PluralKey::Exact(n))
                                .map(|(_, t)| t);
                            exact.or_else(|| {
                                let cat = category_name(&rules?.select(n).ok()?);
                                arms.iter()
                                    .find(|(k, _)| *k == PluralKey::Category(cat))
                                    .map(|(_, t)| t)
                            })
                        })
                        .unwrap_or(other);
                    arm.render_into(v, rules, n, out);
                }
                Part::Select { var, empty, other } => {
                    let mut value = String::new();
                    var.write(v, &mut value);
                    let arm = match empty {
                        Some(e) if value.is_empty() => e,
                        _ => other,
                    };
                    arm.render_into(v, rules, hash, out);
                }
            }
        }
    }
}

/// Why a locale tag is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleError(pub String);

/// A message locale's tag, parsed: a BCP 47 language tag of the form
/// `language[-script][-region][-variant…]` (`zh-TW`, `zh-Hant-TW`, `pt-BR`, `de`), as messages
/// need; extensions (`-u-…`), private use and `und` are refused.
///
/// # Errors
///
/// A [`LocaleError`] saying what is wrong.
pub fn parse_locale(tag: &str) -> Result<LanguageIdentifier, LocaleError> {
    if tag.contains('_') {
        return Err(LocaleError(format!(
            "`{tag}` is not a BCP 47 language tag: its subtags are separated by `-`, not `_`"
        )));
    }
    let id: LanguageIdentifier = tag
        .parse()
        .map_err(|_| LocaleError(format!("`{tag}` is not a BCP 47 language tag")))?;
    if id.language.is_empty() {
        return Err(LocaleError(format!("`{tag}` names no language")));
    }
    Ok(id)
}

/// The locale the environment asks for, as POSIX reads it: the first of `LC_ALL`,
/// `LC_MESSAGES` and `LANG` that is set and not empty, with its codeset and modifier dropped
/// and `_` read as `-` (`zh_TW.UTF-8` is `zh-TW`); `None` for `C`, `POSIX` (English) or when
/// none is set.
pub fn env_locale() -> Option<String> {
    let value = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())?;
    posix_locale(&value)
}

/// A POSIX locale name (`zh_TW.UTF-8@modifier`) as a tag (`zh-TW`); `None` for `C`, `POSIX`
/// and `C.UTF-8`.
pub fn posix_locale(value: &str) -> Option<String> {
    let name = value.split(['.', '@']).next().unwrap_or_default();
    if name.is_empty() || name == "C" || name == "POSIX" {
        return None;
    }
    Some(name.replace('_', "-"))
}

/// One locale's messages: a template per code.
pub struct Catalog {
    tag: String,
    rules: Option<PluralRules>,
    /// Per code (`bad_doc`), or per code and problem kind (`bad_doc missing`).
    templates: BTreeMap<String, Template>,
    /// Whether a template is per problem kind.
    kinds: bool,
}

/// Why a [`Catalog`] cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// The tag is not a BCP 47 language tag.
    Locale(LocaleError),
    /// A code's template does not parse.
    Template {
        /// The code.
        code: String,
        /// The problem.
        error: TemplateError,
    },
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::Locale(e) => f.write_str(&e.0),
            CatalogError::Template { code, error } => {
                write!(f, "`{code}`: {} (at char {})", error.message, error.offset)
            }
        }
    }
}

impl std::error::Error for CatalogError {}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("tag", &self.tag)
            .field("codes", &self.templates.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Catalog {
    /// The catalog of `tag` from `(code, template)` pairs (a spec's locale table, or the
    /// `MESSAGES` its generated module holds); a code followed by a space and a problem kind
    /// (`bad_doc missing`, [`PROBLEM_KINDS`]) is that kind's message, read before the
    /// code's own.
    ///
    /// # Errors
    ///
    /// A tag that is not BCP 47, a template that does not parse.
    pub fn new<'a>(
        tag: &str,
        messages: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Catalog, CatalogError> {
        let id = parse_locale(tag).map_err(CatalogError::Locale)?;
        let mut templates = BTreeMap::new();
        for (code, text) in messages {
            let template = Template::parse(text).map_err(|error| CatalogError::Template {
                code: code.to_owned(),
                error,
            })?;
            templates.insert(code.to_owned(), template);
        }
        Ok(Catalog {
            tag: tag.to_owned(),
            rules: plural_rules(&id),
            kinds: templates.keys().any(|k| k.contains(' ')),
            templates,
        })
    }

    /// The tag, as the spec writes it.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// The codes that have a message.
    pub fn codes(&self) -> impl Iterator<Item = &str> {
        self.templates.keys().map(String::as_str)
    }

    /// `v`'s message in this locale, or `None` when the catalog has none for its code.
    pub fn message(&self, v: &Violation) -> Option<String> {
        let by_kind = || {
            let kind = problem_kind(&v.message)?;
            self.templates.get(&format!("{} {kind}", v.code))
        };
        let template = if self.kinds {
            by_kind().or_else(|| self.templates.get(v.code.as_str()))?
        } else {
            self.templates.get(v.code.as_str())?
        };
        let mut out = String::with_capacity(v.message.len());
        template.render_into(v, self.rules.as_ref(), None, &mut out);
        Some(out)
    }

    /// `v` rendered with the template of `key` (a code, or a code, a space and a problem kind
    /// such as `bad_doc missing`, which falls back to the code's own): for a caller that knows
    /// the kind without an English message to read it from (a schema's `errorMessage`).
    /// `None` when the catalog has neither.
    pub fn render(&self, key: &str, v: &Violation) -> Option<String> {
        let template = self.templates.get(key).or_else(|| {
            let (code, _) = key.split_once(' ')?;
            self.templates.get(code)
        })?;
        let mut out = String::with_capacity(v.message.len());
        template.render_into(v, self.rules.as_ref(), None, &mut out);
        Some(out)
    }

    /// Replaces `v`'s message with this locale's (left as it is when the catalog has none
    /// for its code).
    pub fn localize(&self, v: &mut Violation) {
        if let Some(m) = self.message(v) {
            v.message = m;
        }
    }

    /// The report with every message in this locale.
    pub fn localize_report(&self, report: Report) -> Report {
        let mut violations = report.into_vec();
        for v in &mut violations {
            self.localize(v);
        }
        Report::from_violations(violations)
    }
}

/// How closely a locale `own` serves a reader asking for `wanted`: `None` when it does not;
/// otherwise more is closer. A locale serves a reader of the same language whose script,
/// region and variants include its own (`zh-TW` serves `zh-TW` and `zh-Hant-TW`, not `zh-HK`
/// nor `zh`).
fn serves(own: &LanguageIdentifier, wanted: &LanguageIdentifier) -> Option<usize> {
    if own.language != wanted.language {
        return None;
    }
    let mut score = 1;
    if let Some(s) = own.script {
        if Some(s) != wanted.script {
            return None;
        }
        score += 1;
    }
    if let Some(r) = own.region {
        if Some(r) != wanted.region {
            return None;
        }
        score += 1;
    }
    for variant in own.variants() {
        if !wanted.has_variant(*variant) {
            return None;
        }
        score += 1;
    }
    Some(score)
}

/// The CLDR cardinal rules of `id`'s language: for the whole tag when CLDR has them
/// (`pt-PT`), else for its language alone.
fn plural_rules(id: &LanguageIdentifier) -> Option<PluralRules> {
    PluralRules::create(id.clone(), PluralRuleType::CARDINAL)
        .ok()
        .or_else(|| {
            let language = LanguageIdentifier::from_parts(id.language, None, None, &[]);
            PluralRules::create(language, PluralRuleType::CARDINAL).ok()
        })
}

/// The catalog among `catalogs` that serves a reader asking for `wanted` (a BCP 47 tag or a
/// POSIX locale name such as `zh_TW.UTF-8`), the closest when several do: `None` (English)
/// when none does, or `wanted` is `C`, `POSIX`, `en` or not a tag.
pub fn choose<'c>(catalogs: &'c [Catalog], wanted: &str) -> Option<&'c Catalog> {
    let tag = choose_tag(catalogs.iter().map(Catalog::tag), wanted)?;
    catalogs.iter().find(|c| c.tag() == tag)
}

/// [`choose`] among tags (a spec's locales) rather than built catalogs: the tag that serves a
/// reader asking for `wanted`, so only that locale's catalog need be built.
pub fn choose_tag<'t>(tags: impl IntoIterator<Item = &'t str>, wanted: &str) -> Option<&'t str> {
    let tag = posix_locale(wanted)?;
    let wanted = parse_locale(&tag).ok()?;
    tags.into_iter()
        .filter_map(|t| {
            let own = parse_locale(t).ok()?;
            serves(&own, &wanted).map(|score| (score, t))
        })
        .max_by_key(|(score, _)| *score)
        .map(|(_, t)| t)
}

/// Whether a reader may ask for `wanted`: a BCP 47 tag, or a POSIX locale name as the
/// environment spells one (`zh_TW.UTF-8`, `C`).
///
/// # Errors
///
/// What is wrong with it, for a usage error (`--locale`, a binding's `locale` argument).
pub fn check_wanted(wanted: &str) -> Result<(), LocaleError> {
    match posix_locale(wanted) {
        None => Ok(()),
        Some(tag) => parse_locale(&tag).map(|_| ()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Path;

    fn too_long(measured: u64) -> Violation {
        Violation::new(
            "too_long",
            &Path::ROOT.field("items").index(3),
            "english".into(),
        )
        .with_numbers(measured, 2)
    }

    fn render(tag: &str, template: &str, v: &Violation) -> String {
        Catalog::new(tag, [("too_long", template)])
            .unwrap()
            .message(v)
            .unwrap()
    }

    #[test]
    fn every_placeholder_renders_its_value() {
        let v = too_long(5);
        assert_eq!(
            render(
                "de",
                "{path}|{pointer}|{code}|{measured}|{limit}|{expected}|{other}|{message}|{{x}}",
                &v.clone().with_expected("`a`, `b`").with_other("kind")
            ),
            "items[3]|/items/3|too_long|5|2|`a`, `b`|kind|english|{x}"
        );
    }

    #[test]
    fn plurals_follow_cldr_per_language() {
        let t =
            "{measured, plural, =0 {none} one {# one} few {# few} many {# many} other {# other}}";
        // English-like: 1 is `one`; Polish: 2-4 `few`, 5 `many`; Chinese: always `other`.
        assert_eq!(render("de", t, &too_long(1)), "1 one");
        assert_eq!(render("de", t, &too_long(3)), "3 other");
        assert_eq!(render("pl", t, &too_long(3)), "3 few");
        assert_eq!(render("pl", t, &too_long(5)), "5 many");
        assert_eq!(render("pl", t, &too_long(22)), "22 few");
        assert_eq!(render("zh-TW", t, &too_long(1)), "1 other");
        assert_eq!(render("zh-TW", t, &too_long(0)), "none");
        // A number the violation does not carry takes `other`, `#` empty.
        let mut none = too_long(1);
        none.measured = None;
        assert_eq!(render("de", t, &none), " other");
    }

    #[test]
    fn select_empty_names_the_document() {
        let t = "{path, select, empty {the document} other {`{path}`}} is bad";
        assert_eq!(render("en-GB", t, &too_long(1)), "`items[3]` is bad");
        let root = Violation::new("too_long", &Path::ROOT, "x".into());
        assert_eq!(render("en-GB", t, &root), "the document is bad");
    }

    #[test]
    fn bad_templates_say_where_and_what() {
        let cases: &[(&str, usize, &str)] = &[
            ("a {paht} b", 3, "unknown placeholder `{paht}`"),
            ("a {path b", 2, "placeholder `{path` is not closed"),
            ("a } b", 2, "a `}` closes nothing"),
            (
                "{measured, plural, one {x}}",
                0,
                "a plural has no `other` arm",
            ),
            (
                "{measured, plural, single {x} other {y}}",
                19,
                "unknown plural arm `single`",
            ),
            (
                "{path, plural, other {x}}",
                1,
                "`{path}` is not a number: it has no plural",
            ),
            ("{path, choice, other {x}}", 7, "unknown format `choice`"),
            ("{}", 1, "an empty placeholder"),
        ];
        for (text, offset, message) in cases {
            let e = Template::parse(text).unwrap_err();
            assert_eq!(
                (e.offset, e.message.as_str()),
                (*offset, *message),
                "{text}"
            );
        }
        let e = Template::parse("{paht}").unwrap_err();
        assert!(e.hint.starts_with("did you mean `{path}`?"), "{}", e.hint);
    }

    #[test]
    fn placeholders_are_listed_once() {
        let t =
            Template::parse("{path} {measured, plural, one {{limit}} other {{path} {measured}}}")
                .unwrap();
        assert_eq!(t.placeholders(), ["path", "measured", "limit"]);
    }

    #[test]
    fn locale_tags_are_bcp47() {
        for good in ["zh-TW", "zh-Hant-TW", "de", "pt-BR", "sl-rozaj"] {
            assert!(parse_locale(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "zh_TW",
            "chinese-traditional",
            "und",
            "x-private",
            "zh-TW-u-nu-hanidec",
        ] {
            assert!(parse_locale(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_closest_catalog_serves_the_reader() {
        let catalogs = [
            Catalog::new("zh-TW", [("c", "tw")]).unwrap(),
            Catalog::new("de", [("c", "de")]).unwrap(),
            Catalog::new("de-CH", [("c", "ch")]).unwrap(),
        ];
        let tag = |w: &str| choose(&catalogs, w).map(Catalog::tag);
        assert_eq!(tag("zh-TW"), Some("zh-TW"));
        assert_eq!(tag("zh_TW.UTF-8"), Some("zh-TW"));
        assert_eq!(tag("zh-Hant-TW"), Some("zh-TW"));
        assert_eq!(tag("zh-HK"), None);
        assert_eq!(tag("zh"), None);
        assert_eq!(tag("de-AT"), Some("de"));
        assert_eq!(tag("de-CH"), Some("de-CH"));
        assert_eq!(tag("C"), None);
        assert_eq!(tag("POSIX"), None);
        assert_eq!(tag("C.UTF-8"), None);
        assert_eq!(tag("en-US"), None);
        assert_eq!(tag("not a tag"), None);
    }

    #[test]
    fn a_problem_kinds_message_is_read_before_its_codes() {
        let catalog = Catalog::new(
            "de",
            [
                ("bad", "kaputt: {message}"),
                ("bad missing", "`{path}` fehlt"),
            ],
        )
        .unwrap();
        let at = |message: &str| {
            let v = Violation::new("bad", &Path::ROOT.field("name"), message.into());
            catalog.message(&v).unwrap()
        };
        assert_eq!(at("`name` is required but missing"), "`name` fehlt");
        assert_eq!(
            at("missing field `name` at line 1 column 2"),
            "`name` fehlt"
        );
        assert_eq!(
            at("invalid type: null, expected a string"),
            "kaputt: invalid type: null, expected a string"
        );
    }

    #[test]
    fn problem_kinds_are_read_from_the_readers_words() {
        let cases = [
            ("missing field `kind` at line 1 column 30", Some("missing")),
            ("`title` is required but missing", Some("missing")),
            (
                "unknown field `x`, there are no fields at line 1 column 9",
                Some("unknown_key"),
            ),
            (
                "`a` is an unknown key (expected one of `b`)",
                Some("unknown_key"),
            ),
            (
                "duplicate field `a` at line 1 column 9",
                Some("duplicate_key"),
            ),
            ("invalid type: null, expected struct Address", Some("type")),
            (
                "unknown variant `Full`, expected one of `full`, `none`",
                Some("enum"),
            ),
            ("unknown shape `x`, expected one of `circle`", Some("enum")),
            ("invalid value: integer `-1`, expected u32", Some("value")),
            ("expected value at line 1 column 1", Some("syntax")),
            (
                "EOF while parsing a value at line 1 column 0",
                Some("syntax"),
            ),
            ("trailing characters at line 1 column 3", Some("syntax")),
            (
                "the note is not valid UTF-8: invalid byte 0xFF at byte offset 0",
                Some("syntax"),
            ),
            ("`title` must not be blank", None),
        ];
        for (message, kind) in cases {
            assert_eq!(problem_kind(message), kind, "{message}");
        }
    }

    #[test]
    fn group_caps_one_of_and_digests_carry_their_detail() {
        use crate::rules;
        let catalog = Catalog::new(
            "de",
            [
                ("c", "{path}|{expected}|{other}|{measured}|{limit}"),
                (
                    "d",
                    "{other, select, empty {none} other {{other}}} {expected, select, empty {-} other {{expected}}}",
                ),
            ],
        )
        .unwrap();
        let render = |report: &Report| -> Vec<String> {
            report.iter().map(|v| catalog.message(v).unwrap()).collect()
        };
        let mut report = Report::new();
        let kinds = ["a", "b", "a", "a"];
        rules::max_items_per_group_named(
            &kinds[..],
            |k: &&str| *k,
            "kind",
            &Path::ROOT.field("items"),
            2,
            "c",
            &mut report,
        );
        assert_eq!(render(&report), ["items|`a`|items[].kind|3|2"]);
        let mut report = Report::new();
        let given: [&dyn rules::Filled; 2] = [&Some("x"), &Some("y")];
        rules::one_of(
            &["iban", "card"],
            rules::given_count(&given),
            None,
            &Path::ROOT.field("pay"),
            "d",
            &mut report,
        );
        assert_eq!(render(&report), ["pay.iban, pay.card -"]);
        // A rule with neither: both selects take `empty`.
        let mut report = Report::new();
        rules::non_blank(" ", &Path::ROOT.field("t"), "d", &mut report);
        assert_eq!(render(&report), ["none -"]);
        let v = &report.as_slice()[0];
        assert_eq!((v.expected.as_str(), v.other.as_str()), ("", ""));
    }

    #[test]
    fn a_digest_names_the_data_and_what_it_holds() {
        use crate::rules::{self, DigestFields};
        let catalog = Catalog::new(
            "de",
            [(
                "d",
                "{path}|{other}|{expected}|{measured, select, empty {-} other {{measured}/{limit}}}",
            )],
        )
        .unwrap();
        let fields = DigestFields {
            sha256: Some("00"),
            sha256_name: "sha256",
            data: Some("hello world"),
            data_name: "data",
            encoding: &"utf8",
            label: None,
            length: Some(12),
            length_name: "bytes",
        };
        let mut report = Report::new();
        let at = Path::ROOT.field("files");
        let at = at.index(0);
        rules::digest(&fields, &at, "d", &mut report);
        let got: Vec<String> = report.iter().map(|v| catalog.message(v).unwrap()).collect();
        assert_eq!(
            got,
            [
                "files[0].sha256|files[0].data|`b94d27b9…`|-",
                "files[0].bytes|files[0].data|11|11/12",
            ]
        );
    }

    #[test]
    fn a_code_without_a_message_keeps_english() {
        let catalog = Catalog::new("de", [("other_code", "x")]).unwrap();
        let mut v = too_long(3);
        catalog.localize(&mut v);
        assert_eq!(v.message, "english");
    }
}
