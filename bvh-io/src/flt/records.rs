//! The OpenFlight record stream: big-endian `u16 opcode, u16 length` headers, lengths checked
//! against the data, Continuation (23) records appended to the record they continue.

use crate::error::{ErrorKind, IoError, Location};
use std::borrow::Cow;
use std::path::Path;

pub(super) const CONTINUATION: u16 = 23;

/// One record: opcode, byte offset in the file, and its bytes (header included, continuations
/// appended after it).
pub(super) struct Record<'a> {
    pub(super) opcode: u16,
    pub(super) offset: u64,
    pub(super) data: Cow<'a, [u8]>,
}

impl Record<'_> {
    /// `len` bytes from `at`, or a truncation error naming this record.
    pub(super) fn bytes(&self, at: usize, len: usize, file: &Path) -> Result<&[u8], IoError> {
        self.data.get(at..at.saturating_add(len)).ok_or_else(|| {
            IoError::new(
                file,
                Location::Offset(self.offset),
                ErrorKind::Truncated { needed: (at + len) as u64, available: self.data.len() as u64 },
            )
        })
    }

    pub(super) fn u16(&self, at: usize, file: &Path) -> Result<u16, IoError> {
        let b = self.bytes(at, 2, file)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(super) fn i16(&self, at: usize, file: &Path) -> Result<i16, IoError> {
        Ok(self.u16(at, file)? as i16)
    }

    pub(super) fn u32(&self, at: usize, file: &Path) -> Result<u32, IoError> {
        let b = self.bytes(at, 4, file)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(super) fn i32(&self, at: usize, file: &Path) -> Result<i32, IoError> {
        Ok(self.u32(at, file)? as i32)
    }

    pub(super) fn u8(&self, at: usize, file: &Path) -> Result<u8, IoError> {
        Ok(self.bytes(at, 1, file)?[0])
    }

    pub(super) fn f32(&self, at: usize, file: &Path) -> Result<f32, IoError> {
        Ok(f32::from_bits(self.u32(at, file)?))
    }

    pub(super) fn f64(&self, at: usize, file: &Path) -> Result<f64, IoError> {
        let b = self.bytes(at, 8, file)?;
        Ok(f64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }

    /// A NUL-terminated string field of at most `len` bytes (short records give what is there).
    pub(super) fn text(&self, at: usize, len: usize) -> String {
        let field = self.data.get(at..).unwrap_or(&[]);
        let field = &field[..field.len().min(len)];
        let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        String::from_utf8_lossy(&field[..end]).into_owned()
    }

    /// An error at this record.
    pub(super) fn error(&self, file: &Path, kind: ErrorKind) -> IoError {
        IoError::new(file, Location::Offset(self.offset), kind)
    }
}

/// Iterates the records of `bytes`.
pub(super) struct Records<'a> {
    bytes: &'a [u8],
    offset: usize,
    file: &'a Path,
}

impl<'a> Records<'a> {
    pub(super) fn new(bytes: &'a [u8], file: &'a Path) -> Self {
        Self { bytes, offset: 0, file }
    }

    /// The header of the record at `offset`: opcode and length, checked.
    fn header(&self, offset: usize) -> Result<(u16, usize), IoError> {
        let available = (self.bytes.len() - offset) as u64;
        let Some(h) = self.bytes.get(offset..offset + 4) else {
            return Err(IoError::new(
                self.file,
                Location::Offset(offset as u64),
                ErrorKind::Truncated { needed: 4, available },
            ));
        };
        let (opcode, length) = (u16::from_be_bytes([h[0], h[1]]), u16::from_be_bytes([h[2], h[3]]));
        if length < 4 || length as u64 > available {
            return Err(IoError::new(
                self.file,
                Location::Offset(offset as u64),
                ErrorKind::BadRecordLength { opcode, length },
            ));
        }
        Ok((opcode, length as usize))
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, IoError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.offset >= self.bytes.len() {
            return None;
        }
        let start = self.offset;
        let (opcode, length) = match self.header(start) {
            Ok(h) => h,
            Err(e) => {
                self.offset = self.bytes.len();
                return Some(Err(e));
            }
        };
        self.offset += length;
        let mut data = Cow::Borrowed(&self.bytes[start..start + length]);
        // Continuations extend the record they follow.
        while self.offset + 4 <= self.bytes.len() {
            match self.header(self.offset) {
                Ok((CONTINUATION, len)) => {
                    data.to_mut().extend_from_slice(&self.bytes[self.offset + 4..self.offset + len]);
                    self.offset += len;
                }
                _ => break,
            }
        }
        Some(Ok(Record { opcode, offset: start as u64, data }))
    }
}
