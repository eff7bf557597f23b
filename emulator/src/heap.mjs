// MicroPython's heap as its collector sees it, read from the emulated SRAM:
// the free heap now (what gc.mem_free() would say) and the lowest it was
// right after a collection (the live data's peak), for make bench and the
// board stage (docs/emulator.md, "The heap probe"). The firmware is not
// touched: the probe reads the allocation table (ATB) that gc_init laid
// out over the heap the port gives it (__GcHeapStart..__GcHeapEnd, from
// the image's ELF: tools/uf2.py puts them in the image's sidecar), with
// the formula of MicroPython v1.27.0's py/gc.c gc_setup_area for a 32-bit
// port with finalisers and one heap area (the rp2 port without PSRAM).

const RAM = 0x20000000;
const BYTES_PER_BLOCK = 16;    // MICROPY_BYTES_PER_GC_BLOCK: 4 words of 4 bytes
const BLOCKS_PER_ATB = 4;      // 2 bits a block
const BLOCKS_PER_FTB = 8;      // 1 bit a block
const GAP = 1;                 // ALLOC_TABLE_GAP_BYTE
const EVERY = 100000;          // CPU cycles between looks (0.8 ms at 125 MHz)
// A rise of the free heap this large between two looks is a collection
// (between collections only the frames' small frees return memory).
const JUMP = 2048;

/** Free blocks in an ATB byte: how many of its four 2-bit fields are 0. */
const FREE = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  for (let k = 0; k < 4; k++) if (((b >> (2 * k)) & 3) === 0) FREE[b]++;
}

export class HeapProbe {
  /** start, end: the heap gc_init was given (the linker's __GcHeapStart, __GcHeapEnd). */
  constructor(start, end) {
    end -= end % BYTES_PER_BLOCK;
    const total = end - start;
    this.atb = start - RAM;
    this.atbLen = Math.floor((total - GAP) * 8 / (8 + 8 * BLOCKS_PER_ATB / BLOCKS_PER_FTB
                                                   + 8 * BLOCKS_PER_ATB * BYTES_PER_BLOCK));
    this.pool = this.atbLen * BLOCKS_PER_ATB * BYTES_PER_BLOCK;   // the heap's bytes
    this.sram = null;
    this.cycles = 0;
    this.last = -1;
    this.low = -1;             // lowest free right after a collection (-1: none seen)
    this.min = -1;             // lowest free at any look, garbage counted (-1: none yet)
    this.collections = 0;
    this.peak = -1;            // a collection's free heap while its sweep is seen rising
  }

  /** A new chip (a power-on): its SRAM, the heap laid out anew by its boot. */
  attach(mcu) {
    this.sram = mcu.sram;
    this.last = -1;
    this.peak = -1;
  }

  /** Free bytes now: the ATB's free blocks, as gc.mem_free() counts them. */
  free() {
    const s = this.sram;
    let n = 0;
    for (let i = this.atb, e = this.atb + this.atbLen; i < e; i++) n += FREE[s[i]];
    return n * BYTES_PER_BLOCK;
  }

  /** The CPU ran `cycles`: look every EVERY cycles. A rise of more than
   *  JUMP is a collection; a look can land inside its sweep, so it is
   *  followed while the free heap goes on rising and taken at its peak. */
  busy(cycles) {
    this.cycles += cycles;
    if (this.cycles < EVERY) return;
    this.cycles = 0;
    const f = this.free();
    if (this.peak >= 0) {
      if (f > this.peak) this.peak = f;   // still sweeping
      else this._collected();
    } else if (this.last >= 0 && f > this.last + JUMP) {
      this.peak = f;
    }
    this.last = f;
    if (this.min < 0 || f < this.min) this.min = f;
  }

  _collected() {
    this.collections++;
    if (this.low < 0 || this.peak < this.low) this.low = this.peak;
    this.peak = -1;
  }

  /** The figures for the harness's stats. */
  stats() {
    if (this.peak >= 0) this._collected();   // the last one, at the peak seen so far
    return { heapFree: this.sram ? this.free() : -1, heapLow: this.low, heapMin: this.min,
             heapCollections: this.collections, heapSize: this.pool };
  }
}
