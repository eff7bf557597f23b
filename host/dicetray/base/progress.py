"""A small progress bar on stderr for jobs that take more than a second.

Silent when stderr is not a terminal (scripts, pipes, CI logs) and for jobs
that finish within `delay` seconds, so quick commands print nothing extra.

    with Progress("fetching events", total=5000) as p:
        for ...:
            p.update(done)

A Progress is also a callable `p(done, total)`, the shape the device
client's `progress=` argument takes.
"""

import sys
import time


class Progress:
    """A one-line bar `label [#####.....] done/total` redrawn in place."""

    def __init__(self, label, total=None, stream=None, delay=1.0, width=30, clock=time.monotonic):
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.width = width
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.shown = False
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def __call__(self, done, total=None):
        self.update(done, total)

    def update(self, done, total=None):
        """Record progress; draws only on a tty once `delay` seconds have passed."""
        self.done = done
        if total is not None:
            self.total = total
        if not self.tty or self.clock() - self.start < self.delay:
            return
        self.shown = True
        self.stream.write("\r" + self.line())
        self.stream.flush()

    def line(self):
        """The bar as text (without the carriage return)."""
        if self.total:
            frac = min(1.0, max(0.0, float(self.done) / self.total))
            fill = int(frac * self.width)
            return "%s [%s%s] %d/%d" % (
                self.label,
                "#" * fill,
                "." * (self.width - fill),
                self.done,
                self.total,
            )
        return "%s ... %d" % (self.label, self.done)

    def close(self):
        """Finish the line (only if a bar was drawn)."""
        if self.shown:
            self.stream.write("\r" + self.line() + "\n")
            self.stream.flush()
            self.shown = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
