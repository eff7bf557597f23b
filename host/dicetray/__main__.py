"""`python -m dicetray ...` runs the `dicetray` command."""

import sys

from .cli import main

sys.exit(main())
