//! Compiled once: the caches between a plan's CUDA C++ and a loaded kernel.
//!
//! * **In memory** ([`Lru`]): per device, the loaded kernels keyed by their source, and the
//!   library's plans keyed by their layouts ([`crate::api`]); bounded by a number of entries, the
//!   least recently used dropped first.
//! * **On disk** ([`DiskCache`]): the CUBIN of each source in a folder under the user's cache
//!   directory, keyed by the source, the kernel's name, the GPU architecture, the NVRTC version
//!   and this crate's version, so that a second process loads the machine code and pays no NVRTC
//!   time. Each file holds its whole key and is used only when the key matches byte for byte (a
//!   hash collision can only cost a compilation, never load the wrong kernel). Bounded by bytes:
//!   past the limit, the least recently written files are removed. Files are written to a
//!   temporary name and renamed, so that processes sharing the folder never read half a file.
//!
//! Both can be turned off ([`CacheConfig`]; the environment variables of
//! [`CacheConfig::from_env`]).
//!
//! ```
//! use cute_cuda::cache::{CacheConfig, DiskCache};
//! let dir = std::env::temp_dir().join(format!("cute-cuda-doc-{}", std::process::id()));
//! let disk = DiskCache::new(dir.clone(), 1 << 20);
//! let key = DiskCache::key("extern \"C\" __global__ void k() {}", "k", "sm_90a", (13, 0));
//! disk.store(&key, b"\x7fELF...").unwrap();
//! assert_eq!(disk.load(&key).as_deref(), Some(&b"\x7fELF..."[..]));
//! let other = DiskCache::key("extern \"C\" __global__ void k() {}", "k", "sm_80", (13, 0));
//! assert_eq!(disk.load(&other), None); // another architecture: another file
//! std::fs::remove_dir_all(dir).unwrap();
//! assert!(CacheConfig::disabled().disk_dir.is_none());
//! ```

use std::collections::HashMap;
use std::hash::Hash;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The default number of entries of each in-memory cache.
pub const DEFAULT_MEMORY_ENTRIES: usize = 512;
/// The default size limit of the on-disk cache: 256 MiB.
pub const DEFAULT_DISK_BYTES: u64 = 256 << 20;

/// Where and how much the caches keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Entries of each in-memory cache (kernels, plans); 0 turns them off.
    pub memory_entries: usize,
    /// The on-disk folder; `None` turns the disk cache off.
    pub disk_dir: Option<PathBuf>,
    /// Bytes the disk cache keeps at most.
    pub disk_bytes: u64,
}

impl CacheConfig {
    /// No cache at all: every call plans and compiles again (for measuring cold calls).
    ///
    /// ```
    /// let c = cute_cuda::cache::CacheConfig::disabled();
    /// assert_eq!((c.memory_entries, c.disk_dir), (0, None));
    /// ```
    pub fn disabled() -> CacheConfig {
        CacheConfig {
            memory_entries: 0,
            disk_dir: None,
            disk_bytes: 0,
        }
    }

    /// The configuration the environment asks for:
    ///
    /// * `CUTE_CUDA_CACHE`: `off` (no cache), `memory` (no disk cache), or the disk cache's folder;
    ///   unset: `$XDG_CACHE_HOME/cute-cuda`, else `$HOME/.cache/cute-cuda`, else memory only;
    /// * `CUTE_CUDA_CACHE_BYTES`: the disk cache's limit (default 256 MiB);
    /// * `CUTE_CUDA_CACHE_ENTRIES`: entries of each in-memory cache (default 512).
    ///
    /// ```
    /// let c = cute_cuda::cache::CacheConfig::from_env();
    /// assert!(c.memory_entries > 0 || std::env::var("CUTE_CUDA_CACHE").as_deref() == Ok("off"));
    /// ```
    pub fn from_env() -> CacheConfig {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let num = |k: &str| var(k).and_then(|v| v.trim().parse::<u64>().ok());
        let memory_entries = num("CUTE_CUDA_CACHE_ENTRIES")
            .map(|n| n as usize)
            .unwrap_or(DEFAULT_MEMORY_ENTRIES);
        let disk_bytes = num("CUTE_CUDA_CACHE_BYTES").unwrap_or(DEFAULT_DISK_BYTES);
        let disk_dir = match var("CUTE_CUDA_CACHE").as_deref() {
            Some("off") => return CacheConfig::disabled(),
            Some("memory") => None,
            Some(dir) => Some(PathBuf::from(dir)),
            None => var("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| var("HOME").map(|h| Path::new(&h).join(".cache")))
                .map(|d| d.join("cute-cuda")),
        };
        CacheConfig {
            memory_entries,
            disk_dir,
            disk_bytes,
        }
    }
}

/// A map of at most `capacity` entries that drops the least recently used one when full
/// (capacity 0: keeps nothing).
///
/// ```
/// use cute_cuda::cache::Lru;
/// let mut c = Lru::new(2);
/// c.insert("a", 1);
/// c.insert("b", 2);
/// assert_eq!(c.get(&"a"), Some(&1)); // "a" is now the most recently used
/// c.insert("c", 3);                  // drops "b"
/// assert_eq!(c.get(&"b"), None);
/// assert_eq!(c.len(), 2);
/// ```
#[derive(Debug)]
pub struct Lru<K, V> {
    capacity: usize,
    tick: u64,
    map: HashMap<K, (V, u64)>,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    /// An empty cache of `capacity` entries.
    pub fn new(capacity: usize) -> Lru<K, V> {
        Lru {
            capacity,
            tick: 0,
            map: HashMap::new(),
        }
    }

    /// The value of `key`, marked as the most recently used.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        self.tick += 1;
        let t = self.tick;
        self.map.get_mut(key).map(|e| {
            e.1 = t;
            &e.0
        })
    }

    /// Inserts `key`, dropping the least recently used entry when the cache is full.
    pub fn insert(&mut self, key: K, value: V) {
        if self.capacity == 0 {
            return;
        }
        if self.map.len() >= self.capacity && !self.map.contains_key(&key) {
            if let Some(old) = self
                .map
                .iter()
                .min_by_key(|(_, (_, t))| *t)
                .map(|(k, _)| k.clone())
            {
                self.map.remove(&old);
            }
        }
        self.tick += 1;
        self.map.insert(key, (value, self.tick));
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no entry is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Drops every entry.
    pub fn clear(&mut self) {
        self.map.clear();
    }
}

/// The key of a compiled kernel: everything its machine code depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// The text written at the head of the file and compared on load (all fields below).
    header: String,
    /// The CUDA C++ source.
    source: String,
    /// A 64-bit FNV-1a hash of header and source: the file's name.
    hash: u64,
}

impl KernelKey {
    /// The file name of the entry.
    pub fn file_name(&self) -> String {
        format!("{:016x}.cubin", self.hash)
    }
}

fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const MAGIC: &[u8] = b"cute-cuda cubin 1\n";

/// The on-disk CUBIN cache (see the module's documentation).
#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: PathBuf,
    limit: u64,
}

impl DiskCache {
    /// A cache in `dir` (created when first written) of at most `limit` bytes.
    pub fn new(dir: PathBuf, limit: u64) -> DiskCache {
        DiskCache { dir, limit }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of `source`'s kernel `name` compiled for `arch` by NVRTC `nvrtc`, with this
    /// crate's version.
    pub fn key(source: &str, name: &str, arch: &str, nvrtc: (i32, i32)) -> KernelKey {
        let header = format!(
            "cute-cuda {}\narch {arch}\nnvrtc {}.{}\nkernel {name}\nsource bytes {}\n",
            env!("CARGO_PKG_VERSION"),
            nvrtc.0,
            nvrtc.1,
            source.len()
        );
        let hash = fnv1a(&[header.as_bytes(), source.as_bytes()]);
        KernelKey {
            header,
            source: source.to_string(),
            hash,
        }
    }

    /// The CUBIN stored under `key`, when a file holds exactly that key; `None` otherwise (no
    /// file, another key under the same hash, a truncated or unreadable file).
    pub fn load(&self, key: &KernelKey) -> Option<Vec<u8>> {
        let bytes = std::fs::read(self.dir.join(key.file_name())).ok()?;
        let rest = bytes.strip_prefix(MAGIC)?;
        let rest = rest.strip_prefix(key.header.as_bytes())?;
        let rest = rest.strip_prefix(key.source.as_bytes())?;
        (!rest.is_empty()).then(|| rest.to_vec())
    }

    /// Stores `cubin` under `key` (write to a temporary file, then rename), then removes the least
    /// recently written files while the folder holds more than the limit.
    pub fn store(&self, key: &KernelKey, cubin: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let tmp = self
            .dir
            .join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
        {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(MAGIC)?;
            f.write_all(key.header.as_bytes())?;
            f.write_all(key.source.as_bytes())?;
            f.write_all(cubin)?;
        }
        let path = self.dir.join(key.file_name());
        std::fs::rename(&tmp, &path)?;
        self.prune(Some(&path))
    }

    /// Removes the oldest `.cubin` files (but `keep`) until the folder holds at most the limit.
    /// File times are coarse (several files may share one), so the file just written is named.
    pub fn prune(&self, keep: Option<&Path>) -> std::io::Result<()> {
        let mut files = Vec::new();
        let mut total = 0u64;
        for e in std::fs::read_dir(&self.dir)? {
            let e = e?;
            let name = e.file_name();
            if !name.to_string_lossy().ends_with(".cubin") {
                continue;
            }
            let md = e.metadata()?;
            total += md.len();
            files.push((
                md.modified().unwrap_or(std::time::UNIX_EPOCH),
                md.len(),
                e.path(),
            ));
        }
        files.sort();
        for (_, len, path) in files {
            if total <= self.limit {
                break;
            }
            if Some(path.as_path()) == keep {
                continue;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_in_every_field() {
        let base = DiskCache::key("s", "k", "sm_90a", (13, 0));
        for other in [
            DiskCache::key("t", "k", "sm_90a", (13, 0)),
            DiskCache::key("s", "j", "sm_90a", (13, 0)),
            DiskCache::key("s", "k", "sm_80", (13, 0)),
            DiskCache::key("s", "k", "sm_90a", (13, 1)),
        ] {
            assert_ne!(base.hash, other.hash);
            assert_ne!(base, other);
        }
    }

    #[test]
    fn a_colliding_file_is_not_loaded() {
        let dir = std::env::temp_dir().join(format!("cute-cuda-test-{}", std::process::id()));
        let disk = DiskCache::new(dir.clone(), 1 << 20);
        let a = DiskCache::key("a", "k", "sm_90a", (13, 0));
        let mut b = DiskCache::key("b", "k", "sm_90a", (13, 0));
        b.hash = a.hash; // force the same file name
        disk.store(&a, b"AAAA").unwrap();
        assert_eq!(disk.load(&a).unwrap(), b"AAAA");
        assert_eq!(disk.load(&b), None);
        // a truncated file is ignored
        let path = dir.join(a.file_name());
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
        assert_eq!(disk.load(&a), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_disk_cache_is_bounded() {
        let dir = std::env::temp_dir().join(format!("cute-cuda-prune-{}", std::process::id()));
        let disk = DiskCache::new(dir.clone(), 3000);
        for i in 0..10 {
            let k = DiskCache::key(&format!("source {i}"), "k", "sm_90a", (13, 0));
            disk.store(&k, &[7u8; 1000]).unwrap();
        }
        let total: u64 = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert!(total <= 3000, "{total}");
        // the newest entry survives
        let last = DiskCache::key("source 9", "k", "sm_90a", (13, 0));
        assert!(disk.load(&last).is_some());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn lru_capacity_zero_keeps_nothing() {
        let mut c = Lru::new(0);
        c.insert(1, 1);
        assert!(c.is_empty());
        assert_eq!(c.get(&1), None);
    }
}
