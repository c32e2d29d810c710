#!/usr/bin/env bash
# check.sh CLI: `lockstep check` over many files. The committed PTX (tests/
# and workloads/) all loads; a directory tree with a bad file, a nested
# directory and a non-PTX file gives one line for the bad file, the summary
# and exit 2; --json has the same; a single file keeps the full report.
set -u
cli=${1:?usage: check.sh path/to/lockstep}
cd "$(dirname "$0")/../.."
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=$(find tests/ptx tests/devrt workloads -name '*.ptx' | wc -l)
out=$("$cli" check tests/ptx tests/devrt workloads); rc=$?
[ "$rc" = 0 ] && [ "$out" = "$n of $n load" ] \
  && ok "committed PTX: $out" || bad "committed PTX: exit $rc, '$out' (want '$n of $n load')"

mkdir -p "$tmp/tree/sub/deeper"
cp tests/devrt/brx.ptx "$tmp/tree/a.ptx"
cp workloads/vecadd/vecadd.ptx "$tmp/tree/sub/deeper/v.ptx"
printf '.version 9.0\n.target sm_75\n.address_size 64\n.entry k() { frob.u32 %%r1; }\n' \
  > "$tmp/tree/sub/bad.ptx"
echo "not ptx" > "$tmp/tree/notes.txt"
out=$("$cli" check "$tmp/tree"); rc=$?
want="$tmp/tree/sub/bad.ptx:4:14: error: unknown opcode 'frob' (frob.u32)
2 of 3 load"
[ "$rc" = 2 ] && [ "$out" = "$want" ] \
  && ok "a tree with one bad file: its line, 2 of 3 load, exit 2" \
  || { bad "tree: exit $rc"; echo "$out" >&2; }

"$cli" check --json "$tmp/tree" "$tmp/tree/a.ptx" > "$tmp/c.json"; rc=$?
python3 - "$tmp/c.json" "$tmp" <<'PY' && [ "$rc" = 2 ] && ok "--json: 4 entries, 3 load, the bad one with its error" || bad "--json (exit $rc)"
import json, sys
j = json.load(open(sys.argv[1])); t = sys.argv[2]
files = [f["file"] for f in j["files"]]
assert files == [t + "/tree/a.ptx", t + "/tree/sub/bad.ptx",
                 t + "/tree/sub/deeper/v.ptx", t + "/tree/a.ptx"], files
assert (j["total"], j["load"], j["fail"]) == (4, 3, 1), j
b = j["files"][1]
assert b["loads"] is False and "unknown opcode 'frob'" in b["error"], b
assert all(f["loads"] for i, f in enumerate(j["files"]) if i != 1)
PY

out=$("$cli" check tests/devrt/brx.ptx); rc=$?
case "$out" in *"brx.idx pc 13 (line 33) -> 4 targets"*) [ "$rc" = 0 ] && ok "one file: the full report" || bad "one file: exit $rc";;
  *) bad "one file: no report"; echo "$out" >&2;; esac
"$cli" check --frob x.ptx >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "unknown option: exit 2" || bad "unknown option: exit $rc"
"$cli" check "$tmp/none" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "missing file: exit 2" || bad "missing file: exit $rc"

[ $fail = 0 ] && echo "check: all checks passed" || echo "check: $fail checks failed"
[ $fail = 0 ]
