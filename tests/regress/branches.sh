#!/usr/bin/env bash
# branches.sh CLI: `lockstep branches` (docs/branch-classes.md). A file, a
# workload name and `all` give the classes; the .cu line shows where the
# PTX has line info; --json parses and agrees with the text; --control only
# turns P into D; --kernel filters; bad arguments give exit 2.
set -u
cli=${1:?usage: branches.sh path/to/lockstep}
cd "$(dirname "$0")/../.."
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-branches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

out=$("$cli" branches tests/ptx/taint_bfs_lineinfo.ptx); rc=$?
want_lines='  P  pc 13 (line 47): @%p1 bra pc 53  [workloads/bfs/bfs.cu:17]
  D  pc 19 (line 56): @%p2 bra pc 53  [workloads/bfs/bfs.cu:17]'
case "$out" in *"$want_lines"*) [ "$rc" = 0 ] && ok "line info: tid < n is P, mask[tid] is D, both at bfs.cu:17" \
  || bad "line info: exit $rc";; *) bad "line info: no bfs.cu:17 lines"; echo "$out" >&2;; esac

a=$("$cli" branches bfs); rc1=$?
b=$("$cli" branches workloads/bfs/bfs.ptx); rc2=$?
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$a" = "$b" ] \
  && ok "a workload name is its committed PTX" || bad "workload name vs file (exit $rc1 $rc2)"

"$cli" branches --json all > "$tmp/d.json"; rc1=$?
"$cli" branches --json --control all > "$tmp/c.json"; rc2=$?
"$cli" branches all > "$tmp/d.txt"; rc3=$?
python3 - "$tmp" <<'PY' && [ "$rc1$rc2$rc3" = 000 ] && ok "--json all: every workload, agrees with the text, --control only adds D" || bad "--json all (exit $rc1 $rc2 $rc3)"
import json, re, sys
t = sys.argv[1]
d = json.load(open(t + "/d.json")); c = json.load(open(t + "/c.json"))
assert d["schema"] == 1 and d["analysis"] == "data" and c["analysis"] == "data+control"
wl = sorted(__import__("glob").glob("workloads/*/*.ptx"))
assert [m["file"] for m in d["modules"]] == wl, "modules"
text = open(t + "/d.txt").read()
totals = [tuple(map(int, x)) for x in re.findall(r"total: branches (\d+) \(P (\d+), D (\d+)\)", text)]
assert totals == [(m["branches"], m["p"], m["d"]) for m in d["modules"]], "text totals"
np = nd = 0
for md, mc in zip(d["modules"], c["modules"]):
    assert md["file"] == mc["file"]
    assert md["branches"] == md["p"] + md["d"] == sum(f["branches"] for f in md["functions"])
    for fd, fc in zip(md["functions"], mc["functions"]):
        assert [b["pc"] for b in fd["list"]] == [b["pc"] for b in fc["list"]]
        for bd, bc in zip(fd["list"], fc["list"]):
            assert bd["class"] in "PD" and bc["class"] in "PD"
            assert not (bd["class"] == "D" and bc["class"] == "P"), (md["file"], bd)
        assert fd["p"] == sum(b["class"] == "P" for b in fd["list"])
    np += md["p"]; nd += md["d"]
assert np > 0 and nd > 0
assert sum(m["d"] for m in c["modules"]) >= nd
PY

out=$("$cli" branches --kernel bfs_update --json tests/ptx/taint_bfs_lineinfo.ptx); rc=$?
python3 - "$out" <<'PY' && [ "$rc" = 0 ] && ok "--kernel: one function; src_file/src_line from .loc" || bad "--kernel (exit $rc)"
import json, sys
j = json.loads(sys.argv[1])
fs = j["modules"][0]["functions"]
assert [f["name"] for f in fs] == ["bfs_update"], fs
assert [(b["class"], b["src_file"], b["src_line"]) for b in fs[0]["list"]] == \
       [("P", "workloads/bfs/bfs.cu", 36), ("D", "workloads/bfs/bfs.cu", 36)], fs
PY

printf '.version 9.0\n.target sm_75\n.address_size 64\n.entry k() { frob.u32 %%r1; }\n' > "$tmp/bad.ptx"
"$cli" branches "$tmp/bad.ptx" >/dev/null 2>"$tmp/err"; rc=$?
grep -q "bad.ptx:4:14: error: unknown opcode 'frob'" "$tmp/err" && [ "$rc" = 2 ] \
  && ok "parse error: file:line:col, exit 2" || { bad "parse error: exit $rc"; cat "$tmp/err" >&2; }
for args in "" "--frob bfs" "nosuchworkload" "--kernel nope bfs"; do
  # shellcheck disable=SC2086
  "$cli" branches $args >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] && ok "'branches $args': exit 2" || bad "'branches $args': exit $rc"
done

[ $fail = 0 ] && echo "branches: all checks passed" || echo "branches: $fail checks failed"
[ $fail = 0 ]
