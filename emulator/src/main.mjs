#!/usr/bin/env node
// The emulated Dicetray board, as a process the host tool drives
// (host/dicetray/sim/rp2040.py; docs/emulator.md):
//
//   node emulator/src/main.mjs --uf2 FILE --flash FILE --profile JSON
//        [--serial-fd N] [--seed N] [--paced] [--cut-at NS] [--unique-id HEX]
//        [--no-xip-cache] [--xip-profile FILE] [--pc-profile FILE [--pc-mark ADDR]
//        [--py-code START:END]]
//        [--gc-heap START:END]
//
// stdout: one JSON event a line (boot, usb, app, i2c, spi, leds, mark,
//         stats, reset, cut, exit); stdin: one JSON command a line (keys,
//         at, stats, cut, spans, quit); the file descriptor --serial-fd: the USB CDC
//         port's bytes, both ways (the host bridges it to a pty).

import { readFileSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { isatty, ReadStream, WriteStream } from 'node:tty';
import { createInterface } from 'node:readline';
import { applyUf2, FLASH_SIZE } from './chip.mjs';
import { Flash } from './flash.mjs';
import { Board } from './board.mjs';

function parseArgs(argv) {
  const o = { uf2: null, flash: null, profile: null, serialFd: null, seed: 1, paced: false, cutAt: null,
              uniqueId: new Uint8Array(8), xip: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--uf2') o.uf2 = v();
    else if (a === '--flash') o.flash = v();
    else if (a === '--profile') o.profile = JSON.parse(v());
    else if (a === '--serial-fd') o.serialFd = Number(v());
    else if (a === '--seed') o.seed = Number(v()) & 0x3fffffff;
    else if (a === '--paced') o.paced = true;
    else if (a === '--cut-at') o.cutAt = Number(v());
    else if (a === '--no-xip-cache') o.xip = false;
    else if (a === '--xip-profile') o.xipProfile = v();
    else if (a === '--pc-profile') o.pcProfile = v();
    else if (a === '--pc-mark') o.pcMark = Number(v()) & ~1;
    else if (a === '--py-code') o.pyCode = v().split(':').map(Number);
    else if (a === '--gc-heap') {
      // MicroPython's heap (__GcHeapStart:__GcHeapEnd): watched, stats heapFree/heapLow (heap.mjs)
      const m = /^(\d+):(\d+)$/.exec(v());
      if (!m) fail('--gc-heap takes START:END, two decimal addresses');
      o.gcHeap = [Number(m[1]), Number(m[2])];
    }
    else if (a === '--unique-id') {
      const hex = v();
      if (!/^[0-9a-fA-F]{16}$/.test(hex)) fail('--unique-id takes 16 hex digits');
      o.uniqueId = Uint8Array.from(Buffer.from(hex, 'hex'));
    }
    else fail(`unknown option ${a}`);
  }
  if (!o.profile) fail('--profile JSON is required');
  return o;
}

function fail(msg) {
  process.stderr.write(`emulator: ${msg}\n`);
  process.exit(2);
}

function emit(ev) {
  process.stdout.write(JSON.stringify(ev) + '\n');
}

const opts = parseArgs(process.argv.slice(2));
// --xip-profile FILE: the XIP cache's misses by flash line (offset/8) while
// spans are on, as JSON at the end: where misses cost (docs/emulator.md).
const profilePath = opts.xipProfile;
if (profilePath) opts.xipProfile = new Map();
// --pc-profile FILE: the CPU's cycles (stalls included) by instruction
// address in the runs reported as spans, up to their first byte for the display, as JSON at the end: where a key's time goes
// (bench/pcprofile.py names the functions from the image's ELF). The keys:
// "pc" before the run's first flash program, "pc+" after it, "pc*" after
// the first execution of --pc-mark ADDR after that (a function's entry).
// With --py-code START:END (the frozen bytecode's addresses) the cycles are
// keyed by the last bytecode byte the VM read instead, "b<addr>": the
// Python function they went to, its C calls included.
const pcPath = opts.pcProfile;
if (pcPath) opts.pcProfile = new Map();
let flash;
try {
  flash = new Flash(opts.flash);
  if (opts.uf2) {
    const scratch = new Uint8Array(FLASH_SIZE);
    scratch.set(flash.mem);
    applyUf2(scratch, readFileSync(opts.uf2));
    flash.load(0, scratch);
  }
} catch (e) {
  fail(e.message);
}

let serial = null;
const board = new Board({
  profile: opts.profile, flash, seed: opts.seed, paced: opts.paced, cutAt: opts.cutAt, emit, xip: opts.xip,
  xipProfile: opts.xipProfile, pcProfile: opts.pcProfile, pcMark: opts.pcMark, pyCode: opts.pyCode,
  gcHeap: opts.gcHeap,
  uniqueId: opts.uniqueId,
  serialOut: (data) => { if (serial) serial.write(Buffer.from(data)); },
  onStop: (why) => stop(why),
});

function stop(why) {
  board.stopped = true;
  emit({ ev: 'exit', why, t: board.now(), stats: stats() });
  if (profilePath) writeFileSync(profilePath, JSON.stringify(Object.fromEntries(opts.xipProfile)));
  if (pcPath) writeFileSync(pcPath, JSON.stringify(Object.fromEntries(opts.pcProfile)));
  flash.close();
  process.exit(0);
}

function stats() {
  return board.snapshot();
}

// The serial port: a pty's master (the host keeps its slave open for the
// clients) or a socket. What the host has not taken yet stays queued here,
// up to SERIAL_QUEUE bytes, as in a USB host's tty buffer; the rest is
// dropped and counted.
const SERIAL_QUEUE = 1 << 20;
if (opts.serialFd !== null) {
  const fd = opts.serialFd;
  const rx = isatty(fd) ? new ReadStream(fd) : new Socket({ fd, readable: true, writable: true });
  const tx = isatty(fd) ? new WriteStream(fd) : rx;
  rx.on('data', (chunk) => board.cdc && board.cdc.send(new Uint8Array(chunk)));
  rx.on('error', () => {});
  tx.on('error', () => {});
  serial = {
    write: (b) => {
      if (tx.writableLength > SERIAL_QUEUE) board.stats.serialDropped += b.length;
      else tx.write(b);
    },
  };
}

// Commands (times are emulated nanoseconds).
const commands = {
  keys: (c) => board.setKeys(c.mask),
  // {cmd: 'at', base: 'power'|'app'|'now', steps: [{t, keys?, mark?}, ...]}:
  // each step at t emulated ns after power-on, after the app came up (a
  // script's time 0), or after this command arrived (so a press and its
  // release keep their distance however late the command is read).
  at: (c) => {
    const base = c.base || 'power';
    const now = board.now();
    for (const step of c.steps) {
      const fn = () => {
        if (step.keys !== undefined) board.setKeys(step.keys);
        if (step.mark !== undefined) {
          emit({ ev: 'mark', id: step.mark, t: board.now(), stats: stats(),
                 stall: board.lastStall || null });
        }
      };
      if (base === 'app') board.atApp(step.t, fn);
      else board.at(base === 'now' ? now + step.t : step.t, fn);
    }
  },
  stats: (c) => emit({ ev: 'stats', id: c.id, stats: stats() }),
  cut: (c) => board.cutAt(c.t, !!c.restart),
  spans: (c) => board.setSpans(!!c.on),
  quit: () => stop('quit'),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  let c;
  try {
    c = JSON.parse(line);
  } catch (e) {
    emit({ ev: 'error', msg: `bad command line: ${line.slice(0, 80)}` });
    return;
  }
  const fn = commands[c.cmd];
  if (!fn) emit({ ev: 'error', msg: `unknown command ${c.cmd}` });
  else fn(c);
}).on('close', () => stop('stdin closed'));

board.start();
