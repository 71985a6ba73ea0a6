//! Generic work on two [`Hierarchy`] values, whose node volumes are chosen at run time: the nine
//! pairings are matched here once, so a caller writes its work once, generically, and it is
//! still monomorphised per pairing.

use crate::node_test::NodeTest;
use bvh_build::{Bvh, Hierarchy, NodeVolume};

/// Work to run on two trees of any node volumes.
pub trait TreePairVisitor {
    /// What the work returns.
    type Output;

    /// Runs the work on A's tree and B's tree.
    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume;
}

/// Runs `visitor` on the trees inside `a` and `b`.
pub fn visit_tree_pair<V: TreePairVisitor>(a: &Hierarchy, b: &Hierarchy, visitor: V) -> V::Output {
    use Hierarchy::{Aabb as A, Obb as O, Sphere as S};
    match (a, b) {
        (O(a), O(b)) => visitor.visit(a, b),
        (O(a), A(b)) => visitor.visit(a, b),
        (O(a), S(b)) => visitor.visit(a, b),
        (A(a), O(b)) => visitor.visit(a, b),
        (A(a), A(b)) => visitor.visit(a, b),
        (A(a), S(b)) => visitor.visit(a, b),
        (S(a), O(b)) => visitor.visit(a, b),
        (S(a), A(b)) => visitor.visit(a, b),
        (S(a), S(b)) => visitor.visit(a, b),
    }
}
