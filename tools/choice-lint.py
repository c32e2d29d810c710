#!/usr/bin/env python3
"""tools/choice-lint.py [FILE...]: no code compares a choice key with a number.

A choice key of csim/cfg/cfg_keys.def (CFG_ENUM, CFG_FLAGS, and the
<blk>_backend keys of include/lockstep_blocks.def) holds one of its
generated CFG_<KEY>_<CHOICE> values (tools/cfg-enums.c): code compares it,
masks it and sets it with those names, never with a bare number, so that a
choice added or moved in the table cannot silently change a mechanism.
Without FILE arguments it reads every .c/.h/.def under csim/ (but csim/cfg/, the
table's own parser) and tests/unit/, less PENDING. Prints file:line: what
for each finding; exit 1 when there is one, 0 otherwise.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Files whose choice comparisons are being rewritten with the mechanism
# interface (issue 33, item 1); each is checked once it leaves this list.
PENDING = ("csim/core/", "csim/gpu/gpu_timing.c")


def choice_keys():
    keys = []
    with open(os.path.join(ROOT, "csim/cfg/cfg_keys.def")) as f:
        keys += re.findall(r"^CFG_(?:ENUM|FLAGS)\((\w+)", f.read(), re.M)
    with open(os.path.join(ROOT, "include/lockstep_blocks.def")) as f:
        keys += [n + "_backend" for n in re.findall(r"^LS_BLOCK\(\s*\w+\s*,\s*(\w+)", f.read(), re.M)]
    return keys


def patterns(keys):
    k = r"(?:\.|->)(" + "|".join(keys) + r")\b"
    num = r"\(?\s*-?(?:0x[0-9a-fA-F]+|\d+)\b(?!\s*[*/+-])"
    op = r"(?:==|!=|<=|>=|<(?!<)|>(?!>))"
    return [
        (re.compile(k + r"\s*" + op + r"\s*" + num), "compared with a number"),
        (re.compile(r"(?<![\w.])-?\d+\s*" + op + r"\s*[\w.>\[\]-]*?" + k), "compared with a number"),
        (re.compile(k + r"\s*=(?!=)\s*" + num + r"\s*[;,)]"), "set to a number"),
        (re.compile(k + r"\s*&\s*" + num), "masked with a number"),
    ]


def files():
    out = []
    for top in ("csim", "tests/unit"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            for n in sorted(names):
                p = os.path.relpath(os.path.join(d, n), ROOT)
                if p.endswith((".c", ".h", ".def")) and not p.startswith("csim/cfg/") \
                        and not p.startswith(PENDING):
                    out.append(p)
    return sorted(out)


def main():
    pats = patterns(choice_keys())
    found = 0
    for p in sys.argv[1:] or files():
        with open(os.path.join(ROOT, p) if not os.path.isabs(p) else p) as f:
            for i, line in enumerate(f, 1):
                code = line.split("//")[0]
                for rx, what in pats:
                    m = rx.search(code)
                    if m:
                        print(f"{p}:{i}: choice key {m.group(1)} {what}: use its "
                              f"CFG_{m.group(1).upper()}_* name: {line.strip()}")
                        found += 1
                        break
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
