//! `specmint handoff`: file a TaskPacket (`team_handoff`) or read a leg back.
//!
//! (Arguments and options: [`crate::args::Handoff`].)
//! Exit status: 0 filed / read, 1 refused with the spec's code, 2 usage or I/O error.

use std::io::Write;
use std::path::Path;

use specmint::task_packet::answer::{Filed, LegRead};
use specmint::task_packet::compose::{self, LegReading};
use specmint::task_packet::handoff;
use specmint::task_packet::Role;

use crate::args::{Handoff, HandoffRead};
use crate::output::{answer_value, read_input, CliError, Format};

/// `specmint handoff ...`.
pub fn run(args: Handoff) -> Result<u8, CliError> {
    match args {
        Handoff {
            read:
                Some(HandoffRead::Read {
                    home,
                    task,
                    round,
                    from,
                    to,
                    format,
                }),
            ..
        } => read(&home, &task, round, from, to, format.format),
        Handoff {
            read: None,
            home: Some(home),
            agent: Some(agent),
            file: Some(file),
            format,
        } => file_packet(&home, &agent, &file, format.format),
        // The declaration requires all three without `read`.
        Handoff { .. } => Err(CliError::Usage(
            "missing --home DIR, --agent ID or FILE".to_owned(),
        )),
    }
}

fn file_packet(home: &Path, agent: &str, file: &str, format: Format) -> Result<u8, CliError> {
    // At most one byte over the packet document's size limit, the rest counted: the library
    // refuses an input over it by its size, endless input included.
    let (_, input, total) = read_input(file, specmint::task_packet::DOCUMENT.max_input_bytes)?;
    let packet = (!input.trim_ascii().is_empty()).then_some((&*input, total));
    let result = handoff::team_handoff_head(home, agent, packet);
    let line = match (&result, format) {
        (Ok(filed), Format::Json) => answer_value(&Filed::from(filed))?.to_string(),
        (Err(refusal), Format::Json) => answer_value(refusal)?.to_string(),
        (Ok(filed), Format::Human) => format!("filed {} ({} bytes)", filed.path, filed.bytes),
        (Err(refusal), Format::Human) => format!("refused: {refusal}"),
    };
    print_line(&line)?;
    Ok(if result.is_ok() { 0 } else { 1 })
}

fn read(
    home: &Path,
    task: &str,
    round: u32,
    from: Role,
    to: Role,
    format: Format,
) -> Result<u8, CliError> {
    let result = compose::read_leg(home, task, round, from, to);
    let text = match (&result, format) {
        (Ok(reading), Format::Json) => answer_value(&LegRead::from(reading))?.to_string(),
        (Err(refusal), Format::Json) => answer_value(refusal)?.to_string(),
        (Ok(reading), Format::Human) => reading_human(reading),
        (Err(refusal), Format::Human) => format!("refused: {refusal}"),
    };
    print_line(&text)?;
    Ok(if result.is_ok() { 0 } else { 1 })
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
