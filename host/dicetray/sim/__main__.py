"""`python -m dicetray.sim`: the simulator's command line."""

import sys

from . import main

sys.exit(main())
