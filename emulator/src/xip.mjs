// The RP2040's XIP cache in front of the QSPI flash (RP2040 datasheet,
// 2.6.3 "Flash", 2.6.3.1 "XIP Cache"): 16 kB, two-way set-associative, 8-byte
// lines (1024 sets), a hit in one cycle. rp2040js reads flash at no cost
// at all, as if every access hit; this model charges each miss the time
// the SSI takes to fetch the line from the flash chip, so emulated time
// includes the stalls a board has when code or constants are not cached
// (MicroPython's rp2 image runs nearly all of its code, the VM included,
// from flash: see docs/emulator.md, "XIP cache").
//
// A miss: boot2_w25q080 leaves the SSI in quad I/O "continuous read" mode
// (command 0xEB sent once, then mode bits 0xA0), so a line fetch is the
// 24-bit address and the mode byte on four lines (8 SCK clocks), 4 dummy
// clocks and 64 data bits on four lines (16 clocks): 28 SCK clocks, each
// BAUDR system clocks (the divider the firmware writes into SSI_BAUDR: 2 on
// this port at 125 MHz, PICO_FLASH_SPI_CLKDIV; ports/rp2/rp2_flash.c), plus
// OVERHEAD cycles for the request through the XIP block, chip select and
// the RX sample delay. The four address aliases behave as the datasheet
// lists them; a flush (after every flash erase or program, as the SDK's
// flash functions do) empties the tags and stalls the CPU ~1024 cycles.
// Replacement within a set is least recently used (the datasheet does not
// say; with two ways it is the natural choice).

export const SETS = 1024;
export const SCK_PER_LINE = 8 + 4 + 16;
export const OVERHEAD = 4;
export const FLUSH_CYCLES = 1024;

export class XipCache {
  constructor() {
    this.enabled = true;                 // XIP_CTRL.EN
    this.tags = new Int32Array(2 * SETS);
    this.older = new Uint8Array(SETS);   // the way to replace next in each set
    this.baudr = 2;
    this.pending = 0;                    // stall cycles not yet charged to the CPU
    this.hits = 0;
    this.misses = 0;
    this.stallCycles = 0;
    this.where = null;                   // a Map line -> misses, when profiling (main.mjs --xip-profile)
    this.pyStart = this.pyEnd = 0;       // frozen bytecode's range, when profiling (--py-profile)
    this.pyAt = 0;                       // the last byte the VM read from it
    this.flush();
  }

  /** Cycles one line fetch takes, at the SSI's current divider. */
  missCycles() {
    return SCK_PER_LINE * this.baudr + OVERHEAD;
  }

  /** XIP_CTRL.EN: when off, every access goes to the flash, nothing is cached. */
  enable(on) {
    this.enabled = on;
    this.last = -1;
  }

  /** Empty the cache (the XIP block's FLUSH); the CPU waits for it. */
  flush() {
    this.tags.fill(-1);
    this.older.fill(0);
    this.last = -1;
    this._stall(FLUSH_CYCLES);
  }

  _stall(n) {
    this.pending += n;
    this.stallCycles += n;
  }

  /** An access to the XIP window at `addr` (0x10000000..0x13ffffff). */
  access(addr) {
    const alias = (addr >>> 24) & 3;   // 0 cached+allocating, 1 cached, 2 allocating, 3 neither
    const line = (addr & 0xffffff) >>> 3;
    if (line === this.last && alias === 0) {   // the line just used: the common case
      this.hits++;
      return;
    }
    const set = line & (SETS - 1);
    const tag = line >>> 10;
    const i = set << 1;
    if (alias < 2 && this.enabled) {
      const way = this.tags[i] === tag ? 0 : this.tags[i + 1] === tag ? 1 : -1;
      if (way >= 0) {
        this.hits++;
        this.older[set] = way ^ 1;
        this.last = alias === 0 ? line : -1;
        return;
      }
    }
    this.misses++;
    if (this.where) this.where.set(line, (this.where.get(line) || 0) + 1);
    this._stall(this.missCycles());
    this.last = -1;
    if ((alias === 0 || alias === 2) && this.enabled) {
      const way = this.older[set];
      this.tags[i + way] = tag;
      this.older[set] = way ^ 1;
      if (alias === 0) this.last = line;
    }
  }

  /** The stall cycles since the last call (the run loop adds them to the CPU's). */
  take() {
    const n = this.pending;
    this.pending = 0;
    return n;
  }
}

const XIP_START = 0x10000000;
const RAM_START = 0x20000000;
const XIP_END = 0x14000000;
const XIP_CTRL = 0x14000;     // rp2040js keys peripherals by (address >>> 14) << 2
const SSI = 0x18000;
const SSI_BAUDR = 0x14;
const CTRL = 0x00;
const FLUSH = 0x04;
const STAT = 0x08;
const CTR_HIT = 0x0c;
const CTR_ACC = 0x10;

/**
 * Put `cache` in front of the flash of `mcu` (an RP2040): every instruction
 * fetch and data read from the XIP window goes through it (read from the
 * flash array here: rp2040js's own readUint16 of an alias above 0x11000000
 * goes through readUint32, which would count it twice), the divider the
 * firmware writes into SSI_BAUDR sets its miss time, and XIP_CTRL (rp2040js
 * has none) gets its enable, flush, status and counters.
 */
export function attachXip(mcu, cache) {
  const flash = mcu.flash;
  const view = mcu.flashView;
  // SRAM first: with the interpreter linked there (rp2/sram.txt) most
  // fetches are SRAM's, read here rather than through one more call.
  const sram = mcu.sramView;
  const SRAM_END = RAM_START + mcu.sram.length;
  const { readUint8, readUint16, readUint32 } = mcu;
  mcu.readUint8 = function (addr) {
    if (addr >= XIP_START && addr < XIP_END) {
      cache.access(addr);
      // The frozen bytecode the VM reads, for main.mjs --py-profile.
      if (addr >= cache.pyStart && addr < cache.pyEnd) cache.pyAt = addr;
      return flash[addr & 0xffffff];
    }
    return readUint8.call(this, addr);
  };
  mcu.readUint16 = function (addr) {
    if (addr >= RAM_START && addr < SRAM_END - 1) return sram.getUint16(addr - RAM_START, true);
    if (addr >= XIP_START && addr < XIP_END) {
      cache.access(addr);
      return view.getUint16(addr & 0xfffffe, true);
    }
    return readUint16.call(this, addr);
  };
  mcu.readUint32 = function (addr) {
    addr >>>= 0;
    if (addr >= RAM_START && addr < SRAM_END - 3) return sram.getUint32(addr - RAM_START, true);
    if (addr >= XIP_START && addr < XIP_END) {
      cache.access(addr);
      return view.getUint32(addr & 0xfffffc, true);
    }
    return readUint32.call(this, addr);
  };
  const ssi = mcu.peripherals[SSI];
  const write = ssi.writeUint32.bind(ssi);
  ssi.writeUint32 = (offset, value) => {
    if (offset === SSI_BAUDR && value >= 2) cache.baudr = value & 0xfffe;
    write(offset, value);
  };
  let hitCount = 0;
  let accCount = 0;
  mcu.peripherals[XIP_CTRL] = {
    readUint32(offset) {
      switch (offset) {
        case CTRL: return cache.enabled ? 1 : 0;
        case STAT: return 3;   // FLUSH_READY, FIFO_EMPTY
        case CTR_HIT: return (cache.hits - hitCount) >>> 0;
        case CTR_ACC: return (cache.hits + cache.misses - accCount) >>> 0;
        default: return 0;
      }
    },
    writeUint32Atomic(offset, value, atomicType) {
      if (atomicType) value = atomicType === 2 ? this.readUint32(offset) | value
        : atomicType === 3 ? this.readUint32(offset) & ~value : this.readUint32(offset) ^ value;
      if (offset === CTRL) cache.enable(!!(value & 1));
      else if (offset === FLUSH && value & 1) cache.flush();
      else if (offset === CTR_HIT) hitCount = cache.hits;
      else if (offset === CTR_ACC) accCount = cache.hits + cache.misses;
    },
  };
  return cache;
}
