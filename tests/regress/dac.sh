#!/usr/bin/env bash
# dac.sh CLI: `lockstep check --dac` (docs/dac.md "The transform"). A
# workload name is its committed PTX; vecadd splits as the rules say (both
# loads enq.data, the store enq.addr, the bound check enq.pred, the index
# math gone from the main stream); over every committed workload the
# transform passes its invariant check (the command fails otherwise),
# --json parses, covers every workload, agrees with the text and its
# counts add up; --kernel filters; bad arguments give exit 2.
set -u
cli=${1:?usage: dac.sh path/to/lockstep}
cd "$(dirname "$0")/../.."
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1" >&2; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-dac.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

a=$("$cli" check --dac vecadd); rc1=$?
b=$("$cli" check --dac workloads/vecadd/vecadd.ptx); rc2=$?
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$a" = "$b" ] \
  && ok "a workload name is its committed PTX" || bad "workload name vs file (exit $rc1 $rc2)"

main=$(sed -n '/^  main stream:/,$p' <<<"$a")
aff=$(sed -n '/^  affine stream:/,/^  main stream:/p' <<<"$a")
for want in 'enq.pred   pc 9 (line 37): @%p1 bra pc 21' \
            'enq.data   pc 15 (line 44): ld.global.f32 %f1, [%rd8]' \
            'enq.data   pc 16 (line 45): ld.global.f32 %f2, [%rd6]' \
            'enq.addr   pc 20 (line 49): st.global.f32 [%rd10], %f3' \
            '           pc 7 (line 35): mad.lo.s32 %r1, %r3, %r4, %r5'; do
  case "$aff" in *"$want"*) ok "vecadd affine: ${want#* pc }";; *) bad "vecadd affine: no '$want'";; esac
done
for want in 'deq.pred   pc 9 (line 37)' 'deq.data   pc 15 (line 44)' \
            'deq.addr   pc 20 (line 49)' '           pc 17 (line 46): add.f32'; do
  case "$main" in *"$want"*) ok "vecadd main: ${want#* pc }";; *) bad "vecadd main: no '$want'";; esac
done
grep -q 'mad.lo\|mul.wide\|ld.param' <<<"$main" \
  && bad "vecadd main still computes the index" || ok "vecadd main: index math removed"
[ "$(grep -c ' pc ' <<<"$main")" = 6 ] && ok "vecadd main: 6 instructions" \
  || bad "vecadd main: $(grep -c ' pc ' <<<"$main") instructions, want 6"

"$cli" check --dac --json all > "$tmp/d.json"; rc1=$?
"$cli" check --dac all > "$tmp/d.txt"; rc2=$?
python3 - "$tmp" <<'PY' && [ "$rc1$rc2" = 00 ] && ok "--json all: every workload checked, counts add up, agrees with the text" || bad "--json all (exit $rc1 $rc2)"
import glob, json, re, sys
t = sys.argv[1]
d = json.load(open(t + "/d.json"))
assert d["schema"] == 1 and d["analysis"] == "dac"
assert [m["file"] for m in d["modules"]] == sorted(glob.glob("workloads/*/*.ptx")), "modules"
text = open(t + "/d.txt").read()
pat = (r"total: insts (\d+): affine stream (\d+), main stream (\d+) \(both (\d+), removed (\d+)\); "
       r"enq.data (\d+), enq.addr (\d+), enq.pred (\d+), recv.mask (\d+); global/local loads (\d+), "
       r"decoupled (\d+)")
tot = [tuple(map(int, x)) for x in re.findall(pat, text)]
keys = ["insts", "affine_stream", "main_stream", "both", "removed", "enq_data", "enq_addr",
        "enq_pred", "recv_mask", "loads_gl", "loads_gl_decoupled"]
assert tot == [tuple(m[k] for k in keys) for m in d["modules"]], "text totals"
for m in d["modules"]:
    for k in keys:
        assert m[k] == sum(f[k] for f in m["functions"]), (m["file"], k)
    for f in m["functions"]:
        l = f["list"]
        assert len(l) == f["insts"], (m["file"], f["name"])
        n = lambda s: sum(1 for i in l if i["streams"] in s)
        assert f["affine_stream"] == n(("affine", "both")) and f["main_stream"] == n(("main", "both"))
        assert f["removed"] == n(("affine",)) and f["both"] == n(("both",))
        for q in ("data", "addr", "pred"):
            assert f["enq_" + q] == sum(1 for i in l if i["enq"] == "enq." + q), (f["name"], q)
        ins = {i["pc"]: i for i in l}
        for i in l:
            # every deq has its enq on the same instruction, in both streams
            assert (i["enq"] != "") == (i["deq"] != ""), i
            assert i["enq"] == "" or i["streams"] == "both", i
            assert not (i["skip"] and i["streams"] != "main"), i
            if i["skip"] and f["affine_stream"]:
                r = i["resume"]
                assert 0 <= r <= f["insts"] and (r == f["insts"] or not ins[r]["skip"]), i
            if not f["entry"]:
                assert i["streams"] == "main", i
PY

out=$("$cli" check --dac --kernel vecadd vecadd); rc=$?
[ "$rc" = 0 ] && ! grep -q '^total' <<<"$out" && grep -q '^kernel vecadd' <<<"$out" \
  && ok "--kernel: that function, no module total" || bad "--kernel (exit $rc)"
"$cli" check --dac --kernel nosuch vecadd >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "--kernel with no such function: exit 2" || bad "--kernel nosuch: exit $rc"
"$cli" check --dac no-such-workload >/dev/null 2>"$tmp/e"; rc=$?
[ "$rc" = 2 ] && grep -q 'no workload has that name' "$tmp/e" \
  && ok "unknown module: exit 2 with the reason" || bad "unknown module: exit $rc"
"$cli" check --dac --bogus vecadd >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "unknown option: exit 2" || bad "unknown option: exit $rc"
"$cli" check --dac >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "no module: exit 2" || bad "no module: exit $rc"
printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n frob;\n}\n' > "$tmp/bad.ptx"
"$cli" check --dac "$tmp/bad.ptx" >/dev/null 2>"$tmp/e"; rc=$?
[ "$rc" = 2 ] && grep -q 'bad.ptx:6' "$tmp/e" && ok "parse error: exit 2 at file:line" \
  || { bad "parse error: exit $rc"; cat "$tmp/e" >&2; }

[ "$fail" = 0 ] && echo "dac: all passed" || { echo "dac: $fail failed" >&2; exit 1; }
