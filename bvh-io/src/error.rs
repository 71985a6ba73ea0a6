//! One error type for every reader: which file, where in it, and what was wrong.

use bvh_core::MeshError;
use std::fmt;
use std::path::PathBuf;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{}{location}: {kind}", file.display())]
pub struct IoError {
    /// The file.
    pub file: PathBuf,
    /// Where in it, when known.
    pub location: Location,
    /// What was wrong.
    pub kind: ErrorKind,
}

/// A place in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The whole file, or a place the underlying parser does not report.
    Unknown,
    /// A 1-based line of a text file.
    Line(usize),
    /// A byte offset in a binary file.
    Offset(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Unknown => Ok(()),
            Location::Line(line) => write!(f, ":{line}"),
            Location::Offset(offset) => write!(f, " at byte {offset}"),
        }
    }
}

/// What was wrong.
#[derive(Debug, thiserror::Error)]
pub enum ErrorKind {
    /// The file could not be read at all.
    #[error("cannot read: {0}")]
    Read(#[from] std::io::Error),
    /// The file name does not say which format it is.
    #[error("unknown mesh format (expected .obj, .stl or .flt)")]
    UnknownFormat,
    /// The OBJ parser rejected the file.
    #[error("invalid OBJ: {0}")]
    Obj(String),
    /// The STL reader rejected the file.
    #[error("invalid STL: {0}")]
    Stl(String),
    /// A coordinate is NaN or infinite.
    #[error("non-finite vertex coordinate")]
    NonFinite,
    /// The data ends inside a record or section.
    #[error("truncated: {needed} bytes needed, {available} left")]
    Truncated {
        /// Bytes the record or section needs.
        needed: u64,
        /// Bytes left in the file.
        available: u64,
    },
    /// A record's length field is impossible (below its header size, or past the end).
    #[error("record {opcode} has impossible length {length}")]
    BadRecordLength {
        /// The record's opcode.
        opcode: u16,
        /// Its length field.
        length: u16,
    },
    /// A count larger than the data holding it could be.
    #[error("count {count} exceeds what {available} bytes can hold")]
    AbsurdCount {
        /// The count read.
        count: u64,
        /// Bytes available for it.
        available: u64,
    },
    /// A reference to a vertex that does not exist.
    #[error("vertex reference {index} is outside the {count} vertices available")]
    VertexOutOfRange {
        /// The reference as stored (an index or a byte offset).
        index: i64,
        /// How many vertices (or palette bytes) there are.
        count: u64,
    },
    /// A structurally invalid file (bad header, unbalanced push/pop, …).
    #[error("{0}")]
    Malformed(String),
    /// External references lead back to a file already being read.
    #[error("external references form a cycle through {0}")]
    ReferenceCycle(PathBuf),
    /// External references nest deeper than the reader follows.
    #[error("external references nest deeper than {0} files")]
    ReferenceDepth(usize),
    /// An externally referenced file failed to load.
    #[error("in external reference: {0}")]
    Reference(Box<IoError>),
    /// The geometry did not form a valid mesh.
    #[error("invalid mesh: {0}")]
    Mesh(#[from] MeshError),
}

impl IoError {
    /// An error at `location` of `file`.
    pub fn new(file: impl Into<PathBuf>, location: Location, kind: ErrorKind) -> Self {
        Self { file: file.into(), location, kind }
    }
}
