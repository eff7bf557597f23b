// The RP2040 itself: rp2040js with the B1 boot ROM, the image in flash, and
// the gaps of rp2040js 1.4.1 that MicroPython meets closed here (see
// docs/emulator.md): flash erase/program trapped in the boot ROM and done
// by the harness, a ring oscillator whose random bit the harness chooses,
// and reboots (watchdog, SYSRESETREQ) that keep the flash.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RP2040, ConsoleLogger, LogLevel } from 'rp2040js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const FLASH_BASE = 0x10000000;
export const FLASH_SIZE = 2 * 1024 * 1024;   // the Pico's W25Q16JV
export const CLOCK_HZ = 125e6;
const ROSC = 0x40060;            // rp2040js keys peripherals by address >>> 12
const WATCHDOG = 0x40058;
const ROSC_RANDOMBIT = 0x1c;
const AIRCR = 0xd0c;             // offset in the PPB

let bootromWords = null;

/** The B1 boot ROM (rp2040js's demo/bootrom.ts, vendored), as 32-bit words. */
export function bootrom() {
  if (bootromWords === null) {
    const ts = readFileSync(join(HERE, '..', 'vendor', 'rp2040-bootrom-B1.ts'), 'utf8');
    const words = ts.slice(ts.indexOf('[')).match(/0x[0-9a-fA-F]+/g).map((x) => parseInt(x, 16));
    if (words.length !== 4096) throw new Error(`boot ROM: ${words.length} words, expected 4096`);
    bootromWords = new Uint32Array(words);
  }
  return bootromWords;
}

/** Address of the boot ROM function with the two-letter `code` ('RE', 'RP', ...). */
export function romFunction(rom, code) {
  const half = (addr) => (rom[addr >>> 2] >>> ((addr & 2) * 8)) & 0xffff;
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let p = half(0x14); ; p += 4) {
    const c = half(p);
    if (c === 0) throw new Error(`boot ROM has no function ${code}`);
    if (c === want) return half(p + 2) & ~1;
  }
}

/** Put a BKPT #imm at the Thumb instruction at `addr` of the ROM copy `rom`. */
function patchBkpt(rom, addr, imm) {
  const i = addr >>> 2;
  const shift = (addr & 2) * 8;
  rom[i] = (rom[i] & ~(0xffff << shift)) | ((0xbe00 | imm) << shift);
}

const BKPT_ERASE = 0xd1;
const BKPT_PROGRAM = 0xd2;

/**
 * A booted-from-reset RP2040 running the image in `flash` (a Uint8Array of
 * FLASH_SIZE bytes: the harness owns it and persists it).
 *
 * hooks.erase(offset, count) and hooks.program(offset, data) do the flash
 * operations the boot ROM was asked for; they return the emulated
 * nanoseconds the operation takes (the CPU waits that long, as for a real
 * flash chip). hooks.randomBit() is the ring oscillator's random bit.
 * hooks.reboot() is called when the firmware resets the chip; hooks.uniqueId
 * (8 bytes) is the flash chip's unique ID.
 */
export function makeChip(flash, hooks) {
  const mcu = new RP2040();
  const rom = new Uint32Array(bootrom());
  const erase = romFunction(rom, 'RE');
  const program = romFunction(rom, 'RP');
  patchBkpt(rom, erase, BKPT_ERASE);
  patchBkpt(rom, program, BKPT_PROGRAM);
  mcu.loadBootrom(rom);
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.flash.set(flash.subarray(0, FLASH_SIZE), 0);

  const core = mcu.core;
  mcu.onBreak = (code) => {
    const r = core.registers;
    let nanos;
    if (code === BKPT_ERASE) {
      // flash_range_erase(offset, count, block_size, block_cmd)
      nanos = hooks.erase(r[0] >>> 0, r[1] >>> 0);
    } else if (code === BKPT_PROGRAM) {
      // flash_range_program(offset, data, count): data is in RAM
      const off = r[0] >>> 0;
      const n = r[2] >>> 0;
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = mcu.readUint8(r[1] + i);
      nanos = hooks.program(off, data);
    } else {
      throw new Error(`breakpoint #${code} at 0x${(core.PC - 2).toString(16)}`);
    }
    core.PC = core.registers[14] & ~1;  // return to the caller (BX LR)
    hooks.busy(nanos);
  };

  // The ring oscillator: MicroPython's os.urandom reads its RANDOMBIT.
  const rosc = mcu.peripherals[ROSC];
  const roscRead = rosc.readUint32.bind(rosc);
  rosc.readUint32 = (offset) => (offset === ROSC_RANDOMBIT ? hooks.randomBit() : roscRead(offset));

  // Reboots: machine.reset() triggers the watchdog; NVIC_SystemReset writes AIRCR.
  mcu.peripherals[WATCHDOG].onWatchdogTrigger = () => hooks.reboot('watchdog');
  const ppb = mcu.ppb;
  const ppbWrite = ppb.writeUint32.bind(ppb);
  ppb.writeUint32 = (offset, value) => {
    if (offset === AIRCR && (value >>> 16) === 0x05fa && (value & 4)) {
      hooks.reboot('sysresetreq');
      return;
    }
    ppbWrite(offset, value);
  };

  answerUniqueId(mcu, hooks.uniqueId);
  core.PC = FLASH_BASE;
  return mcu;
}

const SSI_DR0 = 0x60;
const RUID = 0x4b;     // the flash's Read Unique ID: 1 command, 4 dummy, 8 ID bytes

/**
 * The flash chip's unique ID (machine.unique_id() on this port): rp2040js
 * answers every SSI read with 0, so every emulated board had the same id.
 * pico-sdk's flash_get_unique_id writes the 13 bytes of RUID through SSI
 * DR0 and reads one byte after each write; the answers are given here.
 */
function answerUniqueId(mcu, id) {
  const ssi = mcu.peripherals[0x18000];
  const write = ssi.writeUint32.bind(ssi);
  let k = -1;
  ssi.writeUint32 = (offset, value) => {
    if (offset === SSI_DR0 && (k >= 0 || value === RUID)) {
      k++;
      ssi.dr0 = k >= 5 ? id[k - 5] : 0;
      if (k === 12) k = -1;
      return;
    }
    write(offset, value);
  };
}

/** Write the UF2 file's blocks for flash into `flash` (as drag and drop does). */
export function applyUf2(flash, uf2) {
  let blocks = 0;
  for (let off = 0; off + 512 <= uf2.length; off += 512) {
    const b = new DataView(uf2.buffer, uf2.byteOffset + off, 512);
    if (b.getUint32(0, true) !== 0x0a324655 || b.getUint32(4, true) !== 0x9e5d5157 ||
        b.getUint32(508, true) !== 0x0ab16f30) {
      throw new Error(`not a UF2 file: bad magic in block at byte ${off}`);
    }
    const flags = b.getUint32(8, true);
    if (flags & 1) continue;  // not for the main flash
    if ((flags & 0x2000) && b.getUint32(28, true) !== 0xe48bff56) {
      throw new Error(`UF2 block at byte ${off} is not for an RP2040 (family 0x${b.getUint32(28, true).toString(16)}): ` +
        'an RP2350 image cannot run on this emulator');
    }
    const addr = b.getUint32(12, true);
    const size = b.getUint32(16, true);
    if (addr < FLASH_BASE || addr + size > FLASH_BASE + FLASH_SIZE || size > 476) {
      throw new Error(`UF2 block at byte ${off} writes 0x${addr.toString(16)}+${size}, outside the 2 MB flash`);
    }
    flash.set(uf2.subarray(off + 32, off + 32 + size), addr - FLASH_BASE);
    blocks++;
  }
  if (!blocks) throw new Error('the UF2 file has no blocks for the flash');
  return blocks;
}
