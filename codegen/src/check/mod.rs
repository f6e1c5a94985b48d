//! Check phase: cross-checks the Markdown tables against each other and the sidecar, and
//! builds the model. Every problem is reported to the context; nothing stops at the first.
//!
//! One file per phase, in the order [`Checker::run`] calls them: `tables` (classify and name
//! the tables, Rust type names), `codes` (the error table, the `[errors]` mapping, and the
//! code of every rule a cell states), `types` (enum, field and union tables; their cells are
//! read by the free functions of `parse`), `objects` (the root, selectors, defaultable
//! objects, `[canonical] always_written`), `rules` (the sidecar's cross-field rules, which
//! hold wherever a table is used), `split` (a copy of a shared table for each use whose
//! path-specific codes or caps differ), then the code overrides, `caps`, `texts`
//! (`Constant | Value | Meaning` rows), `machines`, `forbidden` and `examples`. The type index (`index::TypeIndex`) and the
//! error-code book (`codes::CodeBook`) are structs of their own, so each phase says which it
//! reads.

mod caps;
mod codes;
mod conditions;
mod examples;
mod expressions;
mod forbidden;
mod index;
mod machines;
mod messages;
mod objects;
mod parse;
mod rules;
mod split;
mod tables;
mod texts;
mod types;

pub(crate) use rules::{decimal_name, type_words};

use std::collections::BTreeMap;

use crate::diag::{Context, File, Pos};
use crate::loader::markdown::{self, Document};
use crate::loader::sidecar::{self, Sidecar, Spanned};
use crate::loader::SpecSource;
use crate::model::*;

use codes::{Ask, CodeBook};
use index::{Target, TypeIndex, Unresolved};

const PATH_HINT: &str =
    "a path names members from the root, joined by `.`, with `[]` to step into array elements (`items[].name`)";

/// The state of one spec's check: its inputs, the diagnostics, the type index, the code
/// book, and what the phases have found so far.
struct Checker<'a> {
    ctx: Context,
    doc: Document,
    side: Sidecar,
    source: &'a SpecSource,
    index: TypeIndex,
    book: CodeBook,
    /// Constants of cap rows and of examples: name → where defined.
    constants: BTreeMap<String, Pos>,
    /// Cross-field rules, as declared.
    rules: Vec<Rule>,
    /// Conditions of Required cells, read once every table is known: (table, key, the
    /// condition, position of the cell).
    pending_conditions: Vec<(String, String, parse::RawCondition, Pos)>,
    /// `if `field` is `value`` cells waiting for their code: (table, key, position).
    pending_required_if: Vec<(String, String, Pos)>,
    /// Union members whose Type cell states a rule (a range, a pattern, a format), waiting
    /// for its code from `[errors]`: (union, tag value, member key, position of the member).
    pending_member_rules: Vec<(String, String, String, Pos)>,
    /// Optional (`—`) fields typed as a field table, no `?`: (table, key, position of the
    /// Required cell). Each reads as `{}` when absent, if its table can.
    pending_empty_defaults: Vec<(String, String, Pos)>,
    /// A table whose header is near a cap table's was refused: a `[caps.*]` entry naming
    /// none of the rows read is a knock-on of it, not reported.
    cap_table_refused: bool,
}

/// Whether `md` has a field table: a Markdown file without a sidecar is a spec (whose
/// missing sidecar is reported) only then; otherwise it is prose (a README), not read.
pub(crate) fn has_field_table(md: &str) -> bool {
    markdown::parse(md)
        .tables
        .iter()
        .any(|t| tables::is_field_table(&t.header))
}

pub(crate) use parse::BUILTIN_TYPES;
pub(crate) use tables::kind_name as table_kind_name;

/// Loads, checks and models one spec.
pub(crate) fn check(source: &SpecSource) -> Result<Spec, crate::diag::Diagnostics> {
    let mut ctx = Context::new(&source.md_path, &source.toml_path);
    let doc = markdown::parse(&source.md);
    // Everything else depends on the sidecar: a missing or unparsable one is reported alone.
    let side = if source.toml.trim().is_empty() {
        ctx.md(
            Pos::TOP,
            format!("the sidecar `{}` is missing or empty", source.toml_path),
            "create it next to the Markdown with at least `[spec]` `root = \"<field table>\"`",
        );
        None
    } else {
        sidecar::parse(&mut ctx, &source.toml)
    };
    let Some(side) = side else {
        ctx.finish()?;
        unreachable!("an error was reported")
    };
    let mut c = Checker {
        ctx,
        doc,
        side,
        source,
        index: TypeIndex::default(),
        book: CodeBook::new(source),
        constants: BTreeMap::new(),
        rules: Vec::new(),
        pending_conditions: Vec::new(),
        pending_required_if: Vec::new(),
        pending_member_rules: Vec::new(),
        pending_empty_defaults: Vec::new(),
        cap_table_refused: false,
    };
    let spec = c.run();
    let Checker { ctx, .. } = c;
    ctx.finish()?;
    Ok(spec)
}

impl Checker<'_> {
    /// The phases, in order: later ones read what earlier ones found.
    fn run(&mut self) -> Spec {
        let title = self.title();
        let mut all = std::mem::take(&mut self.doc.tables);
        let tables = self.tables(&mut all);
        let rust_types = self.rust_names(&tables);
        for t in &tables.errors {
            self.book.error_table(&mut self.ctx, t);
        }
        let errors_enum = self.errors_enum(&rust_types);
        self.rule_map();
        // Enums first (field defaults refer to their values), then objects and unions.
        self.state_enums(&tables.states);
        self.types(&tables.named);
        self.conditions();
        self.union_forms();
        self.selectors();
        self.decimals_behind_buffers();
        self.defaultables();
        self.empty_object_defaults();
        let root = self.root();
        let parse_code = self.book.mapped(
            &mut self.ctx,
            Ask::new(
                "parse",
                "document parse errors",
                self.side.spec_pos,
                File::Toml,
            ),
        );
        // What holds wherever a table is used (always-written fields, open objects,
        // cross-field rules), then the copies of shared tables whose uses' path-specific
        // overrides differ (each copy inherits the above), then code overrides, the codes of
        // type rules and the caps, which may differ per copy.
        self.always_written(root);
        self.open_objects();
        self.unique_rules(root);
        self.not_equal_rules(root);
        self.order_rules(root);
        self.contradiction_rules(root);
        self.not_contains_rules(root);
        self.digest_rules(root);
        self.guarded_rules(root);
        self.expression_rules(&tables.rules, root);
        self.split_shared(&tables.caps, root, &errors_enum);
        self.code_overrides(root);
        self.non_blank_codes(&tables.named);
        self.type_rule_codes();
        self.engine_codes();
        let extract = self.extract();
        let bom_tolerated = self.bom();
        let max_input_bytes = self.side.max_input_bytes.take().map(|m| m.value);
        let caps = self.caps(&tables.caps, root);
        let texts = self.texts(&tables.texts);
        let machines = self.machines(&tables.states, &tables.transitions);
        let (forbidden_keys, forbidden_code) = self.forbidden_keys(&tables.forbidden);
        let examples = self.examples();
        let messages = self.messages(parse_code.as_deref());
        self.book.unproduced(&mut self.ctx);
        self.book.unasked(&mut self.ctx);
        self.book.unused_rule_codes(&mut self.ctx);

        let parse = parse_code.unwrap_or_default();
        let errors = Errors {
            enum_name: errors_enum,
            codes: self.book.rows.clone(),
            forbidden_key: forbidden_code.unwrap_or_else(|| parse.clone()),
            parse,
            rule_codes: self.book.rule_codes(),
            engine: self.book.engine.clone(),
        };
        Spec {
            name: self.source.name.clone(),
            md_path: self.source.md_path.clone(),
            title,
            root: root
                .map(|r| self.index.objects[r].name.clone())
                .unwrap_or_default(),
            document_name: self.document_name(),
            types: self.index.types(),
            caps,
            texts,
            errors,
            rules: std::mem::take(&mut self.rules),
            forbidden_keys,
            examples,
            extract,
            machines,
            max_input_bytes,
            bom_tolerated,
            messages,
        }
    }

    /// The first level-1 heading (the spec's name when there is none).
    fn title(&mut self) -> String {
        match &self.doc.title {
            Some(t) => t.clone(),
            None => {
                self.ctx.md(
                    Pos::TOP,
                    "the spec has no level-1 heading",
                    "start the Markdown with `# <Title>`; it becomes the schema's title",
                );
                self.source.name.clone()
            }
        }
    }

    /// What the document is called in messages: `[spec] document`, else the root's name.
    fn document_name(&self) -> String {
        self.side
            .document
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| self.side.root.as_ref().map(|r| r.value.clone()))
            .unwrap_or_default()
    }

    /// `[spec] extract`.
    fn extract(&mut self) -> Extract {
        match self.side.extract.take() {
            None => Extract::Whole,
            Some(e) if e.value == "whole" => Extract::Whole,
            Some(e) if e.value == "outermost-object" => Extract::OutermostObject,
            Some(e) => {
                self.ctx.toml(
                    e.pos,
                    format!("unknown extract `{}`", e.value),
                    "write `extract = \"whole\"` (the default) or `extract = \"outermost-object\"`",
                );
                Extract::Whole
            }
        }
    }

    /// `[spec] bom`: whether a leading byte order mark is tolerated.
    fn bom(&mut self) -> bool {
        match self.side.bom.take() {
            None => false,
            Some(b) if b.value == "refuse" => false,
            Some(b) if b.value == "tolerate" => true,
            Some(b) => {
                self.ctx.toml(
                    b.pos,
                    format!("unknown bom `{}`", b.value),
                    "write `bom = \"refuse\"` (the default) or `bom = \"tolerate\"`",
                );
                false
            }
        }
    }

    /// Resolves a spec path from the root; reports one that does not resolve (unless it goes
    /// through a row already reported) in `file` at the path.
    fn resolve_at(&mut self, root: usize, path: &Spanned<String>, file: File) -> Option<Target> {
        let resolved = self.index.resolve(root, &path.value);
        self.resolved(resolved, path, file)
    }

    /// What a path resolved to; why it does not, reported at `path` (nothing more when it
    /// goes through a row already reported).
    fn resolved<T>(
        &mut self,
        resolved: Result<T, Unresolved>,
        path: &Spanned<String>,
        file: File,
    ) -> Option<T> {
        match resolved {
            Ok(t) => Some(t),
            Err(Unresolved::Silent) => None,
            Err(Unresolved::Why(e)) => {
                self.ctx.error(
                    file,
                    path.pos,
                    format!("path `{}` does not resolve: {e}", path.value),
                    PATH_HINT,
                );
                None
            }
        }
    }
}
