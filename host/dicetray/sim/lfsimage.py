"""The emulated board's filesystem as the rp2 port lays it out: littlefs v2
in the flash from 0xA0000 to the end of the 2 MB (352 blocks of 4 KB,
programmed 256 bytes at a time: ports/rp2/modules/_boot.py), made and read
on the host with littlefs-python (the same littlefs, disk version 2.1).

So a campaign written on the host (the bench's 10,031 events, a desktop
simulator's flash folder) can be put on an emulated board's flash before
it boots, and what a board wrote can be read back after a power cut.
"""

import os

from ..base import outfile
from .flashlock import LOCK_NAME

FS_OFFSET = 0xA0000
BLOCK = 4096
BLOCKS = 352
FLASH_SIZE = 2 * 1024 * 1024


def _lfs(**kw):
    try:
        import littlefs
    except ImportError:
        raise RuntimeError(
            "reading or writing a board's filesystem needs littlefs-python: "
            "pip install 'littlefs-python==0.19.0' (it is in the dev extras)"
        ) from None
    # As MicroPython's VfsLfs2 on the rp2 port: read 32, program 256 bytes.
    return littlefs.LittleFS(
        block_size=BLOCK, block_count=BLOCKS, read_size=32, prog_size=256, lookahead_size=32, **kw
    )


def pack(files):
    """A formatted filesystem image (BLOCKS * BLOCK bytes) holding `files`:
    {'/dicetray/c1/j0.log': bytes, ...}; folders are made as needed."""
    fs = _lfs()
    for path in sorted(files):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open("/".join(parts), "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def files_of(folder):
    """{flash path: bytes} of every file under a host folder (a desktop
    simulator's --flash folder, less the simulator's lock file, or the
    bench's campaign)."""
    out = {}
    for base, _dirs, names in os.walk(folder):
        for n in names:
            full = os.path.join(base, n)
            rel = os.path.relpath(full, folder).replace(os.sep, "/")
            if rel == LOCK_NAME:
                continue
            with open(full, "rb") as f:
                out["/" + rel] = f.read()
    return out


def install(flash_file, files):
    """Put a filesystem holding `files` into the flash image file (made
    blank, all 0xFF, if missing); the code part of the flash is kept."""
    if os.path.exists(flash_file):
        with open(flash_file, "rb") as f:
            flash = bytearray(f.read())
        if len(flash) != FLASH_SIZE:
            raise ValueError("%s is %d bytes, not a 2 MB flash image" % (flash_file, len(flash)))
    else:
        flash = bytearray(b"\xff" * FLASH_SIZE)
    flash[FS_OFFSET:] = pack(files)
    os.makedirs(os.path.dirname(os.path.abspath(flash_file)), exist_ok=True)
    outfile.write(flash_file, flash)


def read(flash_file):
    """{flash path: bytes} of every file on the board's filesystem in the
    flash image file (as littlefs mounts it after a power cut)."""
    with open(flash_file, "rb") as f:
        f.seek(FS_OFFSET)
        image = f.read()
    import littlefs

    ctx = littlefs.UserContext(len(image))
    ctx.buffer[:] = image
    fs = _lfs(context=ctx, mount=True)
    out = {}
    for base, _dirs, names in fs.walk("/"):
        for n in names:
            p = base.rstrip("/") + "/" + n
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    return out
