//! Reading a pack that arrives (`land`, `merge`): the pack object in memory, the luggage
//! streamed straight into a directory, every attachment scanned for credentials and transcripts
//! on its way through.
//!
//! Why not [`crate::taskpack::encodings::convert::read_pack`]: it holds every attachment in memory, which is wrong
//! for landing (as for a conversion, which streams its own way), whose memory should
//! be bounded by one read buffer, not by the luggage. A `.taskpack` is inflated entry by entry,
//! a `.taskpack.json` decoded attachment by attachment ([`flat::read_flat_from`]);
//! each luggage file is written to `dir` and hashed as it streams, and the bag is then checked
//! against its manifests (§2.1): when it disagrees the caller removes `dir`, so nothing that
//! nobody vouched for stays behind.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::taskpack::encodings::bag::{self, Limits, Observer, FILES_DIR};
use crate::taskpack::encodings::convert::{ConvertError, Encoding};
use crate::taskpack::encodings::flat::{self, FlatError};
use crate::taskpack::judge::patterns::{AttachmentScan, Finding};
use specmint_runtime::json::Json;

/// A pack that arrived: its object, its luggage (already written under the directory given),
/// and what the patterns found in the luggage.
#[derive(Debug)]
pub struct Arrived {
    /// The pack object.
    pub pack: Json,
    /// Luggage names, as under `data/files/`, in the pack's order.
    pub luggage: Vec<String>,
    /// `(finding, attachment name)` for every attachment a pattern matched.
    pub findings: Vec<(Finding, String)>,
}

/// Writes each luggage file under `dir` as it is inflated, and scans it.
struct LuggageWriter<'a> {
    dir: &'a Path,
    current: Option<(String, BufWriter<File>, AttachmentScan)>,
    names: Vec<String>,
    findings: Vec<(Finding, String)>,
    error: Option<(PathBuf, io::Error)>,
}

impl<'a> LuggageWriter<'a> {
    fn new(dir: &'a Path) -> Self {
        LuggageWriter {
            dir,
            current: None,
            names: Vec::new(),
            findings: Vec::new(),
            error: None,
        }
    }

    fn fail(&mut self, path: PathBuf, error: io::Error) {
        self.error.get_or_insert((path, error));
        self.current = None;
    }
}

impl Observer for LuggageWriter<'_> {
    fn start(&mut self, name: &str) {
        let name = name.strip_prefix(FILES_DIR).unwrap_or(name).to_owned();
        if self.error.is_some() {
            return;
        }
        match create_in(self.dir, &name) {
            Ok(file) => self.current = Some((name, file, AttachmentScan::default())),
            Err((path, error)) => self.fail(path, error),
        }
    }

    fn chunk(&mut self, bytes: &[u8]) {
        let Some((name, out, scan)) = &mut self.current else {
            return;
        };
        scan.feed(bytes);
        if let Err(error) = out.write_all(bytes) {
            let path = self.dir.join(name.as_str());
            self.fail(path, error);
        }
    }

    fn finish(&mut self) {
        let Some((name, out, scan)) = self.current.take() else {
            return;
        };
        if let Err(error) = close(out) {
            self.fail(self.dir.join(&name), error);
            return;
        }
        self.findings
            .extend(scan.finish().into_iter().map(|f| (f, name.clone())));
        self.names.push(name);
    }
}

/// A new file `dir/name` (its folders made), buffered. It must not exist yet: names are
/// distinct in a pack, so a file that is there already is one this file system cannot tell
/// apart from another attachment's (`A.txt` and `a.txt` where case is folded), and it is
/// refused rather than overwritten.
fn create_in(dir: &Path, name: &str) -> Result<BufWriter<File>, (PathBuf, io::Error)> {
    let path = dir.join(name);
    let made = path.parent().map_or(Ok(()), private_dirs).and_then(|()| {
        let mut options = File::options();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(&path).map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => io::Error::new(
                e.kind(),
                "another attachment already landed under this name: this file system does \
                 not tell the two names apart (they differ only in case, or in a way it \
                 folds), and one would overwrite the other",
            ),
            _ => e,
        })
    });
    made.map(|f| BufWriter::with_capacity(1 << 16, f))
        .map_err(|e| (path, e))
}

/// Creates `dir` and the folders above it that are missing, readable by their owner only
/// (0700): landed luggage is the user's, as the passports are (its files are made 0600).
pub(in crate::taskpack) fn private_dirs(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Flushes and syncs a luggage file, so a rename of its folder publishes whole files.
fn close(out: BufWriter<File>) -> io::Result<()> {
    out.into_inner().map_err(|e| e.into_error())?.sync_all()
}

/// Where an arriving pack is read from: a file, its name saying the encoding, or the bytes of a
/// pack already held in memory (one a door decoded from a request) and their encoding.
#[derive(Debug, Clone, Copy)]
pub enum PackSource<'a> {
    /// The pack file.
    File(&'a Path),
    /// The pack's bytes and their encoding.
    Bytes(&'a [u8], Encoding),
}

/// A reader of a [`PackSource`].
pub enum PackReader<'a> {
    /// The pack file, opened.
    File(File),
    /// The pack's bytes.
    Bytes(io::Cursor<&'a [u8]>),
}

impl<'a> PackSource<'a> {
    /// Its encoding: by extension for a file (`None` for any other name), as given for bytes.
    pub fn encoding(&self) -> Option<Encoding> {
        match self {
            PackSource::File(path) => Encoding::of(path),
            PackSource::Bytes(_, encoding) => Some(*encoding),
        }
    }

    /// Opens it: only a file can fail to open (as `File::open`).
    pub fn open(&self) -> io::Result<PackReader<'a>> {
        match *self {
            PackSource::File(path) => File::open(path).map(PackReader::File),
            PackSource::Bytes(bytes, _) => Ok(PackReader::Bytes(io::Cursor::new(bytes))),
        }
    }
}

impl Read for PackReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            PackReader::File(file) => file.read(buf),
            PackReader::Bytes(bytes) => bytes.read(buf),
        }
    }
}

impl Seek for PackReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            PackReader::File(file) => file.seek(to),
            PackReader::Bytes(bytes) => bytes.seek(to),
        }
    }
}

/// Reads the pack at `path` (encoding by extension), writing its luggage under `dir` (created),
/// its folders 0700 and files 0600.
/// On an error `dir` may hold part of the luggage: the caller removes it.
pub fn read_arriving(path: &Path, dir: &Path, limits: Limits) -> Result<Arrived, ConvertError> {
    read_arriving_from(PackSource::File(path), dir, limits)
}

/// [`read_arriving`] on a pack read from `source`.
pub fn read_arriving_from(
    source: PackSource<'_>,
    dir: &Path,
    limits: Limits,
) -> Result<Arrived, ConvertError> {
    // Only a file can lack a known extension or fail to open: its path names the problem.
    let named = match source {
        PackSource::File(path) => path,
        PackSource::Bytes(..) => Path::new(""),
    };
    let encoding = source
        .encoding()
        .ok_or_else(|| ConvertError::UnknownExtension(named.to_owned()))?;
    let io_at = |p: &Path| {
        let p = p.to_owned();
        move |e| ConvertError::Io(p, e)
    };
    private_dirs(dir).map_err(io_at(dir))?;
    let mut reader = source.open().map_err(io_at(named))?;
    match encoding {
        Encoding::Zip => {
            let mut writer = LuggageWriter::new(dir);
            let read = bag::read_zip(BufReader::new(reader), limits, false, &mut writer)
                .map_err(|e| ConvertError::Bag(vec![e]))?;
            if let Some((p, e)) = writer.error {
                return Err(ConvertError::Io(p, e));
            }
            let problems = bag::verify(&read);
            if !problems.is_empty() {
                return Err(ConvertError::Bag(problems));
            }
            let pack = crate::taskpack::judge::conformance::read_passport(&read)
                .map_err(|e| ConvertError::Flat(FlatError::NotTaskPack(e)))?;
            Ok(Arrived {
                pack,
                luggage: writer.names,
                findings: writer.findings,
            })
        }
        Encoding::Flat | Encoding::RetiredTpx => {
            let mut writer = LuggageWriter::new(dir);
            let read =
                flat::read_flat_from(&mut reader, &mut writer).map_err(ConvertError::Flat)?;
            if let Some((p, e)) = writer.error {
                return Err(ConvertError::Io(p, e));
            }
            Ok(Arrived {
                pack: read.passport,
                luggage: writer.names,
                findings: writer.findings,
            })
        }
    }
}
