#!/usr/bin/env bash
# affine.sh CLI: `lockstep check --affine` (docs/dac.md). A workload name is
# its committed PTX; vecadd's instructions get the classes the rules give;
# --json parses, covers every workload and agrees with the text totals;
# --kernel filters; bad arguments give exit 2.
set -u
cli=${1:?usage: affine.sh path/to/lockstep}
cd "$(dirname "$0")/../.."
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-affine.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

a=$("$cli" check --affine vecadd); rc1=$?
b=$("$cli" check --affine workloads/vecadd/vecadd.ptx); rc2=$?
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$a" = "$b" ] \
  && ok "a workload name is its committed PTX" || bad "workload name vs file (exit $rc1 $rc2)"

# vecadd: i = ctaid.x * ntid.x + tid.x is affine, the bound check is an
# affine predicate, the addresses are affine, the loads and the float add
# are not
for want in 'A[tid.x+ctaid.x]             pc 7 (line 35): mad.lo.s32 %r1, %r3, %r4, %r5' \
            'A[tid.x+ctaid.x]             pc 9 (line 37): @%p1 bra pc 21' \
            'N addr:A ctl:affine          pc 15 (line 44): ld.global.f32 %f1, [%rd8]' \
            'N ctl:affine                 pc 17 (line 46): add.f32 %f3, %f2, %f1'; do
  case "$a" in *"$want"*) ok "vecadd: ${want#* pc }";; *) bad "vecadd: no line '$want'";; esac
done

"$cli" check --affine --json all > "$tmp/a.json"; rc1=$?
"$cli" check --affine all > "$tmp/a.txt"; rc2=$?
python3 - "$tmp" <<'PY' && [ "$rc1$rc2" = 00 ] && ok "--json all: every workload, counts add up, agrees with the text" || bad "--json all (exit $rc1 $rc2)"
import glob, json, re, sys
t = sys.argv[1]
d = json.load(open(t + "/a.json"))
assert d["schema"] == 1 and d["analysis"] == "affine"
assert [m["file"] for m in d["modules"]] == sorted(glob.glob("workloads/*/*.ptx")), "modules"
text = open(t + "/a.txt").read()
tot = [tuple(map(int, x)) for x in re.findall(r"total: insts (\d+): U (\d+), A (\d+), N (\d+), - (\d+)", text)]
assert tot == [(m["insts"], m["uniform"], m["affine"], m["nonaffine"], m["none"]) for m in d["modules"]], "text totals"
for m in d["modules"]:
    assert m["uniform"] + m["affine"] + m["nonaffine"] + m["none"] == m["insts"], m["file"]
    n = sum(len(f["list"]) for f in m["functions"])
    assert n == m["insts"], m["file"]
    for f in m["functions"]:
        for i in f["list"]:
            assert (i["terms"] != "") == (i["class"] == "A"), (m["file"], i)
PY

out=$("$cli" check --affine --kernel vecadd vecadd); rc=$?
[ "$rc" = 0 ] && ! grep -q '^total' <<<"$out" && grep -q '^kernel vecadd' <<<"$out" \
  && ok "--kernel: that function, no module total" || bad "--kernel (exit $rc)"
"$cli" check --affine --kernel nosuch vecadd >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "--kernel with no such function: exit 2" || bad "--kernel nosuch: exit $rc"
"$cli" check --affine no-such-workload >/dev/null 2>"$tmp/e"; rc=$?
[ "$rc" = 2 ] && grep -q 'no workload has that name' "$tmp/e" \
  && ok "unknown module: exit 2 with the reason" || bad "unknown module: exit $rc"
"$cli" check --affine --bogus vecadd >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "unknown option: exit 2" || bad "unknown option: exit $rc"
printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n frob;\n}\n' > "$tmp/bad.ptx"
"$cli" check --affine "$tmp/bad.ptx" >/dev/null 2>"$tmp/e"; rc=$?
[ "$rc" = 2 ] && grep -q 'bad.ptx:6' "$tmp/e" && ok "parse error: exit 2 at file:line" \
  || { bad "parse error: exit $rc"; cat "$tmp/e" >&2; }

[ "$fail" = 0 ] && echo "affine: all passed" || { echo "affine: $fail failed" >&2; exit 1; }
