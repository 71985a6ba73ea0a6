//! Walks the record stream, keeping the hierarchy, transforms and vertex palette, and turns
//! faces and mesh primitives into triangles of the right part.

use super::polygon::triangulate;
use super::records::{Record, Records};
use super::{MAX_REFERENCE_DEPTH, RawPart, RawScene, References, canonical};
use crate::error::{ErrorKind, IoError, Location};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod op {
    pub(super) const HEADER: u16 = 1;
    pub(super) const GROUP: u16 = 2;
    pub(super) const OBJECT: u16 = 4;
    pub(super) const FACE: u16 = 5;
    pub(super) const PUSH: u16 = 10;
    pub(super) const POP: u16 = 11;
    pub(super) const DOF: u16 = 14;
    pub(super) const PUSH_SUBFACE: u16 = 19;
    pub(super) const POP_SUBFACE: u16 = 20;
    pub(super) const PUSH_EXTENSION: u16 = 21;
    pub(super) const POP_EXTENSION: u16 = 22;
    pub(super) const CONTINUATION: u16 = 23;
    pub(super) const COMMENT: u16 = 31;
    pub(super) const LONG_ID: u16 = 33;
    pub(super) const MATRIX: u16 = 49;
    pub(super) const INSTANCE_REFERENCE: u16 = 61;
    pub(super) const INSTANCE_DEFINITION: u16 = 62;
    pub(super) const EXTERNAL_REFERENCE: u16 = 63;
    pub(super) const VERTEX_PALETTE: u16 = 67;
    pub(super) const VERTEX_LIST: u16 = 72;
    pub(super) const LOD: u16 = 73;
    pub(super) const MESH: u16 = 84;
    pub(super) const LOCAL_VERTEX_POOL: u16 = 85;
    pub(super) const MESH_PRIMITIVE: u16 = 86;
    pub(super) const MORPH_VERTEX_LIST: u16 = 89;
    pub(super) const SWITCH: u16 = 96;
    pub(super) const PUSH_ATTRIBUTE: u16 = 122;
    pub(super) const POP_ATTRIBUTE: u16 = 123;
}

/// Primary records of the format without collision geometry of their own (binary separating
/// plane, road segment and path, sound, text, clip region, extension, light source, light point,
/// CAT, curve, road construction, indexed light point, light point system): nodes whose
/// subtrees are read.
const OTHER_PRIMARY: &[u16] = &[55, 87, 91, 92, 95, 98, 100, 101, 111, 115, 126, 127, 130, 131];

/// Whether a record only describes (palettes, bounds, comments, the transform steps beside a
/// Matrix, …) and never carries collision geometry: passed over without being counted.
fn descriptive(opcode: u16) -> bool {
    matches!(
        opcode,
        op::COMMENT
            | 32
            | 50
            | 52
            | 53
            | 64..=66
            | 74
            | 76
            | 78..=83
            | 90
            | 93
            | 94
            | 97
            | 102..=110
            | 112..=114
            | 116..=121
            | 124
            | 125
            | 128
            | 129
            | 132
            | 133
    )
}

/// A triangle in the file's coordinates.
type Triangle64 = [[f64; 3]; 3];

/// The LOD a level lies in: its parent level's id and the LOD node's id.
type LodTag = (usize, usize);

/// Row-vector affine transform: `p' = [x y z 1] · M` (OpenFlight's convention).
type Matrix4 = [[f64; 4]; 4];

const IDENTITY: Matrix4 =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

fn apply(m: &Matrix4, p: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|j| p[0] * m[0][j] + p[1] * m[1][j] + p[2] * m[2][j] + m[3][j])
}

/// `a` then `b`, for row vectors.
fn then(a: &Matrix4, b: &Matrix4) -> Matrix4 {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..4).map(|k| a[i][k] * b[k][j]).sum()))
}

/// A primary record seen at the current level, with what its ancillary records add.
struct Node {
    /// Unique within the file, in record order.
    id: usize,
    opcode: u16,
    offset: u64,
    name: String,
    matrix: Option<Matrix4>,
    /// Draw type is wireframe or light point: no surface.
    no_surface: bool,
    /// Switch-out distance of an LOD.
    switch_out: f64,
    /// Active-child mask of a switch.
    switch_mask: Option<Vec<bool>>,
    /// Local vertex pool of a mesh.
    pool: Vec<[f64; 3]>,
    /// External reference path as written.
    reference: String,
    /// Whether this node is active (its switch parent selects it).
    active: bool,
}

/// An open push level: the node whose children are being read.
struct Level {
    node: Node,
    transform: Matrix4,
    children: usize,
    part: Option<usize>,
    /// The LOD this level lies in.
    lod: Option<LodTag>,
    id: usize,
}

struct Walker<'a> {
    file: &'a Path,
    references: &'a References<'a>,
    unit: f64,
    palette_start: Option<u64>,
    palette: HashMap<u32, [f64; 3]>,
    levels: Vec<Level>,
    current: Option<Node>,
    next_id: usize,
    out: RawScene,
    /// Per part, triangles and the LOD they came from.
    tagged: Vec<Vec<(Triangle64, Option<LodTag>)>>,
    /// Per LOD parent level id: the chosen LOD child id and its switch-out distance.
    lod_choice: HashMap<usize, (usize, f64)>,
}

/// Walks one file's records; `chain` holds the files being read, for cycle detection.
pub(super) fn walk(
    bytes: &[u8],
    file: &Path,
    references: &References<'_>,
    chain: &mut Vec<PathBuf>,
) -> Result<RawScene, IoError> {
    let mut records = Records::new(bytes, file);
    let header = match records.next() {
        Some(r) => r?,
        None => {
            return Err(IoError::new(file, Location::Offset(0), ErrorKind::Malformed("empty file".into())));
        }
    };
    if header.opcode != op::HEADER {
        return Err(header.error(
            file,
            ErrorKind::Malformed("not an OpenFlight file: the first record is not a header".into()),
        ));
    }
    let unit = match header.data.get(62).copied().unwrap_or(0) as i8 {
        1 => 1000.0,
        4 => 0.3048,
        5 => 0.0254,
        8 => 1852.0,
        _ => 1.0,
    };
    let mut w = Walker {
        file,
        references,
        unit,
        palette_start: None,
        palette: HashMap::new(),
        levels: Vec::new(),
        current: Some(Node::new(0, &header, header.text(4, 8))),
        next_id: 1,
        out: RawScene::default(),
        tagged: Vec::new(),
        lod_choice: HashMap::new(),
    };
    for record in records {
        w.record(&record?, chain)?;
    }
    w.finish_current(chain)?;
    if !w.levels.is_empty() {
        return Err(IoError::new(
            file,
            Location::Unknown,
            ErrorKind::Malformed(format!("{} push records without a pop", w.levels.len())),
        ));
    }
    Ok(w.finish())
}

impl Node {
    fn new(id: usize, r: &Record<'_>, name: String) -> Self {
        Self {
            id,
            opcode: r.opcode,
            offset: r.offset,
            name,
            matrix: None,
            no_surface: false,
            switch_out: 0.0,
            switch_mask: None,
            pool: Vec::new(),
            reference: String::new(),
            active: true,
        }
    }
}

impl Walker<'_> {
    fn error(&self, r: &Record<'_>, kind: ErrorKind) -> IoError {
        r.error(self.file, kind)
    }

    fn record(&mut self, r: &Record<'_>, chain: &mut Vec<PathBuf>) -> Result<(), IoError> {
        let file = self.file;
        match r.opcode {
            op::PUSH | op::PUSH_SUBFACE | op::PUSH_EXTENSION | op::PUSH_ATTRIBUTE => self.push(r, chain)?,
            op::POP | op::POP_SUBFACE | op::POP_EXTENSION | op::POP_ATTRIBUTE => self.pop(r, chain)?,
            op::CONTINUATION => {}
            op::LONG_ID => {
                if let Some(node) = &mut self.current {
                    node.name = r.text(4, usize::MAX);
                }
            }
            op::MATRIX => {
                let mut m = IDENTITY;
                for (k, v) in m.iter_mut().flatten().enumerate() {
                    *v = r.f32(4 + 4 * k, file)? as f64;
                }
                if let Some(node) = &mut self.current {
                    node.matrix = Some(m);
                }
            }
            op::VERTEX_PALETTE => self.palette_start = Some(r.offset),
            68..=71 => {
                let start = self.palette_start.ok_or_else(|| {
                    self.error(r, ErrorKind::Malformed("vertex outside a vertex palette".into()))
                })?;
                let position = [r.f64(8, file)?, r.f64(16, file)?, r.f64(24, file)?];
                self.palette.insert((r.offset - start) as u32, position);
            }
            6..=9 => {
                return Err(self.error(
                    r,
                    ErrorKind::Malformed("obsolete scaled-integer vertex records are not supported".into()),
                ));
            }
            op::VERTEX_LIST => self.vertex_list(r, 1)?,
            op::MORPH_VERTEX_LIST => self.vertex_list(r, 2)?,
            op::LOCAL_VERTEX_POOL => self.local_vertex_pool(r)?,
            op::MESH_PRIMITIVE => self.mesh_primitive(r)?,
            op::GROUP
            | op::OBJECT
            | op::FACE
            | op::MESH
            | op::LOD
            | op::SWITCH
            | op::DOF
            | op::EXTERNAL_REFERENCE => self.primary(r, chain)?,
            op::INSTANCE_REFERENCE | op::INSTANCE_DEFINITION => {
                self.primary(r, chain)?;
                self.out.skipped.skip(format!("instance record {} (instancing not supported)", r.opcode));
            }
            opcode if descriptive(opcode) => {}
            opcode if OTHER_PRIMARY.contains(&opcode) => self.primary(r, chain)?,
            // A vendor's or a newer revision's record: ancillary to the node before it, so
            // that node keeps whatever follows (a face its vertex list, a mesh its pool).
            opcode => self.out.skipped.skip(format!("unknown record {opcode}")),
        }
        Ok(())
    }

    /// A new primary record at the current level.
    fn primary(&mut self, r: &Record<'_>, chain: &mut Vec<PathBuf>) -> Result<(), IoError> {
        self.finish_current(chain)?;
        let file = self.file;
        let mut node = Node::new(self.next_id, r, r.text(4, 8));
        self.next_id += 1;
        if let Some(level) = self.levels.last_mut() {
            if let Some(mask) = &level.node.switch_mask {
                node.active = mask.get(level.children).copied().unwrap_or(false);
            }
            level.children += 1;
        }
        match r.opcode {
            op::FACE | op::MESH => {
                // Draw types 2–4 are wireframes, 8–10 light points.
                node.no_surface = matches!(r.u8(18, file)?, 2 | 3 | 4 | 8 | 9 | 10);
            }
            op::LOD => {
                node.switch_out = r.f64(24, file)?;
                if let Some(parent) = self.levels.last() {
                    let better = self.lod_choice.get(&parent.id).is_none_or(|&(_, d)| node.switch_out < d);
                    if better {
                        self.lod_choice.insert(parent.id, (node.id, node.switch_out));
                    }
                }
            }
            op::SWITCH => {
                let current = r.i32(16, file)?;
                let words = r.i32(24, file)?;
                let masks = r.i32(20, file)?;
                let mut mask = Vec::new();
                if (0..masks).contains(&current) && words > 0 {
                    let start = 28 + 4 * current as usize * words as usize;
                    for w in 0..words as usize {
                        let bits = r.u32(start + 4 * w, file)?;
                        mask.extend((0..32).map(|b| bits & (1 << b) != 0));
                    }
                }
                node.switch_mask = Some(mask);
            }
            op::EXTERNAL_REFERENCE => {
                let path = r.text(4, 200);
                node.reference = path.split('<').next().unwrap_or("").to_string();
            }
            _ => {}
        }
        self.current = Some(node);
        Ok(())
    }

    fn push(&mut self, r: &Record<'_>, chain: &mut Vec<PathBuf>) -> Result<(), IoError> {
        // A push without a node before it (possible after a pop) opens an anonymous level.
        let node = match self.current.take() {
            Some(node) => node,
            None => {
                self.next_id += 1;
                Node::new(self.next_id - 1, r, String::new())
            }
        };
        if node.opcode == op::EXTERNAL_REFERENCE {
            self.current = Some(node);
            self.finish_current(chain)?;
            return self.push(r, chain);
        }
        let parent = self.levels.last();
        let parent_transform = parent.map_or(IDENTITY, |l| l.transform);
        let transform = node.matrix.map_or(parent_transform, |m| then(&m, &parent_transform));
        let id = node.id;
        let mut lod = parent.and_then(|l| l.lod);
        if node.opcode == op::LOD {
            lod = parent.map(|p| (p.id, id));
        }
        let mut node = node;
        node.active &= parent.is_none_or(|p| p.node.active);
        self.levels.push(Level { node, transform, children: 0, part: None, lod, id });
        Ok(())
    }

    fn pop(&mut self, r: &Record<'_>, chain: &mut Vec<PathBuf>) -> Result<(), IoError> {
        self.finish_current(chain)?;
        match self.levels.pop() {
            Some(_) => Ok(()),
            None => Err(self.error(r, ErrorKind::Malformed("pop without a push".into()))),
        }
    }

    /// Completes the pending node: an external reference is loaded once its matrix is known.
    fn finish_current(&mut self, chain: &mut Vec<PathBuf>) -> Result<(), IoError> {
        let Some(node) = self.current.take() else { return Ok(()) };
        if node.opcode != op::EXTERNAL_REFERENCE {
            self.current = Some(node);
            return Ok(());
        }
        if !node.active || !self.levels.last().is_none_or(|l| l.node.active) {
            self.out.skipped.skip("external reference in an inactive switch child");
            return Ok(());
        }
        let Some(target) = self.resolve(&node.reference) else {
            self.out.skipped.skip(format!("external reference not loaded: {}", node.reference));
            return Ok(());
        };
        let at = |kind| IoError::new(self.file, Location::Offset(node.offset), kind);
        let canonical_target = canonical(&target);
        if chain.contains(&canonical_target) {
            return Err(at(ErrorKind::ReferenceCycle(target)));
        }
        if chain.len() >= MAX_REFERENCE_DEPTH {
            return Err(at(ErrorKind::ReferenceDepth(MAX_REFERENCE_DEPTH)));
        }
        let bytes = std::fs::read(&target).map_err(|e| {
            at(ErrorKind::Reference(Box::new(IoError::new(&target, Location::Unknown, e.into()))))
        })?;
        chain.push(canonical_target);
        let child = super::walker::walk(&bytes, &target, self.references, chain);
        chain.pop();
        let child = child.map_err(|e| at(ErrorKind::Reference(Box::new(e))))?;
        // The child's geometry is in metres; bring it to this file's units, then place it.
        let parent = self.levels.last().map_or(IDENTITY, |l| l.transform);
        let transform = node.matrix.map_or(parent, |m| then(&m, &parent));
        let to_units = 1.0 / self.unit;
        let prefix = self.path_here();
        let lod = self.levels.last().and_then(|l| l.lod);
        for part in child.parts {
            let path = [prefix.as_str(), node.reference.as_str(), part.path.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("/");
            let index = self.new_part(part.name, path);
            for t in part.triangles {
                let moved = t.map(|p| apply(&transform, p.map(|c| c * to_units)));
                self.tagged[index].push((moved, lod));
            }
        }
        for s in child.skipped.skipped {
            for _ in 0..s.count {
                self.out.skipped.skip(s.what.clone());
            }
        }
        Ok(())
    }

    fn resolve(&self, reference: &str) -> Option<PathBuf> {
        match self.references {
            References::Ignore => None,
            References::RelativeToFile => Some(self.file.parent().unwrap_or(Path::new("")).join(reference)),
            References::Custom(f) => f(self.file, reference),
        }
    }

    /// Names from the top level down, joined by `/` (the header's own name is left out).
    fn path_here(&self) -> String {
        self.levels
            .iter()
            .skip(1)
            .map(|l| l.node.name.as_str())
            .filter(|n| !n.is_empty())
            .collect::<Vec<_>>()
            .join("/")
    }

    fn new_part(&mut self, name: String, path: String) -> usize {
        self.out.parts.push(RawPart { name, path, triangles: Vec::new() });
        self.tagged.push(Vec::new());
        self.out.parts.len() - 1
    }

    /// The part that geometry at the current level belongs to: the nearest enclosing object,
    /// else the nearest group, else the file itself.
    fn part_here(&mut self) -> usize {
        let owner = (0..self.levels.len())
            .rev()
            .find(|&i| self.levels[i].node.opcode == op::OBJECT)
            .or_else(|| (0..self.levels.len()).rev().find(|&i| self.levels[i].node.opcode == op::GROUP))
            .unwrap_or(0);
        if let Some(part) = self.levels[owner].part {
            return part;
        }
        let mut name = self.levels[owner].node.name.clone();
        if name.is_empty() {
            name = self.file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        }
        let path: Vec<&str> = self.levels[1..=owner].iter().map(|l| l.node.name.as_str()).collect();
        let path = if path.is_empty() { name.clone() } else { path.join("/") };
        let part = self.new_part(name, path);
        self.levels[owner].part = Some(part);
        part
    }

    /// The face or mesh the current geometry record belongs to (the level it is pushed under).
    fn surface_level(&self, r: &Record<'_>) -> Result<&Level, IoError> {
        match self.levels.last() {
            Some(level) if matches!(level.node.opcode, op::FACE | op::MESH) => Ok(level),
            _ => Err(self.error(r, ErrorKind::Malformed("geometry record outside a face or mesh".into()))),
        }
    }

    fn add_polygon(&mut self, r: &Record<'_>, points: Vec<[f64; 3]>) -> Result<(), IoError> {
        let level = self.surface_level(r)?;
        if level.node.no_surface {
            self.out.skipped.skip("wireframe or light-point face");
            return Ok(());
        }
        if !level.node.active {
            self.out.skipped.skip("polygon in an inactive switch child");
            return Ok(());
        }
        let (transform, lod) = (level.transform, level.lod);
        let part = self.part_here();
        let unit = self.unit;
        for t in triangulate(&points) {
            let tri = t.map(|i| apply(&transform, points[i]).map(|c| c * unit));
            self.tagged[part].push((tri, lod));
        }
        Ok(())
    }

    /// Vertex list (`stride` 1) or morph vertex list (`stride` 2, first of each pair).
    fn vertex_list(&mut self, r: &Record<'_>, stride: usize) -> Result<(), IoError> {
        let count = (r.data.len() - 4) / 4;
        let mut points = Vec::with_capacity(count / stride);
        for k in (0..count).step_by(stride) {
            let offset = r.i32(4 + 4 * k, self.file)?;
            let p = u32::try_from(offset).ok().and_then(|o| self.palette.get(&o)).ok_or_else(|| {
                self.error(
                    r,
                    ErrorKind::VertexOutOfRange { index: offset as i64, count: self.palette.len() as u64 },
                )
            })?;
            points.push(*p);
        }
        self.add_polygon(r, points)
    }

    fn local_vertex_pool(&mut self, r: &Record<'_>) -> Result<(), IoError> {
        let file = self.file;
        let count = r.u32(4, file)? as u64;
        let mask = r.u32(8, file)?;
        if mask & 0x8000_0000 == 0 {
            return Err(self.error(r, ErrorKind::Malformed("local vertex pool without positions".into())));
        }
        // Position, then colour index or RGBA, normal, and up to eight UV layers.
        let mut stride = 24;
        if mask & 0x6000_0000 != 0 {
            stride += 4;
        }
        if mask & 0x1000_0000 != 0 {
            stride += 12;
        }
        stride += 8 * (4..12).filter(|b| mask & (0x8000_0000 >> b) != 0).count();
        let available = (r.data.len() as u64).saturating_sub(12);
        if count.saturating_mul(stride as u64) > available {
            return Err(self.error(r, ErrorKind::AbsurdCount { count, available }));
        }
        let mut pool = Vec::with_capacity(count as usize);
        for k in 0..count as usize {
            let at = 12 + k * stride;
            pool.push([r.f64(at, file)?, r.f64(at + 8, file)?, r.f64(at + 16, file)?]);
        }
        match &mut self.current {
            Some(node) if node.opcode == op::MESH => node.pool = pool,
            _ => return Err(self.error(r, ErrorKind::Malformed("local vertex pool outside a mesh".into()))),
        }
        Ok(())
    }

    fn mesh_primitive(&mut self, r: &Record<'_>) -> Result<(), IoError> {
        let file = self.file;
        let kind = r.i16(4, file)?;
        let size = r.u16(6, file)? as usize;
        let count = r.u32(8, file)? as u64;
        if !matches!(size, 1 | 2 | 4) {
            return Err(self.error(r, ErrorKind::Malformed(format!("mesh primitive index size {size}"))));
        }
        let available = (r.data.len() as u64).saturating_sub(12);
        if count.saturating_mul(size as u64) > available {
            return Err(self.error(r, ErrorKind::AbsurdCount { count, available }));
        }
        let pool_len = self.surface_level(r)?.node.pool.len();
        let mut indices = Vec::with_capacity(count as usize);
        for k in 0..count as usize {
            let at = 12 + k * size;
            let i = match size {
                1 => r.u8(at, file)? as u32,
                2 => r.u16(at, file)? as u32,
                _ => r.u32(at, file)?,
            } as usize;
            if i >= pool_len {
                return Err(
                    self.error(r, ErrorKind::VertexOutOfRange { index: i as i64, count: pool_len as u64 })
                );
            }
            indices.push(i);
        }
        let polygons: Vec<Vec<usize>> = match kind {
            // Triangle strip: every other triangle has its first two swapped to keep the winding.
            1 => (0..indices.len().saturating_sub(2))
                .map(|k| {
                    if k % 2 == 0 {
                        vec![indices[k], indices[k + 1], indices[k + 2]]
                    } else {
                        vec![indices[k + 1], indices[k], indices[k + 2]]
                    }
                })
                .collect(),
            2 => (1..indices.len().saturating_sub(1))
                .map(|k| vec![indices[0], indices[k], indices[k + 1]])
                .collect(),
            3 => (0..indices.len().saturating_sub(2) / 2)
                .map(|k| vec![indices[2 * k], indices[2 * k + 1], indices[2 * k + 3], indices[2 * k + 2]])
                .collect(),
            4 => vec![indices],
            other => return Err(self.error(r, ErrorKind::Malformed(format!("mesh primitive type {other}")))),
        };
        for polygon in polygons {
            let pool = &self.surface_level(r)?.node.pool;
            let points = polygon.iter().map(|&i| pool[i]).collect();
            self.add_polygon(r, points)?;
        }
        Ok(())
    }

    /// Keeps the chosen LOD's triangles and counts the rest.
    fn finish(mut self) -> RawScene {
        for (part, tagged) in self.out.parts.iter_mut().zip(self.tagged) {
            for (triangle, lod) in tagged {
                let keep = lod.is_none_or(|(parent, id)| {
                    self.lod_choice.get(&parent).is_none_or(|&(chosen, _)| chosen == id)
                });
                if keep {
                    part.triangles.push(triangle);
                } else {
                    self.out.skipped.skip("triangle of a less detailed level of detail");
                }
            }
        }
        self.out
    }
}
