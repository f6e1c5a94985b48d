//! `specmint handoff`: file a TaskPacket (`team_handoff`) or read a leg back.
//!
//! ```text
//! specmint handoff --home DIR --agent ID FILE|- [--format human|json]
//! specmint handoff read --home DIR TASK ROUND FROM TO [--format human|json]
//! ```
//! Exit status: 0 filed / read, 1 refused with the spec's code, 2 usage or I/O error.

use std::io::Write;
use std::path::PathBuf;

use specmint::task_packet::compose::{self, LegReading};
use specmint::task_packet::handoff;
use specmint::task_packet::Role;

use super::{read_input, CliError, Format};

/// The options shared by both forms, and the positional arguments.
struct Args {
    home: Option<PathBuf>,
    agent: Option<String>,
    format: Format,
    positional: Vec<String>,
}

impl Args {
    fn parse(args: &[String]) -> Result<Self, CliError> {
        let mut parsed = Args {
            home: None,
            agent: None,
            format: Format::Human,
            positional: Vec::new(),
        };
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--format" => parsed.format = Format::parse(rest.next())?,
                "--home" | "--agent" => {
                    let value = rest
                        .next()
                        .ok_or_else(|| CliError::Usage(format!("{arg} takes a value")))?;
                    if arg == "--home" {
                        parsed.home = Some(value.into());
                    } else {
                        parsed.agent = Some(value.clone());
                    }
                }
                flag if flag.starts_with("--") => {
                    return Err(CliError::Usage(format!("unknown option `{flag}`")))
                }
                _ => parsed.positional.push(arg.clone()),
            }
        }
        Ok(parsed)
    }

    fn home(&self) -> Result<&PathBuf, CliError> {
        self.home
            .as_ref()
            .ok_or_else(|| CliError::Usage("missing --home DIR".to_owned()))
    }
}

/// `specmint handoff ...`.
pub fn run(args: &[String]) -> Result<u8, CliError> {
    if args.first().map(String::as_str) == Some("read") {
        return read(&Args::parse(&args[1..])?);
    }
    let args = Args::parse(args)?;
    let home = args.home()?;
    let agent = args
        .agent
        .as_deref()
        .ok_or_else(|| CliError::Usage("missing --agent ID".to_owned()))?;
    let [file] = args.positional.as_slice() else {
        return Err(CliError::Usage(
            "expected one FILE (or `-` for stdin) holding the packet".to_owned(),
        ));
    };
    // The whole input: the library refuses one over the packet document's size limit.
    let (_, input, _) = read_input(file, usize::MAX - 1)?;
    let packet = (!input.trim_ascii().is_empty()).then_some(&*input);
    let result = handoff::team_handoff_bytes(home, agent, packet);
    let line = match (&result, args.format) {
        (Ok(filed), Format::Json) => filed.to_json().to_string(),
        (Err(refusal), Format::Json) => refusal.to_json().to_string(),
        (Ok(filed), Format::Human) => format!("filed {} ({} bytes)", filed.path, filed.bytes),
        (Err(refusal), Format::Human) => format!("refused: {refusal}"),
    };
    print_line(&line)?;
    Ok(if result.is_ok() { 0 } else { 1 })
}

fn read(args: &Args) -> Result<u8, CliError> {
    let home = args.home()?;
    let [task, round, from, to] = args.positional.as_slice() else {
        return Err(CliError::Usage("expected TASK ROUND FROM TO".to_owned()));
    };
    let round: u32 = round
        .parse()
        .map_err(|_| CliError::Usage(format!("ROUND must be a uint32, got `{round}`")))?;
    let role = |name: &str| {
        Role::ALL
            .iter()
            .copied()
            .find(|r| r.as_str() == name)
            .ok_or_else(|| {
                let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
                CliError::Usage(format!(
                    "`{name}` is not a role (one of: {})",
                    roles.join(", ")
                ))
            })
    };
    let result = compose::read_leg(home, task, round, role(from)?, role(to)?);
    let text = match (&result, args.format) {
        (Ok(reading), Format::Json) => reading_json(reading).to_string(),
        (Err(refusal), Format::Json) => refusal.to_json().to_string(),
        (Ok(reading), Format::Human) => reading_human(reading),
        (Err(refusal), Format::Human) => format!("refused: {refusal}"),
    };
    print_line(&text)?;
    Ok(if result.is_ok() { 0 } else { 1 })
}

/// `{"ok": true, "packets": [{"path", "packet", "rendered"}], "skipped": [{"path", "code", "message"}]}`.
fn reading_json(reading: &LegReading) -> serde_json::Value {
    let packets: Vec<serde_json::Value> = reading
        .packets
        .iter()
        .map(|p| {
            serde_json::json!({
                "path": p.path,
                "packet": serde_json::from_str::<serde_json::Value>(&p.packet.to_canonical_json())
                    .unwrap_or_default(),
                "rendered": compose::render_for_role(&p.packet),
            })
        })
        .collect();
    serde_json::json!({ "ok": true, "packets": packets, "skipped": skipped_json(reading) })
}

fn skipped_json(reading: &LegReading) -> Vec<serde_json::Value> {
    reading
        .skipped
        .iter()
        .map(|s| serde_json::json!({ "path": s.path, "code": s.code, "message": s.message }))
        .collect()
}

fn reading_human(reading: &LegReading) -> String {
    let mut out = String::new();
    for skipped in &reading.skipped {
        out.push_str(&format!(
            "skipped {}: {}: {}\n",
            skipped.path, skipped.code, skipped.message
        ));
    }
    for packet in &reading.packets {
        out.push_str(&format!(
            "<!-- {} -->\n{}\n",
            packet.path,
            compose::render_for_role(&packet.packet)
        ));
    }
    out.trim_end().to_owned()
}

fn print_line(line: &str) -> Result<(), CliError> {
    writeln!(std::io::stdout().lock(), "{line}")
        .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}
