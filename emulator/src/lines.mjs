// The wires outside the chip: what level each GPIO's input reads.
//
// rp2040js reports what a pin drives (output, or input with pull-up/down)
// but an input's level is only what the harness sets: its pull resistors do
// not raise or lower it. Here a line's level is what the electronics make
// it: the chip driving it, else an external part pulling it low (a pressed
// button to GND, an I2C target's ACK), else the chip's own pull-up or
// pull-down; an undriven line with no pull reads low (a floating CMOS input
// is undefined: a firmware that forgot its pull-up must not pass by luck).

import { GPIOPinState } from 'rp2040js';

export class Lines {
  constructor(mcu) {
    this.mcu = mcu;
    this.low = new Set();       // GPIOs an external part pulls low
    this.watch = new Map();     // GPIO -> [callback(level)] on a level change
    this.level = [];
    for (const pin of mcu.gpio) {
      this.level[pin.index] = false;
      pin.addListener(() => this.update(pin.index));
      this.update(pin.index);
    }
  }

  /** An external part pulls `gpio` low (true) or lets it go (false). */
  pull(gpio, low) {
    if (low) this.low.add(gpio);
    else this.low.delete(gpio);
    this.update(gpio);
  }

  /** Call fn(level) whenever the level of `gpio` changes. */
  onChange(gpio, fn) {
    if (!this.watch.has(gpio)) this.watch.set(gpio, []);
    this.watch.get(gpio).push(fn);
  }

  update(gpio) {
    const pin = this.mcu.gpio[gpio];
    const s = pin.value;
    let level;
    if (s === GPIOPinState.Low) level = false;
    else if (s === GPIOPinState.High) level = !this.low.has(gpio);  // a short: the external part wins
    else if (this.low.has(gpio)) level = false;
    else level = s === GPIOPinState.InputPullUp || s === GPIOPinState.InputBusKeeper && this.level[gpio];
    pin.setInputValue(level);
    if (level !== this.level[gpio]) {
      this.level[gpio] = level;
      for (const fn of this.watch.get(gpio) || []) fn(level);
    }
  }
}
