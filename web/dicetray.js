// The tray in a web page: the firmware's main.py, unmodified, on MicroPython's
// WebAssembly port, with the board profile simboard/web.py. This file
// is the page's side of that board: canvas, LED ring, keys, the flash in the
// browser's storage, and the loop, one App.step at a time (docs/simulator.md,
// "In a web page"). No rules, screens or store here: only the board.
//
// URL options: ?seed=N (the dice; default random), ?flash=NAME (which flash in
// this browser's storage; default "tray"), ?zoom=N (OLED pixel size, default 4),
// ?virtual=1 (the clock moves only by what each step returns, as the desktop
// simulator's in scripted runs; seed 1 unless given) with &wait=1 (boot only at
// the first play()). window.dicetray is the API the tests and the bench use.

import { loadMicroPython } from "./micropython.mjs";

export const KEY_BITS = { UP: 1, DOWN: 2, LEFT: 4, RIGHT: 8, OK: 16, BACK: 32, ROLL: 64 };
const TAP_MS = 100;    // in virtual time a tap is held this long at least (the firmware debounces 20 ms there)
const GAP_MS = 60;     // and let go this long before the same key goes down again
const LONG_MS = 1000;  // a scripted long press
const IO_KEYS = 0, IO_POWER = 1, IO_CONTRAST = 2, IO_INVERT = 3, IO_FRAME = 4, IO_RING = 5, IO_FLASH = 6;
const ROOT = "/flash";
const KEYBOARD = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT", Enter: "OK",
  Backspace: "BACK", Escape: "BACK", " ": "ROLL", r: "ROLL", R: "ROLL",
};
const W = 128, H = 64;
const LIT_FLOOR = 128;  // as host/dicetray/sim/terminal.py's led_rgb
const UNLIT = [56, 56, 56];

const params = new URLSearchParams(location.search);
const opts = {
  virtual: params.get("virtual") === "1",
  wait: params.get("wait") === "1",
  seed: params.has("seed") ? parseInt(params.get("seed"), 10) : null,
  flash: params.get("flash") || "tray",
  zoom: Math.max(1, Math.min(8, parseInt(params.get("zoom") || "4", 10) || 4)),
};
if (opts.virtual && opts.seed === null) opts.seed = 1;

const $ = (id) => document.getElementById(id);
function status(text) { $("status").textContent = text; }
function log(line) {
  const el = $("log");
  el.textContent += line + "\n";
  el.scrollTop = el.scrollHeight;
}

// --- bytes <-> base64 -------------------------------------------------------
function b64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
function unb64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
function same(a, b) {
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// --- the flash, kept in localStorage ---------------------------------------
// One key per file ("F" + base64) or directory ("D") under "dicetray:NAME:";
// after a step that may have written (the board's IO_FLASH), the /flash tree
// is compared with what is saved and only the files that changed are written.
class Flash {
  constructor(name) {
    this.prefix = "dicetray:" + name + ":";
    this.saved = new Map();   // path (relative to /flash) -> Uint8Array, or null for a directory
    this.error = null;
  }
  stored() {
    const out = new Map();
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k.startsWith(this.prefix)) continue;
      const v = localStorage.getItem(k);
      out.set(k.slice(this.prefix.length), v[0] === "D" ? null : unb64(v.slice(1)));
    }
    return out;
  }
  load(FS) {
    FS.mkdir(ROOT);
    const entries = [...this.stored()].sort((a, b) => a[0].split("/").length - b[0].split("/").length);
    for (const [p, v] of entries) {
      if (v === null) FS.mkdir(ROOT + "/" + p);
    }
    for (const [p, v] of entries) {
      if (v !== null) FS.writeFile(ROOT + "/" + p, v);
    }
    this.saved = new Map(entries);
    return entries.length;
  }
  scan(FS) {
    const out = new Map();
    const walk = (dir, rel) => {
      for (const name of FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        const path = dir + "/" + name, r = rel ? rel + "/" + name : name;
        if (FS.isDir(FS.stat(path).mode)) { out.set(r, null); walk(path, r); }
        else out.set(r, FS.readFile(path));
      }
    };
    walk(ROOT, "");
    return out;
  }
  save(FS) {
    const now = this.scan(FS);
    let n = 0;
    try {
      for (const [p, v] of now) {
        if (this.saved.has(p) && same(this.saved.get(p), v)) continue;
        localStorage.setItem(this.prefix + p, v === null ? "D" : "F" + b64(v));
        this.saved.set(p, v);
        n++;
      }
      for (const p of [...this.saved.keys()]) {
        if (!now.has(p)) { localStorage.removeItem(this.prefix + p); this.saved.delete(p); n++; }
      }
      this.error = null;
    } catch (e) {
      this.error = "the browser's storage refused the flash (" + e.name + "): export it to keep it";
      status(this.error);
    }
    return n;
  }
  clear() {
    for (const k of [...Array(localStorage.length).keys()].map((i) => localStorage.key(i))) {
      if (k && k.startsWith(this.prefix)) localStorage.removeItem(k);
    }
    this.saved = new Map();
  }
  exported() {
    const files = {};
    for (const [p, v] of [...this.stored()].sort()) files[p] = v === null ? null : b64(v);
    return { format: "dicetray-flash", version: 1, files };
  }
  imported(doc) {
    if (!doc || doc.format !== "dicetray-flash" || doc.version !== 1 || typeof doc.files !== "object") {
      throw new Error("not a Dicetray flash export (format dicetray-flash, version 1)");
    }
    const entries = Object.entries(doc.files);
    for (const [p, v] of entries) {
      if (p.split("/").some((s) => s === "" || s === "." || s === "..")) throw new Error("bad path in the export: " + p);
      if (v !== null) unb64(v);  // throws on bad base64 before anything is replaced
    }
    this.clear();
    for (const [p, v] of entries) localStorage.setItem(this.prefix + p, v === null ? "D" : "F" + v);
  }
}

// --- keys held by the page ---------------------------------------------------
// As host/dicetray/sim/script.py's Buttons: a press may lift by itself at a
// time (scripts). In real time a person's key goes down and up when the
// event comes (press/release), and the tray steps the firmware at once on
// each change (Tray.key): the board's keys are clean (webboard.py's
// debounce = 0), so that step takes the key and draws its frame. In
// virtual time (keyDown/keyUp) a key is held TAP_MS at least and let go
// GAP_MS at least before it goes down again, so the firmware's 20 ms
// debounce and 30 ms poll see every quick click and every fast double
// tap: a press that comes too soon waits in a queue.
class Held {
  constructor() { this.mask = 0; this.rel = new Map(); this.down = new Map(); this.freeAt = new Map(); this.queue = []; }
  press(bit, now, hold = null) {
    this.mask |= bit;
    this.down.set(bit, now);
    if (hold === null) this.rel.delete(bit); else this.rel.set(bit, now + hold);
  }
  release(bit, now) { this.mask &= ~bit; this.rel.delete(bit); this.freeAt.set(bit, now); }
  letGo(bit, now) {
    const t = (this.down.has(bit) ? this.down.get(bit) : now) + TAP_MS;
    if (now >= t) this.release(bit, now); else this.rel.set(bit, t);
  }
  free(bit) { return (this.freeAt.has(bit) ? this.freeAt.get(bit) : -Infinity) + GAP_MS; }
  keyDown(bit, now) {
    if ((this.mask & bit) || now < this.free(bit) || this.queue.some((q) => q.bit === bit)) {
      this.queue.push({ bit, up: false });
    } else {
      this.press(bit, now);
    }
  }
  keyUp(bit, now) {
    const q = this.queue.find((e) => e.bit === bit && !e.up);
    if (q) q.up = true; else if (this.mask & bit) this.letGo(bit, now);
  }
  act(key, action, t) {
    const bit = KEY_BITS[key];
    if (action === "up") this.release(bit, t);
    else this.press(bit, t, action === "tap" ? TAP_MS : action === "long" ? LONG_MS : null);
  }
  update(now) {
    for (const [bit, t] of [...this.rel]) if (now >= t) this.release(bit, t);
    const seen = new Set();
    for (let i = 0; i < this.queue.length; i++) {
      const q = this.queue[i];
      if (seen.has(q.bit)) continue;
      seen.add(q.bit);
      if ((this.mask & q.bit) || now < this.free(q.bit)) continue;
      this.queue.splice(i--, 1);
      this.press(q.bit, now);
      if (q.up) this.letGo(q.bit, now);
    }
  }
  next() {
    let m = Infinity;
    for (const t of this.rel.values()) m = Math.min(m, t);
    for (const q of this.queue) if (!(this.mask & q.bit)) m = Math.min(m, this.free(q.bit));
    return m;
  }
}

// The desktop simulator's script format (host/dicetray/sim/script.py).
export function parseScript(text) {
  const events = [];
  text.split("\n").forEach((line, no) => {
    const words = line.split("#")[0].trim().split(/\s+/).filter(Boolean);
    if (!words.length) return;
    const where = "script:" + (no + 1) + ": ";
    const ms = Number(words[0]);
    if (!Number.isInteger(ms) || ms < 0) throw new Error(where + "time " + words[0] + " is not a whole number of ms >= 0");
    const verb = (words[1] || "").toUpperCase();
    if (verb === "SCREENSHOT" && words.length === 3) events.push([ms, "screenshot", words[2]]);
    else if (verb === "QUIT") events.push([ms, "quit", null]);
    else if (verb in KEY_BITS) {
      const action = (words[2] || "tap").toLowerCase();
      if (!["tap", "long", "down", "up"].includes(action) || words.length > 3) throw new Error(where + "action " + action);
      events.push([ms, verb, action]);
    } else throw new Error(where + "unknown " + words[1]);
  });
  return events.map((e, i) => [e, i]).sort((a, b) => a[0][0] - b[0][0] || a[1] - b[1]).map((x) => x[0]);
}

// An LED's colour drawn as light (the terminal's led_rgb).
function ledRgb(r, g, b) {
  const m = Math.max(r, g, b);
  if (m === 0) return [0, 0, 0];
  const top = LIT_FLOOR + (255 - LIT_FLOOR) * Math.sqrt((m - 1) / 254);
  return [r, g, b].map((c) => Math.floor(c * top / m + 0.5));
}

// --- the tray ----------------------------------------------------------------
class Tray {
  constructor() {
    this.flash = new Flash(opts.flash);
    this.held = new Held();
    this.virtual = opts.virtual;
    this.vnow = 0;
    this.t0 = performance.now();
    this.timer = null;
    this.running = false;
    this.booted = false;
    this.error = null;
    this.frames = 0;          // OLED redraws
    this.firstFrameMs = null; // performance.now() of the first lit frame
    this.lastFrameMs = null;
    this.fb = new Uint8Array(W * H / 8);
    this.rgb = new Uint8Array(36);
    this.seen = [-1, -1];     // IO_FRAME, IO_RING counters drawn
    this.script = null;
    this.oled = $("oled");
    this.oled.width = W * opts.zoom;
    this.oled.height = H * opts.zoom;
    this.octx = this.oled.getContext("2d");
    this.small = document.createElement("canvas");
    this.small.width = W; this.small.height = H;
    this.sctx = this.small.getContext("2d");
    this.img = this.sctx.createImageData(W, H);
    this.ring = $("ring");
    this.rctx = this.ring.getContext("2d");
  }

  now() { return this.virtual ? this.vnow : performance.now() - this.t0; }

  async load() {
    status("loading MicroPython…");
    const fw = fetch("firmware.bin").then((r) => {
      if (!r.ok) throw new Error("firmware.bin: HTTP " + r.status);
      return r.arrayBuffer();
    });
    this.mp = await loadMicroPython({ stdout: log, stderr: log });
    this.M = this.mp._module;
    const FS = this.mp.FS;
    unpack(new Uint8Array(await fw), FS, "/fw");
    FS.mkdir("/web");
    FS.writeFile("/web/board.json", JSON.stringify({ seed: opts.seed, virtual: this.virtual }));
    const n = this.flash.load(FS);
    status(n ? "flash restored from this browser" : "a new tray (blank flash)");
  }

  boot() {
    if (this.booted) return;
    this.booted = true;
    this.applyDue();
    this.writeKeys();
    try {
      this.mp.runPython("import sys\nsys.path.insert(0, '/fw')\nimport main");
      this.board = this.mp.pyimport("main").app.b;
      [this.io, this.ram, this.leds, this.nleds] = [...this.board.addrs()];
      this.tick = this.board.tick;
    } catch (e) {
      return this.crash(e);
    }
    this.after();
    if (!(this.virtual && opts.wait)) this.resume();
  }

  crash(e) {
    this.error = String(e && e.message || e);
    this.running = false;
    clearTimeout(this.timer);
    const el = $("error");
    el.textContent = "The firmware stopped:\n" + this.error;
    el.style.display = "block";
    status("stopped: reload the page to boot again");
  }

  byte(k) { return this.M.getValue(this.io + k, "i8") & 0xFF; }
  writeKeys() { if (this.io !== undefined) this.M.setValue(this.io + IO_KEYS, this.held.mask, "i8"); }

  // One App.step; returns the ms it asks to wait, or -1 after a crash.
  step() {
    let ms;
    try {
      ms = this.tick();
    } catch (e) {
      this.crash(e);
      return -1;
    }
    if (this.virtual) this.vnow += ms;
    this.after();
    return ms;
  }

  // What a step changed: draw it, save the flash.
  after() {
    const f = this.byte(IO_FRAME), r = this.byte(IO_RING);
    if (f !== this.seen[0]) { this.seen[0] = f; this.drawOled(); }
    if (r !== this.seen[1]) { this.seen[1] = r; this.drawRing(); }
    if (this.byte(IO_FLASH)) {
      this.M.setValue(this.io + IO_FLASH, 0, "i8");
      this.flash.save(this.mp.FS);
    }
  }

  // The real-time loop: a step, then a timer for the ms it returned (or
  // the next timed key release, if sooner). A key steps it at once (key).
  resume() {
    this.running = true;
    this.schedule(0);
  }
  schedule(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.loop(), Math.max(0, ms));
  }
  loop() {
    if (!this.running) return;
    const now = this.now();
    this.held.update(now);
    this.writeKeys();
    const ms = this.step();
    if (ms < 0) return;
    if (this.virtual) this.applyDue();
    const next = Math.min(ms, this.held.next() - this.now());
    this.schedule(next);
  }

  // A person's key (keyboard, on-page button, the API). In real time the
  // firmware is stepped here and now: the key is taken (no debounce for
  // clean keys) and its frame drawn before this returns, and every down
  // and up is seen by a step of its own, however quick the tap.
  key(name, down) {
    const bit = KEY_BITS[name];
    const now = this.now();
    $("k-" + name).classList.toggle("down", down);
    if (!this.virtual) {
      if (down) this.held.press(bit, now); else this.held.release(bit, now);
      this.writeKeys();
      if (this.running) this.loop();
      return;
    }
    if (down) this.held.keyDown(bit, now);
    else this.held.keyUp(bit, now);
    this.held.update(now);
    this.writeKeys();
    if (this.running) this.schedule(0);
  }

  // --- virtual time: scripts, as the desktop simulator plays them --------
  applyDue() {
    const s = this.script;
    if (s) {
      while (s.events.length && s.events[0][0] <= this.vnow) {
        const [t, verb, arg] = s.events.shift();
        if (verb === "screenshot") s.shots[arg] = this.shot();
        else if (verb === "quit") s.events = [];
        else this.held.act(verb, arg, t);
      }
    }
    this.held.update(this.vnow);
    this.writeKeys();
  }

  // Play a script (the desktop simulator's format) in virtual time, from
  // boot if the page waited (?virtual=1&wait=1); resolves with its
  // screenshots once its last event is played.
  play(text) {
    if (!this.virtual) return Promise.reject(new Error("play() needs ?virtual=1"));
    const events = parseScript(text);
    this.running = false;
    clearTimeout(this.timer);
    return new Promise((resolve, reject) => {
      this.script = { events, shots: {} };
      if (!this.booted) this.boot();
      if (this.error) return reject(new Error(this.error));
      const chunk = () => {
        const t1 = performance.now();
        while (this.script.events.length && performance.now() - t1 < 30) {
          if (this.step() < 0) return reject(new Error(this.error));
          this.applyDue();
        }
        if (this.script.events.length) return setTimeout(chunk, 0);
        const shots = this.script.shots;
        this.script = null;
        this.resume();
        resolve(shots);
      };
      chunk();
    });
  }

  // --- drawing -------------------------------------------------------------
  drawOled() {
    const M = this.M, fb = this.fb, ram = this.ram;
    for (let i = 0; i < fb.length; i++) fb[i] = M.getValue(ram + i, "i8") & 0xFF;
    const on = this.byte(IO_POWER), inv = this.byte(IO_INVERT);
    const level = 0.7 + 0.3 * this.byte(IO_CONTRAST) / 255;  // the panel's contrast, 0..255
    const lit = [Math.round(225 * level), Math.round(240 * level), Math.round(255 * level)];
    const d = this.img.data;
    for (let y = 0; y < H; y++) {
      const row = (y >> 3) * W, bit = y & 7;
      for (let x = 0; x < W; x++) {
        const px = on && (((fb[row + x] >> bit) & 1) ^ inv);
        const o = (y * W + x) * 4;
        d[o] = px ? lit[0] : 5; d[o + 1] = px ? lit[1] : 6; d[o + 2] = px ? lit[2] : 8; d[o + 3] = 255;
      }
    }
    this.sctx.putImageData(this.img, 0, 0);
    this.octx.imageSmoothingEnabled = false;
    this.octx.drawImage(this.small, 0, 0, this.oled.width, this.oled.height);
    this.frames++;
    this.lastFrameMs = performance.now();
    if (this.firstFrameMs === null && on) this.firstFrameMs = this.lastFrameMs;
  }

  drawRing() {
    const M = this.M, n = this.nleds, rgb = this.rgb;
    for (let i = 0; i < 3 * n; i++) rgb[i] = M.getValue(this.leds + i, "i8") & 0xFF;
    const c = this.rctx, w = this.ring.width, h = this.ring.height;
    c.fillStyle = "#101114";
    c.fillRect(0, 0, w, h);
    // A ring, as the tray's and the hub's page draw it: LED 0 at the top,
    // then clockwise (it was 12 lights in a row).
    const R = Math.min(w, h) * 0.38, rad = Math.min(R * Math.sin(Math.PI / n) * 0.55, R * 0.2);
    for (let i = 0; i < n; i++) {
      const a = 2 * Math.PI * i / n - Math.PI / 2;
      const x = w / 2 + R * Math.cos(a), y = h / 2 + R * Math.sin(a);
      const [r, g, b] = [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]];
      if (r | g | b) {
        const [R, G, B] = ledRgb(r, g, b);
        const glow = c.createRadialGradient(x, y, 0, x, y, rad * 2.2);
        glow.addColorStop(0, `rgba(${R},${G},${B},1)`);
        glow.addColorStop(0.45, `rgba(${R},${G},${B},0.55)`);
        glow.addColorStop(1, `rgba(${R},${G},${B},0)`);
        c.fillStyle = glow;
        c.beginPath(); c.arc(x, y, rad * 2.2, 0, 2 * Math.PI); c.fill();
        c.fillStyle = `rgb(${Math.min(255, R + 60)},${Math.min(255, G + 60)},${Math.min(255, B + 60)})`;
      } else {
        c.fillStyle = `rgb(${UNLIT.join(",")})`;
      }
      c.beginPath(); c.arc(x, y, rad, 0, 2 * Math.PI); c.fill();
    }
  }

  // The visible canvas read back into MONO_VLSB bytes (a pixel is lit when
  // the centre of its zoomed square is), as the panel image.
  canvasFrame() {
    const z = opts.zoom;
    const d = this.octx.getImageData(0, 0, this.oled.width, this.oled.height).data;
    const out = new Array(W * H / 8).fill(0);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const o = ((y * z + (z >> 1)) * this.oled.width + x * z + (z >> 1)) * 4;
        if (d[o] + d[o + 1] + d[o + 2] > 300) out[(y >> 3) * W + x] |= 1 << (y & 7);
      }
    }
    return out;
  }

  shot() {
    return { frame: [...this.fb], canvas: this.canvasFrame(), leds: [...this.rgb.subarray(0, 3 * this.nleds)],
             power: this.byte(IO_POWER), t: this.vnow };
  }

  // The campaign's state digest, as main.py prints it when a simulator run ends.
  state() {
    this.mp.runPython("import binascii, main\nfrom rules import campaign as _cp\n" +
                      "_state = binascii.hexlify(_cp.encode_state(main.app.s.c)).decode()\n" +
                      "_screen = type(main.app.top()).__name__");
    return { state: this.mp.globals.get("_state"), screen: this.mp.globals.get("_screen") };
  }
}

function unpack(blob, FS, root) {
  const magic = new TextDecoder().decode(blob.subarray(0, 6));
  if (magic !== "DTFW1\n") throw new Error("firmware.bin is not a firmware pack (tools/web.py)");
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const made = new Set();
  const mkdirs = (path) => {
    const parts = path.split("/").filter(Boolean);
    let p = "";
    for (const s of parts) { p += "/" + s; if (!made.has(p)) { try { FS.mkdir(p); } catch (e) { /* there */ } made.add(p); } }
  };
  let i = 6, n = 0;
  while (i < blob.length) {
    const k = dv.getUint16(i, true);
    const name = new TextDecoder().decode(blob.subarray(i + 2, i + 2 + k));
    i += 2 + k;
    const len = dv.getUint32(i, true);
    const path = root + "/" + name;
    mkdirs(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, blob.subarray(i + 4, i + 4 + len));
    i += 4 + len;
    n++;
  }
  return n;
}

// --- a real tray over Web Serial ---------------------------------------------
// The link protocol is spoken by web/trayclient.py in this page's MicroPython
// (the firmware's own frame codec, rules and journal scanner): this class only
// moves bytes between the serial port's streams and that client, and steps
// the client's operations (each a generator: it says how long it can wait for
// bytes, and is resumed when they come or that time is up).
const BAUD = 115200;
class TrayLink {
  constructor(tray) {
    this.tray = tray;
    this.client = null;
    this.port = null;
    this.reader = null;
    this.writer = null;
    this.busy = false;
    this.lost = null;
    this.wake = null;
    this.lastBackup = null;   // the last backup document (tests, the bench)
    this.lastPlan = null;
    this.lastInfo = null;     // the tray's info as last read
  }

  async load() {
    if (this.client) return;
    await api.ready.catch(() => null);
    const mp = this.tray.mp;
    if (!mp) throw new Error("MicroPython did not load in this page: reload it");
    // the client and the host's modules it shares (tools/web.py's CLIENT)
    const names = ["payloads.mpy", "eventsdigest.mpy", "trayclient.mpy"];
    const files = await Promise.all(names.map(async (name) => {
      const r = await fetch(name);
      if (!r.ok) throw new Error(name + ": HTTP " + r.status);
      return new Uint8Array(await r.arrayBuffer());
    }));
    names.forEach((name, k) => mp.FS.writeFile("/web/" + name, files[k]));
    mp.runPython("import sys\nif '/web' not in sys.path: sys.path.append('/web')\nimport trayclient");
    const seed = crypto.getRandomValues(new Uint16Array(1))[0];
    this.client = mp.pyimport("trayclient").Client(seed);
  }

  get connected() { return this.port !== null; }

  async connect() {
    await this.load();
    const port = await navigator.serial.requestPort();
    await port.open({ baudRate: BAUD });
    this.port = port;
    this.lost = null;
    this.writer = port.writable.getWriter();
    this.reader = port.readable.getReader();
    this.reading = this.readLoop(this.reader);
    try {
      return await this.run("connect");
    } catch (e) {
      await this.disconnect();
      throw e;
    }
  }

  async readLoop(reader) {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value && value.length) { this.client.feed(b64(value)); this.poke(); }
      }
      if (this.port) this.lost = "the port closed";
    } catch (e) {
      if (this.port) this.lost = String(e && e.message || e);
    }
    this.poke();
  }

  poke() { const w = this.wake; this.wake = null; if (w) w(); }

  async disconnect() {
    const port = this.port;
    this.port = null;
    if (!port) return;
    if (this.client) this.client.cancel();
    try { await this.reader.cancel(); } catch (e) { /* gone */ }
    try { this.reader.releaseLock(); } catch (e) { /* gone */ }
    try { this.writer.releaseLock(); } catch (e) { /* gone */ }
    try { await port.close(); } catch (e) { /* gone */ }
  }

  // Run one of the client's operations to its end: its result, or an Error
  // with the client's words.
  async run(op, arg = "") {
    if (!this.connected) throw new Error("no tray connected");
    if (this.busy) throw new Error("the tray is busy with the last request");
    this.busy = true;
    try {
      this.client.start(op, arg);
      for (;;) {
        const r = JSON.parse(this.client.step());
        const out = this.client.take();
        if (out) await this.writer.write(unb64(out));
        if ("done" in r) return r.done;
        if ("error" in r) throw new Error(r.error);
        if (this.lost) {
          this.client.cancel();
          const why = this.lost;
          await this.disconnect();
          throw new Error("lost the tray (" + why + "): connect it again");
        }
        await new Promise((res) => { this.wake = res; setTimeout(res, Math.max(0, r.wait)); });
        if (!this.port) throw new Error("disconnected before the tray answered");
      }
    } finally {
      this.busy = false;
    }
  }

  stats() { return this.client ? JSON.parse(this.client.stats()) : null; }
}

function showLink(on) {
  $("link").hidden = !on;
  $("connect").textContent = on ? "Connected" : "Connect a tray";
  $("connect").disabled = on;
}
function linkMsg(text, bad = false) {
  const el = $("link-msg");
  el.textContent = text;
  el.classList.toggle("bad", bad);
}
function linkStatus(res) {
  link.lastInfo = res.info;
  $("link-status").textContent = res.lines.join("\n");
}

async function linkDo(what, fn) {
  const buttons = ["link-refresh", "link-backup", "link-go", "link-cancel", "link-disconnect"].map($);
  buttons.forEach((b) => { b.disabled = true; });
  $("link-restore-label").classList.add("off");
  linkMsg(what + "…");
  try {
    await fn();
  } catch (e) {
    linkMsg(what + " failed: " + (e && e.message || e), true);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
    $("link-restore-label").classList.remove("off");
    if (!link.connected) showLink(false);
  }
}

function wireLink() {
  const c = $("connect");
  if (!("serial" in navigator)) {
    c.disabled = true;
    c.textContent = "Connect a tray: this browser has no Web Serial (Chrome, Edge or Opera on a desktop has it)";
    return;
  }
  c.addEventListener("click", async () => {
    status("choose the tray's serial port…");
    try {
      const r = await link.connect();
      showLink(true);
      linkStatus(r);
      linkMsg("connected");
      status("");
    } catch (e) {
      status(e && e.name === "NotFoundError" ? "no port chosen" : "connect failed: " + (e && e.message || e));
    }
  });
  $("link-refresh").addEventListener("click", () => linkDo("status", async () => {
    linkStatus(await link.run("status"));
    linkMsg("status read");
  }));
  $("link-backup").addEventListener("click", () => linkDo("backup", async () => {
    const doc = await link.run("backup");
    link.lastBackup = doc;
    const name = `dicetray-${doc.system}-${doc.campaign}-e${doc.last}.json`;
    download(name, JSON.stringify(doc, null, 1) + "\n");
    linkMsg(`backed up to ${name}: campaign ${doc.campaign} (${doc.system}), events ${doc.first}..${doc.last}, checked`);
  }));
  $("link-restore").addEventListener("change", (e) => {
    const f = e.target.files[0];
    e.target.value = "";
    if (!f) return;
    $("link-plan").hidden = true;
    linkDo("checking " + f.name, async () => {
      const plan = await link.run("check", await f.text());
      link.lastPlan = plan;
      $("link-plan-text").textContent = plan.lines.join("\n");
      $("link-plan").hidden = false;
      linkMsg("checked " + f.name + ": nothing sent yet; restore it?");
    });
  });
  $("link-cancel").addEventListener("click", () => {
    $("link-plan").hidden = true;
    linkMsg("restore cancelled: the tray is unchanged");
  });
  $("link-go").addEventListener("click", () => {
    $("link-plan").hidden = true;
    linkDo("restore", async () => {
      const r = await link.run("restore");
      linkStatus(r);
      linkMsg(r.said);
    });
  });
  $("link-disconnect").addEventListener("click", async () => {
    await link.disconnect();
    showLink(false);
    linkMsg("");
  });
}

// --- the page ----------------------------------------------------------------
const tray = new Tray();
const link = new TrayLink(tray);

function wireKeys() {
  for (const b of document.querySelectorAll("#keys button")) {
    const name = b.dataset.key;
    let down = false;
    const up = () => { if (down) { down = false; tray.key(name, false); } };
    b.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      b.setPointerCapture(e.pointerId);
      if (!down) { down = true; tray.key(name, true); }
    });
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("lostpointercapture", up);
    b.addEventListener("contextmenu", (e) => e.preventDefault());  // a long touch is a long press
  }
  const held = new Set();
  window.addEventListener("keydown", (e) => {
    const name = KEYBOARD[e.key];
    if (!name || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (e.repeat || held.has(e.key)) return;
    held.add(e.key);
    tray.key(name, true);
  });
  window.addEventListener("keyup", (e) => {
    const name = KEYBOARD[e.key];
    if (!name || !held.has(e.key)) return;
    e.preventDefault();
    held.delete(e.key);
    tray.key(name, false);
  });
  window.addEventListener("blur", () => {
    for (const k of held) tray.key(KEYBOARD[k], false);
    held.clear();
  });
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function wireBar() {
  $("export").addEventListener("click", () => {
    tray.flash.save(tray.mp.FS);
    download("dicetray-flash.json", JSON.stringify(tray.flash.exported(), null, 1));
  });
  $("import").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    try {
      api.importFlash(JSON.parse(await f.text()));
      location.reload();
    } catch (err) {
      status("import refused: " + err.message);
    }
  });
  $("erase").addEventListener("click", () => {
    if (confirm("Erase this tray's flash (every campaign in this browser)? Export it first to keep it.")) {
      api.erase();
      location.reload();
    }
  });
  wireLink();
}

const api = {
  tray, opts, KEY_BITS, link,
  ready: null,
  play: (text) => tray.play(text),
  key: (name, down) => tray.key(name, down),
  frame: () => [...tray.fb],
  canvas: () => tray.canvasFrame(),
  leds: () => [...tray.rgb.subarray(0, 3 * (tray.nleds || 12))],
  state: () => tray.state(),
  flashFiles: () => Object.fromEntries([...tray.flash.stored()].map(([p, v]) => [p, v === null ? null : b64(v)])),
  exportFlash: () => tray.flash.exported(),
  importFlash: (doc) => { tray.running = false; clearTimeout(tray.timer); tray.flash.imported(doc); },
  erase: () => { tray.running = false; clearTimeout(tray.timer); tray.flash.clear(); },
  // The Connect-a-tray panel as a person sees it (tests).
  linkState: () => ({
    connected: link.connected, busy: link.busy, status: $("link-status").textContent,
    msg: $("link-msg").textContent, bad: $("link-msg").classList.contains("bad"),
    plan: $("link-plan").hidden ? null : $("link-plan-text").textContent,
    info: link.lastInfo, stats: link.stats(), page: $("status").textContent,
  }),
  stats: () => ({ frames: tray.frames, firstFrameMs: tray.firstFrameMs, lastFrameMs: tray.lastFrameMs,
                  error: tray.error, booted: tray.booted, vnow: tray.vnow }),
};
window.dicetray = api;

wireKeys();
wireBar();
api.ready = tray.load().then(() => {
  if (!(opts.virtual && opts.wait)) tray.boot();
  return true;
}).catch((e) => { tray.crash(e); throw e; });
