"""`make firmware`: compile firmware/ to build/firmware/*.mpy and report sizes."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.mpy import ROOT, compile_firmware  # noqa: E402


def main():
    out = os.path.join(ROOT, "build", "firmware")
    total_src = total_mpy = 0
    print("%-32s %8s %8s" % ("module", "source", ".mpy"))
    for path, m in compile_firmware(out):
        rel = os.path.relpath(m, out)
        src = os.path.getsize(path)
        size = os.path.getsize(m)
        total_src += src
        total_mpy += size
        print("%-32s %8d %8d" % (rel, src, size))
    print("%-32s %8d %8d  (flash bytes)" % ("total", total_src, total_mpy))


if __name__ == "__main__":
    main()
