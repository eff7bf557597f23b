"""A prolonged test opened on the device (paths' PRO_OPEN; the builder in
Mode prolonged, OK on `Test  + new`), loaded on first use: "In addition
to the Skill required for the test, the Exarch sets the total number of
successes to be achieved and the timeframe", "Some actions can only be
carried out for a limited amount of time, and the Exarch can limit the
number of attempts", and the Difficulty may be hidden ("the players
might not be told how long it will take to complete").

Who (whose test, `-` nobody), the Skill (the test is named for it: the
builder takes its levels from the sheet), Successes (the total), Each
roll (the timeframe: turn, hour, day, week), Attempts (`none`, or the
limit) and Hidden (home and the notes show `3/?`). OK opens it and the
builder rolls it next.
"""

from ui.form import Form
from ui.screen import lr
from rules import paths as m, paths_more as pm

_YES_NO = ("<no>", "<yes>")


class NewTest(Form):
    def __init__(self, app):
        p = app.pool
        c = app.c
        who = p.v["who"] if p is not None and p.v["who"] < len(c.chars) else -1
        sk = p.v["sk"] if p is not None and p.v["sk"] >= 0 else 1  # Healing, the seed's example
        Form.__init__(self, app, [["Who", -1, len(c.chars) - 1, who], ["Skill", 0, pm.NSKILLS - 1, sk],
                                  ["Successes", 1, m.MAX_REQUIRED, 8], ["Each roll", 0, 3, 2],
                                  ["Attempts", 0, m.MAX_ATTEMPTS, 0], ["Hidden", 0, 1, 0]])

    def show(self, j):
        v = self.val(j)
        if j == 0:
            return "<%s>" % (self.app.c.chars[v].name if v >= 0 else "-")
        if j == 1:
            return pm.skill_name(v)
        if j == 3:
            return "<%s>" % m.TIMEFRAMES[v]
        if j == 4:
            return "<%d>" % v if v else "<none>"
        if j == 5:
            return _YES_NO[v]
        return "<%d>" % v

    def refresh(self):
        Form.refresh(self)
        name = self.show(1)  # a long Skill's name takes the row, as the seed names it
        self.menu.items[1] = lr("Skill", name) if len(name) < 10 else "%-16s" % name

    def head(self):
        return "PROLONGED TEST"

    def foot(self):
        return "OK: open it"

    def go(self):
        app = self.app
        args = (self.val(0), self.val(2), self.val(4), self.val(3), self.val(5))
        out = app.act(m.PRO_OPEN, args, pm.skill_name(self.val(1)))
        if out is not None:
            app.need_pool().v["test"] = out.tal  # the builder, refreshed as the form closes
        self.done(out)
