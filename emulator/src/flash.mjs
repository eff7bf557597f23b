// The board's 2 MB QSPI flash (a W25Q16JV on the Pico), kept in a file.
//
// Every erase and program the firmware asks the boot ROM for is done here
// and written through to the file at once (a synchronous write at its
// offset), so a harness killed at any moment leaves the file as the chip's
// flash would be after a power cut at that moment. Programming is NOR
// flash's: it can only clear bits (new = old & data). Each operation takes
// the chip's typical time (datasheet: page program 0.4 ms, 4 KB sector
// erase 45 ms, 64 KB block erase 150 ms), during which the CPU waits; a
// power cut inside that time leaves the operation partly done.

import { closeSync, existsSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { FLASH_SIZE } from './chip.mjs';

const PAGE = 256;
const SECTOR = 4096;
const BLOCK = 65536;
const NS_PAGE = 400e3;
const NS_SECTOR = 45e6;
const NS_BLOCK = 150e6;

export class Flash {
  /** `path`: the file (created blank, all 0xFF, if missing); null keeps it in memory. */
  constructor(path) {
    this.mem = new Uint8Array(FLASH_SIZE).fill(0xff);
    this.fd = null;
    if (path === null) return;
    const fresh = !existsSync(path);
    this.fd = openSync(path, fresh ? 'w+' : 'r+');
    if (fresh) {
      writeSync(this.fd, this.mem, 0, FLASH_SIZE, 0);
    } else {
      const size = fstatSync(this.fd).size;
      if (size !== FLASH_SIZE) {
        throw new Error(`${path} is ${size} bytes, not a ${FLASH_SIZE}-byte flash image: ` +
          'delete it for a blank flash, or pass the right file');
      }
      readSync(this.fd, this.mem, 0, FLASH_SIZE, 0);
    }
  }

  /** Write bytes at `off` as a programmer would (the UF2 at start): no AND, no time. */
  load(off, bytes) {
    this.mem.set(bytes, off);
    this._persist(off, bytes.length);
  }

  /** The emulated nanoseconds an operation takes. */
  nanos(kind, off, arg) {
    if (kind === 'program') return Math.ceil(arg.length / PAGE) * NS_PAGE;
    let ns = 0;
    for (let a = off, end = off + arg; a < end;) {
      if (a % BLOCK === 0 && end - a >= BLOCK) { ns += NS_BLOCK; a += BLOCK; } else { ns += NS_SECTOR; a += SECTOR; }
    }
    return ns;
  }

  /**
   * Do `part` (0..1] of an operation: an erase sets its first part of the
   * range to 0xFF, a program clears the bits of its first part of the data
   * (a cut leaves the rest as it was).
   */
  apply(kind, off, arg, part) {
    if (off < 0 || off >= FLASH_SIZE) throw new Error(`flash ${kind} at 0x${off.toString(16)}: outside the flash`);
    if (kind === 'erase') {
      if (off % SECTOR || arg % SECTOR) throw new Error(`flash erase 0x${off.toString(16)}+${arg}: not whole sectors`);
      const n = Math.min(Math.floor(arg * part), FLASH_SIZE - off);
      this.mem.fill(0xff, off, off + n);
      this._persist(off, n);
    } else {
      const n = Math.min(Math.floor(arg.length * part), FLASH_SIZE - off);
      for (let i = 0; i < n; i++) this.mem[off + i] &= arg[i];
      this._persist(off, n);
    }
  }

  _persist(off, n) {
    if (this.fd !== null && n > 0) writeSync(this.fd, this.mem, off, n, off);
  }

  close() {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
