//! Writes OpenFlight files for the tests: just the records and fields the reader uses, laid
//! out as the format notes give them; and STL files (`stl`).

#![allow(dead_code, unreachable_pub)]

pub mod stl;

/// Vertex record kinds by opcode: 68 colour, 69 colour + normal, 70 colour + normal + UV,
/// 71 colour + UV.
pub const VERTEX_KINDS: [u16; 4] = [68, 69, 70, 71];

/// An OpenFlight file under construction.
#[derive(Default)]
pub struct Flt {
    pub bytes: Vec<u8>,
}

/// A unit square's corners, each vertex record kind once.
pub fn square(units: i8) -> (Flt, Vec<i32>) {
    let corners = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    let vertices: Vec<(u16, [f64; 3])> = VERTEX_KINDS.iter().copied().zip(corners).collect();
    Flt::new(units, &vertices)
}

/// Places where an ancillary record can sit between a node and its children.
pub const BESIDE: [&str; 6] = ["group", "object", "face", "subface", "mesh", "lod"];

/// A group holding an object with a face, a subface, a mesh and a LOD, with an unknown record
/// after each node named in `unknown` (before its push or its vertex pool).
pub fn with_unknown_records(unknown: &[&str]) -> Flt {
    let (mut f, v) = square(0);
    let pool = [[0.0, 0.0, 2.0], [1.0, 0.0, 2.0], [1.0, 1.0, 2.0], [0.0, 1.0, 2.0]];
    let beside = |f: &mut Flt, place: &str| {
        if unknown.contains(&place) {
            f.unknown(1000 + BESIDE.iter().position(|&p| p == place).unwrap_or(0) as u16);
        }
    };
    f.push().group("g");
    beside(&mut f, "group");
    f.push().object("o");
    beside(&mut f, "object");
    f.push().face(0);
    beside(&mut f, "face");
    f.push().vertex_list(&v).pop();
    f.push_subface().face(0);
    beside(&mut f, "subface");
    f.push().vertex_list(&v[..3]).pop().pop_subface();
    f.mesh();
    beside(&mut f, "mesh");
    f.local_vertex_pool(&pool).push().mesh_primitive(2, &[0, 1, 2, 3]).pop();
    f.lod("l", 10.0);
    beside(&mut f, "lod");
    f.push().face(0).push().vertex_list(&v[1..]).pop().pop();
    f.pop().pop().pop();
    f
}

/// Applies a fuzzer's edits to a valid file: each 3 bytes overwrite one byte (little-endian
/// u16 position, modulo the length, then the value); 2 bytes left over cut the file there.
pub fn edit(bytes: &mut Vec<u8>, edits: &[u8]) {
    let mut chunks = edits.chunks_exact(3);
    for e in &mut chunks {
        if !bytes.is_empty() {
            let at = u16::from_le_bytes([e[0], e[1]]) as usize % bytes.len();
            bytes[at] = e[2];
        }
    }
    if let [a, b] = chunks.remainder() {
        let cut = u16::from_le_bytes([*a, *b]) as usize % (bytes.len() + 1);
        bytes.truncate(cut);
    }
}

fn id(name: &str) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (o, b) in out.iter_mut().zip(name.bytes().take(7)) {
        *o = b;
    }
    out
}

impl Flt {
    /// A file with a header in the given units (0 metres, 4 feet, …) and a vertex palette of
    /// `vertices`, each with its record kind; returns the file and each vertex's palette offset.
    pub fn new(units: i8, vertices: &[(u16, [f64; 3])]) -> (Self, Vec<i32>) {
        let mut f = Flt::default();
        let mut header = vec![0u8; 128];
        header[..8].copy_from_slice(&id("db"));
        header[8..12].copy_from_slice(&1610i32.to_be_bytes());
        header[58] = units as u8;
        f.record(1, &header);
        let mut offsets = Vec::new();
        let mut at = 8;
        let mut records = Vec::new();
        for &(kind, p) in vertices {
            let len = match kind {
                68 => 40,
                69 => 56,
                70 => 64,
                _ => 48,
            };
            let mut body = vec![0u8; len - 4];
            for (k, c) in p.iter().enumerate() {
                body[4 + 8 * k..12 + 8 * k].copy_from_slice(&c.to_be_bytes());
            }
            records.push((kind, body));
            offsets.push(at as i32);
            at += len;
        }
        f.record(67, &(at as i32).to_be_bytes());
        for (kind, body) in records {
            f.record(kind, &body);
        }
        (f, offsets)
    }

    /// A record with this opcode and body (the 4-byte header is added).
    pub fn record(&mut self, opcode: u16, body: &[u8]) -> &mut Self {
        self.bytes.extend(opcode.to_be_bytes());
        self.bytes.extend(((body.len() + 4) as u16).to_be_bytes());
        self.bytes.extend(body);
        self
    }

    pub fn push(&mut self) -> &mut Self {
        self.record(10, &[])
    }

    pub fn pop(&mut self) -> &mut Self {
        self.record(11, &[])
    }

    pub fn push_subface(&mut self) -> &mut Self {
        self.record(19, &[])
    }

    pub fn pop_subface(&mut self) -> &mut Self {
        self.record(20, &[])
    }

    /// A record no revision of the format defines (a vendor's, or a newer one's).
    pub fn unknown(&mut self, opcode: u16) -> &mut Self {
        self.record(opcode, &[0xAB; 12])
    }

    fn named(&mut self, opcode: u16, name: &str, len: usize) -> &mut Self {
        let mut body = vec![0u8; len];
        body[..8].copy_from_slice(&id(name));
        self.record(opcode, &body)
    }

    pub fn group(&mut self, name: &str) -> &mut Self {
        self.named(2, name, 40)
    }

    pub fn object(&mut self, name: &str) -> &mut Self {
        self.named(4, name, 24)
    }

    /// A face with the given draw type (0 solid, 2 wireframe, 8 light point).
    pub fn face(&mut self, draw_type: u8) -> &mut Self {
        let mut body = vec![0u8; 76];
        body[..8].copy_from_slice(&id("f"));
        body[14] = draw_type;
        self.record(5, &body)
    }

    pub fn vertex_list(&mut self, offsets: &[i32]) -> &mut Self {
        let body: Vec<u8> = offsets.iter().flat_map(|o| o.to_be_bytes()).collect();
        self.record(72, &body)
    }

    /// A vertex list split over a Continuation record after its first `first` entries.
    pub fn vertex_list_continued(&mut self, offsets: &[i32], first: usize) -> &mut Self {
        let body: Vec<u8> = offsets.iter().flat_map(|o| o.to_be_bytes()).collect();
        self.record(72, &body[..4 * first]);
        self.record(23, &body[4 * first..])
    }

    /// Matrix (49): row-major, row-vector convention (translation in elements 12–14).
    pub fn matrix(&mut self, m: [f32; 16]) -> &mut Self {
        let body: Vec<u8> = m.iter().flat_map(|v| v.to_be_bytes()).collect();
        self.record(49, &body)
    }

    pub fn translation(&mut self, x: f32, y: f32, z: f32) -> &mut Self {
        self.matrix([1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, z, 1.0])
    }

    pub fn long_id(&mut self, name: &str) -> &mut Self {
        let mut body = name.as_bytes().to_vec();
        body.push(0);
        while body.len() % 4 != 0 {
            body.push(0);
        }
        self.record(33, &body)
    }

    pub fn lod(&mut self, name: &str, switch_out: f64) -> &mut Self {
        let mut body = vec![0u8; 76];
        body[..8].copy_from_slice(&id(name));
        body[20..28].copy_from_slice(&switch_out.to_be_bytes());
        self.record(73, &body)
    }

    /// A switch with one mask word per mask; `current` selects the mask.
    pub fn switch(&mut self, current: i32, masks: &[u32]) -> &mut Self {
        let mut body = vec![0u8; 24];
        body[..8].copy_from_slice(&id("sw"));
        body[12..16].copy_from_slice(&current.to_be_bytes());
        body[16..20].copy_from_slice(&(masks.len() as i32).to_be_bytes());
        body[20..24].copy_from_slice(&1i32.to_be_bytes());
        body.extend(masks.iter().flat_map(|m| m.to_be_bytes()));
        self.record(96, &body)
    }

    pub fn external_reference(&mut self, path: &str) -> &mut Self {
        let mut body = vec![0u8; 212];
        body[..path.len()].copy_from_slice(path.as_bytes());
        self.record(63, &body)
    }

    pub fn mesh(&mut self) -> &mut Self {
        let mut body = vec![0u8; 80];
        body[..8].copy_from_slice(&id("m"));
        self.record(84, &body)
    }

    /// Local vertex pool with positions and normals.
    pub fn local_vertex_pool(&mut self, points: &[[f64; 3]]) -> &mut Self {
        let mut body = Vec::new();
        body.extend((points.len() as u32).to_be_bytes());
        body.extend((0x8000_0000u32 | 0x1000_0000).to_be_bytes());
        for p in points {
            body.extend(p.iter().flat_map(|c| c.to_be_bytes()));
            body.extend([0u8; 12]);
        }
        self.record(85, &body)
    }

    /// Mesh primitive of `kind` (1 strip, 2 fan, 3 quad strip, 4 polygon) with 16-bit indices.
    pub fn mesh_primitive(&mut self, kind: i16, indices: &[u16]) -> &mut Self {
        let mut body = Vec::new();
        body.extend(kind.to_be_bytes());
        body.extend(2u16.to_be_bytes());
        body.extend((indices.len() as u32).to_be_bytes());
        body.extend(indices.iter().flat_map(|i| i.to_be_bytes()));
        while body.len() % 4 != 0 {
            body.push(0);
        }
        self.record(86, &body)
    }
}
