"""A form about one character (ui/form.py), for the sheets' forms (hunt's
stress and kit, paths' Path): it closes when an undo, or a host's action,
takes the character away, as the sheet under it does."""

from ui.form import Form


class CharForm(Form):
    def __init__(self, app, fields, i):
        Form.__init__(self, app, fields)
        self.i = i

    def refresh(self):
        if self.i >= len(self.app.c.chars):  # undone
            self.app.pop()
            return
        Form.refresh(self)
