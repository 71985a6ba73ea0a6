//! A built hierarchy as bytes and back, so big static scenes are cooked once and loaded without a
//! rebuild. Loading trusts nothing: every count is checked against the bytes present before
//! anything is allocated, the mesh is validated, and the tree passes the full well-formedness
//! check (so a corrupted volume that no longer contains its triangles is rejected too).
//!
//! Layout, all little-endian 32-bit words: magic `HBVH`, format version, node volume kind, root
//! kind, vertex count, triangle count, node count, 16 root-volume slots, then the vertices
//! (3 floats each), triangles (3 indices), original triangle indices, node volumes, and node
//! child slots (2 × 2 words).

use crate::bvh::{Bvh, Child};
use crate::numbering::Numbered;
use crate::root::{RootKind, RootVolume};
use crate::validate::Malformed;
use crate::volume::{NodeVolume, VolumeKind};
use bvh_core::{Aabb, CubeAabb, MeshError, Obb, Point, Sphere, TriMesh};

const MAGIC: u32 = u32::from_le_bytes(*b"HBVH");
const VERSION: u32 = 1;
const ROOT_SLOTS: usize = 16;
const HEADER_WORDS: usize = 7 + ROOT_SLOTS;

/// Why bytes could not be loaded as a hierarchy.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LoadError {
    /// The data ends before what the header announces.
    #[error("{needed} bytes needed at offset {offset}, {available} present")]
    Truncated {
        /// Byte offset of the section.
        offset: usize,
        /// Bytes the section needs.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// Not a serialised hierarchy.
    #[error("not a hierarchy (bad magic number)")]
    BadMagic,
    /// Written by an incompatible version.
    #[error("format version {0} is not supported (expected {VERSION})")]
    UnsupportedVersion(u32),
    /// Node volumes of another type than requested.
    #[error("the data holds {found} node volumes, {expected:?} were requested")]
    WrongVolumeKind {
        /// The requested kind.
        expected: VolumeKind,
        /// The stored tag.
        found: u32,
    },
    /// Unknown root volume tag, or a NaN in the root volume.
    #[error("invalid root volume (tag {0})")]
    BadRoot(u32),
    /// Bytes left over after the last section.
    #[error("{0} unexpected bytes after the hierarchy")]
    TrailingBytes(usize),
    /// The length is not a whole number of 32-bit words.
    #[error("length {0} is not a multiple of 4")]
    Unaligned(usize),
    /// The mesh inside is invalid.
    #[error("invalid mesh: {0}")]
    Mesh(#[from] MeshError),
    /// The tree inside breaks an invariant.
    #[error("invalid tree: {0}")]
    Malformed(#[from] Malformed),
}

fn kind_tag(kind: VolumeKind) -> u32 {
    match kind {
        VolumeKind::Obb => 1,
        VolumeKind::Aabb => 2,
        VolumeKind::Sphere => 3,
    }
}

fn root_tag(kind: RootKind) -> u32 {
    match kind {
        RootKind::CubeAabb => 1,
        RootKind::Sphere => 2,
        RootKind::Aabb => 3,
        RootKind::Obb => 4,
        RootKind::SphereAabb => 5,
    }
}

impl<V: NodeVolume> Bvh<V> {
    /// The hierarchy as bytes (see the module documentation for the layout).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut words: Vec<u32> = vec![
            MAGIC,
            VERSION,
            kind_tag(V::KIND),
            root_tag(self.root.kind()),
            self.mesh.vertices().len() as u32,
            self.mesh.triangle_count() as u32,
            self.nodes.len() as u32,
        ];
        let mut root = [0.0f32; ROOT_SLOTS];
        let floats = root_floats(&self.root);
        root[..floats.len()].copy_from_slice(&floats);
        words.extend(root.map(f32::to_bits));
        words.extend_from_slice(bytemuck::cast_slice(self.mesh.vertices()));
        words.extend_from_slice(bytemuck::cast_slice(self.mesh.indices()));
        words.extend_from_slice(&self.original);
        for node in &self.nodes {
            words.extend_from_slice(bytemuck::cast_slice(std::slice::from_ref(&node.volume)));
        }
        for node in &self.nodes {
            words.extend_from_slice(bytemuck::cast_slice(&node.children));
        }
        words.into_iter().flat_map(u32::to_le_bytes).collect()
    }

    /// Loads and fully validates a hierarchy written by [`Bvh::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        if bytes.len() % 4 != 0 {
            return Err(LoadError::Unaligned(bytes.len()));
        }
        let mut reader = Reader { bytes, offset: 0 };
        let header = reader.words(HEADER_WORDS)?;
        if header[0] != MAGIC {
            return Err(LoadError::BadMagic);
        }
        if header[1] != VERSION {
            return Err(LoadError::UnsupportedVersion(header[1]));
        }
        if header[2] != kind_tag(V::KIND) {
            return Err(LoadError::WrongVolumeKind { expected: V::KIND, found: header[2] });
        }
        let (n_vertices, n_triangles, n_nodes) = (header[4] as usize, header[5] as usize, header[6] as usize);
        let root_floats: Vec<f32> = header[7..].iter().map(|&w| f32::from_bits(w)).collect();
        let root = root_from(header[3], &root_floats).ok_or(LoadError::BadRoot(header[3]))?;
        let vertices: Vec<Point> = reader.items(n_vertices)?;
        let indices: Vec<[u32; 3]> = reader.items(n_triangles)?;
        let original: Vec<u32> = reader.items(n_triangles)?;
        let volumes: Vec<V> = reader.items(n_nodes)?;
        let children: Vec<[Child; 2]> = reader.items(n_nodes)?;
        if reader.offset != bytes.len() {
            return Err(LoadError::TrailingBytes(bytes.len() - reader.offset));
        }
        let mesh = TriMesh::new(vertices, indices)?;
        let triangles = mesh.triangles().collect();
        let bvh = Bvh::assemble(mesh, original, triangles, Numbered::from_parts(&volumes, &children), root);
        bvh.check_well_formed()?;
        Ok(bvh)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl Reader<'_> {
    /// The next `n` words, after checking they are there.
    fn words(&mut self, n: usize) -> Result<Vec<u32>, LoadError> {
        let available = self.bytes.len() - self.offset;
        let needed = n.checked_mul(4).filter(|&b| b <= available).ok_or(LoadError::Truncated {
            offset: self.offset,
            needed: n.saturating_mul(4),
            available,
        })?;
        let chunk = &self.bytes[self.offset..self.offset + needed];
        self.offset += needed;
        Ok(chunk.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect())
    }

    /// The next `n` items of a plain-old-data type made of 32-bit words.
    fn items<T: bytemuck::Pod>(&mut self, n: usize) -> Result<Vec<T>, LoadError> {
        let per_item = std::mem::size_of::<T>() / 4;
        let words = self.words(n.checked_mul(per_item).unwrap_or(usize::MAX / 4))?;
        Ok(bytemuck::cast_slice(&words).to_vec())
    }
}

fn root_floats(root: &RootVolume) -> Vec<f32> {
    let pod = |x: &[f32]| x.to_vec();
    match root {
        RootVolume::CubeAabb(c) => pod(bytemuck::cast_slice(std::slice::from_ref(c))),
        RootVolume::Sphere(s) => pod(bytemuck::cast_slice(std::slice::from_ref(s))),
        RootVolume::Aabb(a) => pod(bytemuck::cast_slice(std::slice::from_ref(a))),
        RootVolume::Obb(o) => pod(bytemuck::cast_slice(std::slice::from_ref(o))),
        RootVolume::SphereAabb(s, a) => [
            bytemuck::cast_slice::<Sphere, f32>(std::slice::from_ref(s)),
            bytemuck::cast_slice(std::slice::from_ref(a)),
        ]
        .concat(),
    }
}

fn root_from(tag: u32, f: &[f32]) -> Option<RootVolume> {
    // Infinities are legitimate (the empty box of an empty mesh); NaN never is.
    if f.iter().any(|x| x.is_nan()) {
        return None;
    }
    let read = |n: usize| &f[..n];
    let root = match tag {
        1 => RootVolume::CubeAabb(*bytemuck::try_from_bytes::<CubeAabb>(bytemuck::cast_slice(read(4))).ok()?),
        2 => RootVolume::Sphere(*bytemuck::try_from_bytes::<Sphere>(bytemuck::cast_slice(read(4))).ok()?),
        3 => RootVolume::Aabb(*bytemuck::try_from_bytes::<Aabb>(bytemuck::cast_slice(read(6))).ok()?),
        4 => RootVolume::Obb(*bytemuck::try_from_bytes::<Obb>(bytemuck::cast_slice(read(15))).ok()?),
        5 => RootVolume::SphereAabb(
            *bytemuck::try_from_bytes::<Sphere>(bytemuck::cast_slice(read(4))).ok()?,
            *bytemuck::try_from_bytes::<Aabb>(bytemuck::cast_slice(&f[4..10])).ok()?,
        ),
        _ => return None,
    };
    Some(root)
}
