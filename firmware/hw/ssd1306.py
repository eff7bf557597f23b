"""SSD1306 OLED over I2C, drawing on framebuf, pushing only what changed.

The driver IS a 128x64 MONO_VLSB `framebuf.FrameBuffer` (like micropython-lib's
ssd1306, whose init sequence this follows). `show()` compares the frame with a
shadow copy of what the panel RAM holds and, per 8-row page, sends only the
span of columns between the first and the last changed byte, cut in two
where a whole 16-column chunk between them is unchanged. MONO_VLSB byte
(page p, column x) is exactly panel RAM byte (p, x), so a byte compare is a
pixel compare.

I2C framing (SSD1306 datasheet 8.1.5): after the address, a control byte
0x00 starts a command stream, 0x40 a data stream. A page update is two
transactions: window commands, then the data. Both are staged in
preallocated buffers; the data goes out through a cached memoryview per span
length, so once the spans a UI uses have been seen, `show()` allocates
nothing (and with nothing changed it never allocates or sends anything).
Only `i2c.writeto(addr, buf)` is needed: the control byte shares the buffer,
so no `writevto` list is built. With `dma` (hw/i2cdma.py, on the RP2040)
the pages go out by DMA instead: `show()` stages a page while the last one
is on the bus and returns with the last page still going out; anything
else that uses the bus waits for it first.

Counters for the benchmark: `last_bytes` / `last_txns` (payload bytes passed
to writeto and transactions in the last show), `bytes_total` (everything
sent, wrapped to 30 bits so it stays a small int).
"""

import framebuf

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CTRL_CMD = const(0x00)   # Co=0 D/C#=0: the rest of the transaction is commands
_CTRL_DATA = const(0x40)  # Co=0 D/C#=1: the rest is display data
_SET_CONTRAST = const(0x81)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_WRAP = const(0x3FFFFFFF)
_CHUNK = const(16)


class SSD1306(framebuf.FrameBuffer):
    """SSD1306 panel `width` x `height` on `i2c` at `addr`.

    Draw with the FrameBuffer methods, then `show()`; returns the payload
    bytes sent (0 when nothing changed).
    """

    COL0 = 0  # first visible RAM column (the SH1106 has 2)

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False, dma=None):
        if height % 8 or not 0 < width <= 128 or not 0 < height <= 64:
            raise ValueError("panel must be up to 128x64 with height a multiple of 8")
        self.width = width
        self.height = height
        self.pages = height // 8
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        # Narrower panels sit centred in the 128 columns (as micropython-lib).
        self.col0 = self.COL0 + (128 - width) // 2
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._shadow = bytearray(len(self.buffer))  # what the panel RAM holds
        # One view per page of both, so whole pages compare without slicing.
        mb = memoryview(self.buffer)
        ms = memoryview(self._shadow)
        self._bp = [mb[p * width:(p + 1) * width] for p in range(self.pages)]
        # Public: a caller that paints whole pages (the UI's text rows) fills
        # one with a slice copy instead of fill_rect's pixel-by-pixel loop.
        self.pagebufs = self._bp
        self._sp = [ms[p * width:(p + 1) * width] for p in range(self.pages)]
        # ...and per 16-column chunk, so the changed spans of a page are found
        # with a few C compares plus at most 15 byte steps at each end
        # (~2.6 KB of views for 128x64; halves show() time for a typical
        # small change against a plain byte scan).
        nc = (width + _CHUNK - 1) // _CHUNK
        self._nc = nc
        self._runs = bytearray(nc + 1)  # a page's spans, first and last column: one per two chunks at most
        self._bc = []
        self._sc = []
        for p in range(self.pages):
            for k in range(nc):
                a = p * width + k * _CHUNK
                b = min(a + _CHUNK, (p + 1) * width)
                self._bc.append(mb[a:b])
                self._sc.append(ms[a:b])
        self._cmd = bytearray(8)
        self._cv = [memoryview(self._cmd)[:k] for k in range(9)]
        # Data transaction: control byte + up to one page row.
        self._tx = bytearray(width + 1)
        self._tx[0] = _CTRL_DATA
        # The same bytes seen as 8-bit "pixels" (one pixel per column byte,
        # one row per page) so spans are copied by blit.
        gs8 = framebuf.GS8
        self._bg = framebuf.FrameBuffer(self.buffer, width, self.pages, gs8)
        self._sg = framebuf.FrameBuffer(self._shadow, width, self.pages, gs8)
        self._txg = framebuf.FrameBuffer(memoryview(self._tx)[1:], width, 1, gs8)
        self._txv = [None] * (width + 2)  # views of _tx by length, made on first use
        self._stale = True  # panel RAM unknown: the next show sends everything
        self.last_bytes = 0
        self.last_txns = 0
        self.txns = 0      # transactions of the show or page() going on
        self.bytes_total = 0
        self._dma = None
        self.init_display()
        self._dma = dma
        if dma is not None:
            dma.prepare(self._cmd, self._wincmd(0, 0, 0), self.buffer, self._shadow, width)

    # -- commands --------------------------------------------------------
    def _init_seq(self):
        h = self.height
        return bytes((
            _SET_DISP,                    # display off while configuring
            0x20, 0x00,                   # horizontal addressing
            0x40,                         # start line 0
            0xA1,                         # column 127 -> SEG0
            0xA8, h - 1,                  # multiplex ratio
            0xC8,                         # scan COM[N-1] -> COM0
            0xD3, 0x00,                   # display offset 0
            0xDA, 0x02 if self.width > 2 * h else 0x12,  # COM pins
            0xD5, 0x80,                   # clock divide / oscillator
            0xD9, 0x22 if self.external_vcc else 0xF1,   # precharge
            0xDB, 0x30,                   # VCOMH 0.83 Vcc
            _SET_CONTRAST, 0x7F,
            0xA4,                         # output follows RAM
            _SET_NORM_INV,                # not inverted
            0x8D, 0x10 if self.external_vcc else 0x14,   # charge pump
        ))                                # display on: after the first frame (init_display)

    def init_display(self):
        """Send the init sequence with the display left off. The panel RAM
        holds power-up garbage until the first show(), which sends every
        page and then turns the display on: nothing stale is ever lit, and
        no cleared frame is sent first (a full frame of bus time, ~25 ms at
        400 kHz, at every boot)."""
        self._send(b"\x00" + self._init_seq())
        self._stale = True
        self._dark = True

    def _send(self, buf):
        if self._dma is not None:
            self._dma.wait()  # the frame still going out by DMA first
        self.i2c.writeto(self.addr, buf)
        self.bytes_total = (self.bytes_total + len(buf)) & _WRAP

    def _cmd1(self, c):
        b = self._cmd
        b[0] = _CTRL_CMD
        b[1] = c
        self._send(self._cv[2])

    def poweroff(self):
        """Display off (panel RAM kept; sleep current a few uA)."""
        self._cmd1(_SET_DISP)

    def poweron(self):
        """Display on."""
        self._dark = False
        self._cmd1(_SET_DISP | 1)

    def contrast(self, v):
        """Contrast 0..255."""
        if not 0 <= v <= 255:
            raise ValueError("contrast %r out of range 0..255" % (v,))
        b = self._cmd
        b[0] = _CTRL_CMD
        b[1] = _SET_CONTRAST
        b[2] = v
        self._send(self._cv[3])

    def invert(self, on):
        """Invert the whole panel in hardware (the frame is unchanged)."""
        self._cmd1(_SET_NORM_INV | (1 if on else 0))

    def invalidate(self):
        """Forget what the panel holds: the next show() sends every page
        (after a panel reset or a power cycle of the display)."""
        self._stale = True

    def _wincmd(self, p, x0, x1):
        """The command transaction addressing page p, columns x0..x1, into
        _cmd; returns its length (always the same for a controller)."""
        b = self._cmd
        b[0] = _CTRL_CMD
        b[1] = _SET_COL_ADDR
        b[2] = x0 + self.col0
        b[3] = x1 + self.col0
        b[4] = _SET_PAGE_ADDR
        b[5] = p
        b[6] = p
        return 7

    # -- frame -----------------------------------------------------------
    def show(self, pages=-1):
        """Push what changed since the last show; returns payload bytes sent.

        `pages`: a bit per page that may have changed, when the caller
        knows (the app's row cache does); pages outside it are not even
        compared. Default: any page may have.
        """
        # A small frame: a function with many locals gets its frame from the
        # heap at every call (searched for, in a full heap), so the common
        # "nothing changed" case stays out of _push.
        if pages < 0 and not self._stale and self.buffer == self._shadow:  # one memcmp
            self.last_bytes = 0
            self.last_txns = 0
            return 0
        return self._push(-1 if self._stale else pages)

    def streams(self):
        """True when a page can go out alone (page()): the panel's RAM is
        known, so no frame owes it every page."""
        return not self._stale

    def page(self, p):
        """Send page p now if it changed; False, sending nothing, while the
        panel's RAM is unknown (the frame's show() sends every page then).
        A screen drawing a row at a time puts each on the bus while it
        draws the next (ui/screen.py row())."""
        if self._stale:
            return False
        if self._bp[p] != self._sp[p]:
            self.txns = 0
            self.last_bytes = self._page(p, False)
            self.last_txns = self.txns
        return True

    def _push(self, pages):
        stale = self._stale
        bp = self._bp
        sp = self._sp
        sent = 0
        self.txns = 0
        for p in range(self.pages):
            if stale or ((pages >> p) & 1 and bp[p] != sp[p]):
                sent += self._page(p, stale)
        self._stale = False
        if self._dark:                 # the first frame is in: light it
            self.poweron()
        self.last_bytes = sent
        self.last_txns = self.txns
        return sent

    def _page(self, p, whole):
        """Send what changed of page p (all of it if `whole`), which differs
        from the panel's; returns the bytes sent."""
        if whole:
            return self._span(p, 0, self.width - 1)
        runs = self._runs
        if self._dma is not None:
            n = self._dma.runs(p * self.width, self.width, runs)  # in machine code
        else:
            n = self._split(p, runs)
        sent = 0
        i = 0
        while i < n:
            sent += self._span(p, runs[i], runs[i + 1])
            i += 2
        return sent

    def _split(self, p, runs):
        """The changed spans of page p into runs (first and last column of
        each); returns how many bytes. One span from the first changed byte
        to the last, cut where a whole chunk between them is unchanged: a
        span's window command costs ~10 bytes on the bus, a chunk skipped
        saves 16 (a result over the builder: ~110 bytes, 2.5 ms at 400 kHz,
        docs/performance.md). Found before anything is sent: the writeto
        path's staging copies to the shadow past a span's end."""
        bc = self._bc
        sc = self._sc
        k = p * self._nc
        end = k + self._nc - 1
        while bc[k] == sc[k]:
            k += 1
        while bc[end] == sc[end]:
            end -= 1
        runs[0] = self._edge(k, True)
        n = 1
        k += 1
        while k < end:
            if bc[k] == sc[k]:
                runs[n] = self._edge(k - 1, False)
                k += 1
                while bc[k] == sc[k]:
                    k += 1
                runs[n + 1] = self._edge(k, True)
                n += 2
            k += 1
        runs[n] = self._edge(end, False)
        return n + 1

    def _edge(self, k, first):
        """The page column of the first (else the last) changed byte of
        chunk k (counted over all pages), which has one."""
        nc = self._nc
        c = (k % nc) * _CHUNK
        o = (k // nc) * self.width + c
        buf = self.buffer
        sh = self._shadow
        if first:
            i = o
            while buf[i] == sh[i]:
                i += 1
        else:
            i = o + len(self._bc[k]) - 1
            while buf[i] == sh[i]:
                i -= 1
        return c + i - o

    def _span(self, p, x0, x1):
        """Send columns x0..x1 of page p; returns the bytes sent."""
        k = self._wincmd(p, x0, x1)
        n = x1 - x0 + 1
        self.txns += 2
        if self._dma is not None:
            self._dma.page(p * self.width + x0, n)  # staged from the frame, the shadow kept
        else:
            # Stage columns x0.. of the page after the control byte, then
            # copy them back into the shadow (the bytes past x1 too: equal,
            # or a later span of this page's, found already).
            # GS8 views make blit copy a byte per "pixel", in C, allocation
            # free; a Python byte loop costs ~10x more.
            self._txg.blit(self._bg, -x0, -p)
            self._sg.blit(self._txg, x0, p)
            self._send(self._cv[k])
            v = self._txv[n + 1]
            if v is None:
                v = self._txv[n + 1] = memoryview(self._tx)[:n + 1]
            self._send(v)
        return k + n + 1


SSD1306_I2C = SSD1306  # the name micropython-lib users look for
