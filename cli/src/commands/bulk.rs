//! `specmint validate` over many documents: JSON Lines (`--jsonl`, one document per line) and
//! many files, judged on every core, answered in input order as soon as each answer's turn
//! comes, in bounded memory (a reader, `--jobs` workers and the writer pass batches through
//! bounded queues; a line over the input limit is counted, never held).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

use specmint::answer::ValidateFailure;
use specmint::verdict::{DocType, Verdict};

use super::spec::{file_answer, other_form_advice};
use crate::output::{answer_value, CliError, Format};

/// Lines judged as one task: the queues carry batches, not lines.
const BATCH_LINES: usize = 256;
/// At most this many bytes of documents in one batch (so a queue holds a bounded amount
/// whatever the lines' sizes).
const BATCH_BYTES: usize = 4 << 20;

/// At most this many files judged as one task: handing each file from thread to thread on its
/// own cost more than judging a small one (two queue hand-offs a file, each a futex wake).
const FILES_PER_TASK: usize = 32;

/// What a worker is given.
enum Task {
    /// Whole files, each judged as `validate FILE` judges it.
    Files(Vec<String>),
    /// Lines of a JSON Lines file: its display name and each line's number, head (at most
    /// one byte over the limit) and full length.
    Lines(std::sync::Arc<str>, Vec<(usize, Vec<u8>, u64)>),
    /// A file that could not be read (opened, or read to its end), in its turn.
    Unreadable(String, String),
}

/// What the writer prints for one task: stdout text, stderr text, the task's exit status.
struct Answer {
    out: String,
    err: String,
    status: u8,
}

/// Judges `files` (each a JSON Lines file with `jsonl`, else a document) with `jobs` workers;
/// the worst status: 0 every document valid, 1 one invalid, 2 one unreadable.
pub fn validate_many(
    ty: &DocType,
    files: &[String],
    jsonl: bool,
    format: Format,
    limit: usize,
    jobs: usize,
) -> Result<u8, CliError> {
    let jobs = jobs.max(1);
    if jobs == 1 {
        // One thread does it all, in turn: the same reading, judging and writing, without a
        // queue between them (each hand-off is a futex wake, on a core the work does not need).
        let mut writer = Writer::new();
        let mut failed = None;
        read_tasks(files, jsonl, limit, jobs, &mut |task| match writer
            .write(judge_task(ty, format, limit, task))
        {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        return match failed {
            Some(e) => Err(e),
            None => writer.finish(),
        };
    }
    let (task_tx, task_rx) = sync_channel::<(u64, Task)>(jobs * 2);
    let (answer_tx, answer_rx) = sync_channel::<(u64, Vec<Answer>)>(jobs * 2);
    let task_rx = Mutex::new(task_rx);
    // Set when the writer stops (its output closed): the reader reads no further, and the
    // workers drain what it queued, so nothing waits on a queue no one empties.
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            let mut seq = 0u64;
            read_tasks(files, jsonl, limit, jobs, &mut |task| {
                seq += 1;
                !stop.load(Ordering::Relaxed) && task_tx.send((seq - 1, task)).is_ok()
            });
        });
        for _ in 0..jobs {
            let (tasks, answers) = (&task_rx, answer_tx.clone());
            scope.spawn(move || work(ty, format, limit, tasks, &answers, stop));
        }
        drop(answer_tx);
        let written = write_in_order(answer_rx);
        stop.store(true, Ordering::Relaxed);
        written
    })
}

/// The reader: the files in small groups, or each JSON Lines file's lines in batches, each
/// handed to `send` in input order; it reads no further once `send` says `false`.
fn read_tasks(
    files: &[String],
    jsonl: bool,
    limit: usize,
    jobs: usize,
    send: &mut dyn FnMut(Task) -> bool,
) {
    if !jsonl {
        // Groups small enough that every worker gets several, so none idles while another
        // judges the last ones.
        let per_task = (files.len() / (jobs * 4)).clamp(1, FILES_PER_TASK);
        for group in files.chunks(per_task) {
            if !send(Task::Files(group.to_vec())) {
                return;
            }
        }
        return;
    }
    for file in files {
        let (display, reader): (String, Box<dyn Read + Send>) = if file == "-" {
            ("<stdin>".to_owned(), Box::new(std::io::stdin()))
        } else {
            match std::fs::File::open(file) {
                Ok(f) => (file.clone(), Box::new(f)),
                Err(e) => {
                    let why = format!("cannot read `{file}`: {e}");
                    if !send(Task::Unreadable(file.clone(), why)) {
                        return;
                    }
                    continue;
                }
            }
        };
        let name: std::sync::Arc<str> = display.as_str().into();
        let mut reader = BufReader::with_capacity(1 << 16, reader);
        let (mut batch, mut bytes, mut number) = (Vec::new(), 0usize, 0usize);
        loop {
            number += 1;
            let mut head = Vec::new();
            match read_line(&mut reader, limit, &mut head) {
                Ok(None) => break,
                Ok(Some((total, complete))) => {
                    // A blank line holds no document (a file's last newline, a separator).
                    if head.iter().all(u8::is_ascii_whitespace) && total == head.len() as u64 {
                        continue;
                    }
                    bytes += head.len();
                    batch.push((number, head, total));
                    if !complete {
                        // The line did not end where counting stops: what follows is not a
                        // line of its own, so the file is read no further.
                        let why = format!(
                            "`{display}` line {number} has no end within {} bytes: the rest of the file is not read",
                            counting_bound(limit)
                        );
                        let last = std::mem::take(&mut batch);
                        if !send(Task::Lines(name.clone(), last))
                            || !send(Task::Unreadable(display.clone(), why))
                        {
                            return;
                        }
                        break;
                    }
                    if batch.len() >= BATCH_LINES || bytes >= BATCH_BYTES {
                        let full = std::mem::take(&mut batch);
                        bytes = 0;
                        if !send(Task::Lines(name.clone(), full)) {
                            return;
                        }
                    }
                }
                Err(e) => {
                    if !batch.is_empty()
                        && !send(Task::Lines(name.clone(), std::mem::take(&mut batch)))
                    {
                        return;
                    }
                    let why = format!("cannot read `{display}` at line {number}: {e}");
                    if !send(Task::Unreadable(display.clone(), why)) {
                        return;
                    }
                    batch.clear();
                    break;
                }
            }
        }
        if !batch.is_empty() && !send(Task::Lines(name, batch)) {
            return;
        }
    }
}

/// How far a line's length is counted: as far as [`specmint::verdict::read_head`] counts a
/// single document's.
fn counting_bound(limit: usize) -> u64 {
    (limit as u64)
        .saturating_add(1)
        .saturating_add(specmint::runtime::document::COUNTED_PAST_LIMIT)
}

/// Reads one line (to `\n`, which is dropped with a `\r` before it) into `head`, at most
/// `limit + 1` of its bytes; the rest is counted, not held, up to [`counting_bound`] (endless
/// input without a line end, `/dev/zero`, is answered): its length as counted, and whether the
/// line ended within that count. `None` at the end of the input.
fn read_line(
    reader: &mut impl BufRead,
    limit: usize,
    head: &mut Vec<u8>,
) -> std::io::Result<Option<(u64, bool)>> {
    let mut total = 0u64;
    let (mut seen, mut ended) = (false, false);
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        seen = true;
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = (limit + 1).saturating_sub(head.len());
        head.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total += chunk.len() as u64;
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        // Counted no further than a single document is (`read_head`): a line past that is
        // answered as "at least" that long, and the file's reading ends there.
        ended = done.is_some();
        if ended || total > counting_bound(limit) {
            break;
        }
    }
    if !seen {
        return Ok(None);
    }
    // The end of the input ends its last line too.
    let complete = ended || total <= counting_bound(limit);
    if head.last() == Some(&b'\r') && total == head.len() as u64 {
        head.pop();
        total -= 1;
    }
    Ok(Some((total.min(counting_bound(limit)), complete)))
}

/// A worker: judges tasks until the reader is done.
fn work(
    ty: &DocType,
    format: Format,
    limit: usize,
    tasks: &Mutex<Receiver<(u64, Task)>>,
    answers: &SyncSender<(u64, Vec<Answer>)>,
    stop: &AtomicBool,
) {
    loop {
        let next = tasks.lock().map(|rx| rx.recv());
        let Ok(Ok((seq, task))) = next else { return };
        if stop.load(Ordering::Relaxed) {
            continue; // drained: the writer is gone
        }
        if answers
            .send((seq, judge_task(ty, format, limit, task)))
            .is_err()
        {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The answers to one task, in its order.
fn judge_task(ty: &DocType, format: Format, limit: usize, task: Task) -> Vec<Answer> {
    match task {
        Task::Files(files) => files
            .iter()
            .map(|file| match file_answer(ty, file, limit, format) {
                Ok((out, status)) => Answer {
                    out,
                    err: String::new(),
                    status,
                },
                Err(CliError::Usage(why) | CliError::Failure(why)) => {
                    failure(ty, file, &why, format)
                }
            })
            .collect(),
        Task::Unreadable(file, why) => vec![failure(ty, &file, &why, format)],
        Task::Lines(file, lines) => {
            let mut answer = Answer {
                out: String::new(),
                err: String::new(),
                status: 0,
            };
            for (number, head, total) in lines {
                let mut verdict = ty.judge(&head, total, limit);
                other_form_advice(ty, &mut verdict);
                answer.status = answer.status.max(if verdict.is_valid() { 0 } else { 1 });
                line_answer(
                    ty.name(),
                    &file,
                    number,
                    &mut verdict,
                    format,
                    &mut answer.out,
                );
            }
            vec![answer]
        }
    }
}

/// A file that could not be read, as `validate FILE` reports one.
fn failure(ty: &DocType, file: &str, why: &str, format: Format) -> Answer {
    match format {
        Format::Json => Answer {
            out: answer_value(&ValidateFailure::io(file, ty.name(), why))
                .map(|v| format!("{v}\n"))
                .unwrap_or_default(),
            err: String::new(),
            status: 2,
        },
        Format::Human => Answer {
            out: String::new(),
            err: format!("specmint: {why}\n"),
            status: 2,
        },
    }
}

/// The answer for the document on line `number` of `file`: its errors at that line (their
/// columns within it); with `--format json` the verdict object with `"line"`.
fn line_answer(
    type_name: &str,
    file: &str,
    number: usize,
    verdict: &mut Verdict,
    format: Format,
    out: &mut String,
) {
    use std::fmt::Write as _;
    for l in &mut verdict.errors {
        if l.line.is_some() {
            l.line = Some(number);
        }
    }
    match format {
        Format::Json => {
            let json = verdict.to_json(Some((type_name, file)));
            // {"valid":…,"type":…,"file":…,"line":N,"errors":[…]}
            match json.find(",\"errors\":") {
                Some(at) => {
                    out.push_str(&json[..at]);
                    let _ = write!(out, ",\"line\":{number}");
                    out.push_str(&json[at..]);
                }
                None => out.push_str(&json),
            }
            out.push('\n');
        }
        Format::Human => {
            for l in &verdict.errors {
                let v = &l.violation;
                let _ = match l.column {
                    Some(column) => writeln!(
                        out,
                        "{file}:{number}:{column}: error[{}]: {}",
                        v.code, v.message
                    ),
                    None => writeln!(out, "{file}:{number}: error[{}]: {}", v.code, v.message),
                };
            }
            let _ = match verdict.errors.len() {
                0 => writeln!(out, "{file}:{number}: valid {type_name}"),
                1 => writeln!(out, "{file}:{number}: invalid {type_name} (1 error)"),
                n => writeln!(out, "{file}:{number}: invalid {type_name} ({n} errors)"),
            };
        }
    }
}

/// The writer: answers in input order, each written as soon as every earlier one is.
fn write_in_order(answers: Receiver<(u64, Vec<Answer>)>) -> Result<u8, CliError> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    let mut writer = Writer::new();
    for (seq, answer) in answers {
        waiting.insert(seq, answer);
        while let Some(group) = waiting.remove(&next) {
            writer.write(group)?;
            next += 1;
        }
    }
    writer.finish()
}

/// Standard output, buffered, and the worst status written so far.
struct Writer {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    worst: u8,
}

impl Writer {
    fn new() -> Self {
        Writer {
            out: std::io::BufWriter::new(std::io::stdout().lock()),
            worst: 0,
        }
    }

    /// Writes each answer: its stdout text, then (stdout flushed first, so the two stay in
    /// order on a terminal) its stderr text.
    fn write(&mut self, answers: Vec<Answer>) -> Result<(), CliError> {
        for answer in answers {
            self.out.write_all(answer.out.as_bytes()).map_err(wrote)?;
            if !answer.err.is_empty() {
                self.out.flush().map_err(wrote)?;
                eprint!("{}", answer.err);
            }
            self.worst = self.worst.max(answer.status);
        }
        Ok(())
    }

    /// Flushes; the worst status.
    fn finish(mut self) -> Result<u8, CliError> {
        self.out.flush().map_err(wrote)?;
        Ok(self.worst)
    }
}

fn wrote(e: std::io::Error) -> CliError {
    CliError::Failure(format!("cannot write output: {e}"))
}
