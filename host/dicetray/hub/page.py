"""The live page's HTML, CSS and script, in one string (no files to
install beside the package). It reads /events (server-sent events; the
browser reconnects by itself) and draws each tray: its OLED from the
MONO_VLSB framebuffer on a canvas, its LED ring, its trackers (the view's
rows: the rules' words, the tray's home order) and its last rolls; under
them, how forwarding fares (each URL's queue, its last delivery and its
last error). Sized for a phone (the cards wrap) and, in the large mode
(the header's button, ?large=1), for a TV across the table.
Opened with the keeper's token (`?keeper=K`), each card has a line for a
remote action (docs/hub.md, Remote actions) and its trackers carry the
numbers the commands take (`tal 1`, `char 0`); a card is kept across
updates, so what the keeper types survives the table's rolls."""

HTML = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dicetray: the table</title>
<style>
  body { margin: 0; background: #111; color: #eee; font: 20px/1.35 system-ui, sans-serif; }
  header { padding: .4em .8em; font-size: 1.1em; color: #aaa; }
  #trays { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr));
           gap: 1em; padding: 0 1em 1em; }
  .tray { background: #1c1c1c; border-radius: .6em; padding: .8em; }
  .tray h2 { margin: 0 0 .4em; font-size: 1.3em; }
  .tray.down h2::after { content: " (not connected)"; color: #e66; font-size: .7em; }
  .row { display: flex; gap: .8em; align-items: center; flex-wrap: wrap; }
  canvas.oled { width: 256px; height: 128px; image-rendering: pixelated; background: #000;
                border: 2px solid #333; border-radius: 4px; }
  .ring { position: relative; width: 110px; height: 110px; }
  .led { position: absolute; width: 16px; height: 16px; border-radius: 50%; background: #000;
         border: 1px solid #333; }
  .trackers { font-size: .9em; color: #ccc; margin: .5em 0; }
  .trackers b { color: #fff; }
  ol.recent { list-style: none; margin: 0; padding: 0; }
  ol.recent li { padding: .2em 0; border-top: 1px solid #2a2a2a; }
  ol.recent li:first-child { font-size: 1.25em; color: #fff; }
  .face { display: inline-block; min-width: 1.3em; text-align: center; margin-right: .15em;
          border: 1px solid #777; border-radius: .2em; }
  .why { color: #e66; font-size: .8em; }
  form.act { display: flex; flex-wrap: wrap; gap: .4em; margin-top: .6em; }
  form.act input { flex: 1 1 10em; font: inherit; padding: .2em .4em; background: #000;
                   color: #eee; border: 1px solid #555; border-radius: .3em; }
  form.act button { font: inherit; padding: .2em .7em; border-radius: .3em; }
  .said { flex-basis: 100%; white-space: pre-wrap; font-size: .85em; color: #9d9; }
  .said.bad { color: #e66; }
  #forward { padding: 0 1em 1em; font-size: .8em; color: #999; }
  header button { float: right; font: inherit; font-size: .8em; padding: .1em .6em;
                  border-radius: .3em; }
  .trackers .num { color: #888; margin-right: .4em; font-size: .85em; }
  /* the large mode: one tray a row, type and screen readable across a table */
  body.large { font-size: 34px; }
  body.large #trays { grid-template-columns: 1fr; }
  body.large canvas.oled { width: 512px; height: 256px; }
  body.large .ring { width: 220px; height: 220px; }
  body.large .led { width: 32px; height: 32px; }
  #forward .failing { color: #e66; }
</style>
</head>
<body>
<header>Dicetray: the table <span id="status">connecting...</span>
<button id="large" type="button" title="large type, for a TV across the table">Large</button></header>
<main id="trays"></main>
<footer id="forward"></footer>
<script>
"use strict";
const q = location.search;
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function bytes(b64) {
  const s = atob(b64), out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
function drawScreen(cv, scr) {
  const w = scr.w, h = scr.h, fb = bytes(scr.fb), ctx = cv.getContext("2d");
  cv.width = w; cv.height = h;
  const img = ctx.createImageData(w, h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const on = (fb[x + (y >> 3) * w] >> (y & 7)) & 1, o = 4 * (y * w + x);
    img.data[o] = on ? 120 : 0; img.data[o + 1] = on ? 200 : 0;
    img.data[o + 2] = on ? 255 : 0; img.data[o + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}
function ring(scr) {
  const r = el("div", "ring"), leds = scr ? bytes(scr.leds) : new Uint8Array(0), n = leds.length / 3;
  const size = large() ? 2 : 1;  // the large mode's ring is twice the size (CSS .large .ring)
  for (let i = 0; i < n; i++) {
    const d = el("div", "led"), a = 2 * Math.PI * i / n - Math.PI / 2;
    d.style.left = size * (47 + 45 * Math.cos(a)) + "px";
    d.style.top = size * (47 + 45 * Math.sin(a)) + "px";
    const [R, G, B] = [leds[3 * i], leds[3 * i + 1], leds[3 * i + 2]];
    // a lit LED at its colour, brightened so a dim ring still reads on a TV
    const k = Math.max(R, G, B) ? 255 / Math.max(R, G, B) : 0;
    d.style.background = `rgb(${R * k | 0},${G * k | 0},${B * k | 0})`;
    r.appendChild(d);
  }
  return r;
}
function trackers(v) {
  // The hub's rows (tracked.py): the trackers in the rules' words, in the
  // order the tray's home screen lists them. The keeper's page puts the
  // number a command takes before each talisman and character (`slash 1`).
  const box = el("div", "trackers");
  for (const r of v.rows || []) {
    const line = el("div");
    if (keeper && r.tal !== null) line.appendChild(el("span", "num", "tal " + r.tal));
    else if (keeper && r.char !== null) line.appendChild(el("span", "num", "char " + r.char));
    line.appendChild(el("b", "", r.name + " "));
    line.appendChild(document.createTextNode(r.value));
    box.appendChild(line);
  }
  return box;
}
function card(v) {
  const out = [el("h2", "", v.tray + (v.system ? " \u00b7 " + v.system : ""))];
  if (v.why && v.state !== "up") out.push(el("div", "why", v.why));
  const row = el("div", "row");
  if (v.screen) {
    const cv = el("canvas", "oled"); drawScreen(cv, v.screen); row.appendChild(cv);
    row.appendChild(ring(v.screen));
  }
  out.push(row, trackers(v));
  const ol = el("ol", "recent");
  for (const r of v.recent || []) {
    const li = el("li"); li.dataset.seq = r.seq;
    li.appendChild(document.createTextNode(r.line));
    ol.appendChild(li);
  }
  if (!(v.recent || []).length) ol.appendChild(el("li", "", "(waiting for the table)"));
  out.push(ol);
  return out;
}
const keeper = new URLSearchParams(q).get("keeper");
// The large mode (?large=1, or the header's button): a TV across the table.
function large() { return document.body.classList.contains("large"); }
document.body.classList.toggle("large", new URLSearchParams(q).get("large") === "1");
let last = null;              // the snapshot shown, drawn again when the mode changes
document.getElementById("large").onclick = () => {
  document.body.classList.toggle("large");
  const u = new URL(location.href);
  if (large()) u.searchParams.set("large", "1"); else u.searchParams.delete("large");
  history.replaceState(null, "", u);
  if (last) show(last);
};
const PLACEHOLDER = {hunt: "roll --pool 3", paths: "roll --pool 4 --target 2",
                     expedition: "roll --pool 5 --target 10"};
function controls(name) {
  // A remote action: what the keeper would type after `dicetray`, done
  // through the hub as that command does it; the answer is its lines.
  const f = el("form", "act"), input = el("input"), go = el("button", "", "Do"),
        undo = el("button", "", "Undo"), said = el("div", "said");
  input.autocomplete = "off"; input.placeholder = "roll --pool 3";
  go.type = "submit"; undo.type = "button";
  f.append(input, go, undo, said);
  async function send(line) {
    said.className = "said"; said.textContent = "\u2026";
    try {
      const r = await fetch("/act" + q, {method: "POST", body: JSON.stringify({tray: name, action: line}),
                            headers: {"Content-Type": "application/json", "X-Dicetray-Keeper": keeper}});
      const a = await r.json();
      if (r.ok) said.textContent = a.lines.join("\n");
      else { said.className = "said bad"; said.textContent = a.error; }
    } catch (e) {
      said.className = "said bad"; said.textContent = "the hub did not answer: " + e;
    }
  }
  f.onsubmit = (e) => { e.preventDefault(); if (input.value.trim()) send(input.value.trim()); };
  undo.onclick = () => send("undo");
  return f;
}
function when(t) { return t ? new Date(t * 1000).toLocaleTimeString() : "never"; }
function sinks(list) {
  // Each forwarding URL (its host only: a webhook's path is its secret): what waits, what failed.
  const box = document.getElementById("forward"), lines = [];
  (list || []).forEach((f, i) => {
    const failing = (f.last_error_at || 0) > (f.last_success || 0);
    let text = `forward ${i + 1} ${f.sink}: ${f.pending} queued`;
    if (f.held) text += `, ${f.held} held in memory (the queue file refuses them)`;
    text += `, last delivered ${when(f.last_success)}`;
    if (f.last_error) text += `; last error ${when(f.last_error_at)}: ${f.last_error}`;
    const d = el("div", failing ? "sink failing" : "sink", text);
    d.dataset.pending = f.pending;
    lines.push(d);
  });
  box.replaceChildren(...lines);
}
const cards = new Map();      // tray -> {sec, body, form}: kept, so a typed action survives
function show(snap) {
  last = snap;
  const main = document.getElementById("trays"), order = [];
  for (const v of snap.trays) {
    let c = cards.get(v.tray);
    if (!c) {
      c = {sec: el("section"), body: el("div"), form: keeper ? controls(v.tray) : null};
      c.sec.dataset.tray = v.tray; c.sec.appendChild(c.body);
      if (c.form) c.sec.appendChild(c.form);
      cards.set(v.tray, c);
    }
    c.sec.className = "tray" + (v.state === "up" ? "" : " down");
    if (c.form && v.system) c.form.querySelector("input").placeholder = PLACEHOLDER[v.system] || "";
    c.body.replaceChildren(...card(v));
    order.push(c.sec);
  }
  // moved only when the order changed: moving a card would take the keeper's cursor away
  if (order.length !== main.children.length || order.some((s, i) => main.children[i] !== s))
    main.replaceChildren(...order);
  sinks(snap.forward);
  document.getElementById("status").textContent = "";
  document.body.dataset.version = snap.version;
}
const es = new EventSource("/events" + q);
es.onmessage = (m) => show(JSON.parse(m.data));
es.onerror = () => { document.getElementById("status").textContent = "(reconnecting...)"; };
</script>
</body>
</html>
"""
