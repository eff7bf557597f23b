"""The import rules of docs/architecture.md, checked on the firmware's
sources: only hw/ touches the chip (machine, rp2, neopixel);
each layer imports only the layers below it; no circle among the imports,
neither those that run when a module loads nor those that run at a call
(a system's part modules counted as their system: see UNIT). Where the tree
still breaks a rule, the exception is listed below with the change that
removes it, so a new one fails here."""

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
# Known exceptions (none left), each to name the change that removes it.
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


SIMBOARD = os.path.join(ROOT, "simboard")


def test_the_simulators_boards_stand_beside_the_firmware():
    """simboard/ (the desktop and web boards, the desktop REPL) imports of
    the firmware only its drivers (hw), and the firmware imports simboard
    only in hw/board.py, at a call (the profile that runs)."""
    bad = []
    for f in sorted(os.listdir(SIMBOARD)):
        if f.endswith(".py"):
            for t, line in _imports("simboard." + f[:-3], os.path.join(SIMBOARD, f), False):
                m = _own(MODULES, t)
                if m is not None and _layer(m) != "hw":
                    bad.append("simboard/%s:%d imports %s" % (f, line, m))
    for name, path in MODULES.items():
        at_load = {t for t, _l in _imports(name, path, True)}
        for t, line in _imports(name, path, False):
            if t.split(".")[0] == "simboard" and (name != "hw.board" or t in at_load):
                bad.append("%s:%d imports %s" % (name, line, t))
    assert not bad, bad
    assert not any(n.split(".")[-1] in ("simboard", "simrepl", "webboard") for n in MODULES)


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
    rule systems and they import `core`, never `campaign`."""
    found = _circle(_graph(False, UNIT))
    assert not found, "import circle: " + " -> ".join(found)


def test_a_circle_is_found():
    """The check itself: a part module counted apart from its system is a circle."""
    found = _circle(_graph(False))
    assert found and any(UNIT(n) != n for n in found), found


# --- The host package (host/dicetray) ------------------------------------
# Its layers, each a folder (or one module): what each may import besides
# itself, imports inside functions included. The firmware's packages the
# host installs (dicetray.rules, .fwlink, .fwstore) sit below them all.
HOST = os.path.join(ROOT, "host", "dicetray")
FIRMWARE = {"rules", "fwlink", "fwstore"}
HOST_ALLOWED = {
    "": set(),                      # the package's face: its version
    "base": set(),                  # where files live, writing a file, Ctrl-C, progress, the checkout
    "panel": set(),                 # the OLED controller model (tests/mpy load it on MicroPython too)
    "catalog": set(),               # the events declared, their key paths (tables; tests/mpy load them too)
    "link": {"", "base"},           # how a tray is reached: Tray, Device, HubDevice, records, errors
    "backup": {"base", "link"},     # the backup database; only backup/db/ touches SQLite
    "campaign": {"base", "backup", "catalog"},  # what the host makes of events: words, log, export, stats, odds
    "ops": {"base", "link", "backup", "campaign", "catalog"},  # perform, restore, deploy: no front-end
    "keyscript": {"catalog"},       # the firmware's screens walked on CPython (imports the firmware)
    "sim": {"base", "link", "panel"},
    "hub": {"", "base", "link", "backup", "campaign", "ops"},
    "cli": {"base", "link", "backup", "campaign", "catalog", "ops", "hub", "sim", "keyscript"},
    "__main__": {"cli"},
}
# Known exceptions, each with why it stands.
HOST_PATH_EXCEPTIONS = {
    # the firmware's modules import each other top-level (`import session`),
    # as on the board; the key script runs them in this process, as tests/mpy do
    "keyscript",
}
HOST_PRIVATE_EXCEPTIONS = {
    # the header's seed has no public name in firmware/store/journal.py
    ("link.records", "fwstore.journal", "_SEED"),
}
SQLITE = {"backup.db", "hub.forward"}   # the backup database (a package: its modules too); the hub's forwarding queue
MAX_LINES = 800
# Files still over MAX_LINES, each with the split that removes it.
LONG = set()


def _host_sources():
    out = {}
    for base, _dirs, files in os.walk(HOST):
        for f in files:
            if f.endswith(".py"):
                p = os.path.join(base, f)
                rel = os.path.relpath(p, HOST)[:-3].replace(os.sep, ".")
                name = "" if rel == "__init__" else rel[:-9] if rel.endswith(".__init__") else rel
                out[name] = (p, open(p, encoding="utf-8").read())
    return out


def _host_layer(name):
    return name.split(".")[0]


def _host_imports(name, path, source, names):
    """(module imported, the names taken from it, line) of host module
    `name`, every import (inside functions too), relative or `dicetray.`."""
    tree = ast.parse(source, path)
    pkg = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("dicetray."):
                    out.append((a.name[9:], (), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".") if pkg else []
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            elif base == "dicetray" or base.startswith("dicetray."):
                base = base[9:]
            else:
                continue
            for a in node.names:
                sub = base + "." + a.name if base else a.name
                if sub in names:
                    out.append((sub, (), node.lineno))
                else:
                    out.append((base, (a.name,), node.lineno))
    return out


def _host_violations(sources):
    """Every import that breaks HOST_ALLOWED, and every private name taken
    from another module, in `sources` ({name: (path, text)})."""
    bad = []
    for name, (path, src) in sources.items():
        layer = _host_layer(name)
        for t, taken, line in _host_imports(name, path, src, sources):
            tl = _host_layer(t)
            where = "%s:%d" % (os.path.relpath(path, ROOT), line)
            if tl not in FIRMWARE and tl != layer and tl not in HOST_ALLOWED[layer]:
                bad.append("%s imports %s (%s may import %s)"
                           % (where, t or "dicetray", layer, sorted(HOST_ALLOWED[layer]) or "nothing"))
            for n in taken:
                if n.startswith("_") and not n.startswith("__") and (name, t, n) not in HOST_PRIVATE_EXCEPTIONS:
                    bad.append("%s takes the private %s from %s" % (where, n, t))
    return bad


HOST_SOURCES = _host_sources()


def test_every_host_module_has_a_layer():
    assert {_host_layer(n) for n in HOST_SOURCES} <= set(HOST_ALLOWED)


def test_host_layers_import_only_below():
    bad = _host_violations(HOST_SOURCES)
    assert not bad, bad


def test_the_host_layers_are_in_order():
    """HOST_ALLOWED itself has no circle: there is an order of the layers."""
    found = _circle({k: set(v) - {k} for k, v in HOST_ALLOWED.items()})
    assert not found, found


def test_a_hub_that_imports_the_command_line_fails():
    """The check itself: the hub never imports `cli` (it is handed the
    action parser), so a planted `from ..cli import` anywhere in it fails,
    inside a function as at the top; so does a private name taken."""
    for planted in ("from ..cli import pageline\n",
                    "def f():\n    from ..cli.pageline import parse_action\n"):
        sources = dict(HOST_SOURCES)
        path, src = sources["hub.web"]
        sources["hub.web"] = (path, src + planted)
        bad = _host_violations(sources)
        assert len(bad) == 1 and "imports cli" in bad[0], bad
    sources = dict(HOST_SOURCES)
    path, src = sources["hub.view"]
    sources["hub.view"] = (path, src + "from ..campaign.export import _Names\n")
    bad = _host_violations(sources)
    assert len(bad) == 1 and "private _Names" in bad[0], bad


def test_no_sys_path_change_in_the_package():
    """The installed package finds nothing by adding to sys.path: a tool of
    the checkout is loaded by its path (base/checkout.py)."""
    bad = []
    for name, (path, src) in HOST_SOURCES.items():
        if name in HOST_PATH_EXCEPTIONS:
            continue
        for node in ast.walk(ast.parse(src, path)):
            if (isinstance(node, ast.Attribute) and node.attr == "path"
                    and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                bad.append("%s:%d" % (os.path.relpath(path, ROOT), node.lineno))
    assert not bad, "sys.path used at " + ", ".join(bad)


def test_only_the_databases_touch_sqlite():
    bad = [n for n, (p, src) in HOST_SOURCES.items()
           if not any(n == m or n.startswith(m + ".") for m in SQLITE)
           and any(m == "sqlite3" for m in _stdlib_imports(src, p))]
    assert not bad, bad


def _stdlib_imports(src, path):
    for node in ast.walk(ast.parse(src, path)):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module


def test_no_host_source_file_is_over_800_lines():
    long = {os.path.relpath(p, ROOT): src.count("\n")
            for p, src in HOST_SOURCES.values() if src.count("\n") > MAX_LINES}
    assert set(long) <= LONG, "split by job: %s" % {k: v for k, v in long.items() if k not in LONG}
    assert set(long) == LONG, "split, remove from LONG: %s" % (LONG - set(long))
