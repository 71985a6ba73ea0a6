//! ASCII STL, read token by token so that any mix of spaces, tabs and line endings (LF, CRLF)
//! and any case of the keywords is accepted:
//!
//! ```text
//! solid [name]
//!   facet [normal nx ny nz]
//!     outer loop
//!       vertex x y z      (three or more; a polygon is fanned into triangles)
//!     endloop
//!   endfacet
//! endsolid [name]
//! ```
//!
//! A file may hold several solids one after another. Anything else – a missing keyword, a bad
//! number, text after the last `endsolid` – is an error naming the line.

use super::Solid;
use crate::error::{ErrorKind, IoError, Location};
use std::path::Path;

/// Whether the bytes start like an ASCII STL: `solid` after optional whitespace, and no control
/// characters near the start (binary files may begin with "solid" too).
pub(super) fn looks_ascii(bytes: &[u8]) -> bool {
    let start = bytes.trim_ascii_start();
    let text = |b: &u8| b.is_ascii_whitespace() || !(b.is_ascii_control());
    start.len() >= 5 && start[..5].eq_ignore_ascii_case(b"solid") && bytes.iter().take(512).all(text)
}

/// Every solid in the file, in order.
pub(super) fn solids(bytes: &[u8], file: &Path) -> Result<Vec<Solid>, IoError> {
    let mut tokens = Tokens { bytes, at: 0, line: 1, file };
    let mut solids = Vec::new();
    while tokens.peek().is_some() {
        tokens.keyword("solid")?;
        let name = tokens.rest_of_line();
        let mut corners = Vec::new();
        while !tokens.next_is("endsolid") {
            facet(&mut tokens, &mut corners)?;
        }
        tokens.keyword("endsolid")?;
        tokens.rest_of_line();
        solids.push(Solid { name, corners });
    }
    Ok(solids)
}

fn facet(tokens: &mut Tokens<'_>, corners: &mut Vec<[f32; 3]>) -> Result<(), IoError> {
    tokens.keyword("facet")?;
    if tokens.next_is("normal") {
        tokens.keyword("normal")?;
        // The normal is recomputed from the corners wherever it is needed.
        tokens.point()?;
    }
    tokens.keyword("outer")?;
    tokens.keyword("loop")?;
    let mut polygon = Vec::new();
    while tokens.next_is("vertex") {
        tokens.keyword("vertex")?;
        polygon.push(tokens.point()?);
    }
    if polygon.len() < 3 {
        return Err(tokens.error(format!("a facet with {} vertices", polygon.len())));
    }
    for k in 1..polygon.len() - 1 {
        corners.extend([polygon[0], polygon[k], polygon[k + 1]]);
    }
    tokens.keyword("endloop")?;
    tokens.keyword("endfacet")
}

/// Whitespace-separated tokens with the line each is on.
struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    file: &'a Path,
}

impl<'a> Tokens<'a> {
    /// Skips whitespace (counting lines) and returns the next token without taking it.
    fn peek(&mut self) -> Option<&'a [u8]> {
        while let Some(&b) = self.bytes.get(self.at) {
            if !b.is_ascii_whitespace() {
                break;
            }
            self.line += (b == b'\n') as usize;
            self.at += 1;
        }
        let rest = &self.bytes[self.at..];
        let len = rest.iter().position(u8::is_ascii_whitespace).unwrap_or(rest.len());
        (len > 0).then(|| &rest[..len])
    }

    fn take(&mut self) -> Option<&'a [u8]> {
        let token = self.peek()?;
        self.at += token.len();
        Some(token)
    }

    fn next_is(&mut self, keyword: &str) -> bool {
        self.peek().is_some_and(|t| t.eq_ignore_ascii_case(keyword.as_bytes()))
    }

    fn keyword(&mut self, keyword: &str) -> Result<(), IoError> {
        match self.peek() {
            Some(t) if t.eq_ignore_ascii_case(keyword.as_bytes()) => {
                self.take();
                Ok(())
            }
            found => Err(self.error(format!("expected `{keyword}`, found {}", describe(found)))),
        }
    }

    fn point(&mut self) -> Result<[f32; 3], IoError> {
        let mut p = [0.0; 3];
        for c in &mut p {
            let token = self.peek();
            let value = token.and_then(|t| std::str::from_utf8(t).ok()?.parse::<f32>().ok());
            *c = value.ok_or_else(|| self.error(format!("expected a number, found {}", describe(token))))?;
            if !c.is_finite() {
                return Err(IoError::new(self.file, Location::Line(self.line), ErrorKind::NonFinite));
            }
            self.take();
        }
        Ok(p)
    }

    /// The rest of the current line, trimmed (a solid's name).
    fn rest_of_line(&mut self) -> String {
        let rest = &self.bytes[self.at..];
        let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.at += len;
        String::from_utf8_lossy(rest[..len].trim_ascii()).into_owned()
    }

    fn error(&self, message: String) -> IoError {
        IoError::new(self.file, Location::Line(self.line), ErrorKind::Stl(message))
    }
}

fn describe(token: Option<&[u8]>) -> String {
    match token {
        Some(t) => format!("`{}`", String::from_utf8_lossy(&t[..t.len().min(40)])),
        None => "the end of the file".to_string(),
    }
}
