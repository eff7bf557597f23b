# Under pytest (CPython) the shared firmware tests import the firmware the
# way the board does: `rules` is a top-level package from firmware/.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "firmware"))
sys.path.insert(0, os.path.dirname(__file__))
