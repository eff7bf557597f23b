"""The enclosure's checks: each returns a list of problems (one line each),
empty when the model is right. `make enclosure` refuses a table with any;
tests/host/test_enclosure.py runs each on its own and on mutated tables.

- collisions: no printed part overlaps another or a bought part.
- fits: every part sits in its pocket with the clearance its table entry
  names: exactly sideways (grown by the clearance less EPS it fits, grown
  by TIGHT more it does not), at least above or below.
- thickness: plates, floors and walls crossed square-on by rays are at
  least floor_min / wall_min thick.
- openings: the USB plug's way in, the OLED's active area, the caps' way
  out and the LEDs' light are clear and line up with their parts.
- overhangs: in its print position no part has a face steeper than
  overhang_max above the bed (no supports).
- bed: every part's footprint fits the print bed.
- symbols: every key cap carries its key's symbol, raised at least two
  layers, inside its top, each cap's its own; the cap's roof over its
  socket at least wall_min.
"""
import math
import struct

import enclosure as E

EPS = 0.01     # a fit is tried at clearance - EPS (must be free) ...
TIGHT = 0.05   # ... and at clearance + TIGHT (must touch) when the pocket is sized by it
VOL = 1e-6     # mm^3: volume 0 but for rounding; parts may touch, not overlap


def overlap(a, b):
    """Volume shared by two shapes (0.0 when their boxes do not even meet)."""
    ba, bb = a.bounding_box(), b.bounding_box()
    if (ba.min.X > bb.max.X or bb.min.X > ba.max.X or ba.min.Y > bb.max.Y
            or bb.min.Y > ba.max.Y or ba.min.Z > bb.max.Z or bb.min.Z > ba.max.Z):
        return 0.0
    return (a & b).volume


def _shapes(model):
    out = [(name, "", s) for name, s in model.parts.items()]
    for comp, subs in model.components.items():
        out += [(comp, sub, s) for sub, s in subs.items()]
    return out


def collisions(model):
    """Every pair of parts and components (not two pieces of one component) that overlap."""
    shapes = _shapes(model)
    problems = []
    for i, (na, sa, a) in enumerate(shapes):
        for nb, sb, b in shapes[i + 1:]:
            if na == nb:
                continue
            v = overlap(a, b)
            if v > VOL:
                problems.append("%s and %s overlap by %.1f mm^3" % (_label(na, sa), _label(nb, sb), v))
    return problems


def _label(name, sub):
    return "%s.%s" % (name, sub) if sub else name


# (component, piece, part, clearance entry, exact): the piece grown by the
# clearance fits the part; exact = the pocket is sized by that clearance.
FITS = (
    ("caps", "caps", "lid", "key_clear", True),          # the printed caps in their lid holes
    ("keypad", "plungers", "caps", "cap_socket_clear", True),  # each plunger in its cap's socket
    ("arcade", "body", "lid", "arcade_clear", True),     # ROLL's body in its hole
    ("arcade", "bezel", "lid", "arcade_clear", True),    # its bezel in the seat
    ("oled", "pcb", "base", "oled_peg_clear", True),     # module's holes round the pegs
    ("ring", "pcb", "base", "ring_clear", True),         # ring's hole round the spigot
    ("pico", "headers", "base", "pico_clear", True),     # header rows beside the end bars
    ("felt", "sheet", "lid", "felt_clear", True),        # felt in its recess
    ("felt", "sheet", "diffuser", "felt_clear", True),   # felt round the diffuser
    ("keypad", "board", "base", "kb_clear", False),      # board edge off the walls
    ("pico", "pcb", "base", "pico_clear", False),
)

# (mover, part, gap entry, direction, exact): the mover shifted by the gap
# up (+1) or down (-1) stays free of the part.
GAPS = (
    (("oled", "panel"), "lid", "oled_gap", 1, True),           # glass under the lid
    (("ring", "leds"), "diffuser", "ring_gap", 1, True),       # LEDs under the diffuser
    (("pico", "headers"), "base", "pico_floor_gap", -1, True),  # wire ends over the floor
    (("part", "diffuser"), "base", "spigot_gap", -1, True),    # spigot under the diffuser
    (("keypad", "bodies"), "lid", "key_gap", 1, False),        # switches under the lid
    (("arcade", "switch"), "base", "arcade_floor_gap", -1, False),
)


def fits(model):
    """Sideways clearances of FITS and vertical gaps of GAPS against the table."""
    b = E._b3d()
    t = model.table
    problems = []
    for comp, piece, part, key, exact in FITS:
        c = t[key]
        grow = E.COMPONENTS.get(comp) or E.PRINTED[comp]
        name = "%s.%s in %s" % (comp, piece, part)
        if overlap(grow(t, c - EPS)[piece], model.part(part)) > VOL:
            problems.append("%s: less than %s = %.2f mm round it" % (name, key, c))
        elif exact and overlap(grow(t, c + TIGHT)[piece], model.part(part)) <= VOL:
            problems.append("%s: more than %s = %.2f mm round it (the pocket is not sized by it)"
                            % (name, key, c))
    for (comp, piece), part, key, sign, exact in GAPS:
        s = model.parts[piece] if comp == "part" else model.components[comp][piece]
        gap = t[key]
        name = "%s.%s to %s" % (comp, piece, part)
        if overlap(b.Pos(0, 0, sign * (gap - EPS)) * s, model.parts[part]) > VOL:
            problems.append("%s: less than %s = %.2f mm" % (name, key, gap))
        elif exact and overlap(b.Pos(0, 0, sign * (gap + TIGHT)) * s, model.parts[part]) <= VOL:
            problems.append("%s: more than %s = %.2f mm" % (name, key, gap))
    return problems


def runs(shape, origin, direction):
    """Material runs along a ray: [(length, square_on)], square_on when the
    ray enters and leaves through faces square to it (a plate or wall, not
    a chamfer or an edge). None when the ray grazes something."""
    b = E._b3d()
    d = b.Vector(*direction).normalized()
    o = b.Vector(*origin)
    hits = sorted(((p - o).dot(d), n.dot(d)) for p, n in shape.find_intersection_points(b.Axis(o, d)))
    hits = [h for h in hits if h[0] > 0]
    if len(hits) % 2:
        return None
    out = []
    for (s0, n0), (s1, n1) in zip(hits[0::2], hits[1::2]):
        if n0 >= 0 or n1 <= 0:
            return None
        out.append((s1 - s0, n0 < -0.999 and n1 > 0.999))
    return out


def _grid(x0, x1, y0, y1, n):
    return [(x0 + (x1 - x0) * i / (n - 1), y0 + (y1 - y0) * j / (n - 1)) for i in range(n) for j in range(n)]


def thickness(model):
    """Floors, plates, walls and the rim, sampled by rays crossing them square-on."""
    t = model.table
    lv = E.levels(t)
    hw, hd = t["box_w"] / 2, t["box_d"] / 2
    inner = _grid(-hw + 8, hw - 8, -hd + 8, hd - 8, 13)
    rays = []   # (part, origin, direction, minimum, what, first run only)
    rays += [("base", (x, y, -5), (0, 0, 1), t["floor_min"], "floor", True) for x, y in inner]
    rays += [("lid", (x, y, lv["z_top"] + t["tray_h"] + 5), (0, 0, -1), t["floor_min"], "lid", False)
             for x, y in inner]
    rays += [("diffuser", (t["tray_x"] + dx, t["tray_y"] + dy, 100), (0, 0, -1), t["floor_min"],
              "diffuser", False) for dx, dy in _grid(-10, 10, -10, 10, 3)]
    for z in [t["floor"] + 1 + (lv["z_lid"] - t["floor"] - 2) * k / 4 for k in range(5)]:
        for k in range(1, 10):
            x = -hw + 2 * hw * k / 10
            y = -hd + 2 * hd * k / 10
            rays += [("base", (x, s * (hd + 5), z), (0, -s, 0), t["wall_min"], "wall", True) for s in (-1, 1)]
            rays += [("base", (s * (hw + 5), y, z), (-s, 0, 0), t["wall_min"], "wall", True) for s in (-1, 1)]
    for z in (lv["z_top"] + 1, lv["z_top"] + t["tray_h"] / 2, lv["z_top"] + t["tray_h"] - 1):
        for a in range(0, 360, 30):
            dx, dy = math.cos(math.radians(a)), math.sin(math.radians(a))
            far = t["tray_d"] / 2 + t["tray_rim"] + 5
            rays.append(("lid", (t["tray_x"] + far * dx, t["tray_y"] + far * dy, z), (-dx, -dy, 0),
                         t["wall_min"], "tray rim", True))
    problems, square = [], 0
    for part, o, d, least, what, first in rays:
        found = runs(model.parts[part], o, d)
        if not found:
            continue
        for length, sq in (found[:1] if first else found):
            if sq:
                square += 1
                if length < least - 1e-6:
                    problems.append("%s %s is %.2f mm thick at (%.0f, %.0f, %.0f): under %.1f"
                                    % (part, what, length, o[0], o[1], o[2], least))
    if square < len(rays) // 2:
        problems.append("only %d of %d thickness rays crossed a plate square-on" % (square, len(rays)))
    return problems


def openings(model):
    """The openings serve their parts: USB plug, OLED active area, key caps, ring light."""
    t = model.table
    lv = E.levels(t)
    base, lid, diff = model.parts["base"], model.parts["lid"], model.parts["diffuser"]
    problems = []
    plug = E.usb_plug(t, t["usb_clear"] - EPS)
    if overlap(plug, base) > VOL:
        problems.append("the USB plug does not pass the back wall's opening")
    elif overlap(E.usb_plug(t, t["usb_clear"] + TIGHT), base) <= VOL:
        problems.append("the USB opening is wider than the plug + usb_clear")
    ub = model.components["pico"]["usb"].bounding_box()
    pb = E.usb_plug(t).bounding_box()
    if (abs(ub.center().X - pb.center().X) > 1e-6 or abs(ub.center().Z - pb.center().Z) > 1e-6
            or abs(ub.max.Y - pb.min.Y) > 1e-6):
        problems.append("the USB opening is not in line with the Pico's receptacle")
    if pb.max.Y < t["box_d"] / 2:
        problems.append("the USB plug's way does not reach outside the box")
    if overlap(E.oled_view(t), lid) > VOL:
        problems.append("the lid covers part of the OLED's active area")
    vb, panel = E.oled_view(t).bounding_box(), model.components["oled"]["panel"].bounding_box()
    if vb.min.X < panel.min.X or vb.max.X > panel.max.X or vb.min.Y < panel.min.Y or vb.max.Y > panel.max.Y:
        problems.append("the OLED's active area is not on its panel (oled_aa_dy?)")
    if overlap(E.key_paths(t), lid) > VOL:
        problems.append("a key cap's way out through the lid is blocked")
    r_hole = t["cap_d"] / 2 + t["key_clear"]
    holes = [e.arc_center for e in lid.edges()
             if e.geom_type.name == "CIRCLE" and abs(e.radius - r_hole) < 1e-6
             and abs(e.arc_center.Z - lv["z_top"]) < 1e-6]
    for k, (x, y) in E.key_positions(t).items():
        if k != "ROLL" and not any(abs(c.X - x) < 1e-6 and abs(c.Y - y) < 1e-6 for c in holes):
            problems.append("no lid hole centred on the %s key's cap" % k)
    light = E.light_path(t)
    for name, part in (("lid", lid), ("base", base)):
        if overlap(light, part) > VOL:
            problems.append("the %s is in the way of the ring's light" % name)
    want = 12 * t["led"] ** 2 * t["felt_t"]
    if abs(overlap(light, diff) - want) > 1e-3 * want:
        problems.append("the diffuser does not cover every LED of the ring")
    return problems


def _tris(shape, tol=0.05):
    import numpy as np
    v, f = shape.tessellate(tol, 0.2)
    return np.array([tuple(p) for p in v], dtype=float), np.array(f, dtype=int).reshape(-1, 3)


def overhangs(model):
    """Faces facing down steeper than overhang_max anywhere above the bed, per part as printed."""
    import numpy as np
    t = model.table
    limit = math.sin(math.radians(t["overhang_max"])) + 1e-4
    problems = []
    for name in E.PARTS:
        v, f = _tris(E.print_ready(model, name))
        a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
        n = np.cross(b - a, c - a)
        ln = np.linalg.norm(n, axis=1)
        ok = ln > 1e-9
        nz = np.where(ok, n[:, 2] / np.where(ok, ln, 1), 0)
        low = np.minimum(np.minimum(a[:, 2], b[:, 2]), c[:, 2])
        bad = (-nz > limit) & (low > 1e-3)
        if bad.any():
            i = int(np.argmax(bad))
            p = (a[i] + b[i] + c[i]) / 3
            problems.append("%s: %d faces overhang more than %.0f deg (one at %.1f, %.1f, %.1f as printed)"
                            % (name, int(bad.sum()), t["overhang_max"], p[0], p[1], p[2]))
    return problems


def bed(model):
    """Every part's footprint as printed against the bed."""
    t = model.table
    problems = []
    for name in E.PARTS:
        bb = E.print_ready(model, name).bounding_box()
        if bb.size.X > t["bed_x"] or bb.size.Y > t["bed_y"]:
            problems.append("%s is %.1f x %.1f mm: over the %.0f x %.0f mm bed"
                            % (name, bb.size.X, bb.size.Y, t["bed_x"], t["bed_y"]))
    return problems


def symbols(model):
    """Each key cap's symbol: raised at least two layers over the cap's top,
    inside that top (0.5 mm to spare round it), not any other cap's; and
    the cap's roof over its socket's cone at least wall_min."""
    b = E._b3d()
    t = model.table
    bot, plunger, top = E.cap_levels(t)
    problems, seen = [], {}
    for key, (x, y) in E.key_positions(t).items():
        if key == "ROLL":
            continue
        cap = model.parts["cap_" + key]
        raised = cap & E.cyl(x, y, top, t["cap_d"], 50)
        if raised.volume <= VOL:
            problems.append("the %s key's cap has no symbol on its top" % key)
            continue
        h = raised.bounding_box().max.Z - top
        if h < 2 * t["layer"] - 1e-6:
            problems.append("the %s key's symbol is %.2f mm high: under two layers of %.2f"
                            % (key, h, t["layer"]))
        inside = raised & E.cyl(x, y, top, t["cap_d"] / 2 - 0.5, 50)
        if abs(inside.volume - raised.volume) > VOL:
            problems.append("the %s key's symbol reaches the edge of its cap" % key)
        mine = b.Pos(-x, -y, -top) * raised
        for other, shape in seen.items():
            if abs((mine - shape).volume) <= 1e-3 and abs((shape - mine).volume) <= 1e-3:
                problems.append("the %s and %s keys' caps carry the same symbol" % (other, key))
        seen[key] = mine
    roof = top - plunger - E.roof_h(t, t["key_plunger_d"] / 2 + t["cap_socket_clear"])
    if roof < t["wall_min"] - 1e-6:
        problems.append("a key cap's roof over its socket is %.2f mm: under wall_min %.1f"
                        % (roof, t["wall_min"]))
    return problems


def check(model):
    """Every check's problems."""
    return (collisions(model) + fits(model) + thickness(model) + openings(model)
            + overhangs(model) + bed(model) + symbols(model))


def read_stl(path):
    """Triangles of a binary STL file as an (n, 3, 3) array."""
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 84:
        raise ValueError("%s: not a binary STL (too short)" % path)
    (n,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * n:
        raise ValueError("%s: not a binary STL (%d triangles but %d bytes)" % (path, n, len(data)))
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                        count=n, offset=84)
    return rec["v"].astype(float)


def stl_problems(path, bed_x, bed_y):
    """An STL file is one closed surface (every edge shared by two triangles,
    once each way) and fits the bed."""
    import numpy as np
    tri = read_stl(path)
    problems = []
    size = tri.reshape(-1, 3).max(axis=0) - tri.reshape(-1, 3).min(axis=0)
    if size[0] > bed_x or size[1] > bed_y:
        problems.append("%s: %.1f x %.1f mm, over the %.0f x %.0f mm bed" % (path, size[0], size[1], bed_x, bed_y))
    verts, idx = np.unique(np.round(tri.reshape(-1, 3), 4), axis=0, return_inverse=True)
    f = idx.reshape(-1, 3)
    directed = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
    keyed = directed[:, 0] * len(verts) + directed[:, 1]
    rev = directed[:, 1] * len(verts) + directed[:, 0]
    uniq, counts = np.unique(keyed, return_counts=True)
    if (counts != 1).any() or not np.isin(rev, keyed).all():
        problems.append("%s: not one closed surface (open or doubled edges)" % path)
    return problems
