"""Every picture in docs/img comes from one command:
`make docs` runs tools/docshots.py, whose SHOTS are exactly the files in
docs/img, and every picture the README and docs/ show is one of them. (The
pictures themselves are made again by `make docs`; sim.png is compared
with the simulator's own output in test_journeys.py.)"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools import docshots  # noqa: E402


def test_docs_img_holds_what_one_command_makes():
    img = os.path.join(ROOT, "docs", "img")
    assert sorted(os.listdir(img)) == sorted(docshots.SHOTS)
    shown = set()
    for folder, names in ((ROOT, ["README.md"]), (os.path.join(ROOT, "docs"),
                                                   os.listdir(os.path.join(ROOT, "docs")))):
        for name in names:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    shown |= set(re.findall(r"\(((?:docs/)?img/[^)\s]+)\)", f.read()))
    assert {os.path.basename(p) for p in shown} == set(docshots.SHOTS), shown


def test_make_docs_runs_it():
    with open(os.path.join(ROOT, "Makefile")) as f:
        make = f.read()
    rule = re.search(r"^docs: (.*)\n\t(.*)$", make, re.M)
    assert rule and "web" in rule.group(1).split(), rule
    assert rule.group(2) == "$(PY) tools/docshots.py"
    assert "docs" in re.search(r"^\.PHONY: (.*)$", make, re.M).group(1).split()
