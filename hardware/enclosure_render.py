"""PNG renders of the enclosure without a 3D viewer: build123d tessellates,
matplotlib's mplot3d draws the triangles (one collection, so they are
depth-sorted together; large ones are split so the sorting holds) with a
fixed light (Lambert shading, both sides lit)."""
import io
import os

import numpy as np

import enclosure as E

# Colours (RGBA) of the printed parts and the bought ones.
COLOURS = {
    "base": (0.30, 0.33, 0.38, 1.0),
    "lid": (0.86, 0.84, 0.79, 1.0),
    "diffuser": (0.97, 0.97, 0.95, 0.80),
    "felt": (0.13, 0.42, 0.24, 1.0),
    "pico": (0.10, 0.50, 0.22, 1.0),
    "pico.usb": (0.75, 0.75, 0.78, 1.0),
    "pico.headers": (0.10, 0.10, 0.10, 1.0),
    "oled": (0.12, 0.24, 0.60, 1.0),
    "oled.panel": (0.04, 0.04, 0.05, 1.0),
    "oled.header": (0.10, 0.10, 0.10, 1.0),
    "ring": (0.08, 0.08, 0.08, 1.0),
    "ring.leds": (1.00, 0.70, 0.20, 1.0),
    "keypad": (0.80, 0.68, 0.42, 1.0),
    "keypad.bodies": (0.12, 0.12, 0.12, 1.0),
    "cap": (0.25, 0.25, 0.27, 1.0),
    "cap.symbol": (0.96, 0.95, 0.90, 1.0),   # a second filament from the symbol's first layer
    "arcade": (0.80, 0.12, 0.10, 1.0),
    "arcade.switch": (0.20, 0.20, 0.22, 1.0),
    "screen": (0.55, 0.80, 0.95, 1.0),
    "die": (0.93, 0.90, 0.82, 1.0),
    "die.red": (0.72, 0.10, 0.12, 1.0),
}
LIGHT = np.array([-0.45, -0.65, 0.85])

# How far each thing rises in the exploded view (mm): the order it goes in.
EXPLODE = {"lid": 60.0, "arcade": 105.0, "diffuser": 95.0, "felt": 112.0, "cap": 30.0}


def _split(v, f, longest):
    """Triangles split at their edges' midpoints until no edge is longer than `longest`."""
    tri = v[f]
    out = []
    while len(tri):
        e = np.max(np.linalg.norm(tri - np.roll(tri, 1, axis=1), axis=2), axis=1)
        out.append(tri[e <= longest])
        big = tri[e > longest]
        a, b, c = big[:, 0], big[:, 1], big[:, 2]
        ab, bc, ca = (a + b) / 2, (b + c) / 2, (c + a) / 2
        tri = np.concatenate([np.stack(s, axis=1) for s in ((a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca))])
    return np.concatenate(out)


def _triangles(shape, longest):
    v, f = shape.tessellate(0.1, 0.3)
    v = np.array([tuple(p) for p in v], dtype=float)
    return _split(v, np.array(f, dtype=int).reshape(-1, 3), longest)


def _shade(tri, rgba):
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1), 1e-12)[:, None]
    light = LIGHT / np.linalg.norm(LIGHT)
    k = 0.38 + 0.62 * np.abs(n @ light)
    col = np.tile(np.array(rgba, dtype=float), (len(tri), 1))
    col[:, :3] = np.clip(col[:, :3] * k[:, None], 0, 1)
    return col


def _extras(model):
    """Drawn only: two dice on the felt."""
    b = E._b3d()
    t, lv = model.table, E.levels(model.table)
    items = []
    for name, dx, dy, turn in (("die", -22, 8, 20), ("die.red", 16, -20, -35)):
        cube = b.fillet(b.Box(16, 16, 16).edges(), 2.0)
        at = b.Pos(t["tray_x"] + dx, t["tray_y"] + dy, lv["z_top"] + 8) * b.Rot(0, 0, turn)
        items.append((name, at * cube))
    return items


def scene(model, exploded=False):
    """[(name, shape)] of everything drawn, moved apart when exploded."""
    b = E._b3d()
    t, lv = model.table, E.levels(model.table)
    items = []
    for name, s in model.parts.items():
        if name in E.CAPS:   # each cap with its symbol in a colour of its own
            r = E.relief(t, name[4:])
            items += [("cap", s - r), ("cap.symbol", r)]
        else:
            items.append((name, s))
    for comp, pieces in model.components.items():
        items += [("%s.%s" % (comp, p), s) for p, s in pieces.items()]
    # The panel's active area lit: cut out of it, so no two faces lie on one another.
    panel = model.components["oled"]["panel"]
    aa = E.box(t["oled_x"], lv["oled_aa_y"], lv["glass"] - 0.5, t["oled_aa_w"], t["oled_aa_h"], 1.0)
    items = [(n, panel - aa) if n == "oled.panel" else (n, s) for n, s in items] + [("screen", panel & aa)]
    if exploded:
        return [(n, b.Pos(0, 0, EXPLODE.get(n.split(".")[0], 0.0)) * s) for n, s in items]
    return items + _extras(model)


def render(model, path, exploded=False, elev=32, azim=-62, size=(10, 7.5), dpi=100, longest=5.0):
    """Draw the model into a PNG at path (triangles split to at most `longest` mm)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    tris, cols = [], []
    for name, shape in scene(model, exploded):
        tri = _triangles(shape, longest)
        rgba = COLOURS.get(name) or COLOURS[name.split(".")[0]]
        tris.append(tri)
        cols.append(_shade(tri, rgba))
    tri, col = np.concatenate(tris), np.concatenate(cols)
    fig = plt.figure(figsize=size, dpi=dpi)
    ax = fig.add_axes([0, 0, 1, 1], projection="3d")
    # Edges in the face colour close the anti-aliasing seams between triangles.
    ax.add_collection3d(Poly3DCollection(tri, facecolors=col, edgecolors=col, linewidths=0.4))
    lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(hi - lo, zoom=1.0)
    ax.view_init(elev=elev, azim=azim)
    ax.set_proj_type("persp", focal_length=0.6)
    ax.set_axis_off()
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, facecolor="white", bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)
    # A 128-colour palette keeps the committed copies in docs/img small.
    from PIL import Image
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=128).save(path, optimize=True)
    return path


def render_all(model, out):
    """The assembled tray and the exploded view into out; their paths."""
    return [render(model, os.path.join(out, "enclosure.png")),
            render(model, os.path.join(out, "enclosure-exploded.png"), exploded=True, elev=24)]
