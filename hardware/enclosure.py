"""The Dicetray enclosure as code: a box with the dice tray on its lid,
built with build123d from ONE table of plain numbers (TABLE below).

    python hardware/enclosure.py [--out build/enclosure] [--oled sh1106] [--arcade 24]
                                 [--ring ring50] [--set NAME=MM ...] [--no-renders]

writes each printed part (base, lid, diffuser, and the six key caps, each
with its key's symbol raised on top) as STEP and STL in its print
orientation, the whole assembly with the bought parts as one STEP, and two
PNG renders (assembled, exploded); it refuses to write anything when the
model's checks (hardware/enclosure_check.py: collisions, clearances, walls,
openings, overhangs, print bed, the caps' symbols) find a problem. docs/hardware.md explains
the choices; tests/host/test_enclosure.py runs the checks and mutates the
table to show they fail.

Frame: x to the right, y away from the player, z up; the origin is the
centre of the base's underside. Every part is printed the way it sits in
the box (base on its floor, lid on its underside, diffuser flat): no
supports.
"""
import argparse
import math
import os
import sys

# All lengths in mm. Component numbers name their source; "typical" means
# no datasheet was found and the value is what common parts measure (a
# builder with a different part changes it here and reruns the checks).
TABLE = {
    # --- printer and printing rules ---------------------------------------------
    "bed_x": 220.0, "bed_y": 220.0,   # the smallest common bed (Ender 3 class)
    "overhang_max": 45.0,             # degrees from vertical printable without support
    "wall_min": 2.0,                  # thinnest wall / plate the checks accept
    "floor_min": 2.0,                 # (5 perimeters / 10 layers of 0.2 mm)
    # --- the box -----------------------------------------------------------------
    "box_w": 180.0, "box_d": 200.0,   # outside, x and y
    "box_h": 42.0,                    # base underside to lid top
    "corner_r": 6.0,                  # vertical edges
    "wall": 2.4, "floor": 2.4,
    "lid_t": 4.0,                     # lid plate; the tray floor is its top
    "screw_inset": 5.5,               # lid screws from the outside edges
    "screw_pillar_d": 7.0,
    "screw_clear_d": 2.4,             # M2 through the lid
    "screw_pilot_d": 1.7,             # M2 self-tapping into PLA/PETG
    "screw_depth": 12.0,              # pilot hole depth (M2 x 10 screws)
    # --- the dice tray: a round dish on the lid, at the back; its inside
    # diameter (tray_d) is not an entry: well_d() sizes it for the pools below
    # (the largest the rules allow: paths 20 d12, Skill + Path; expedition 20 d6,
    # 2 + Ability + bonus dice; docs/rules/), each die lying on the felt.
    "pool_d6": 20, "pool_d12": 20,
    "d6": 16.0,                       # a d6's edge (the common 16 mm die)
    "d12": 20.0,                      # a d12 across, lying on a face (typical: 18-22)
    "well_fill": 0.5,                 # the felt the resting pool covers at most: one layer,
                                      # room to tumble (a d6 its square, a d12 its circle)
    "tray_rim": 3.0,                  # rim wall
    "tray_h": 22.0,                   # rim above the felt: the dice depth
    "tray_back": 2.0,                 # rim to the lid's back edge (tray_y follows)
    "tray_x": 0.0,                    # centre
    "felt_t": 2.0,                    # felt/neoprene sheet = felt recess depth (BOM)
    "felt_clear": 0.5,                # felt disc round its recess and the diffuser
    # --- LED ring under the tray's centre: Adafruit NeoPixel Ring 12 (product 1643):
    # 37 mm outside (Adafruit: "1.5in (37mm) outer diameter"), 23 mm inside;
    # 5050 LEDs (5 x 5 x 1.6 mm) on a 1.6 mm board.
    "ring_od": 37.0, "ring_id": 23.0,
    "ring_pcb_t": 1.6, "led": 5.0, "led_h": 1.6,
    "ring_gap": 2.5,                  # LED tops to the diffuser: the light spreads
    "ring_clear": 0.3,                # ring's hole round the spigot; window round the ring
    "ring_support": 2.0,              # ring's back on the post's shoulder (taped)
    "spigot_wall": 2.0,
    "spigot_gap": 0.3,                # spigot top under the diffuser (holds its centre)
    "diffuser_ledge": 3.0,            # diffuser disc on the felt-recess floor round the window
    # --- Raspberry Pi Pico / Pico 2: Raspberry Pi Pico datasheet, ch. 2
    # "Mechanical Specification" (51 x 21 mm, 1 mm PCB, micro-USB overhanging
    # the short edge by 1.3 mm, 4 holes of 2.1 mm at 11.4 x 47 mm, Figure 3);
    # the Pico H's headers hang below it on 0.7 in (17.78 mm) row spacing.
    "pico_l": 51.0, "pico_w": 21.0, "pico_t": 1.0,
    "pico_hole_d": 2.1, "pico_hole_dx": 47.0, "pico_hole_dy": 11.4,
    "pico_row_dy": 17.78, "header_w": 2.54,
    "pico_under": 11.0,               # header 2.5 + pins 6 + soldered wire ends 2.5
    "pico_floor_gap": 1.0,            # lowest wire end above the floor
    "pico_x": 60.0,                   # centre x; USB end against the back wall
    "pico_clear": 0.5,                # round the board and its header rows
    "pico_bar_l": 5.0,                # end bars the Pico is screwed to (M2 x 6)
    "usb_w": 8.0, "usb_h": 3.0, "usb_l": 5.6, "usb_overhang": 1.3,
    "usb_gap": 0.5,                   # receptacle mouth to the wall's inside face
    "usb_plug_w": 11.0, "usb_plug_h": 8.0,  # micro-B plug overmould (typical: 10-11 x 6-8)
    "usb_clear": 0.5,                 # round the plug in the wall opening
    # --- OLED, SSD1306 0.96": panel 26.70 x 19.26 x 1.42, active area
    # 21.74 x 10.86 (SSD1306 0.96" panel data, e.g. SunFounder's Pironman 5
    # OLED spec); module PCB 27.5 x 27.8 x 1.2 with 2.0 mm holes at
    # 23.5 x 23.7, panel 4.7 mm from the header edge (public CAD models of
    # the common I2C module); active area centre about 1.9 mm from the panel
    # centre towards the header (typical: the FPC side has the wide border).
    "oled_w": 27.5, "oled_h": 27.8, "oled_pcb_t": 1.2,
    "oled_hole_d": 2.0, "oled_hole_dx": 23.5, "oled_hole_dy": 23.7,
    "oled_panel_w": 26.7, "oled_panel_h": 19.26, "oled_panel_t": 1.42,
    "oled_panel_top": 4.7,
    "oled_aa_w": 21.74, "oled_aa_h": 10.86, "oled_aa_dy": 1.9,
    "oled_header_w": 10.16, "oled_header_inset": 1.6,
    "oled_under": 11.0,               # header pins to the back + wire ends
    "oled_x": 0.0, "oled_y": -65.0,   # module centre: in front of the tray
    "oled_gap": 0.3,                  # glass under the lid (the lid holds it down)
    "oled_peg_clear": 0.2,            # pegs in the module's holes (radial)
    "oled_pillar_wall": 1.25,
    "oled_peg_above": 1.0,            # peg tip above the module's PCB
    "oled_margin": 1.0,               # window round the active area at its narrowest
    "oled_land": 1.0,                 # straight part of the window; above it 45 deg
    # --- six 12 x 12 mm tactile switches on a 50 x 70 mm perfboard (BOM):
    # Omron B3F-4055 class, 12 x 12 x 3.5 mm body, plunger top 7.3 mm over
    # the board, 3.5 mm round plunger, pretravel 0.25 mm (Omron B3F / B3FS-4
    # datasheets). The caps are printed (cap_KEY.stl): 11.5 mm across, 4.8 mm
    # over the plunger, pushed onto it, each with its key's symbol on top.
    "key_body": 12.0, "key_body_h": 3.5, "key_h": 7.3, "key_plunger_d": 3.5,
    "cap_d": 11.5, "cap_rise": 4.8, "cap_skirt": 0.8,
    "cap_socket_clear": 0.15,         # plunger in the cap's socket (radial: a push fit)
    "symbol_h": 0.6,                  # the symbol's relief (3 layers of 0.2 mm)
    "symbol_w": 6.5,                  # its size across
    "symbol_line": 1.2,               # its strokes (3 lines of a 0.4 mm nozzle)
    "layer": 0.2,                     # print layer: a symbol is at least two
    "key_pitch": 17.78,               # 7 x 2.54: the perfboard's grid
    "key_x": -52.0, "key_y": -65.0,   # OK, the diamond's centre
    "key_clear": 0.3,                 # cap in its lid hole (radial)
    "key_proud": 2.0,                 # cap top above the lid
    "key_gap": 1.0,                   # switch body under the lid, at least
    "kb_w": 50.0, "kb_l": 70.0, "kb_t": 1.6,
    "kb_dy": 10.0,                    # board centre behind the diamond's centre
    "kb_hole_d": 2.2,                 # drilled for M2 x 6 screws
    "kb_hole_inset": 3.5,             # the rear hole from the back edge
    "kb_pillar_d": 5.0,
    "kb_clear": 1.0,                  # board edge round anything
    # --- ROLL: 30 mm snap-in arcade button with its microswitch (Sanwa OBSF-30
    # class; typical: 30 mm panel hole, 33 mm bezel, 32 mm below the panel
    # with the switch and its 4.8 mm tabs).
    "arcade_body_d": 29.6, "arcade_clear": 0.2,   # hole 30.0
    "arcade_bezel_d": 33.0, "arcade_bezel_h": 3.0,
    "arcade_plunger_d": 24.0, "arcade_plunger_h": 4.0,
    "arcade_body_l": 20.0,            # snap-in body below the panel
    "arcade_below": 32.0,             # body + microswitch + tabs below the panel
    "arcade_sw_w": 16.0, "arcade_sw_l": 28.0,
    "arcade_panel": 3.0,              # panel thickness its snap clips take (lid thinned)
    "arcade_floor_gap": 2.0,          # switch tabs above the floor, at least
    "arcade_x": 55.0, "arcade_y": -65.0,
}

# Other parts a builder may have: overrides of TABLE, chosen on the command
# line (or table(oled=...)), each checked like the default by the tests.
VARIANTS = {
    "oled": {
        "ssd1306": {},
        # SH1106 1.3": panel 34.5 x 23.0 x 1.4, active area 29.42 x 14.7
        # (1.3" SH1106 OLED module datasheet); module about 35 x 33 mm
        # (Silicon Chip, 1.3in OLED, Oct 2023) with holes at 30.0 x 28.5,
        # panel 5 mm from the header edge (public CAD models); 3.0 mm holes
        # (modules differ: 3.0-3.5, a 3.5 mm hole drops over the same peg).
        "sh1106": {
            "oled_w": 35.4, "oled_h": 33.5, "oled_hole_d": 3.0,
            "oled_hole_dx": 30.0, "oled_hole_dy": 28.5,
            "oled_panel_w": 34.5, "oled_panel_h": 23.0, "oled_panel_t": 1.4,
            "oled_panel_top": 5.0,
            "oled_aa_w": 29.42, "oled_aa_h": 14.7, "oled_aa_dy": 1.5,
        },
    },
    "arcade": {
        "30": {},
        # 24 mm snap-in (Sanwa OBSF-24 class; typical): 24 mm hole, 27 mm bezel.
        "24": {"arcade_body_d": 23.6, "arcade_bezel_d": 27.0, "arcade_plunger_d": 18.0,
               "arcade_below": 30.0, "arcade_sw_l": 22.0},
    },
    "ring": {
        "adafruit12": {},
        # The common unbranded 12-LED WS2812 ring (typical: 50 mm outside, 36 mm inside).
        "ring50": {"ring_od": 50.0, "ring_id": 36.0},
    },
}

# The keypad as the firmware names its keys (firmware/hw/keys.py NAMES) and
# docs/hardware.md lays them out: the arrows in a diamond round OK, BACK at
# the diamond's top left (where KEY1 is on the MacroPad profile), ROLL on
# its own to the right. Grid steps of key_pitch from OK; ROLL is the arcade
# button.
KEYPAD = {"UP": (0, 1), "DOWN": (0, -1), "LEFT": (-1, 0), "RIGHT": (1, 0), "OK": (0, 0),
          "BACK": (-1, 1)}
CAPS = tuple("cap_" + k for k in KEYPAD)          # a printed cap for each key, its symbol on top
PARTS = ("base", "lid", "diffuser") + CAPS


def well_d(t):
    """The dice well's inside diameter (mm, whole): the felt that pool_d6
    d6 and, apart, pool_d12 d12 cover lying on it (a d6 its square, a d12
    the circle it fills) is at most well_fill of the well's floor."""
    need = max(t["pool_d6"] * t["d6"] ** 2, t["pool_d12"] * math.pi * t["d12"] ** 2 / 4)
    return float(math.ceil(math.sqrt(4 * need / (math.pi * t["well_fill"]))))


def holds(t):
    """(d6, d12): how many of each the well holds by the same measure."""
    floor = t["well_fill"] * math.pi * t["tray_d"] ** 2 / 4
    return int(floor // t["d6"] ** 2), int(floor // (math.pi * t["d12"] ** 2 / 4))


def table(oled="ssd1306", arcade="30", ring="adafruit12", **changes):
    """TABLE with the named variants and any single-number changes applied,
    and what follows from it: the well's diameter tray_d (well_d) and its
    centre tray_y (the rim tray_back from the lid's back edge)."""
    t = dict(TABLE)
    for group, name in (("oled", oled), ("arcade", str(arcade)), ("ring", ring)):
        if name not in VARIANTS[group]:
            raise ValueError("no %s variant %r: one of %s" % (group, name, ", ".join(VARIANTS[group])))
        t.update(VARIANTS[group][name])
    for k, v in changes.items():
        if k not in TABLE:
            raise ValueError("no table entry %r: the names are those of TABLE in hardware/enclosure.py" % k)
        t[k] = float(v)
    t["tray_d"] = well_d(t)
    t["tray_y"] = t["box_d"] / 2 - t["tray_back"] - t["tray_rim"] - t["tray_d"] / 2
    return t


# --- derived positions -------------------------------------------------------------
def levels(t):
    """Heights and positions every part and component is placed from."""
    z_top = t["box_h"]
    z_lid = z_top - t["lid_t"]                      # lid underside = base walls' top
    z_diff = z_top - t["felt_t"]                    # diffuser underside
    led_top = z_diff - t["ring_gap"]
    ring_bot = led_top - t["led_h"] - t["ring_pcb_t"]
    glass = z_lid - t["oled_gap"]
    oled_pcb_top = glass - t["oled_panel_t"]
    kb_top = z_top + t["key_proud"] - t["key_h"] - t["cap_rise"]
    pico_bot = t["floor"] + t["pico_floor_gap"] + t["pico_under"]
    y_back_in = t["box_d"] / 2 - t["wall"]
    usb_mouth = y_back_in - t["usb_gap"]
    pico_yc = usb_mouth - t["usb_overhang"] - t["pico_l"] / 2
    panel_cy = t["oled_h"] / 2 - t["oled_panel_top"] - t["oled_panel_h"] / 2
    return {
        "z_top": z_top, "z_lid": z_lid, "z_diff": z_diff,
        "led_top": led_top, "ring_bot": ring_bot,
        "ring_r_led": (t["ring_od"] + t["ring_id"]) / 4,
        "r_window": t["ring_od"] / 2 + t["ring_clear"],
        "glass": glass, "oled_pcb_top": oled_pcb_top,
        "oled_aa_y": t["oled_y"] + panel_cy + t["oled_aa_dy"],
        "oled_panel_y": t["oled_y"] + panel_cy,
        "kb_top": kb_top,
        "pico_bot": pico_bot, "pico_yc": pico_yc, "usb_mouth": usb_mouth,
        "usb_z": pico_bot + t["pico_t"] + t["usb_h"] / 2,
        "arcade_panel_top": z_top - (t["lid_t"] - t["arcade_panel"]),
    }


def key_positions(t):
    """{key name: (x, y)} of every key, ROLL included (the arcade button)."""
    p = t["key_pitch"]
    pos = {k: (t["key_x"] + i * p, t["key_y"] + j * p) for k, (i, j) in KEYPAD.items()}
    pos["ROLL"] = (t["arcade_x"], t["arcade_y"])
    return pos


def kb_holes(t):
    """The keypad board's screw holes: the diamond's three free corners and one at the back."""
    p, x, y = t["key_pitch"], t["key_x"], t["key_y"]
    back = y + t["kb_dy"] + t["kb_l"] / 2 - t["kb_hole_inset"]
    return [(x + p, y + p), (x - p, y - p), (x + p, y - p), (x, back)]


def screw_positions(t):
    """The four lid screws, one in each corner pillar."""
    dx = t["box_w"] / 2 - t["screw_inset"]
    dy = t["box_d"] / 2 - t["screw_inset"]
    return [(sx * dx, sy * dy) for sx in (-1, 1) for sy in (-1, 1)]


def pico_holes(t):
    """The Pico's four mounting holes, in the box frame (long side along y)."""
    lv = levels(t)
    return [(t["pico_x"] + sx * t["pico_hole_dy"] / 2, lv["pico_yc"] + sy * t["pico_hole_dx"] / 2)
            for sx in (-1, 1) for sy in (-1, 1)]


def oled_holes(t):
    """The OLED module's four holes, where its pegs stand."""
    return [(t["oled_x"] + sx * t["oled_hole_dx"] / 2, t["oled_y"] + sy * t["oled_hole_dy"] / 2)
            for sx in (-1, 1) for sy in (-1, 1)]


# --- geometry helpers (build123d imported here so the table loads without it) ------------
def _b3d():
    import build123d
    return build123d


def box(x, y, z0, w, d, h, g=0.0):
    """A box centred on (x, y) from z0 up h, grown g sideways."""
    b = _b3d()
    return b.Pos(x, y, z0) * b.Box(w + 2 * g, d + 2 * g, h, align=(b.Align.CENTER, b.Align.CENTER, b.Align.MIN))


def cyl(x, y, z0, r, h, g=0.0):
    """An upright cylinder on (x, y) from z0 up h, its radius grown g."""
    b = _b3d()
    return b.Pos(x, y, z0) * b.Cylinder(r + g, h, align=(b.Align.CENTER, b.Align.CENTER, b.Align.MIN))


def rounded_box(w, d, z0, h, r):
    """A box centred on the z axis with its vertical edges rounded to r."""
    b = _b3d()
    s = box(0, 0, z0, w, d, h)
    return b.fillet(s.edges().filter_by(b.Axis.Z), r)


def union(shapes):
    out = shapes[0]
    for s in shapes[1:]:
        out = out + s
    return out


# --- the bought parts (components), each a dict of named solids -----------------------
# g grows a component sideways (its holes shrink): the checks grow each by
# the clearance its table entry names to prove the pocket has exactly that.
def pico(t, g=0.0):
    """Pico (or Pico 2) with its headers below, USB end to the back wall."""
    lv = levels(t)
    x, yc, z = t["pico_x"], lv["pico_yc"], lv["pico_bot"]
    pcb = box(x, yc, z, t["pico_w"], t["pico_l"], t["pico_t"], g)
    for hx, hy in pico_holes(t):
        pcb = pcb - cyl(hx, hy, z - 1, t["pico_hole_d"] / 2 - g, t["pico_t"] + 2)
    end = yc + t["pico_l"] / 2 + t["usb_overhang"]
    usb = box(x, end - t["usb_l"] / 2, z + t["pico_t"], t["usb_w"], t["usb_l"], t["usb_h"], g)
    header_l = 20 * 2.54
    headers = union([box(x + s * t["pico_row_dy"] / 2, yc, z - t["pico_under"], t["header_w"],
                         header_l, t["pico_under"], g) for s in (-1, 1)])
    return {"pcb": pcb, "usb": usb, "headers": headers}


def usb_plug(t, g=0.0):
    """Keep-out: the micro-USB plug's overmould from the receptacle out past the wall."""
    lv = levels(t)
    length = t["wall"] + t["usb_gap"] + 20
    return box(t["pico_x"], lv["usb_mouth"] + length / 2, lv["usb_z"] - t["usb_plug_h"] / 2,
               t["usb_plug_w"], length, t["usb_plug_h"], g)


def oled(t, g=0.0):
    """The OLED module face up under its window, header to the back."""
    lv = levels(t)
    x, y = t["oled_x"], t["oled_y"]
    z = lv["oled_pcb_top"] - t["oled_pcb_t"]
    pcb = box(x, y, z, t["oled_w"], t["oled_h"], t["oled_pcb_t"], g)
    for hx, hy in oled_holes(t):
        pcb = pcb - cyl(hx, hy, z - 1, t["oled_hole_d"] / 2 - g, t["oled_pcb_t"] + 2)
    panel = box(x, lv["oled_panel_y"], lv["oled_pcb_top"], t["oled_panel_w"], t["oled_panel_h"],
                t["oled_panel_t"], g)
    hy = y + t["oled_h"] / 2 - t["oled_header_inset"]
    header = box(x, hy, z - t["oled_under"], t["oled_header_w"], 2.54, t["oled_under"], g)
    return {"pcb": pcb, "panel": panel, "header": header}


def oled_view(t):
    """Keep-out: the active area seen straight on, from the glass to above the lid."""
    lv = levels(t)
    return box(t["oled_x"], lv["oled_aa_y"], lv["glass"], t["oled_aa_w"], t["oled_aa_h"],
               t["box_h"] + 5 - lv["glass"])


def _leds(t, z0, h, g=0.0):
    b = _b3d()
    lv = levels(t)
    r = lv["ring_r_led"]
    out = []
    for i in range(12):
        a = 30.0 * i
        led = b.Box(t["led"] + 2 * g, t["led"] + 2 * g, h, align=(b.Align.CENTER, b.Align.CENTER, b.Align.MIN))
        out.append(b.Pos(t["tray_x"], t["tray_y"], z0) * b.Rot(0, 0, a) * b.Pos(r, 0, 0) * led)
    return union(out)


def ring(t, g=0.0):
    """The 12-LED ring, LEDs up, centred under the tray."""
    lv = levels(t)
    x, y, z = t["tray_x"], t["tray_y"], lv["ring_bot"]
    pcb = cyl(x, y, z, t["ring_od"] / 2, t["ring_pcb_t"], g) - cyl(x, y, z - 1, t["ring_id"] / 2 - g, t["ring_pcb_t"] + 2)
    leds = _leds(t, z + t["ring_pcb_t"], t["led_h"], g)
    return {"pcb": pcb, "leds": leds}


def light_path(t):
    """Keep-out: each LED's light straight up to the diffuser's top."""
    lv = levels(t)
    return _leds(t, lv["led_top"], t["box_h"] - lv["led_top"])


def keypad(t, g=0.0):
    """The perfboard with the six switches (the caps are printed: cap())."""
    lv = levels(t)
    top = lv["kb_top"]
    bx, by = t["key_x"], t["key_y"] + t["kb_dy"]
    board = box(bx, by, top - t["kb_t"], t["kb_w"], t["kb_l"], t["kb_t"], g)
    for hx, hy in kb_holes(t):
        board = board - cyl(hx, hy, top - t["kb_t"] - 1, t["kb_hole_d"] / 2 - g, t["kb_t"] + 2)
    bodies, plungers = [], []
    for name, (x, y) in key_positions(t).items():
        if name == "ROLL":
            continue
        bodies.append(box(x, y, top, t["key_body"], t["key_body"], t["key_body_h"], g))
        plungers.append(cyl(x, y, top + t["key_body_h"], t["key_plunger_d"] / 2,
                            t["key_h"] - t["key_body_h"], g))
    return {"board": board, "bodies": union(bodies), "plungers": union(plungers)}


def cap_levels(t):
    """(bottom, plunger top, top) of a key cap: it stands cap_skirt over the
    switch body, the plunger in its socket, its top key_proud over the lid."""
    kb_top = levels(t)["kb_top"]
    return (kb_top + t["key_body_h"] + t["cap_skirt"], kb_top + t["key_h"],
            t["box_h"] + t["key_proud"])


def symbol(t, key):
    """The key's symbol as a flat sketch centred on the origin, symbol_w
    across: the arrows a triangle pointing their way, OK a ring, BACK a
    U-turn arrow (its head down on the left, as the firmware's Back undoes
    a step); strokes symbol_line wide."""
    b = _b3d()
    w, line = t["symbol_w"], t["symbol_line"]
    if key in ("UP", "DOWN", "LEFT", "RIGHT"):
        h = w * math.sqrt(3) / 2
        tri = b.Polygon((0, h / 2), (-w / 2, -h / 2), (w / 2, -h / 2), align=None)
        return b.Rot(0, 0, {"UP": 0, "LEFT": 90, "DOWN": 180, "RIGHT": 270}[key]) * tri
    if key == "OK":
        return b.Circle(w / 2) - b.Circle(w / 2 - line)
    if key == "BACK":
        head = 2.6 * line                      # the arrowhead's width, and its length 0.8 of it
        r = (w + line / 2 - head / 2) / 2      # the arc's outer radius: the whole w across
        # the upper half of a ring, its legs run 0.3 into the head: one face
        arc = (b.Circle(r) - b.Circle(r - line)) & b.Pos(0, (r - 0.3) / 2) * b.Rectangle(2 * r, r + 0.3)
        x = -r + line / 2
        tip = b.Polygon((x - head / 2, 0), (x, -0.8 * head), (x + head / 2, 0), align=None)
        s = arc + tip
        bb = s.bounding_box()
        return b.Pos(-(bb.min.X + bb.max.X) / 2, -(bb.min.Y + bb.max.Y) / 2) * s
    raise ValueError("no symbol for the key %r" % key)


def relief(t, key):
    """The key's symbol raised symbol_h on its cap's top, in place."""
    b = _b3d()
    x, y = key_positions(t)[key]
    return b.Pos(x, y, cap_levels(t)[2]) * b.extrude(symbol(t, key), amount=t["symbol_h"])


def cap(t, key, g=0.0):
    """The printed cap of `key` in place: a cylinder cap_d across from
    cap_levels' bottom to its top, an eight-sided socket up its middle for
    the plunger (cap_socket_clear from it to each flat) under a pyramid
    roof, so it prints standing up without support, and the key's symbol on
    top. g grows it sideways (its socket shrinks), as the components' g
    does. (Eight flat sides rather than a round socket under a cone: a
    cone's apex meshes into degenerate triangles, which no STL check
    passes.)"""
    b = _b3d()
    x, y = key_positions(t)[key]
    bot, plunger, top = cap_levels(t)
    body = cyl(x, y, bot, t["cap_d"] / 2, top - bot, g)
    r = t["key_plunger_d"] / 2 + t["cap_socket_clear"] - g      # to the flats
    big = r / math.cos(math.pi / 8)                             # to the corners
    socket = b.Pos(x, y, bot - 1) * b.extrude(b.RegularPolygon(big, 8), amount=plunger - bot + 1)
    return body - socket - pyramid(x, y, plunger, big, roof_h(t, r)) + relief(t, key)


def pyramid(x, y, z, big, h):
    """An eight-sided pyramid on the octagon of corner radius `big` round
    (x, y) at height z (as RegularPolygon(big, 8) has it), its apex h above."""
    b = _b3d()
    pts = [b.Vector(x + big * math.cos(k * math.pi / 4), y + big * math.sin(k * math.pi / 4), z)
           for k in range(8)]
    apex = b.Vector(x, y, z + h)
    faces = [b.Face(b.Wire.make_polygon(pts, close=True))]
    faces += [b.Face(b.Wire.make_polygon([pts[k], pts[(k + 1) % 8], apex], close=True))
              for k in range(8)]
    return b.Solid(b.Shell(faces))


def roof_h(t, r):
    """The height of the socket's pyramid over flats r from its axis: its
    faces 10 degrees steeper than overhang_max (margin for the slicer)."""
    return r * math.tan(math.radians(100 - t["overhang_max"]))


def caps(t, g=0.0):
    """The six printed caps in place, grown g (fits: their lid holes)."""
    return {"caps": union([cap(t, k, g) for k in KEYPAD])}


def key_paths(t):
    """Keep-out: each cap's way out through the lid, up to above the tray."""
    cap_bot = cap_levels(t)[0]
    return union([cyl(x, y, cap_bot, t["cap_d"] / 2, t["box_h"] + t["tray_h"] - cap_bot)
                  for k, (x, y) in key_positions(t).items() if k != "ROLL"])


def arcade(t, g=0.0):
    """ROLL: the arcade button snapped into the thinned lid, its microswitch below."""
    lv = levels(t)
    x, y, zp = t["arcade_x"], t["arcade_y"], lv["arcade_panel_top"]
    z_lid = lv["z_lid"]
    bezel = cyl(x, y, zp, t["arcade_bezel_d"] / 2, t["arcade_bezel_h"], g)
    plunger = cyl(x, y, zp + t["arcade_bezel_h"], t["arcade_plunger_d"] / 2, t["arcade_plunger_h"], g)
    body_bot = z_lid - t["arcade_body_l"]
    body = cyl(x, y, body_bot, t["arcade_body_d"] / 2, zp - body_bot, g)
    sw_bot = z_lid - t["arcade_below"]
    switch = box(x, y, sw_bot, t["arcade_sw_w"], t["arcade_sw_l"], body_bot - sw_bot, g)
    return {"bezel": bezel, "plunger": plunger, "body": body, "switch": switch}


def felt(t, g=0.0):
    """The felt disc in its recess, with a hole for the diffuser."""
    lv = levels(t)
    x, y, z = t["tray_x"], t["tray_y"], lv["z_diff"]
    r_in = lv["r_window"] + t["diffuser_ledge"] + t["felt_clear"]
    sheet = cyl(x, y, z, t["tray_d"] / 2 - t["felt_clear"], t["felt_t"], g)
    return {"sheet": sheet - cyl(x, y, z - 1, r_in - g, t["felt_t"] + 2)}


COMPONENTS = {"pico": pico, "oled": oled, "ring": ring, "keypad": keypad, "arcade": arcade,
              "felt": felt}
PRINTED = {"caps": caps}   # printed parts the fit checks grow, as they grow COMPONENTS


# --- the printed parts -------------------------------------------------------------------
def base(t):
    """The box: floor, walls, lid-screw pillars and every mount for the parts inside."""
    lv = levels(t)
    h = lv["z_lid"]
    shell = rounded_box(t["box_w"], t["box_d"], 0, h, t["corner_r"])
    cavity = rounded_box(t["box_w"] - 2 * t["wall"], t["box_d"] - 2 * t["wall"], t["floor"], h,
                         t["corner_r"] - t["wall"])
    solid = shell - cavity
    adds, cuts = [], []
    fl = t["floor"] - 0.01                      # mounts start inside the floor: one solid
    for x, y in screw_positions(t):
        adds.append(cyl(x, y, fl, t["screw_pillar_d"] / 2, h - fl))
        cuts.append(cyl(x, y, h - t["screw_depth"], t["screw_pilot_d"] / 2, t["screw_depth"] + 1))
    # Pico: a bar under each end, between the header rows, screwed through its holes.
    bar_w = t["pico_row_dy"] - t["header_w"] - 2 * t["pico_clear"]
    for sy in (-1, 1):
        y = lv["pico_yc"] + sy * t["pico_hole_dx"] / 2
        adds.append(box(t["pico_x"], y, fl, bar_w, t["pico_bar_l"], lv["pico_bot"] - fl))
    for x, y in pico_holes(t):
        cuts.append(cyl(x, y, lv["pico_bot"] - 6, t["screw_pilot_d"] / 2, 7))
    # OLED: pillars under its holes with pegs through them; the lid holds it down.
    oled_bot = lv["oled_pcb_top"] - t["oled_pcb_t"]
    peg_r = t["oled_hole_d"] / 2 - t["oled_peg_clear"]
    for x, y in oled_holes(t):
        adds.append(cyl(x, y, fl, t["oled_hole_d"] / 2 + t["oled_pillar_wall"], oled_bot - fl))
        adds.append(cyl(x, y, oled_bot - 0.01, peg_r, t["oled_pcb_t"] + t["oled_peg_above"] + 0.01))
    # Keypad board: pillars with pilot holes.
    kb_bot = lv["kb_top"] - t["kb_t"]
    for x, y in kb_holes(t):
        adds.append(cyl(x, y, fl, t["kb_pillar_d"] / 2, kb_bot - fl))
        cuts.append(cyl(x, y, kb_bot - 6, t["screw_pilot_d"] / 2, 7))
    # Ring: a tube it sits on, a spigot through its hole up to under the diffuser.
    x, y = t["tray_x"], t["tray_y"]
    r_sp = t["ring_id"] / 2 - t["ring_clear"]
    r_bore = r_sp - t["spigot_wall"]
    sp_top = lv["z_diff"] - t["spigot_gap"]
    adds.append(cyl(x, y, fl, t["ring_id"] / 2 + t["ring_support"], lv["ring_bot"] - fl))
    adds.append(cyl(x, y, lv["ring_bot"] - 0.01, r_sp, sp_top - lv["ring_bot"] + 0.01))
    cuts.append(cyl(x, y, t["floor"], r_bore, sp_top))
    solid = union([solid] + adds)
    for c in cuts:
        solid = solid - c
    return solid - usb_opening(t)


def usb_opening(t):
    """The back wall's opening for the USB plug: a rectangle round the plug
    with a 45 degree pointed top, so it prints without support."""
    b = _b3d()
    lv = levels(t)
    w = t["usb_plug_w"] / 2 + t["usb_clear"]
    h = t["usb_plug_h"] / 2 + t["usb_clear"]
    prof = b.Polygon((-w, -h), (w, -h), (w, h), (0, h + w), (-w, h), align=None)
    cut = b.extrude(b.Plane.XZ * prof, amount=t["wall"] + 2, both=True)
    return b.Pos(t["pico_x"], t["box_d"] / 2 - t["wall"] / 2, lv["usb_z"]) * cut


def lid(t):
    """The lid plate with the tray rim on it: felt recess, ring window,
    OLED window, key holes, the arcade button's seat and the screw holes."""
    b = _b3d()
    lv = levels(t)
    z, top = lv["z_lid"], lv["z_top"]
    plate = rounded_box(t["box_w"], t["box_d"], z, t["lid_t"], t["corner_r"])
    x, y = t["tray_x"], t["tray_y"]
    r_in = t["tray_d"] / 2
    rim = cyl(x, y, top - 0.01, r_in + t["tray_rim"], t["tray_h"] + 0.01) - cyl(x, y, top - 1, r_in, t["tray_h"] + 2)
    solid = plate + rim
    cuts = [cyl(x, y, lv["z_diff"], r_in, t["felt_t"] + 1),          # felt recess
            cyl(x, y, z - 1, lv["r_window"], t["lid_t"] + 2)]        # ring window
    # OLED window: straight for oled_land, then opening at 45 degrees.
    w = t["oled_aa_w"] + 2 * t["oled_margin"]
    d = t["oled_aa_h"] + 2 * t["oled_margin"]
    ox, oy = t["oled_x"], lv["oled_aa_y"]
    cuts.append(box(ox, oy, z - 1, w, d, t["oled_land"] + 1.01))
    rise = t["lid_t"] - t["oled_land"] + 1
    low = b.Plane.XY.offset(z + t["oled_land"]) * b.Pos(ox, oy) * b.Rectangle(w, d)
    high = b.Plane.XY.offset(z + t["oled_land"] + rise) * b.Pos(ox, oy) * b.Rectangle(w + 2 * rise, d + 2 * rise)
    cuts.append(b.loft([low, high]))
    for k, (kx, ky) in key_positions(t).items():
        if k != "ROLL":
            cuts.append(cyl(kx, ky, z - 1, t["cap_d"] / 2 + t["key_clear"], t["lid_t"] + 2))
    ax, ay = t["arcade_x"], t["arcade_y"]
    cuts.append(cyl(ax, ay, lv["arcade_panel_top"], t["arcade_bezel_d"] / 2 + t["arcade_clear"], t["lid_t"]))
    cuts.append(cyl(ax, ay, z - 1, t["arcade_body_d"] / 2 + t["arcade_clear"], t["lid_t"] + 2))
    for sx, sy in screw_positions(t):
        cuts.append(cyl(sx, sy, z - 1, t["screw_clear_d"] / 2, t["lid_t"] + 2))
    for c in cuts:
        solid = solid - c
    return solid


def diffuser(t):
    """The disc over the ring window, flush with the felt: print it in white
    or natural PLA/PETG (or cut it from 2 mm opal acrylic)."""
    lv = levels(t)
    r = lv["r_window"] + t["diffuser_ledge"]
    return cyl(t["tray_x"], t["tray_y"], lv["z_diff"], r, t["felt_t"])


class Model:
    """The enclosure built from a table: printed parts and bought components
    in their assembled places."""

    def __init__(self, t):
        self.table = t
        self.parts = {"base": base(t), "lid": lid(t), "diffuser": diffuser(t)}
        self.parts.update(("cap_" + k, cap(t, k)) for k in KEYPAD)
        self.components = {name: build(t) for name, build in COMPONENTS.items()}

    def part(self, name):
        """A printed part, or "caps": the six caps as one shape."""
        if name == "caps":
            return union([self.parts[c] for c in CAPS])
        return self.parts[name]


def build(t=None):
    """The Model of table t (TABLE when None)."""
    return Model(table() if t is None else t)


# --- output -------------------------------------------------------------------------------
def print_ready(model, name):
    """A part moved to its print position: on the bed (z = 0), centred."""
    b = _b3d()
    part = model.parts[name]
    bb = part.bounding_box()
    return b.Pos(-(bb.min.X + bb.max.X) / 2, -(bb.min.Y + bb.max.Y) / 2, -bb.min.Z) * part


def write(model, out, renders=True):
    """Write STEP and STL of each printed part, the assembly STEP and the renders into out."""
    b = _b3d()
    os.makedirs(out, exist_ok=True)
    written = []
    for name in PARTS:
        part = print_ready(model, name)
        step, stl = (os.path.join(out, name + ext) for ext in (".step", ".stl"))
        b.export_step(part, step)
        b.export_stl(part, stl, tolerance=0.02, angular_tolerance=0.1)
        written += [step, stl]
    shapes = list(model.parts.values()) + [s for c in model.components.values() for s in c.values()]
    path = os.path.join(out, "assembly.step")
    b.export_step(b.Compound(children=shapes), path)
    written.append(path)
    if renders:
        import enclosure_render
        written += enclosure_render.render_all(model, out)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build the Dicetray enclosure: STEP, STL and renders.")
    ap.add_argument("--out", default="build/enclosure", help="output directory (default: %(default)s)")
    ap.add_argument("--oled", default="ssd1306", choices=sorted(VARIANTS["oled"]))
    ap.add_argument("--arcade", default="30", choices=sorted(VARIANTS["arcade"]))
    ap.add_argument("--ring", default="adafruit12", choices=sorted(VARIANTS["ring"]))
    ap.add_argument("--set", action="append", default=[], metavar="NAME=MM",
                    help="change one table entry (repeatable), e.g. --set box_h=45")
    ap.add_argument("--no-renders", action="store_true", help="skip the PNG renders")
    a = ap.parse_args(argv)
    changes = {}
    for item in a.set:
        name, _, value = item.partition("=")
        try:
            changes[name] = float(value)
        except ValueError:
            ap.error("--set %s: give NAME=MM with a number, e.g. --set box_h=45" % item)
    try:
        import build123d  # noqa: F401
    except ImportError:
        print("enclosure: build123d is missing: pip install -c constraints.txt -e '.[hardware]' "
              "(make enclosure does it)", file=sys.stderr)
        return 2
    import enclosure_check
    try:
        t = table(a.oled, a.arcade, a.ring, **changes)
    except ValueError as e:
        ap.error(str(e))
    model = build(t)
    problems = enclosure_check.check(model)
    if problems:
        for p in problems:
            print("enclosure: %s" % p, file=sys.stderr)
        print("enclosure: %d problem(s) in the table; nothing written" % len(problems), file=sys.stderr)
        return 1
    d6, d12 = holds(t)
    print("enclosure: every check passed (%s); the dice well is %.0f mm across: it holds %d d6 "
          "or %d d12 lying on its felt (pools of %d d6 and %d d12 asked)"
          % (", ".join(CHECKS), t["tray_d"], d6, d12, t["pool_d6"], t["pool_d12"]))
    for path in write(model, a.out, renders=not a.no_renders):
        print(path)
    return 0


# What enclosure_check.check runs, in words (the line `make enclosure` ends its checks with).
CHECKS = ("no collisions", "every fit at its clearance", "walls and floors", "openings",
          "no overhangs", "the print bed", "the key caps' symbols")


if __name__ == "__main__":
    sys.exit(main())
