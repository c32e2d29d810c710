#!/usr/bin/env python3
"""tools/docs-block.py: a generated block of a docs page.

  docs-block.py [--check] PAGE NAME COMMAND...

Runs COMMAND and puts its standard output between the lines
`<!-- NAME:begin -->` and `<!-- NAME:end -->` of PAGE; with --check,
changes nothing and exits 1 (naming the page and the command that
regenerates it) when the page's block differs. Exit 2: no such markers."""
import subprocess
import sys


def main(argv):
    check = argv[:1] == ["--check"]
    if check:
        argv = argv[1:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    page, name, cmd = argv[0], argv[1], argv[2:]
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    with open(page, encoding="utf-8") as f:
        text = f.read()
    a, b = text.find(begin), text.find(end)
    if a < 0 or b < a:
        print(f"{page}: no '{begin.strip()}' ... '{end}' block", file=sys.stderr)
        return 2
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    new = text[:a + len(begin)] + out + text[b:]
    if check:
        if new != text:
            print(f"{page}: the {name} block is not current: run make docs-{name.split('-')[0]}",
                  file=sys.stderr)
            return 1
        print(f"{page}: {name} block current")
        return 0
    if new != text:
        with open(page, "w", encoding="utf-8") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
