"""The OLED's pages fed to the RP2040's I2C block by DMA, so the CPU stages
the next page (and, after the last, draws the ring and polls the keys)
while the bus sends this one: a frame costs its bus time, not bus time
plus the driver's (docs/performance.md, "Roll to result").

machine.I2C.writeto waits for every byte; here a DMA channel paced by the
block's TX request (DREQ_I2Cn_TX, IC_DMA_CR.TDMAE) writes command words
into IC_DATA_CMD: the byte in the low 8 bits, STOP (bit 9) on the last
word of each transaction. After a STOP the block starts the next
transaction by itself (same target), so a page, its window command then
its data, is one transfer of 16-bit words. Two buffers alternate: a page
is staged into one while the other's transfer runs. The display driver
(hw/ssd1306.py) calls page() per changed page and wait() before any other
use of the bus; wait() raises OSError if the panel stopped answering (a
NACK aborts the transfer, as writeto's OSError).
"""

import sys

import rp2
from machine import mem32
from micropython import const
from uctypes import addressof

if "RP2040" not in sys.implementation._machine:  # type: ignore[attr-defined]
    # The registers and DREQ numbers below are the RP2040's; an RP2350
    # (a Pico 2) has its own: its frames go by writeto (hw/pico.py).
    raise ImportError("I2C by DMA: the RP2040's registers only")

# The staging, in machine code for this CPU: rp2/i2cstage.py (ImportError
# where it is not deployed, ValueError where it is for another CPU).
from i2cstage import runs as _runs, widen as _widen, widen_keep as _widen_keep  # noqa: E402

_I2C = (0x40044000, 0x40048000)
_DREQ_TX = (32, 34)
_IC_TAR = const(0x04)
_IC_DATA_CMD = const(0x10)
_IC_CLR_TX_ABRT = const(0x54)
_IC_ENABLE = const(0x6C)
_IC_STATUS = const(0x70)
_IC_TX_ABRT_SOURCE = const(0x80)
_IC_DMA_CR = const(0x88)
_IC_DMA_TDLR = const(0x8C)
_TFE_ACT = const(0x25)      # IC_STATUS: MST_ACTIVITY | TFE | ACTIVITY
_TFE = const(0x04)
# The channel's registers as 32-bit words (DMA.registers): CTRL_TRIG (BUSY
# is bit 24), AL3_TRANS_COUNT, AL3_READ_ADDR_TRIG. Through this view, not
# mem32: a peripheral address is above the small ints (2**30), and an
# address computed in a loop is a long int allocated at every pass.
_CTRL = const(3)
_BUSY = const(0x1000000)
_AL3_COUNT = const(14)
_AL3_READ_TRIG = const(15)
_STOP = const(0x02)         # IC_DATA_CMD's STOP (bit 9), in a word's high byte


class I2cDma:
    """DMA sender for the controller at `addr` on I2C block `bus` (0 or 1),
    whose machine.I2C is set up already (clock, pins)."""

    def __init__(self, bus, addr):
        base = _I2C[bus]
        self.addr = addr
        # The block's registers, each address made once (long ints).
        self.tar = base + _IC_TAR
        self.enable = base + _IC_ENABLE
        self.status = base + _IC_STATUS
        self.abrt = base + _IC_TX_ABRT_SOURCE
        self.clr_abrt = base + _IC_CLR_TX_ABRT
        self.dma_cr = base + _IC_DMA_CR
        self.dma_tdlr = base + _IC_DMA_TDLR
        self.dma = rp2.DMA()
        ctrl = self.dma.pack_ctrl(size=1, inc_read=True, inc_write=False,
                                  treq_sel=_DREQ_TX[bus], irq_quiet=True)
        self.dma.config(write=base + _IC_DATA_CMD, count=0, ctrl=ctrl)
        self.regs = self.dma.registers  # type: ignore[attr-defined]  # v1.21+, not in the stubs
        self.bufs = [bytearray(0), bytearray(0)]  # prepare() makes them

    def prepare(self, cmd, ncmd, frame, shadow, width):
        """Buffers for pages whose window command is the first ncmd bytes of
        `cmd` and whose data is a span of `frame` (the display's buffer,
        `width` bytes a page, copied into `shadow`, the panel's copy, as it
        is staged); the block set to take words from the DMA."""
        words = ncmd + 1 + width  # the command, the data's control byte, a page at most
        self.ncmd = ncmd
        self.bufs = [bytearray(2 * words), bytearray(2 * words)]
        self.at = [addressof(b) for b in self.bufs]
        self.cmd = addressof(cmd)
        self.frame = addressof(frame)
        self.shadow = addressof(shadow)
        self.stop = [0, 0]      # where each buffer's data STOP is
        for b in self.bufs:
            b[2 * ncmd - 1] = _STOP
            b[2 * ncmd] = 0x40  # Co=0 D/C#=1: the rest is display data
        self.k = 0
        mem32[self.enable] = 0
        mem32[self.tar] = self.addr
        mem32[self.dma_tdlr] = 8
        mem32[self.dma_cr] = 2
        mem32[self.enable] = 1

    def runs(self, off, w, out):
        """The changed spans of frame[off:off + w] against the shadow (which
        differ) into the bytearray `out`, first and last index of each, cut
        at a whole unchanged 16-byte chunk; returns how many bytes: machine
        code (hw/ssd1306.py _split is the same rule in Python)."""
        return _runs(self.frame + off, self.shadow + off, w, out)

    def page(self, off, n):
        """Send the window command and frame[off:off + n] (copied to the
        shadow): staged into the free buffer, then started once the running
        transfer is done."""
        k = self.k
        b = self.bufs[k]
        at = self.at[k]
        ncmd = self.ncmd
        _widen(at, self.cmd, ncmd)  # type: ignore[arg-type]  # addresses: viper takes ints
        _widen_keep(at + 2 * ncmd + 2, self.frame + off, self.shadow + off, n)
        b[self.stop[k]] = 0
        s = 2 * (ncmd + n) + 1
        b[s] = _STOP
        self.stop[k] = s
        r = self.regs
        while r[_CTRL] & _BUSY:
            pass
        r[_AL3_COUNT] = ncmd + n + 1
        r[_AL3_READ_TRIG] = at    # an SRAM address: a small int
        self.k = k ^ 1

    def wait(self):
        """Until every word is on the bus and the last STOP sent; OSError
        (EIO) if the controller stopped answering meanwhile."""
        r = self.regs
        while r[_CTRL] & _BUSY:
            pass
        status = self.status
        while mem32[status] & _TFE_ACT != _TFE:
            pass
        if mem32[self.abrt]:
            mem32[self.clr_abrt]  # read to clear
            raise OSError(5)
