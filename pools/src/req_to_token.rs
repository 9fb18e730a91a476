//! `ReqToTokenPool`: the first level of KV memory, one page-table row per running request.

use crate::slot_allocator::KvSlots;
use crate::{PoolError, SlotId};

/// A row of the [`ReqToTokenPool`] held by one request. Not cloneable; it must be handed back
/// to [`ReqToTokenPool::free`], and dropping it unreleased is reported in debug builds.
#[must_use = "a request row must be freed with ReqToTokenPool::free"]
#[derive(Debug)]
pub struct ReqRow {
    index: u32,
    armed: bool,
}

impl ReqRow {
    /// The row index, as kernels see it in `req_pool_indices`.
    pub fn index(&self) -> usize {
        self.index as usize
    }
}

impl Drop for ReqRow {
    fn drop(&mut self) {
        debug_assert!(
            !self.armed || std::thread::panicking(),
            "request row {} dropped without ReqToTokenPool::free",
            self.index
        );
    }
}

/// A table `[max_running_requests, max_context_len]` of slot ids: entry `[r, i]` is the KV
/// slot of token `i` of the request holding row `r`.
#[derive(Debug)]
pub struct ReqToTokenPool {
    max_context_len: usize,
    table: Vec<SlotId>,
    free_rows: Vec<u32>,
    row_in_use: Vec<bool>,
}

impl ReqToTokenPool {
    pub fn new(max_running_requests: usize, max_context_len: usize) -> Result<Self, PoolError> {
        if max_running_requests == 0 || max_context_len == 0 {
            return Err(PoolError::InvalidConfig(
                "req_to_token needs at least one row and one column".into(),
            ));
        }
        let cells = max_running_requests
            .checked_mul(max_context_len)
            .ok_or_else(|| PoolError::InvalidConfig("req_to_token table too large".into()))?;
        Ok(Self {
            max_context_len,
            table: vec![0; cells],
            free_rows: (0..max_running_requests as u32).rev().collect(),
            row_in_use: vec![false; max_running_requests],
        })
    }

    pub fn max_running_requests(&self) -> usize {
        self.row_in_use.len()
    }

    pub fn max_context_len(&self) -> usize {
        self.max_context_len
    }

    pub fn available_rows(&self) -> usize {
        self.free_rows.len()
    }

    pub fn alloc(&mut self) -> Result<ReqRow, PoolError> {
        let index = self
            .free_rows
            .pop()
            .ok_or(PoolError::OutOfRows(self.row_in_use.len()))?;
        self.row_in_use[index as usize] = true;
        Ok(ReqRow { index, armed: true })
    }

    pub fn free(&mut self, mut row: ReqRow) {
        row.armed = false;
        self.row_in_use[row.index()] = false;
        self.free_rows.push(row.index);
    }

    /// The whole row of `row` (only the request's first `kv_len` entries are meaningful).
    pub fn row(&self, row: &ReqRow) -> &[SlotId] {
        let start = row.index() * self.max_context_len;
        &self.table[start..start + self.max_context_len]
    }

    /// Writes `slots` at positions `start..start + slots.len()` of `row`.
    pub fn write(&mut self, row: &ReqRow, start: usize, slots: &[SlotId]) -> Result<(), PoolError> {
        let end = start + slots.len();
        if end > self.max_context_len {
            return Err(PoolError::RowOverflow {
                start,
                end,
                max_context_len: self.max_context_len,
            });
        }
        let base = row.index() * self.max_context_len;
        self.table[base + start..base + end].copy_from_slice(slots);
        Ok(())
    }

    /// Moves freshly allocated slots into `row` at `start`: the request now owns them through
    /// its row. On error the slots are handed back unconsumed.
    pub fn assign(&mut self, row: &ReqRow, start: usize, slots: KvSlots) -> Result<(), KvSlots> {
        if self.write(row, start, slots.as_slice()).is_err() {
            return Err(slots);
        }
        drop(slots.into_vec());
        Ok(())
    }

    /// The whole table, row-major, for kernels that gather through `req_pool_indices`.
    pub fn table(&self) -> &[SlotId] {
        &self.table
    }

    /// Whether every row is free (part of the idle invariant).
    pub fn all_rows_free(&self) -> bool {
        self.free_rows.len() == self.row_in_use.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_exclusive_until_freed() {
        let mut pool = ReqToTokenPool::new(2, 8).unwrap();
        let a = pool.alloc().unwrap();
        let b = pool.alloc().unwrap();
        assert_ne!(a.index(), b.index());
        assert_eq!(pool.alloc().unwrap_err(), PoolError::OutOfRows(2));
        pool.write(&a, 2, &[7, 8, 9]).unwrap();
        assert_eq!(&pool.row(&a)[2..5], &[7, 8, 9]);
        assert!(pool.row(&b).iter().all(|&s| s == 0), "rows do not overlap");
        assert!(matches!(
            pool.write(&a, 6, &[1, 2, 3]),
            Err(PoolError::RowOverflow { .. })
        ));
        pool.free(a);
        pool.free(b);
        assert!(pool.all_rows_free());
    }

    #[test]
    fn table_is_row_major() {
        let mut pool = ReqToTokenPool::new(3, 4).unwrap();
        let rows: Vec<_> = (0..3).map(|_| pool.alloc().unwrap()).collect();
        let r = &rows[1];
        pool.write(r, 0, &[5, 6, 7, 8]).unwrap();
        let base = r.index() * 4;
        assert_eq!(&pool.table()[base..base + 4], &[5, 6, 7, 8]);
        for row in rows {
            pool.free(row);
        }
    }
}
