// A WS2812 LED chain on a data pin, decoded from the pulses on the wire.
//
// micropython-lib's neopixel writes with machine.bitstream: timed high
// pulses of about 0.4 us (a 0 bit) or 0.8 us (a 1 bit) in a 1.25 us period
// (ports/rp2/machine_bitstream.c counts CPU cycles with SysTick). A pulse
// longer than THRESHOLD is a 1, as the LED's own decoder judges it; a low
// line for longer than RESET_NS latches the frame. Bytes arrive G, R, B per
// LED (WS2812 order) and are handed on as R, G, B.

const THRESHOLD_NS = 600;   // WS2812B: T0H 0.4 us, T1H 0.8 us (+-150 ns)
const RESET_NS = 50000;     // low for >= 50 us: latch

export class Ws2812 {
  /** onFrame(rgb Uint8Array of 3*n, nanos) is called at each latch. */
  constructor(mcu, lines, gpio, n, onFrame) {
    this.mcu = mcu;
    this.n = n;
    this.onFrame = onFrame;
    this.rose = -1;
    this.bits = 0;
    this.byte = 0;
    this.bytes = [];
    this.bad = 0;              // pulses that are neither a 0 nor a 1
    this.rgb = new Uint8Array(3 * n);  // what the LEDs show: each keeps its colour until new data
    this.latch = mcu.clock.createAlarm(() => this._latch());
    lines.onChange(gpio, (level) => this._edge(level));
  }

  _edge(level) {
    const now = this.mcu.clock.nanos;
    if (level) {
      this.rose = now;
      this.latch.cancel();
      return;
    }
    if (this.rose < 0) return;
    const width = now - this.rose;
    this.rose = -1;
    if (width < 150 || width > 5000) this.bad++;
    this.byte = (this.byte << 1) | (width > THRESHOLD_NS ? 1 : 0);
    if (++this.bits === 8) {
      this.bytes.push(this.byte);
      this.bits = 0;
      this.byte = 0;
    }
    this.latch.schedule(RESET_NS);
  }

  _latch() {
    const grb = this.bytes;
    this.bytes = [];
    this.bits = 0;
    this.byte = 0;
    if (!grb.length) return;
    const rgb = this.rgb;
    for (let i = 0; i < this.n && 3 * i + 2 < grb.length; i++) {
      rgb[3 * i] = grb[3 * i + 1];
      rgb[3 * i + 1] = grb[3 * i];
      rgb[3 * i + 2] = grb[3 * i + 2];
    }
    this.onFrame(rgb.slice(), this.mcu.clock.nanos, grb.length);
  }
}
