//! Lock guards: a running request holds the path of its cached prefix so eviction skips it.

use crate::node::NodeId;

/// Proof that a node path is locked. It must be handed back to
/// [`crate::RadixCache::unlock`]; it cannot be cloned, so a path cannot be unlocked twice,
/// and dropping it unreleased is reported in debug builds.
#[must_use = "a NodeLock must be released with RadixCache::unlock"]
#[derive(Debug)]
pub struct NodeLock {
    node: NodeId,
    armed: bool,
}

impl NodeLock {
    pub(crate) fn new(node: NodeId) -> Self {
        Self { node, armed: true }
    }

    /// The deepest node of the locked path.
    pub fn node(&self) -> NodeId {
        self.node
    }

    pub(crate) fn disarm(mut self) -> NodeId {
        self.armed = false;
        self.node
    }
}

impl Drop for NodeLock {
    fn drop(&mut self) {
        debug_assert!(
            !self.armed || std::thread::panicking(),
            "NodeLock on {:?} dropped without RadixCache::unlock: its path would stay protected",
            self.node
        );
    }
}
