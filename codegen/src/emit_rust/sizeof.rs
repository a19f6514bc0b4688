//! `sizeof<T>`, `bitsizeof<T>`, `x._sizeof` and `_sizeof`: sizes known without reading ([`Module::size_asked`]),
//! translated to integer literals. The `typecheck` pass has refused a size that depends on the data.

use super::*;

impl Cx<'_> {
    /// The literal for a node that asks for a size, or `None` for any other node.
    pub(super) fn size_asked(&self, e: &Expr, path: &str) -> Option<R<(Rx, T)>> {
        Some(match self.m.size_asked(self.ty, e)? {
            Ok(n) => Ok((Rx::int(i128::from(n)), T::Int)),
            Err(message) => err(path, message),
        })
    }
}
