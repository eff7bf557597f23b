// I2C targets on the board's bus: the OLED at its address.
//
// Two ways MicroPython reaches a target on the rp2 port, both modelled:
// - machine.I2C transfers with data go through the I2C block: rp2040js
//   hands each start, address, byte and stop to the callbacks below, and
//   the target completes each after the time it takes on the wire (9 clocks
//   a byte at the bus's clock, from the block's SCL counts), so emulated
//   time includes bus time as on a board;
// - zero-length writes (i2c.scan()) are bit-banged on the SDA/SCL pins
//   (ports/rp2/machine_i2c.c), so GpioTarget follows the lines and ACKs
//   its address by pulling SDA low.

import { I2CMode } from 'rp2040js';

const FUNC_I2C = 3;   // GPIO function select: the pin belongs to an I2C block
const IC_DATA_CMD = 0x10;
const IC_DMA_CR = 0x88;
const IC_DMA_TDLR = 0x8c;
const TDMAE = 2;
const DREQ_I2C_TX = [32, 34];   // DREQ_I2C0_TX, DREQ_I2C1_TX (RP2040 datasheet 2.5.3.1)

/**
 * Target(s) on an RPI2C block, wired to the GPIOs `pins` ([sda, scl]).
 * `devices` maps a 7-bit address to a device with write(bytes) (one whole
 * write transaction, called at its stop) and, optionally, read() -> byte.
 * Any other address is NACKed, and so is every address while the block is
 * not routed to those pins (a firmware with the wrong pins sees no OLED):
 * the firmware gets the error a board gives (ETIMEDOUT on this port, see
 * docs/emulator.md).
 */
export class BusTarget {
  constructor(mcu, i2c, devices, stats, pins) {
    this.mcu = mcu;
    this.i2c = i2c;
    this.devices = devices;
    this.stats = stats;
    this.pins = pins;
    this.dev = null;
    this.buf = [];
    this.alarm = mcu.clock.createAlarm(() => this._done());
    this.then = null;
    this.dmaCr = 0;
    this.dmaTdlr = 0;
    this.dreq = DREQ_I2C_TX[mcu.i2c.indexOf(i2c)];
    const read = i2c.readUint32.bind(i2c);
    const write = i2c.writeUint32.bind(i2c);
    i2c.readUint32 = (offset) => (offset === IC_DMA_CR ? this.dmaCr
      : offset === IC_DMA_TDLR ? this.dmaTdlr : read(offset));
    i2c.writeUint32 = (offset, value) => {
      if (offset === IC_DATA_CMD) stats.i2cQueued++;   // a byte into the TX FIFO, by the CPU or the DMA
      if (offset === IC_DMA_CR) {
        this.dmaCr = value & 3;
        stats.i2cDma = (value >> 1) & 1;   // TDMAE: the frames go by DMA (hw/i2cdma.py)
      }
      else if (offset === IC_DMA_TDLR) this.dmaTdlr = value & 0xf;
      else write(offset, value);
      this._request();
    };
    i2c.onStart = () => this._after(1, () => i2c.completeStart());
    i2c.onConnect = (addr, mode) => {
      this._flush();
      const wired = this.pins.every((g) => mcu.gpio[g].functionSelect === FUNC_I2C);
      this.dev = (wired && this.devices.get(addr)) || null;
      const ack = this.dev !== null && (mode === I2CMode.Write || !!this.dev.read);
      this.addr = addr;
      this._after(9, () => i2c.completeConnect(ack));
    };
    i2c.onWriteByte = (b) => {
      this.buf.push(b);
      this._after(9, () => i2c.completeWrite(true));
    };
    i2c.onReadByte = () => this._after(9, () => i2c.completeRead(this.dev.read()));
    i2c.onStop = () => this._after(1, () => {
      this._flush();
      i2c.completeStop();
    });
  }

  // The TX DMA request follows the FIFO's level.
  _request() {
    const dma = this.mcu.dma;
    if ((this.dmaCr & TDMAE) && (this.i2c.enable & 1) && this.i2c.txFIFO.itemCount <= this.dmaTdlr) {
      dma.setDREQ(this.dreq);
    } else {
      dma.clearDREQ(this.dreq);
    }
  }

  /** Nanoseconds of one SCL period, from the block's configured counts.
   *  They count clk_peri, which this port runs from clk_sys
   *  (ports/rp2/clocks_extra.c); rp2040js 1.4.1 reports clk_peri as 48 MHz
   *  after MicroPython's clock set-up, so clk_sys is used. */
  bitNanos() {
    const counts = this.i2c.sclLowPeriod + this.i2c.sclHighPeriod;
    return Math.round(counts > 0 ? counts * 1e9 / this.mcu.clkSys : 2500);
  }

  _after(bits, fn) {
    this._request();   // a byte left the FIFO (or a stop ended it)
    const ns = bits * this.bitNanos();
    this.stats.i2cNanos += ns;
    this.then = fn;
    this.alarm.schedule(ns);
  }

  _done() {
    const fn = this.then;
    this.then = null;
    if (fn) fn();
  }

  _flush() {
    if (this.dev && this.buf.length) {
      this.stats.i2cBytes += this.buf.length;
      this.dev.write(Uint8Array.from(this.buf), this.addr);
    }
    this.buf = [];
  }
}

/**
 * A bit-level I2C target on two GPIOs (Lines): START, eight address bits
 * sampled on SCL's rising edges, ACK on the ninth clock if the address is
 * one of `addresses`. Enough for i2c.scan(); data after the address is
 * followed (ACKed) but not delivered: MicroPython sends data through the
 * I2C block.
 */
export class GpioTarget {
  constructor(lines, sda, scl, addresses) {
    this.lines = lines;
    this.sda = sda;
    this.scl = scl;
    this.addresses = addresses;
    this.state = 'idle';
    this.bits = 0;
    this.byte = 0;
    this.acking = false;
    this.matched = false;
    this.found = [];     // addresses ACKed, for the log
    lines.onChange(sda, (v) => this._sda(v));
    lines.onChange(scl, (v) => this._scl(v));
  }

  _sda(level) {
    if (!this.lines.level[this.scl] || this.acking) return;
    if (!level) {            // SDA falls while SCL is high: START
      this.state = 'addr';
      this.bits = 0;
      this.byte = 0;
    } else {                 // SDA rises while SCL is high: STOP
      this.state = 'idle';
    }
  }

  _scl(level) {
    if (this.state === 'idle') return;
    if (level) {             // rising edge: sample a bit
      if (this.acking) return;
      this.byte = (this.byte << 1) | (this.lines.level[this.sda] ? 1 : 0);
      this.bits++;
      return;
    }
    // falling edge
    if (this.acking) {       // the ACK clock is over: let SDA go
      this.acking = false;
      this.lines.pull(this.sda, false);
      if (!this.matched) this.state = 'idle';
      return;
    }
    if (this.bits === 8) {
      if (this.state === 'addr') {
        this.matched = this.addresses.includes(this.byte >> 1);
        if (this.matched) this.found.push(this.byte >> 1);
        this.state = 'data';
      }
      this.bits = 0;
      this.byte = 0;
      if (this.matched) {
        this.acking = true;
        this.lines.pull(this.sda, true);
      }
    }
  }
}
