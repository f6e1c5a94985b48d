//! The command line, declared once: every command, its arguments and its options, from which
//! clap parses, `--help` is written and `specmint completions SHELL` writes the shell's
//! completion script.
//!
//! What a command checks beyond its declaration (an option that only goes with another, a
//! value read from a file) it checks itself, with its own message. A parse error becomes one
//! of the CLI's own messages in one place, `usage_error`: `unknown option `--x``, `missing
//! --store DB`, `--format takes `human` or `json`, got `xml``, so scripts that read them keep
//! working.

use std::error::Error;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use specmint::task_envelope::{parse_state, TaskState};
use specmint::task_packet::Role;
use specmint::taskpack::pack::{AskArg, CheckArg, Kind};
use specmint_codegen::diff::{self, Break};

use crate::output::CliError;

/// `specmint`: a written spec as the single source of truth for code.
#[derive(Parser)]
#[command(
    name = "specmint",
    version,
    about = "A written spec as the single source of truth for code: types, schemas, validators, \
             and the behaviour of the bundled protocols",
    args_override_self = true,
    subcommand_required = true,
    after_help = "exit status: 0 valid / done, 1 invalid / refused / drift, 2 usage or I/O error;\n\
                 \x20            taskpack conformance: 0 conformant, 2 not (`specmint <COMMAND> \
                 --help` says each)"
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Every command family.
#[derive(Subcommand)]
pub enum Command {
    /// Judge documents against a spec, one verdict each.
    #[command(
        after_help = "exit status: the worst of all FILEs: 0 all valid, 1 one invalid, 2 a \
                            usage error or one could not be read"
    )]
    Validate(Validate),
    /// Print a spec's JSON Schema.
    #[command(
        after_help = "With --locale TAG, each rule's keyword carries its message in that language as \
                            ajv-errors reads it (`errorMessage`; docs/spec-format.md, \"Messages in a \
                            JSON Schema\"); the verdicts are the plain schema's.\n\n\
                            exit status: 0 printed, 2 a usage error (a --locale the spec has no \
                            messages in), or a --spec spec that cannot be read or does not check"
    )]
    Schema(Schema),
    /// Regenerate the Rust types, schemas and corpus from a spec directory.
    #[command(
        after_help = "exit status: 0 written / up to date, 1 a spec does not check or \
                            (--check) the output is out of date, 2 usage or I/O error"
    )]
    Generate(Generate),
    /// What a spec change breaks: documents, readers, the Rust API, codes, machines.
    #[command(after_help = "exit status: 1 a change breaks a --fail-on category \
                            (documents,readers,rust-api,codes,machines; default all), 0 \
                            otherwise, 2 usage or a side that does not load")]
    Diff(Diff),
    /// File a TaskPacket into a team's legs (`team_handoff`), or read a leg back.
    #[command(
        args_conflicts_with_subcommands = true,
        subcommand_negates_reqs = true,
        after_help = "exit status: 0 filed / read, 1 refused with the spec's code, 2 usage or I/O \
                      error"
    )]
    Handoff(Handoff),
    /// Serve MCP tools over stdio: `team_handoff`, and a store's envelope and task tools.
    #[command(
        after_help = "exit status: 0 when the client closes the connection, 2 usage or I/O \
                            error"
    )]
    Mcp(Mcp),
    /// Serve the Language Server Protocol over stdio for spec directories' Markdown and TOML
    /// sidecars: diagnostics as `generate` reports them, hover, definition, references,
    /// completion, code actions, formatting of tables and document symbols.
    #[command(
        after_help = "exit status: 0 after `shutdown` and `exit`, 1 when the client leaves \
                      without `shutdown`, 2 I/O error"
    )]
    Lsp,
    /// The Action Envelope engine: packages changed by envelopes, in a store.
    #[command(
        subcommand,
        after_help = "exit status: 0 applied, replayed or shown, 1 refused with the spec's code, 2 \
                      usage or I/O error"
    )]
    Envelope(Envelope),
    /// The Task Envelope lifecycle: tasks submitted, claimed, moved and finished, in a store.
    #[command(
        subcommand,
        after_help = "exit status: 0 done, 1 refused with the spec's code, 2 usage or I/O error"
    )]
    Task(Task),
    /// TaskPack: pack, land, merge, convert and judge packs.
    #[command(
        subcommand,
        after_help = "exit status: convert, pack, land, merge: 0 done, 1 refused (with a code), 2 \
                      usage or I/O error;\n             conformance: 0 conformant, 2 not \
                      conformant or a usage or I/O error (1 is never used)"
    )]
    Taskpack(Taskpack),
    /// TaskPack's A2A binding, served over HTTP.
    #[command(
        subcommand,
        after_help = "exit status: 0 stopped by SIGTERM or Ctrl-C (the requests under way \
                      finished, up to --shutdown-grace); 2 usage or I/O error (the address \
                      cannot be bound; an address that is not loopback without --token-file or \
                      --allow-unauthenticated; 0.0.0.0 or :: without --public-url)"
    )]
    A2a(A2a),
    /// The passports that stay home, in the local passport store.
    #[command(
        subcommand,
        after_help = "exit status: 0 done, 1 refused (with a code), 2 usage or I/O error"
    )]
    Passport(Passport),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "exit status: 0 printed, 2 usage error")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// How a result is printed.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum Format {
    // Lines a person reads. (Plain comments: a doc comment would become each value's help,
    // which makes every --help that lists --format long.)
    Human,
    // One JSON value on stdout.
    Json,
}

/// `--format human|json`.
#[derive(Args)]
pub struct FormatArg {
    /// How the result is printed.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// `--store DB`: the store a behaviour command works in, required.
#[derive(Args)]
pub struct Db {
    /// The store: a SQLite file, a postgres:// URL (sslmode, sslrootcert) or libpq's keyword
    /// form ('host=H dbname=D ...'). Commands that only read never create it.
    #[arg(long = "store", value_name = "DB")]
    pub path: PathBuf,
}

/// `--passports DIR`: the passport store, the user's data directory's unless given. `--store
/// DIR`, its first spelling, still works (deprecated: `--store` is a database everywhere else).
#[derive(Args)]
pub struct PassportDir {
    /// The passports' directory (default: the user's data directory's). Deprecated spelling:
    /// --store DIR.
    #[arg(long = "passports", alias = "store", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `[--spec DIR] TYPE`: a document type, bundled or of a spec directory.
#[derive(Args)]
pub struct DocTypeArg {
    /// Read TYPE from the specs in DIR instead of the bundled ones.
    #[arg(long, value_name = "DIR")]
    pub spec: Option<PathBuf>,
    /// The document type.
    #[arg(value_name = "TYPE")]
    pub name: String,
}

#[derive(Args)]
pub struct Validate {
    #[command(flatten)]
    pub doc_type: DocTypeArg,
    /// The documents (`-` for stdin), judged in order.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    #[command(flatten)]
    pub format: FormatArg,
    /// Refuse a document over N bytes (default: the spec's limit).
    #[arg(long, value_name = "N")]
    pub max_input_bytes: Option<usize>,
    /// Each FILE is JSON Lines: one document per line, a verdict per line (with its line
    /// number) in the same order; blank lines are skipped.
    #[arg(long)]
    pub jsonl: bool,
    /// Judge on N threads (default: every core) when there are several documents.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(usize))]
    pub jobs: Option<usize>,
    /// Write the messages in this language (a BCP 47 tag such as `zh-TW`) when the spec has
    /// them (default: the environment's LC_ALL, LC_MESSAGES or LANG; English otherwise);
    /// codes, paths and places do not change.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
}

#[derive(Args)]
pub struct Schema {
    #[command(flatten)]
    pub doc_type: DocTypeArg,
    /// Print the schema with each rule's message in this language (a BCP 47 tag such as
    /// `zh-TW`) as ajv-errors reads it (`errorMessage`); the spec must have messages in it.
    /// Without it, the schema as generated.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
}

#[derive(Args)]
pub struct Generate {
    /// The spec directory.
    #[arg(long, value_name = "DIR", default_value = specmint::SPEC_DIR)]
    pub spec: PathBuf,
    /// The output directory.
    #[arg(long, value_name = "DIR", default_value = specmint::GENERATED_DIR)]
    pub out: PathBuf,
    /// Write nothing; exit 1 when the output is out of date.
    #[arg(long)]
    pub check: bool,
}

#[derive(Args)]
pub struct Diff {
    /// The old spec directory, then the new one.
    #[arg(value_name = "OLD NEW")]
    pub sides: Vec<PathBuf>,
    /// Compare the spec directory with itself at git revision REV.
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// The spec directory --against reads (default: spec).
    #[arg(long, value_name = "DIR")]
    pub spec: Option<PathBuf>,
    /// How the changes are printed.
    #[arg(long, value_name = "FORMAT", default_value = "human",
          value_parser = PossibleValuesParser::new(["human", "json", "github"]).map(|f| match f.as_str() {
              "json" => diff::Format::Json,
              "github" => diff::Format::Github,
              _ => diff::Format::Human,
          }))]
    pub format: diff::Format,
    /// The categories whose breaks exit 1 (comma-separated; default all).
    #[arg(long, value_name = "LIST", value_parser = categories)]
    pub fail_on: Option<Categories>,
}

/// `--fail-on`'s categories.
#[derive(Clone)]
pub struct Categories(pub Vec<Break>);

#[derive(Args)]
pub struct Handoff {
    #[command(subcommand)]
    pub read: Option<HandoffRead>,
    /// The team's home directory.
    #[arg(long, value_name = "DIR", required = true)]
    pub home: Option<PathBuf>,
    /// The filing agent.
    #[arg(long, value_name = "ID", required = true)]
    pub agent: Option<String>,
    /// The packet (`-` for stdin).
    #[arg(value_name = "FILE", required = true)]
    pub file: Option<String>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Subcommand)]
pub enum HandoffRead {
    /// Read a leg back: the packets filed from FROM to TO in a task's round.
    Read {
        /// The team's home directory.
        #[arg(long, value_name = "DIR")]
        home: PathBuf,
        /// The task.
        #[arg(value_name = "TASK")]
        task: String,
        /// The round.
        #[arg(value_name = "ROUND", value_parser = round)]
        round: u32,
        /// The sender's role.
        #[arg(value_name = "FROM", value_parser = role)]
        from: Role,
        /// The receiver's role.
        #[arg(value_name = "TO", value_parser = role)]
        to: Role,
        #[command(flatten)]
        format: FormatArg,
    },
}

#[derive(Args)]
pub struct Mcp {
    /// The team's home directory (`team_handoff`, with --agent).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The agent whose filings the server makes.
    #[arg(long, value_name = "ID")]
    pub agent: Option<String>,
    /// The store whose envelope and task tools the server offers.
    #[arg(long, value_name = "DB")]
    pub store: Option<PathBuf>,
    /// The capability ledger `task_bind` binds against (with --store).
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<String>,
    /// Write `team_handoff`'s refusals of an invalid packet in this language (a BCP 47 tag
    /// such as `zh-TW`) when TaskPacket has it (default: the environment's LC_ALL, LC_MESSAGES
    /// or LANG, as `validate` and `a2a serve`; English otherwise); a call may name its own
    /// (`locale`).
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
}

#[derive(Subcommand)]
pub enum Envelope {
    /// Create the store (its package tables) if it does not exist.
    Init {
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Create a package.
    New {
        /// The package.
        #[arg(value_name = "PACKAGE_ID")]
        package_id: String,
        /// What the package is for.
        #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
        intent: Option<String>,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Apply an envelope (`-` for stdin).
    Apply {
        /// The envelope.
        #[arg(value_name = "FILE")]
        file: String,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Show a package's manifest.
    Show {
        /// The package.
        #[arg(value_name = "PACKAGE_ID")]
        package_id: String,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
}

#[derive(Subcommand)]
pub enum Task {
    /// Create the store (its task tables) if it does not exist.
    Init {
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Submit a task envelope (`-` for stdin).
    Submit {
        /// The envelope.
        #[arg(value_name = "FILE")]
        file: String,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Claim a task, or with --next the oldest claimable one.
    Claim {
        /// The task (none with --next).
        #[arg(value_name = "ID")]
        id: Option<String>,
        /// Claim the oldest claimable task.
        #[arg(long)]
        next: bool,
        /// With --next: only a task of this context.
        #[arg(long, value_name = "ID")]
        context: Option<String>,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Move a task to STATE.
    Move {
        /// The task.
        #[arg(value_name = "ID")]
        id: String,
        /// The state it moves to.
        #[arg(value_name = "STATE", value_parser = |s: &str| state("STATE", s))]
        state: TaskState,
        /// Why.
        #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
        reason: Option<String>,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Complete a task with its evidence (`-` for stdin).
    Complete {
        /// The task.
        #[arg(value_name = "ID")]
        id: String,
        /// The evidence document.
        #[arg(long, value_name = "FILE")]
        evidence: String,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Reject a task.
    Reject {
        /// The task.
        #[arg(value_name = "ID")]
        id: String,
        /// Why (a blank or missing reason is refused with `reason_required`).
        #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
        reason: Option<String>,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Bind a task to the tools a capability ledger grants.
    Bind {
        /// The task.
        #[arg(value_name = "ID")]
        id: String,
        /// The capability ledger.
        #[arg(long, value_name = "FILE")]
        ledger: String,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Show a task.
    Show {
        /// The task.
        #[arg(value_name = "ID")]
        id: String,
        /// Add the task's steps.
        #[arg(long)]
        history: bool,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
    /// List tasks, or with --counts count them by state.
    List {
        /// Only tasks in this state.
        #[arg(long, value_name = "STATE", value_parser = |s: &str| state("--state", s))]
        state: Option<TaskState>,
        /// Only tasks that can be claimed now.
        #[arg(long)]
        claimable: bool,
        /// Count the tasks of each state.
        #[arg(long)]
        counts: bool,
        #[command(flatten)]
        store: Db,
        #[command(flatten)]
        format: FormatArg,
    },
}

#[derive(Subcommand)]
pub enum Taskpack {
    /// Convert a pack between encodings (.taskpack, .taskpack.json; .tpx read only).
    Convert {
        /// The pack read.
        #[arg(value_name = "IN")]
        input: String,
        /// The pack written.
        #[arg(value_name = "OUT")]
        output: String,
        /// Attachments up to N bytes travel inline in a flat pack.
        #[arg(long, value_name = "N")]
        max_inline_bytes: Option<u64>,
    },
    /// Judge a pack against the spec's conformance checks.
    Conformance {
        /// The pack (.taskpack or .taskpack.json).
        #[arg(value_name = "FILE")]
        file: String,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Pack a passport for someone else.
    Pack(Pack),
    /// Land a handoff: a new passport from it.
    Land {
        /// The pack.
        #[arg(value_name = "FILE")]
        file: String,
        /// Restore a ✓ on facts sealed on this very machine.
        #[arg(long)]
        trust_machine_facts: bool,
        #[command(flatten)]
        store: PassportDir,
        #[command(flatten)]
        format: FormatArg,
        /// Write a refused pack's messages in this language (a BCP 47 tag such as `zh-TW`)
        /// when TaskPack has it (default: the environment's LC_ALL, LC_MESSAGES or LANG;
        /// English otherwise); codes do not change.
        #[arg(long, value_name = "TAG")]
        locale: Option<String>,
    },
    /// Merge a receipt's answers into the passport it answers.
    Merge {
        /// The receipt.
        #[arg(value_name = "RECEIPT")]
        file: String,
        /// The passport the receipt answers.
        #[arg(long, value_name = "ID")]
        into: String,
        #[command(flatten)]
        store: PassportDir,
        #[command(flatten)]
        format: FormatArg,
        /// Write a refused receipt's messages in this language (a BCP 47 tag such as `zh-TW`)
        /// when TaskPack has it (default: the environment's LC_ALL, LC_MESSAGES or LANG;
        /// English otherwise); codes do not change.
        #[arg(long, value_name = "TAG")]
        locale: Option<String>,
    },
    /// Print the A2A Task of a pack.
    ToA2a {
        /// The pack.
        #[arg(value_name = "PACK")]
        file: String,
    },
    /// Write the pack an A2A Task carries.
    FromA2a {
        /// The A2A Task (`-` for stdin).
        #[arg(value_name = "TASK.json")]
        file: String,
        /// The pack written (.taskpack or .taskpack.json).
        #[arg(long, value_name = "PACK")]
        out: String,
        /// The machine named in sealed facts (default: this one).
        #[arg(long, value_name = "NAME")]
        machine: Option<String>,
        /// Who converts (default: the login name).
        #[arg(long, value_name = "NAME")]
        actor: Option<String>,
    },
}

#[derive(Args)]
pub struct Pack {
    /// The passport.
    #[arg(value_name = "ID")]
    pub id: String,
    /// The pack written: .taskpack, or .taskpack.json with --flat.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Write the flat form (one JSON file).
    #[arg(long)]
    pub flat: bool,
    /// A handoff (the default) or a receipt.
    #[arg(long, value_name = "KIND", default_value = "handoff",
          value_parser = PossibleValuesParser::new(["handoff", "receipt"])
              .map(|k| if k == "receipt" { Kind::Receipt } else { Kind::Handoff }))]
    pub kind: Kind,
    /// An ask of the receiver, `WHAT|ACCEPT[|WHY]` (repeatable).
    #[arg(long = "ask", value_name = "WHAT|ACCEPT[|WHY]", allow_hyphen_values = true,
          value_parser = |s: &str| AskArg::parse(s).map_err(|e| Message(format!("--ask {e}"))))]
    pub asks: Vec<AskArg>,
    /// A landing check, `CHECK[|HOW]` (repeatable).
    #[arg(long = "check", value_name = "CHECK[|HOW]", allow_hyphen_values = true,
          value_parser = |s: &str| CheckArg::parse(s).map_err(|e| Message(format!("--check {e}"))))]
    pub checks: Vec<CheckArg>,
    /// Files to carry as luggage.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub attach: Vec<PathBuf>,
    /// Who packs (default: the login name).
    #[arg(long, value_name = "NAME")]
    pub actor: Option<String>,
    /// The machine named in sealed facts (default: this one).
    #[arg(long, value_name = "NAME")]
    pub machine: Option<String>,
    /// A note for the receiver.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub note: Option<String>,
    #[command(flatten)]
    pub store: PassportDir,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Subcommand)]
pub enum A2a {
    /// Serve the Agent Card and the JSON-RPC methods over HTTP/1.1 (HTTPS with --tls-cert).
    Serve(Serve),
}

/// `specmint a2a serve`'s options.
#[derive(clap::Args)]
pub struct Serve {
    /// The passports' directory packs land in. Deprecated spelling: --store DIR.
    #[arg(long = "passports", alias = "store", value_name = "DIR")]
    pub store: PathBuf,
    /// The address to listen on (port 0: the system picks one).
    #[arg(long, value_name = "HOST:PORT", value_parser = listen)]
    pub listen: SocketAddr,
    /// The largest pack accepted, in bytes (default 64 MiB).
    #[arg(long, value_name = "N")]
    pub max_pack_bytes: Option<usize>,
    /// The most connections served at once; more wait to be accepted.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Refuse landings once the passports' directory would hold more than N bytes.
    #[arg(long, value_name = "N")]
    pub max_store_bytes: Option<u64>,
    /// Close a connection that sends no complete request head within SECS (new or idle).
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Close a connection whose request body has not all arrived within SECS.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout: u64,
    /// Close a connection that takes none of an answer's bytes for SECS (a client not reading).
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub write_timeout: u64,
    /// On SIGTERM or Ctrl-C, wait up to SECS for the requests under way before exiting.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub shutdown_grace: u64,
    /// Require `Authorization: Bearer TOKEN` on JSON-RPC, TOKEN one line of FILE.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Serve without tokens on an address that is not loopback.
    #[arg(long, conflicts_with = "token_file")]
    pub allow_unauthenticated: bool,
    /// Serve HTTPS: the certificate chain, PEM (with --tls-key).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// Serve HTTPS: the certificate's private key, PEM (with --tls-cert).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// The URL the Agent Card advertises (default: the listening address's).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Write a refused pack's messages in this language (a BCP 47 tag such as `zh-TW`) when
    /// TaskPack has it (default: the environment's LC_ALL, LC_MESSAGES or LANG; English
    /// otherwise); a request's `Accept-Language` or its message's `metadata.locale` outranks it.
    #[arg(long, value_name = "TAG")]
    pub locale: Option<String>,
}

#[derive(Subcommand)]
pub enum Passport {
    /// Create a passport.
    New {
        #[command(flatten)]
        given: NewPassport,
        #[command(flatten)]
        store: PassportDir,
        #[command(flatten)]
        format: FormatArg,
    },
    /// Show a passport (with --format json, exactly as stored).
    Show {
        /// The passport.
        #[arg(value_name = "ID")]
        id: String,
        #[command(flatten)]
        store: PassportDir,
        #[command(flatten)]
        format: FormatArg,
    },
    /// List the passports of the store.
    List {
        #[command(flatten)]
        store: PassportDir,
        #[command(flatten)]
        format: FormatArg,
    },
}

/// What `passport new` is given.
#[derive(Args)]
pub struct NewPassport {
    /// Its title (required without --file).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub title: Option<String>,
    /// Its goal (required without --file).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub goal: Option<String>,
    /// Where the work stands.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub current_state: Option<String>,
    /// The next step.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub next_step: Option<String>,
    /// Its id (default: minted).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// A starting object instead (`-` for stdin), e.g. one with facts.
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
}

/// A value parser's refusal, said as it is (the whole message, not "X takes ...").
#[derive(Debug)]
pub struct Message(pub String);

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for Message {}

/// `STATE` (or `--state`'s value) as a lifecycle state.
fn state(what: &str, value: &str) -> Result<TaskState, Message> {
    parse_state(what, value).map_err(Message)
}

fn round(value: &str) -> Result<u32, Message> {
    value
        .parse()
        .map_err(|_| Message(format!("ROUND must be a uint32, got `{value}`")))
}

fn role(name: &str) -> Result<Role, Message> {
    Role::ALL
        .iter()
        .copied()
        .find(|r| r.as_str() == name)
        .ok_or_else(|| {
            let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
            Message(format!(
                "`{name}` is not a role (one of: {})",
                roles.join(", ")
            ))
        })
}

fn listen(value: &str) -> Result<SocketAddr, Message> {
    value
        .parse()
        .map_err(|_| Message("--listen takes HOST:PORT (such as 127.0.0.1:8080)".to_owned()))
}

/// `documents,readers,...`: every name a category.
fn categories(list: &str) -> Result<Categories, Message> {
    let known = || {
        let names: Vec<&str> = Break::ALL.iter().map(|b| b.as_str()).collect();
        names.join(", ")
    };
    list.split(',')
        .map(|name| {
            Break::parse(name.trim()).ok_or_else(|| {
                Message(format!(
                    "--fail-on: unknown category `{name}` (one of: {})",
                    known()
                ))
            })
        })
        .collect::<Result<_, _>>()
        .map(Categories)
}

/// The declared command line with what only the running binary knows: the bundled types in
/// `validate` and `schema`'s help, and each family's exit status repeated in its commands'.
pub fn command() -> clap::Command {
    let types = format!(
        "TYPE: a bundled spec, or with --spec DIR the stem of a spec file in DIR in kebab case\n\
         \x20     (DIR/webhook_event.md is `webhook-event`), read and checked when the command \
         runs\nbundled: {}",
        specmint::bundled::names().join(" | ")
    );
    let mut cli = Cli::command();
    let exit = after_help_of(&cli);
    cli = cli.after_help(format!(
        "{exit}\n\nTYPE: {}",
        specmint::bundled::names().join(" | ")
    ));
    for name in ["validate", "schema"] {
        cli = cli.mut_subcommand(name, |c| {
            let exit = after_help_of(&c);
            c.after_help(format!("{types}\n\n{exit}"))
        });
    }
    let families: Vec<String> = cli
        .get_subcommands()
        .filter(|c| c.has_subcommands())
        .map(|c| c.get_name().to_owned())
        .collect();
    for family in families {
        cli = cli.mut_subcommand(&family, |c| {
            let exit = after_help_of(&c);
            let names: Vec<String> = c
                .get_subcommands()
                .map(|s| s.get_name().to_owned())
                .collect();
            names.into_iter().fold(c, |c, name| {
                let exit = exit.clone();
                c.mut_subcommand(name, |s| s.after_help(exit))
            })
        });
    }
    cli
}

/// The text `--help` shows after the options (a family's exit status), empty when none.
fn after_help_of(command: &clap::Command) -> String {
    command
        .get_after_help()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// What a command line asks for: a command to run, or nothing more (`--help`, `--version`
/// printed).
pub fn parse(args: &[String]) -> Result<Option<Command>, CliError> {
    let argv = std::iter::once("specmint".to_owned()).chain(args.iter().cloned());
    let matches = command().try_get_matches_from(argv);
    match matches.and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => Ok(Some(cli.command)),
        Err(err)
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            err.print()
                .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
            Ok(None)
        }
        Err(err) => Err(usage_error(&err, args)),
    }
}

/// A parse error said as the CLI says it, always a usage error.
fn usage_error(err: &clap::Error, args: &[String]) -> CliError {
    let context = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(s)) => s.first().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let arg = context(ContextKind::InvalidArg);
    // `--store <DB>` is `--store DB`, `<FILE>...` is `FILE`.
    let shown = arg.replace(['<', '>'], "").replace("...", "");
    let flag = shown.split(' ').next().unwrap_or_default().to_owned();
    let message = match err.kind() {
        // `--flag=value` as typed, for a flag that takes no value too.
        ErrorKind::UnknownArgument | ErrorKind::TooManyValues
            if arg.starts_with('-') && arg != "-" =>
        {
            let typed = args.iter().find(|a| {
                a.strip_prefix(flag.as_str())
                    .is_some_and(|rest| rest.starts_with('='))
            });
            format!("unknown option `{}`", typed.unwrap_or(&arg))
        }
        ErrorKind::UnknownArgument | ErrorKind::TooManyValues => {
            let value = context(ContextKind::InvalidValue);
            format!(
                "unexpected argument `{}`",
                if value.is_empty() { &arg } else { &value }
            )
        }
        ErrorKind::MissingRequiredArgument => format!("missing {shown}"),
        ErrorKind::InvalidValue => {
            let valid = match err.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.clone(),
                _ => Vec::new(),
            };
            let value = context(ContextKind::InvalidValue);
            takes(&flag, &shown, &valid, Some(&value))
        }
        ErrorKind::ValueValidation => {
            match err.source().and_then(|s| s.downcast_ref::<Message>()) {
                Some(Message(message)) => message.clone(),
                None => takes(&flag, &shown, &[], None),
            }
        }
        ErrorKind::InvalidSubcommand => {
            let family = family_of(args);
            format!(
                "unknown {}command `{}` ({})",
                family.as_ref().map_or(String::new(), |f| format!("{f} ")),
                context(ContextKind::InvalidSubcommand),
                subcommand_names(family.as_deref())
            )
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let family = family_of(args);
            format!(
                "missing {}command ({})",
                family.as_ref().map_or(String::new(), |f| format!("{f} ")),
                subcommand_names(family.as_deref())
            )
        }
        ErrorKind::ArgumentConflict => format!(
            "{shown} cannot be used with {}",
            context(ContextKind::PriorArg).replace(['<', '>'], "")
        ),
        _ => {
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        }
    };
    CliError::Usage(message)
}

/// `FLAG takes WHAT`, and what it got when it has a fixed set of values.
fn takes(flag: &str, shown: &str, valid: &[String], got: Option<&str>) -> String {
    if !valid.is_empty() {
        let quoted: Vec<String> = valid.iter().map(|v| format!("`{v}`")).collect();
        let listed = match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        let got = match got {
            Some(v) if !v.is_empty() => format!("`{v}`"),
            _ => "nothing".to_owned(),
        };
        return format!("{flag} takes {listed}, got {got}");
    }
    let value_name = shown.split(' ').nth(1).unwrap_or_default();
    let what = match value_name {
        "N" => "a non-negative integer",
        "DB" => "a path or a postgres:// URL",
        "DIR" => "a directory",
        "REV" => "a git revision",
        "LIST" => "a list of categories",
        "PATH" => "one or more paths",
        _ => "a value",
    };
    format!("{flag} takes {what}")
}

/// The family the command line names (`task` in `task claim ...`), when it has commands.
fn family_of(args: &[String]) -> Option<String> {
    let first = args.first()?;
    Cli::command()
        .find_subcommand(first)
        .filter(|c| c.has_subcommands())
        .map(|c| c.get_name().to_owned())
}

/// The commands of `family` (or the families), listed.
fn subcommand_names(family: Option<&str>) -> String {
    let cli = Cli::command();
    let parent = family.and_then(|f| cli.find_subcommand(f)).unwrap_or(&cli);
    let names: Vec<&str> = parent
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|n| *n != "help")
        .collect();
    names.join(", ")
}

/// The usage lines shown after a usage error: those of the command the line names, or of
/// each command of the family it names, or of every family.
pub fn usage(args: &[String]) -> String {
    let mut cli = command();
    cli.build();
    let mut target = &cli;
    let mut path = vec!["specmint"];
    for word in args.iter().take_while(|a| !a.starts_with('-')) {
        match target.find_subcommand(word) {
            Some(sub) => {
                path.push(sub.get_name());
                target = sub;
            }
            None => break,
        }
    }
    // `handoff` is a command with one command of its own (`read`): its usage shows both.
    let mut leaves: Vec<&clap::Command> =
        if target.has_subcommands() && target.get_name() != "handoff" {
            target
                .get_subcommands()
                .filter(|c| c.get_name() != "help")
                .collect()
        } else {
            vec![target]
        };
    leaves.sort_by_key(|c| c.get_display_order());
    let mut lines = vec!["usage:".to_owned()];
    for leaf in leaves {
        let rendered = leaf.clone().render_usage().to_string();
        for line in rendered.lines() {
            let line = line.trim_start_matches("Usage:").trim();
            lines.push(format!("  {line}"));
        }
    }
    lines.push(format!("  {} --help", path.join(" ")));
    lines.join("\n")
}
