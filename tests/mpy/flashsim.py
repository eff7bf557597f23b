"""Simulated flash filesystem with power cuts and an erase counter.

The same interface as store.fs.OsFs (open/sync/rename/remove/listdir/size/
mkdir/rmdir), in memory, on MicroPython and CPython.

Power cut: `FlashSim(cut=N)` runs on a budget of N units. Every byte
written costs one unit; every metadata operation (creating a file,
syncing new data, rename, remove, mkdir) costs one unit, so a cut can land
between any two operations as well as inside any write. The operation that
exceeds the budget keeps only the bytes that fit (a write is cut after its
first k bytes; a rename or remove is simply not done: they are atomic),
then it and every later call raise PowerCut. `revive()` is the next boot.

Two models of what survives a cut:
- keep_unsynced=True (default, the harsher one for the store): every byte
  written before the cut survives, synced or not, so a record can be torn
  at any byte;
- keep_unsynced=False (littlefs): a file reverts to its size at its last
  sync, so a record is all there or not at all.
A rename never replaces an existing file here (OSError EEXIST, like FAT),
so the store is proved not to depend on atomic rename-over.

Wear: a littlefs-like model with 4096-byte erase blocks. A sync that grows a
file copies its partly filled last block to a fresh block (copy-on-write)
and writes any further blocks: one erase per block touched; a file of up to
INLINE bytes lives in its directory's metadata (littlefs's inline files, the
rp2 port's inline_max), so its sync is a metadata commit only. Every metadata
commit (create, sync, rename, remove) takes one 256-byte program unit of a
metadata block; a metadata block is erased every 16 commits.
"""

BLOCK = 4096
META_PER_BLOCK = 16
INLINE = 512


class PowerCut(Exception):
    pass


class FlashSim:
    kind = "littlefs"

    def __init__(self, cut=-1, keep_unsynced=True):
        self.files = {}        # path -> bytearray (what is on flash)
        self.synced = {}       # path -> size at the last sync
        self.dirs = {""}
        self.cut = cut         # budget in units, -1 for none
        self.used = 0          # units spent
        self.dead = False
        self.keep_unsynced = keep_unsynced
        self.written = 0       # bytes written
        self.blocks = 0        # data blocks erased
        self.commits = 0       # metadata commits
        self.renames = 0
        self.gen = 0           # boot generation: handles from before a cut die

    # --- budget --------------------------------------------------------------
    def _spend(self, n):
        """Take n units; return how many fit. Marks the power off at the cut."""
        if self.dead:
            raise PowerCut()
        if self.cut >= 0 and self.used + n > self.cut:
            k = self.cut - self.used
            self.used = self.cut
            self.dead = True
            return k
        self.used += n
        return n

    def _meta(self):
        if self._spend(1) < 1:
            raise PowerCut()
        self.commits += 1

    def erases(self):
        """Erase-block erases so far: data blocks plus metadata blocks."""
        return self.blocks + self.commits // META_PER_BLOCK

    def revive(self, cut=-1):
        """The next boot: power back on (with an optional new cut budget)."""
        if not self.keep_unsynced:
            for p in self.files:
                self.files[p] = self.files[p][:self.synced[p]]
        self.dead = False
        self.cut = cut
        self.used = 0
        self.gen += 1

    # --- the fs interface ----------------------------------------------------
    def open(self, path, mode):
        if self.dead:
            raise PowerCut()
        if "r" in mode:
            if path not in self.files:
                raise OSError(2)  # ENOENT
        elif "w" in mode or path not in self.files:
            self._meta()       # create or truncate: a metadata commit
            self.files[path] = bytearray()
            self.synced[path] = 0
        return SimFile(self, path, mode)

    def sync(self, f):
        f.flush()

    def rename(self, a, b):
        if self.dead:
            raise PowerCut()
        if a in self.dirs:
            return self._rename_dir(a, b)
        if a not in self.files:
            raise OSError(2)
        if b in self.files or b in self.dirs:
            raise OSError(17)  # EEXIST: never rely on rename-over
        self._meta()
        self.files[b] = self.files.pop(a)
        self.synced[b] = self.synced.pop(a)
        self.renames += 1

    def _rename_dir(self, a, b):
        """A directory moves whole, in one metadata commit (atomic)."""
        if b in self.files or b in self.dirs:
            raise OSError(17)
        self._meta()
        pre = a + "/"
        for d in [d for d in self.dirs if d == a or d.startswith(pre)]:
            self.dirs.remove(d)
            self.dirs.add(b + d[len(a):])
        for p in [p for p in self.files if p.startswith(pre)]:
            q = b + p[len(a):]
            self.files[q] = self.files.pop(p)
            self.synced[q] = self.synced.pop(p)
        self.renames += 1

    def remove(self, p):
        if self.dead:
            raise PowerCut()
        if p not in self.files:
            raise OSError(2)
        self._meta()
        del self.files[p]
        del self.synced[p]

    def listdir(self, d):
        if self.dead:
            raise PowerCut()
        pre = d.rstrip("/") + "/"
        names = []
        for p in list(self.files) + list(self.dirs):
            if p.startswith(pre) and "/" not in p[len(pre):] and p[len(pre):]:
                names.append(p[len(pre):])
        return names

    def size(self, p):
        if self.dead:
            raise PowerCut()
        f = self.files.get(p)
        return -1 if f is None else len(f)

    def mkdir(self, p):
        """A directory: a commit in its parent's metadata, and a metadata
        pair of its own, whose first block is erased when it is written."""
        if p not in self.dirs:
            self._meta()
            self.dirs.add(p)
            self.blocks += 1

    def rmdir(self, p):
        """Remove an empty directory (one metadata commit)."""
        if self.dead:
            raise PowerCut()
        if p not in self.dirs:
            raise OSError(2)
        if self.listdir(p):
            raise OSError(39)  # ENOTEMPTY
        self._meta()
        self.dirs.remove(p)


class SimFile:
    """A handle on a FlashSim file: sequential reads, or appends."""

    def __init__(self, sim, path, mode):
        self.sim = sim
        self.path = path
        self.w = "r" not in mode
        self.pos = 0
        self.gen = sim.gen

    def _data(self):
        s = self.sim
        if s.dead or self.gen != s.gen:
            raise PowerCut()
        return s.files[self.path]

    def write(self, b):
        data = self._data()
        n = len(b)
        k = self.sim._spend(n)
        if k == n:
            data.extend(b)
        else:
            data.extend(bytes(b)[:k])
        self.sim.written += k
        if k < n:
            raise PowerCut()
        return n

    def flush(self):
        data = self._data()
        s = self.sim
        old = s.synced[self.path]
        new = len(data)
        if new == old:
            return
        s._meta()
        s.synced[self.path] = new
        if new > old and new > INLINE:
            if old <= INLINE:
                old = 0        # out of the metadata: every block is new
            s.blocks += (new - 1) // BLOCK - old // BLOCK + 1

    def readinto(self, buf):
        data = self._data()
        k = len(data) - self.pos
        if k > len(buf):
            k = len(buf)
        if k <= 0:
            return 0
        buf[0:k] = data[self.pos:self.pos + k]
        self.pos += k
        return k

    def seek(self, pos, whence=0):
        """Read from byte `pos` on (store/paging.py pages a segment from an
        offset); from the end with whence 2 (the link asks a segment's size)."""
        data = self._data()
        self.pos = pos + (len(data) if whence == 2 else 0)
        return self.pos

    def read(self, n=-1):
        data = self._data()
        end = len(data) if n < 0 else min(len(data), self.pos + n)
        out = bytes(data[self.pos:end])
        self.pos = end
        return out

    def close(self):
        if self.w and not self.sim.dead and self.gen == self.sim.gen:
            self.flush()  # littlefs: close implies sync
