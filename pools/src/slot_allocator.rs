//! The KV slot allocator (SGLang's `TokenToKVPoolAllocator`): a free list of pages of
//! `page_size` consecutive slots. Page 0 is reserved as the write target of padded tokens.

use crate::{PoolError, SlotId};

/// Freshly allocated slots (an `out_cache_loc`). The value must be consumed: written into a
/// request row with [`crate::ReqToTokenPool::assign`] or returned with
/// [`KvSlotAllocator::free_owned`]. Dropping it unconsumed is reported in debug builds.
#[must_use = "allocated slots must be assigned to a request row or freed"]
#[derive(Debug)]
pub struct KvSlots {
    slots: Vec<SlotId>,
}

impl KvSlots {
    pub fn as_slice(&self) -> &[SlotId] {
        &self.slots
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Gives up the ids; the caller now carries their ownership some other way.
    pub(crate) fn into_vec(mut self) -> Vec<SlotId> {
        std::mem::take(&mut self.slots)
    }
}

impl Drop for KvSlots {
    fn drop(&mut self) {
        debug_assert!(
            self.slots.is_empty() || std::thread::panicking(),
            "{} KV slots dropped without being assigned or freed: they would leak",
            self.slots.len()
        );
    }
}

/// Free list of KV pages with an ownership bitmap, so a double free or a free of the reserved
/// page is an error rather than silent corruption.
#[derive(Debug)]
pub struct KvSlotAllocator {
    page_size: usize,
    num_pages: usize,
    /// Free pages, popped from the back. Lower pages are handed out first on a fresh pool.
    free_pages: Vec<u32>,
    /// `page_free[p]`: page `p` is on the free list or pending release.
    page_free: Vec<bool>,
    /// Frees made inside a free group, released when the group ends.
    pending: Vec<u32>,
    group_depth: u32,
}

impl KvSlotAllocator {
    /// An allocator over `num_slots` slots (rounded down to whole pages; page 0 reserved).
    pub fn new(num_slots: usize, page_size: usize) -> Result<Self, PoolError> {
        if page_size == 0 {
            return Err(PoolError::InvalidConfig(
                "page_size must be at least 1".into(),
            ));
        }
        let num_pages = num_slots / page_size;
        if num_pages < 2 {
            return Err(PoolError::InvalidConfig(format!(
                "{num_slots} slots in pages of {page_size} leave no usable page"
            )));
        }
        if num_pages.saturating_mul(page_size) > i32::MAX as usize {
            return Err(PoolError::InvalidConfig(format!(
                "{num_slots} slots exceed the 32-bit slot index range"
            )));
        }
        let mut page_free = vec![true; num_pages];
        page_free[0] = false;
        Ok(Self {
            page_size,
            num_pages,
            free_pages: (1..num_pages as u32).rev().collect(),
            page_free,
            pending: Vec::new(),
            group_depth: 0,
        })
    }

    pub fn page_size(&self) -> usize {
        self.page_size
    }

    /// Slots managed, the reserved page included (the size of the K/V buffers).
    pub fn num_slots(&self) -> usize {
        self.num_pages * self.page_size
    }

    /// Usable slots: everything but the reserved page.
    pub fn capacity(&self) -> usize {
        (self.num_pages - 1) * self.page_size
    }

    /// Slots that can be allocated now (frees pending in a group are not yet available).
    pub fn available(&self) -> usize {
        self.free_pages.len() * self.page_size
    }

    /// Slots freed in the current group and released when it ends.
    pub fn pending(&self) -> usize {
        self.pending.len() * self.page_size
    }

    /// Allocates `n` slots as whole pages; `n` must be a multiple of the page size.
    pub fn alloc(&mut self, n: usize) -> Result<KvSlots, PoolError> {
        if !n.is_multiple_of(self.page_size) {
            return Err(PoolError::UnalignedAlloc(n));
        }
        let mut slots = Vec::with_capacity(n);
        self.take_pages(n / self.page_size, &mut slots)?;
        Ok(KvSlots { slots })
    }

    /// Allocates `n` slots for a request whose last token sits at `last_slot`: the rest of
    /// that slot's page is used first (the request already owns it), then whole new pages.
    /// With `page_size == 1` this is `alloc(n)`.
    pub fn alloc_extend(
        &mut self,
        last_slot: Option<SlotId>,
        n: usize,
    ) -> Result<KvSlots, PoolError> {
        let mut slots = Vec::with_capacity(n);
        self.alloc_extend_into(last_slot, n, &mut slots)?;
        Ok(KvSlots { slots })
    }

    /// [`KvSlotAllocator::alloc_extend`] appending to `out` (no allocation on the hot path).
    /// The caller takes ownership of the appended slots; on error nothing is appended.
    pub(crate) fn alloc_extend_into(
        &mut self,
        last_slot: Option<SlotId>,
        n: usize,
        out: &mut Vec<SlotId>,
    ) -> Result<(), PoolError> {
        let in_page = self.room_after(last_slot).min(n);
        let new_pages = (n - in_page).div_ceil(self.page_size);
        if new_pages > self.free_pages.len() {
            return Err(PoolError::OutOfSlots {
                requested: new_pages * self.page_size,
                available: self.available(),
            });
        }
        let start = out.len();
        if let Some(last) = last_slot {
            out.extend((1..=in_page as SlotId).map(|d| last + d));
        }
        self.take_pages(new_pages, out)?;
        out.truncate(start + n);
        Ok(())
    }

    /// New slots (in whole pages) that `alloc_extend(last_slot, n)` needs from the free list.
    pub fn pages_needed(&self, last_slot: Option<SlotId>, n: usize) -> usize {
        (n - self.room_after(last_slot).min(n)).div_ceil(self.page_size) * self.page_size
    }

    /// Free slots left in the page of `last_slot` after it.
    fn room_after(&self, last_slot: Option<SlotId>) -> usize {
        match last_slot {
            Some(last) => self.page_size - 1 - (last as usize % self.page_size),
            None => 0,
        }
    }

    fn take_pages(&mut self, pages: usize, out: &mut Vec<SlotId>) -> Result<(), PoolError> {
        if pages > self.free_pages.len() {
            return Err(PoolError::OutOfSlots {
                requested: pages * self.page_size,
                available: self.available(),
            });
        }
        let start = self.free_pages.len() - pages;
        for page in self.free_pages.drain(start..).rev() {
            self.page_free[page as usize] = false;
            let first = page as usize * self.page_size;
            out.extend((first..first + self.page_size).map(|s| s as SlotId));
        }
        Ok(())
    }

    /// Returns slots from [`KvSlotAllocator::alloc`] that were never assigned to a row.
    pub fn free_owned(&mut self, slots: KvSlots) -> Result<(), PoolError> {
        self.free(&slots.into_vec())
    }

    /// Frees the pages holding `slots`. Slots of one page must be adjacent in the list (as
    /// they are in a request row or a tree node); freeing any slot frees its whole page.
    /// Inside a free group the pages become available when the group ends.
    pub fn free(&mut self, slots: &[SlotId]) -> Result<(), PoolError> {
        self.release(slots, self.group_depth > 0)
    }

    /// Frees like [`KvSlotAllocator::free`] but makes the pages available at once, even
    /// inside a free group (eviction frees slots because someone needs them now).
    pub fn free_now(&mut self, slots: &[SlotId]) -> Result<(), PoolError> {
        self.release(slots, false)
    }

    fn release(&mut self, slots: &[SlotId], defer: bool) -> Result<(), PoolError> {
        let mut last_page = None;
        for &slot in slots {
            let page = self.page_of(slot)?;
            if last_page == Some(page) {
                continue;
            }
            last_page = Some(page);
            if !self.page_free[page as usize] {
                self.page_free[page as usize] = true;
                if defer {
                    self.pending.push(page);
                } else {
                    self.free_pages.push(page);
                }
            } else {
                return Err(PoolError::DoubleFree(slot));
            }
        }
        Ok(())
    }

    fn page_of(&self, slot: SlotId) -> Result<u32, PoolError> {
        if slot < 0 || slot as usize >= self.num_slots() {
            return Err(PoolError::SlotOutOfRange {
                slot,
                num_slots: self.num_slots(),
            });
        }
        let page = slot as usize / self.page_size;
        if page == 0 {
            return Err(PoolError::ReservedSlot(slot));
        }
        Ok(page as u32)
    }

    /// Starts batching frees (SGLang's `free_group_begin`): pages freed until the matching
    /// [`KvSlotAllocator::end_free_group`] are not reused within the same scheduler step.
    pub fn begin_free_group(&mut self) {
        self.group_depth += 1;
    }

    pub fn end_free_group(&mut self) {
        self.group_depth = self.group_depth.saturating_sub(1);
        if self.group_depth == 0 {
            self.free_pages.append(&mut self.pending);
        }
    }

    /// Whether `slot` is currently allocated (not free, not reserved).
    pub fn is_allocated(&self, slot: SlotId) -> bool {
        self.page_of(slot)
            .map(|p| !self.page_free[p as usize])
            .unwrap_or(false)
    }

    /// Calls `f` with the first slot of every free or pending page.
    pub fn for_each_free_page(&self, mut f: impl FnMut(SlotId)) {
        for &page in self.free_pages.iter().chain(&self.pending) {
            f((page as usize * self.page_size) as SlotId);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_hands_out_distinct_slots_and_never_slot_zero() {
        let mut a = KvSlotAllocator::new(9, 1).unwrap();
        assert_eq!(a.capacity(), 8);
        let s = a.alloc(8).unwrap();
        let mut ids = s.as_slice().to_vec();
        ids.sort();
        assert_eq!(ids, (1..9).collect::<Vec<_>>());
        assert_eq!(a.available(), 0);
        a.free_owned(s).unwrap();
        assert_eq!(a.available(), 8);
    }

    #[test]
    fn alloc_beyond_capacity_is_an_error_not_a_panic() {
        let mut a = KvSlotAllocator::new(16, 4).unwrap();
        assert_eq!(
            a.alloc(16).unwrap_err(),
            PoolError::OutOfSlots {
                requested: 16,
                available: 12
            }
        );
        assert_eq!(a.available(), 12, "a failed alloc takes nothing");
        assert_eq!(a.alloc(3).unwrap_err(), PoolError::UnalignedAlloc(3));
    }

    #[test]
    fn reserved_and_double_frees_are_caught() {
        let mut a = KvSlotAllocator::new(8, 2).unwrap();
        assert_eq!(a.free(&[0]).unwrap_err(), PoolError::ReservedSlot(0));
        assert_eq!(a.free(&[1]).unwrap_err(), PoolError::ReservedSlot(1));
        assert!(matches!(
            a.free(&[8]),
            Err(PoolError::SlotOutOfRange { .. })
        ));
        assert!(matches!(
            a.free(&[-1]),
            Err(PoolError::SlotOutOfRange { .. })
        ));
        let s = a.alloc(2).unwrap();
        let ids = s.as_slice().to_vec();
        a.free_owned(s).unwrap();
        assert_eq!(a.free(&ids).unwrap_err(), PoolError::DoubleFree(ids[0]));
    }

    #[test]
    fn paged_frees_release_whole_pages() {
        let mut a = KvSlotAllocator::new(64, 16).unwrap();
        let s = a.alloc(32).unwrap();
        let ids = s.into_vec();
        for page in ids.chunks(16) {
            assert_eq!(page[0] % 16, 0, "pages start aligned");
            assert!(
                page.windows(2).all(|w| w[1] == w[0] + 1),
                "pages are contiguous"
            );
        }
        // Freeing one slot of a page frees the page.
        a.free(&ids[3..5]).unwrap();
        assert_eq!(a.available(), 32);
        a.free(&ids[16..]).unwrap();
        assert_eq!(a.available(), 48);
    }

    #[test]
    fn alloc_extend_fills_the_last_page_first() {
        let mut a = KvSlotAllocator::new(64, 4).unwrap();
        let first = a.alloc_extend(None, 3).unwrap().into_vec();
        assert_eq!(first.len(), 3);
        let last = *first.last().unwrap();
        assert_eq!(a.pages_needed(Some(last), 1), 0);
        assert_eq!(a.pages_needed(Some(last), 2), 4);
        let avail = a.available();
        let more = a.alloc_extend(Some(last), 6).unwrap().into_vec();
        assert_eq!(more[0], last + 1, "the partial page is filled first");
        assert_eq!(more.len(), 6);
        assert_eq!(
            avail - a.available(),
            8,
            "two new pages for five more slots"
        );
        assert_eq!(more[1] % 4, 0, "then a fresh page starts");
    }

    #[test]
    fn free_group_defers_reuse() {
        let mut a = KvSlotAllocator::new(5, 1).unwrap();
        let s = a.alloc(4).unwrap();
        a.begin_free_group();
        a.free_owned(s).unwrap();
        assert_eq!(a.available(), 0);
        assert_eq!(a.pending(), 4);
        assert!(
            a.alloc(1).is_err(),
            "pending slots are not reused inside the step"
        );
        a.end_free_group();
        assert_eq!(a.available(), 4);
    }
}
