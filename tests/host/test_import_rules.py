"""The import rules of docs/architecture.md, checked on the firmware's
sources (issue 14): only hw/ touches the chip (machine, rp2, neopixel);
each layer imports only the layers below it; no circle among the imports,
neither those that run when a module loads nor those that run at a call
(a system's part modules counted as their system: see UNIT). Where the tree still breaks a rule, the
exception is listed below with the item of issue 14 that removes it, so a
new one fails here."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FW = os.path.join(ROOT, "firmware")
CHIP = ("machine", "rp2", "neopixel")

# What each layer may import (its own modules always): the rules core
# nothing of the device, the store nothing of the rules, the UI nothing of
# flash or the link, the link the session it acts through.
ALLOWED = {
    "rules": set(),
    "store": set(),
    "hw": set(),
    "ui": {"rules", "hw.keys"},
    "session": {"rules", "store", "salvage", "staging"},
    "salvage": {"rules"},
    "staging": {"rules", "store", "session"},
    "deviceid": {"session"},
    "link": {"rules", "session", "staging", "deviceid"},
    "main": {"hw", "rules", "session", "ui", "link"},
}
# Known exceptions (issue 14 removed the last: item 3), each to name the
# item of an issue that removes it.
EXCEPTIONS = {}


def _modules():
    out = {}
    for base, _dirs, files in os.walk(FW):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(base, f), FW)[:-3].replace(os.sep, ".")
                out[rel[:-9] if rel.endswith(".__init__") else rel] = os.path.join(base, f)
    return out


def _imports(name, path, top_only):
    """(imported module, line) of module `name`; top_only: only those that
    run at load (not inside a def)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    pkg = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = []

    def visit(node, in_def):
        for ch in ast.iter_child_nodes(node):
            deep = in_def or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(ch, ast.Import) and not (top_only and in_def):
                out.extend((a.name, ch.lineno) for a in ch.names)
            elif isinstance(ch, ast.ImportFrom) and not (top_only and in_def):
                base = ch.module or ""
                if ch.level:
                    parts = pkg.split(".") if pkg else []
                    parts = parts[:len(parts) - (ch.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                for a in ch.names:   # `from p import sub` names p.sub, `from p import f` p
                    sub = base + "." + a.name if base else a.name
                    out.append((sub if sub in MODULES else base, ch.lineno))
            visit(ch, deep)
    visit(tree, False)
    return out


MODULES = _modules()


def _own(mods, target):
    """The firmware module `target` names (itself or its package), or None (stdlib...)."""
    while target:
        if target in mods:
            return target
        target = target.rpartition(".")[0]
    return None


def _layer(name):
    return name.split(".")[0]


def test_only_hw_touches_the_chip():
    bad = []
    for name, path in MODULES.items():
        if _layer(name) == "hw":
            continue
        for t, line in _imports(name, path, False):
            if t.split(".")[0] in CHIP:
                bad.append("%s:%d imports %s" % (name, line, t))
    assert not bad, bad


def test_no_upward_import():
    mods = MODULES
    bad = []
    for name, path in mods.items():
        layer = _layer(name)
        allowed = ALLOWED[layer]
        for t, line in _imports(name, path, False):
            m = _own(mods, t)
            if m is None or _layer(m) == layer:
                continue
            if m in allowed or _layer(m) in allowed or (name, m) in EXCEPTIONS:
                continue
            bad.append("%s:%d imports %s" % (name, line, m))
    assert not bad, bad


def test_the_exceptions_are_still_needed():
    mods = MODULES
    seen = set()
    for name, path in mods.items():
        for t, _line in _imports(name, path, False):
            m = _own(mods, t)
            if (name, m) in EXCEPTIONS:
                seen.add((name, m))
    assert seen == set(EXCEPTIONS), "fixed, remove from EXCEPTIONS: %s" % (set(EXCEPTIONS) - seen)


def _graph(top_only, unit=lambda n: n):
    mods = MODULES
    graph = {}
    for n, p in mods.items():
        edges = graph.setdefault(unit(n), set())
        for t, _l in _imports(n, p, top_only):
            m = _own(mods, t)
            # a module's own package is loaded before it, whatever it imports
            if m and unit(m) != unit(n) and not n.startswith(m + "."):
                edges.add(unit(m))
    return graph


def _circle(graph):
    """A circle in `graph` as a list of nodes, or None."""
    state = {}
    path = []

    def walk(n):
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in state:
                found = walk(m)
                if found:
                    return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = walk(n)
            if found:
                return found
    return None


# A rule system, its screens and the session are each one module split in
# files so a boot loads only the common part: `hunt_more` (and
# expedition's chapter modules) use their system's helpers, `staging` the
# session's flash layout, and the first loads them at a call. Counted as
# one unit, the circle between a part and its whole is inside it; any
# other is a circle.
SYSTEMS = ("hunt", "paths", "expedition")
PARTS = {"staging": "session"}


def UNIT(name):
    if name in PARTS:
        return PARTS[name]
    pkg, _, mod = name.rpartition(".")
    if pkg in ("rules", "ui"):
        for s in SYSTEMS:
            if mod.startswith(s + "_"):
                return pkg + "." + s
    return name


def test_no_circle_at_load():
    found = _circle(_graph(True))
    assert not found, "import circle at load: " + " -> ".join(found)


def test_no_circle_at_all():
    """Counting the imports inside functions too: the campaign loads the
    rule systems and they import `core`, never `campaign` (issue 14, item 1)."""
    found = _circle(_graph(False, UNIT))
    assert not found, "import circle: " + " -> ".join(found)


def test_a_circle_is_found():
    """The check itself: a part module counted apart from its system is a circle."""
    found = _circle(_graph(False))
    assert found and any(UNIT(n) != n for n in found), found
