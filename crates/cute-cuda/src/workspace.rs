//! Scratch memory that kernels take between launches (a stream-K schedule's partial sums and
//! flags, [`crate::tma_gemm::StreamK`]): one zeroed buffer per stream, kept for the device's
//! life, with an epoch that each launch on it raises.
//!
//! Launches on one stream run in order, so they may share a buffer; launches on two streams may
//! run at once, so each stream has its own. The per-thread default stream is one handle for
//! every thread, so there the buffer is also the thread's. A kernel that uses the buffer marks
//! what it wrote with its launch's epoch and reads only what carries it, so the buffer is never
//! cleared between launches. A buffer that grows is replaced, and the old one kept (a launch
//! queued before may still use it) until the device is dropped.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;

use crate::error::GpuError;

/// `CU_STREAM_PER_THREAD`: the handle of the per-thread default stream.
const PER_THREAD: u64 = 2;

/// Which buffer a launch takes: the stream's handle (`u64::MAX` for the device's own stream),
/// and the thread where the handle is the per-thread default stream.
pub(crate) type WorkspaceKey = (u64, Option<ThreadId>);

/// The key of stream `handle` (None: the device's own stream) for the calling thread.
pub(crate) fn workspace_key(handle: Option<u64>) -> WorkspaceKey {
    match handle {
        None => (u64::MAX, None),
        Some(PER_THREAD) => (PER_THREAD, Some(std::thread::current().id())),
        Some(h) => (h, None),
    }
}

struct Workspace<B> {
    buf: B,
    bytes: u64,
    epoch: u32,
}

/// The buffer of each stream, and those replaced by larger ones (kept for launches queued
/// before).
type Live<B> = (HashMap<WorkspaceKey, Workspace<B>>, Vec<B>);

/// The buffers of one device, of type `B` (a device allocation), by stream.
pub(crate) struct Workspaces<B> {
    live: Mutex<Live<B>>,
}

impl<B> Default for Workspaces<B> {
    fn default() -> Self {
        Workspaces {
            live: Mutex::new((HashMap::new(), Vec::new())),
        }
    }
}

impl<B> Workspaces<B> {
    /// The buffer of `key` holding at least `bytes` (made by `alloc`, zeroed, where there is
    /// none or it is smaller: at least `floor` bytes), its address by `addr`, and the next epoch
    /// of it (never 0, the value of a zeroed flag).
    pub(crate) fn take(
        &self,
        key: WorkspaceKey,
        bytes: u64,
        floor: u64,
        alloc: impl FnOnce(u64) -> Result<B, GpuError>,
        addr: impl FnOnce(&B) -> u64,
    ) -> Result<(u64, u32), GpuError> {
        let mut guard = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let (map, retired) = &mut *guard;
        if map.get(&key).is_none_or(|w| w.bytes < bytes) {
            let size = bytes.max(floor);
            let fresh = Workspace {
                buf: alloc(size)?,
                bytes: size,
                epoch: 0,
            };
            if let Some(old) = map.insert(key, fresh) {
                retired.push(old.buf);
            }
        }
        let w = map.get_mut(&key).expect("inserted above");
        w.epoch = w.epoch.wrapping_add(1).max(1);
        Ok((addr(&w.buf), w.epoch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_buffer_per_stream_and_epochs_that_rise() {
        let ws: Workspaces<u64> = Workspaces::default();
        let mut next = 0x1000;
        let mut alloc = |n: u64| {
            next += n;
            Ok(next - n)
        };
        let a = ws
            .take(workspace_key(Some(7)), 100, 64, &mut alloc, |b| *b)
            .unwrap();
        let b = ws
            .take(workspace_key(Some(7)), 50, 64, &mut alloc, |b| *b)
            .unwrap();
        assert_eq!((a, b), ((0x1000, 1), (0x1000, 2)));
        // another stream: another buffer, its own epochs
        let c = ws
            .take(workspace_key(None), 10, 64, &mut alloc, |b| *b)
            .unwrap();
        assert_eq!(c, (0x1000 + 100, 1));
        // growing replaces the buffer (the old one kept); the new one is zeroed: epochs from 1
        let d = ws
            .take(workspace_key(Some(7)), 500, 64, &mut alloc, |b| *b)
            .unwrap();
        assert_eq!(d, (0x1000 + 164, 1));
        assert_eq!(ws.live.lock().unwrap().1, vec![0x1000]);
        // the per-thread default stream is keyed by thread too
        let here = workspace_key(Some(PER_THREAD));
        let there = std::thread::spawn(|| workspace_key(Some(PER_THREAD)))
            .join()
            .unwrap();
        assert_ne!(here, there);
        assert_eq!(workspace_key(Some(0)), workspace_key(Some(0)));
    }

    #[test]
    fn an_epoch_is_never_zero() {
        let ws: Workspaces<u64> = Workspaces::default();
        let k = workspace_key(Some(9));
        ws.take(k, 1, 1, |_| Ok(5), |b| *b).unwrap();
        ws.live.lock().unwrap().0.get_mut(&k).unwrap().epoch = u32::MAX;
        assert_eq!(ws.take(k, 1, 1, |_| Ok(5), |b| *b).unwrap().1, 1);
    }
}
