"""What the long-journal board test and make bench share: a campaign of n
events (tests/host/linkutil.py's) on a board flash image, and the lowest
free heap the emulator's heap probe saw (emulator/src/heap.mjs)."""

import os

import linkutil

from dicetray.sim import lfsimage

HEAP_TARGET = 64 * 1024  # as the long session's (test_long_session.py)


def install(folder, n, snap_every=32, damage=False):
    """A campaign of n events on the board flash image folder/flash.bin
    (written as the session lays it out, on CPython); `damage`: every
    snapshot's state body flipped (its headers still name it). Returns
    (the host's campaign, the image's path)."""
    host = os.path.join(str(folder), "host%d" % n)
    c = linkutil.write_flash(host, n, snap_every=snap_every)
    if damage:
        linkutil.damage_snapshots(host)
    flash = os.path.join(str(folder), "flash.bin")
    lfsimage.install(flash, lfsimage.files_of(host))
    return c, flash


def low_heap(em):
    """The lowest free heap the emulator's probe saw on board `em` so far:
    right after a collection, or at any look (garbage counted) if none came."""
    st = em.stats()
    assert "heapSize" in st, "no heap probe (an image without gc_heap?): %s" % st
    return st["heapLow"] if st["heapCollections"] else st["heapMin"]
