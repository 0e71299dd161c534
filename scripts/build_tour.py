"""Write docs/how_it_works.md from docs/how_it_works.in.md.

The tour links to lines of the code. In the .in.md a link's line is written
as {path:text}, path under autograd_teach/ and text the first line there that
contains it; this script puts in the line number. Run it after the code
moves (tests/test_architecture.py says when):

    python scripts/build_tour.py
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE, TARGET = ROOT / "docs" / "how_it_works.in.md", ROOT / "docs" / "how_it_works.md"
PLACE = re.compile(r"\{([\w/]+\.py):([^}]+)\}")


def line_of(path, text):
    lines = (ROOT / "autograd_teach" / path).read_text().splitlines()
    for number, line in enumerate(lines, 1):
        if text in line:
            return number
    raise LookupError(f"autograd_teach/{path} has no line containing {text!r}")


def build():
    note = "<!-- written by scripts/build_tour.py from how_it_works.in.md: edit that one -->\n"
    return note + PLACE.sub(lambda m: str(line_of(m.group(1), m.group(2))), SOURCE.read_text())


if __name__ == "__main__":
    TARGET.write_text(build())
