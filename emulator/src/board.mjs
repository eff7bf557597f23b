// One emulated Dicetray: an RP2040 with the parts of a board profile wired
// to it (docs/hardware.md): the OLED on its bus, the keys with their
// switches to GND, the LED chain on its data pin, the flash in a file and
// the USB CDC port. The run loop and the harness's own events live here;
// main.mjs is the command line and the control protocol.

import { makeChip, CLOCK_HZ } from './chip.mjs';
import { CdcHost } from './usb.mjs';
import { Lines } from './lines.mjs';
import { BusTarget, GpioTarget } from './i2c.mjs';
import { Ws2812 } from './ws2812.mjs';
import { XipCache, attachXip } from './xip.mjs';
import { HeapProbe } from './heap.mjs';

const CYCLE_NS = 1e9 / CLOCK_HZ;   // 8
const SLICE_WALL_MS = 15;          // run this long between looks at I/O
const APP_IDLE_NS = 1e6;           // a wait this long after the first frame: the app is up
const BATCH = 512;                 // instructions run between the loop's own checks, at most

/** Seeds as the desktop simulator's board.seed() gives them (dicetray.sim.vm). */
function nextSeed(s) {
  return Number((BigInt(s) * 1103515245n + 12345n) & 0x3fffffffn);
}

/** One step of MicroPython's LFSR over the random bit (ports/rp2/main.c). */
function lfsr(r, b) {
  return (((r << 1) | b) ^ (r & 0x80 ? 0xd5 : 0)) & 0xff;
}

/**
 * The ring oscillator's random bit, chosen so that MicroPython's os.urandom
 * (ports/rp2/main.c rosc_random_u8: an 8-bit LFSR that shifts in one
 * RANDOMBIT per step, 8 steps a byte) returns, 4 bytes at a time, the seeds
 * the desktop simulator's board.seed() gives: `seed` first, then its LCG
 * sequence. The board profile's seed() is os.urandom(4) read little-endian,
 * so a roll's faces are the same as in `dicetray sim --seed N`.
 *
 * The LFSR is linear over GF(2): eight steps from r with bits b0..b7 give
 * run8(r, zeros) ^ (b0 << 7 | b1 << 6 | ... | b7), so the bits that make a
 * wanted byte are the bits of want ^ run8(r, zeros), high bit first. The
 * harness mirrors r from every bit it hands out.
 */
class Entropy {
  constructor(seed) {
    this.r = 0;
    this.bits = [];
    this.word = seed;
    this.reads = 0;
  }

  /** A reset: the firmware's LFSR starts again from 0; the seeds go on. */
  restart() {
    this.r = 0;
    this.bits = [];
  }

  bit() {
    this.reads++;
    if (!this.bits.length) this._plan();
    const b = this.bits.shift();
    this.r = lfsr(this.r, b);
    return b;
  }

  // The 32 bits that make the next four bytes the next seed, low byte first.
  _plan() {
    const w = this.word;
    this.word = nextSeed(w);
    let r = this.r;
    for (let k = 0; k < 4; k++) {
      let z = r;
      for (let j = 0; j < 8; j++) z = lfsr(z, 0);
      const d = ((w >>> (8 * k)) & 0xff) ^ z;
      for (let j = 7; j >= 0; j--) {
        const b = (d >> j) & 1;
        this.bits.push(b);
        r = lfsr(r, b);
      }
    }
  }
}

export class Board {
  /**
   * opts: profile (see profiles in dicetray/sim/rp2040.py), flash (a Flash),
   * seed, paced (emulated time never ahead of the wall clock), emit(event),
   * cutAt (emulated ns of a power cut, or null), xip (model the XIP cache:
   * flash misses cost cycles; false: every flash access is free, rp2040js's
   * own timing).
   */
  constructor(opts) {
    this.opts = opts;
    this.profile = opts.profile;
    this.flash = opts.flash;
    this.emit = opts.emit;
    this.entropy = new Entropy(opts.seed);
    this.keyMask = 0;
    this.boots = 0;
    this.nanos0 = 0;          // emulated time at this chip's reset, across reboots
    this.timers = [];         // [nanos, fn]: scheduled on the next chip too
    this.appQueue = [];       // [nanos after the app is up, fn]
    this.appUp = false;
    this.appT = 0;
    this.stats = { i2cBytes: 0, i2cQueued: 0, i2cNanos: 0, i2cDma: 0, flashNanos: 0, erases: 0, programs: 0,
                   idleNanos: 0, busyCycles: 0, ledFrames: 0, spiBytes: 0, serialDropped: 0,
                   cdcIn: 0, cdcOut: 0, xipHits: 0, xipMisses: 0, xipCycles: 0 };
    this.spans = false;       // report every run of the CPU that drew or sent on USB
    this.span = null;
    this.stopped = false;
    this.serialOut = opts.serialOut;
    // opts.gcHeap [start, end]: MicroPython's heap, watched (heap.mjs).
    this.heap = opts.gcHeap ? new HeapProbe(opts.gcHeap[0], opts.gcHeap[1]) : null;
  }

  /** Report spans (and count the XIP misses by line, with --xip-profile) or not. */
  setSpans(on) {
    this.spans = on;
    if (this.xip) this.xip.where = on && this.opts.xipProfile || null;
  }

  /** The counters now (the harness's `stats`). */
  snapshot() {
    this._xipStats();
    return { ...this.stats, nanos: this.now(), boots: this.boots, entropyReads: this.entropy.reads,
             i2cHz: this.i2c ? Math.round(1e9 / this.i2c.bitNanos()) : 0,
             ...(this.heap ? this.heap.stats() : {}) };
  }

  // A run of the CPU between two waits: with `spans` on, one that wrote to
  // the display or sent on the USB port is reported with its busy cycles
  // and the bus, flash and USB traffic inside it (make bench's key to
  // frame, and the link's own CPU time without the polls between requests).
  _wake() {
    const st = this.stats;
    this._xipStats();
    // --pc-profile: this run's cycles by instruction address, kept if the
    // run is reported; before and after its first flash program (a key's
    // event made durable) and the mark apart (main.mjs --pc-mark).
    this.pcSpan = this.opts.pcProfile ? new Map() : null;
    this.pcPrograms = st.programs;
    this.pcMarked = false;
    this.pcQueued = st.i2cQueued + st.spiBytes;
    this.span = [this.now(), st.busyCycles, st.i2cNanos, st.i2cQueued + st.spiBytes, st.flashNanos,
                 st.cdcIn, st.xipCycles, st.xipMisses];
  }

  _sleep() {
    const [t0, c0, in0, db0, f0, u0, x0, m0] = this.span;
    const st = this.stats;
    this.span = null;
    // Drawn: bytes queued for the display in this run (a frame sent by DMA
    // reaches the panel after the run; its bytes were queued in it).
    const drawn = st.i2cQueued + st.spiBytes - db0;
    const sent = st.cdcIn - u0;
    if (!drawn && !sent) return;
    const pcs = this.pcSpan;
    if (pcs) for (const [pc, c] of pcs) this.opts.pcProfile.set(pc, (this.opts.pcProfile.get(pc) || 0) + c);
    this._xipStats();
    this.emit({ ev: 'span', t0, t1: this.now(), cycles: st.busyCycles - c0, i2cNanos: st.i2cNanos - in0, bus0: in0,
                i2cBytes: drawn, flashNanos: st.flashNanos - f0, usbBytes: sent,
                xipCycles: st.xipCycles - x0, xipMisses: st.xipMisses - m0 });
  }

  // The XIP cache's counters, carried over reboots (a new chip, a new cache).
  _xipStats() {
    const x = this.xip;
    if (!x) return;
    const st = this.stats;
    st.xipHits = this.xip0[0] + x.hits;
    st.xipMisses = this.xip0[1] + x.misses;
    st.xipCycles = this.xip0[2] + x.stallCycles;
  }

  /** Emulated nanoseconds since the first power-on. */
  now() {
    return this.nanos0 + (this.mcu ? this.mcu.clock.nanos : 0);
  }

  powerOn() {
    if (this.mcu) this.nanos0 += this.mcu.clock.nanos;
    this.boots++;
    this.appUp = false;
    this.framed = false;      // display data (not only commands) sent since this boot
    this.rebooting = null;
    const flash = this.flash;
    const mcu = makeChip(flash.mem, {
      erase: (off, n) => this._flashOp('erase', off, n),
      program: (off, data) => this._flashOp('program', off, data),
      busy: (ns) => this._stall(ns),
      randomBit: () => this.entropy.bit(),
      reboot: (why) => { this.rebooting = why; },
      uniqueId: this.opts.uniqueId,
    });
    this.mcu = mcu;
    if (this.heap) this.heap.attach(mcu);
    if (this.opts.xip) {
      this._xipStats();
      const st = this.stats;
      this.xip0 = [st.xipHits, st.xipMisses, st.xipCycles];
      this.xip = attachXip(mcu, new XipCache());
      if (this.opts.pyCode) [this.xip.pyStart, this.xip.pyEnd] = this.opts.pyCode;
      this.xip.where = this.spans && this.opts.xipProfile || null;
    }
    flash.mem = mcu.flash.subarray(0, flash.mem.length);  // the harness's operations land in the chip's own flash
    this.entropy.restart();
    this.lines = new Lines(mcu);
    this._wireDisplay();
    this._wireKeys();
    const ring = this.profile.ring;
    if (ring) {
      this.leds = new Ws2812(mcu, this.lines, ring.gpio, ring.n, (rgb, t) => {
        this.stats.ledFrames++;
        this.emit({ ev: 'leds', t: this.now(), d: Buffer.from(rgb).toString('base64') });
      });
    }
    this.cdc = new CdcHost(mcu.usbCtrl, this.stats, (data) => this.serialOut(data),
      () => this.emit({ ev: 'usb', t: this.now() }));
    this.emit({ ev: 'boot', n: this.boots, t: this.now(), stats: this.snapshot() });
  }

  _wireDisplay() {
    const d = this.profile.display;
    const write = (bytes, addr) => {
      if (bytes[0] & 0x40) this.framed = true;   // a data stream: part of a frame
      this.emit({ ev: 'i2c', t: this.now(), a: addr, d: Buffer.from(bytes).toString('base64'),
                  bus: this.stats.i2cNanos });
    };
    if (d.bus === 'i2c') {
      const devices = new Map([[d.addr, { write }]]);
      this.i2c = new BusTarget(this.mcu, this.mcu.i2c[d.id], devices, this.stats, [d.sda, d.scl]);
      this.scan = new GpioTarget(this.lines, d.sda, d.scl, [d.addr]);
    } else {
      this._wireSpi(d);
    }
  }

  // The MacroPad's SH1106 on SPI: bytes while CS is low, command or data by
  // the DC pin, each run of one kind handed on as one write.
  _wireSpi(d) {
    const spi = this.mcu.spi[d.id];
    let run = [];
    let dc = -1;
    const flush = () => {
      if (!run.length) return;
      if (dc) this.framed = true;
      this.emit({ ev: 'spi', t: this.now(), dc, d: Buffer.from(run).toString('base64') });
      run = [];
    };
    this.lines.onChange(d.cs, (level) => { if (level) flush(); });
    this.lines.onChange(d.dc, () => flush());
    const alarm = this.mcu.clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      if (!this.lines.level[d.cs]) {
        const level = this.lines.level[d.dc] ? 1 : 0;
        if (level !== dc) flush();
        dc = level;
        run.push(value & 0xff);
        this.stats.spiBytes++;
      }
      // The bit clock divides clk_peri, which is clk_sys on this port (see i2c.mjs).
      const hz = spi.clockFrequency ? spi.clockFrequency * this.mcu.clkSys / this.mcu.clkPeri : 10e6;
      alarm.schedule(spi.dataBits * 1e9 / hz);
    };
  }

  _wireKeys() {
    for (const g of this.profile.inputs || []) this.lines.pull(g, false);
    this.setKeys(this.keyMask);
  }

  /** Press exactly the keys of `mask` (hw/keys.py bits): their switches pull to GND. */
  setKeys(mask) {
    this.keyMask = mask;
    for (const [bit, gpios] of Object.entries(this.profile.keys)) {
      const down = (mask & Number(bit)) !== 0;
      gpios.forEach((g, i) => this.lines.pull(g, down && i === 0));
    }
  }

  /** Run fn at emulated time `nanos` (since the first power-on). */
  at(nanos, fn) {
    this.timers.push([nanos, fn]);
    this.timers.sort((a, b) => a[0] - b[0]);
  }

  /** Run fn `nanos` after the app is up (its first idle after a boot), the
   *  time 0 of a script, as in the desktop simulator: exact, whenever the
   *  command arrives before the app is up; a late one is reported. */
  atApp(nanos, fn) {
    if (!this.appUp) {
      this.appQueue.push([nanos, fn]);
      return;
    }
    if (this.appT + nanos < this.now()) {
      this.emit({ ev: 'error', msg: `script event at +${nanos / 1e6} ms came after the board was ` +
        `at +${(this.now() - this.appT) / 1e6} ms: send the script before the app is up` });
    }
    this.at(this.appT + nanos, fn);
  }

  _flashOp(kind, off, arg) {
    const cut = this.opts.cutAt;
    const ns = this.flash.nanos(kind, off, arg);
    if (cut !== null && this.now() + ns > cut && this.now() <= cut) {
      // The power goes while the flash is busy: part of the operation lands.
      const part = (cut - this.now()) / ns;
      this.flash.apply(kind, off, arg, part);
      this._cut('in a flash ' + kind);
      return 0;   // the chip is gone: the run loop stops or powers on again
    }
    this.flash.apply(kind, off, arg, 1);
    this.stats[kind === 'erase' ? 'erases' : 'programs']++;
    return ns;
  }

  // The CPU waits for the flash (interrupts are off meanwhile on this port).
  _stall(ns) {
    const t0 = this.now();
    this.stats.flashNanos += ns;
    this.mcu.clock.tick(ns);
    this.lastStall = [t0, this.now()];   // a mark due inside it says so (main.mjs)
  }

  /** A power cut at emulated time `nanos`; with restart the power comes
   *  back at once (a new chip on the flash as the cut left it). */
  cutAt(nanos, restart) {
    this.opts.cutAt = nanos;
    this.restartAfterCut = restart;
  }

  _cut(where) {
    this.emit({ ev: 'cut', t: this.now(), where });
    this.opts.cutAt = null;
    if (this.restartAfterCut) {
      this.cutting = true;   // the run loop powers on again
      return;
    }
    this.stopped = true;
    this.opts.onStop('cut');
  }

  /** Run until stopped: slices of emulation between looks at I/O. */
  run() {
    if (this.stopped) return;
    const mcu = this.mcu;
    const core = mcu.core;
    const clock = mcu.clock;
    const paced = this.opts.paced;
    const cut = this.opts.cutAt;
    const xip = this.xip;
    const end = Date.now() + SLICE_WALL_MS;
    let wait = 0;
    outer:
    while (Date.now() < end) {
      for (let i = 0; i < 20000; i++) {
        // Every timer due now, before the next instruction: after a flash
        // stall, the marks due inside it see the parts as the stall left them.
        while (this.timers.length && this.timers[0][0] <= this.now()) {
          this.timers.shift()[1]();
          if (this.stopped) return;
        }
        if (core.waiting) {
          if (this.span) this._sleep();
          const next = clock.nextAlarm ? clock.nanosToNextAlarm : Infinity;
          const timer = this.timers.length ? this.timers[0][0] - this.now() : Infinity;
          let dt = Math.min(next, timer);
          if (cut !== null) dt = Math.min(dt, cut - this.now());
          if (dt === Infinity) { wait = 2; break outer; }   // only the host can wake it
          if (!this.appUp && this.framed && dt >= APP_IDLE_NS) {
            this.appUp = true;
            this.appT = this.now();
            this.emit({ ev: 'app', t: this.appT, boot: this.boots, stats: this.snapshot() });
            for (const [ns, fn] of this.appQueue.splice(0)) this.at(this.appT + ns, fn);
            continue;   // timers due now run before the CPU sleeps
          }
          if (paced) {
            const ahead = (this.now() + dt) / 1e6 - (Date.now() - this.wall0);
            if (ahead > 1) { wait = Math.min(ahead, 20); break outer; }
          }
          clock.tick(dt);
          this.stats.idleNanos += dt;
        } else {
          if (this.spans && !this.span) this._wake();
          // A run of instructions up to the next timer or cut, or until the
          // CPU waits, reboots or is stopped (those are only ever set by an
          // instruction's own access): the loop's other checks once a run.
          const limit = Math.min(this.timers.length ? this.timers[0][0] : Infinity,
            cut !== null ? cut : Infinity) - this.nanos0;
          let cycles = 0;
          let n = 0;
          // Profiled: the run's cycles before its first byte for the display
          // after its first flash program (a roll's result, not its head).
          const st = this.stats;
          const pcs = this.span && (st.programs === this.pcPrograms ||
            st.i2cQueued + st.spiBytes === this.pcQueued) ? this.pcSpan : null;
          if (pcs) {
            // A loop of its own: the profile's work is off the plain loop's path.
            do {
              const pc = core.PC;
              let c = core.executeInstruction();
              if (xip && xip.pending) c += xip.take();
              if (st.programs === this.pcPrograms) this.pcQueued = st.i2cQueued + st.spiBytes;
              else if (pc === this.opts.pcMark) this.pcMarked = true;
              const at = this.opts.pyCode ? 'b' + xip.pyAt : pc;
              const k = st.programs === this.pcPrograms ? at : at + (this.pcMarked ? '*' : '+');
              pcs.set(k, (pcs.get(k) || 0) + c);
              clock.tick(c * CYCLE_NS);
              cycles += c;
            } while (++n < BATCH && !core.waiting && clock.nanosCounter < limit &&
                     !this.rebooting && !this.cutting && !this.stopped);
          } else {
            do {
              let c = core.executeInstruction();
              if (xip && xip.pending) c += xip.take();   // stalled on flash: cache misses
              clock.tick(c * CYCLE_NS);
              cycles += c;
            } while (++n < BATCH && !core.waiting && clock.nanosCounter < limit &&
                     !this.rebooting && !this.cutting && !this.stopped);
          }
          this.stats.busyCycles += cycles;
          if (this.heap) this.heap.busy(cycles);
          i += n - 1;
        }
        if (cut !== null && !this.cutting && this.now() >= cut) this._cut('between instructions');
        if (this.cutting) {
          this.cutting = false;
          this.powerOn();
          setImmediate(() => this.run());
          return;
        }
        if (this.rebooting) {
          this.emit({ ev: 'reset', t: this.now(), why: this.rebooting });
          this.powerOn();
          setImmediate(() => this.run());
          return;
        }
        if (this.stopped) return;
      }
    }
    if (wait) setTimeout(() => this.run(), wait);
    else setImmediate(() => this.run());
  }

  start() {
    this.wall0 = Date.now();
    this.powerOn();
    this.run();
  }
}
