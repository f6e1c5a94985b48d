//! [`Spill`]: bytes kept in memory while they are few, moved into a temporary file past a
//! bound, so that what is held stays bounded whatever is written (the A2A door's request body
//! and the pack it decodes from one).

use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// Bytes written in memory up to a limit; the write that would pass it first moves them into a
/// temporary file in the system's temporary directory (named `PREFIX…SUFFIX`, removed when this
/// drops), where they and the rest go. Written whole first, then read and sought as one stream.
#[derive(Debug)]
pub struct Spill {
    held: Held,
    limit: usize,
    prefix: &'static str,
    suffix: &'static str,
}

#[derive(Debug)]
enum Held {
    Memory(Cursor<Vec<u8>>),
    File(tempfile::NamedTempFile),
}

/// Where a [`Spill`]'s bytes are.
#[derive(Debug, Clone, Copy)]
pub enum Spilled<'a> {
    /// Still in memory.
    Memory(&'a [u8]),
    /// In the temporary file at this path.
    File(&'a Path),
}

impl Spill {
    /// An empty spill holding at most `limit` bytes in memory, its file named
    /// `{prefix}…{suffix}` (a suffix such as `.taskpack.json` keeps the name's meaning).
    pub fn new(limit: usize, prefix: &'static str, suffix: &'static str) -> Self {
        Spill {
            held: Held::Memory(Cursor::new(Vec::new())),
            limit,
            prefix,
            suffix,
        }
    }

    /// Where the bytes are now.
    pub fn spilled(&self) -> Spilled<'_> {
        match &self.held {
            Held::Memory(held) => Spilled::Memory(held.get_ref()),
            Held::File(file) => Spilled::File(file.path()),
        }
    }
}

impl Write for Spill {
    /// Appends `buf` in memory while the whole stays within the limit, else in the file.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Held::Memory(held) = &self.held {
            if held.get_ref().len() + buf.len() > self.limit {
                let mut file = tempfile::Builder::new()
                    .prefix(self.prefix)
                    .suffix(self.suffix)
                    .tempfile()
                    .map_err(|e| {
                        io::Error::new(e.kind(), format!("cannot make a temporary file: {e}"))
                    })?;
                file.write_all(held.get_ref())?;
                self.held = Held::File(file);
            }
        }
        match &mut self.held {
            Held::Memory(held) => {
                held.get_mut().extend_from_slice(buf);
                Ok(buf.len())
            }
            Held::File(file) => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.held {
            Held::Memory(_) => Ok(()),
            Held::File(file) => file.flush(),
        }
    }
}

impl Read for Spill {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.held {
            Held::Memory(held) => held.read(buf),
            Held::File(file) => file.read(buf),
        }
    }
}

impl Seek for Spill {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match &mut self.held {
            Held::Memory(held) => held.seek(to),
            Held::File(file) => file.seek(to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Spill, Spilled};
    use std::io::{Read, Seek, SeekFrom, Write};

    #[test]
    fn bytes_stay_in_memory_up_to_the_limit_then_move_whole_into_a_named_file() {
        let mut spill = Spill::new(8, "specmint-spill-test-", ".taskpack.json");
        spill.write_all(b"abcd").unwrap();
        spill.write_all(b"efgh").unwrap();
        assert!(matches!(spill.spilled(), Spilled::Memory(b"abcdefgh")));
        spill.write_all(b"i").unwrap();
        let path = match spill.spilled() {
            Spilled::File(path) => path.to_owned(),
            Spilled::Memory(held) => panic!("still in memory: {held:?}"),
        };
        assert!(
            path.to_string_lossy().ends_with(".taskpack.json"),
            "{path:?}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"abcdefghi");
        spill.seek(SeekFrom::Start(2)).unwrap();
        let mut rest = String::new();
        spill.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "cdefghi");
        drop(spill);
        assert!(!path.exists(), "the file is removed with the spill");
    }
}
