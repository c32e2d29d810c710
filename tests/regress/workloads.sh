#!/usr/bin/env bash
# workloads.sh CLI: the workload regression suite (`make test-workloads`).
#  - every workload in every size (small, default, large) must PASS in
#    functional mode (timing mode: timing.sh, small size);
#  - --stats-json must be valid JSON with the documented keys, one object
#    per workload, every "pass" true and the names = `lockstep list workloads`;
#  - each workload stays within its size's thread-instruction budget
#    (small 2M, default 20M, large 100M) so the suite stays fast;
#  - the same seed gives the same statistics;
#  - a bad workload name, a bad option and a bad value exit with status 2
#    and a message; `check` reports PTX errors as file:line:col with status 2.
set -u
cli=${1:?usage: workloads.sh path/to/lockstep}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-wl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }

names=$("$cli" list workloads) || bad "list workloads exited $?"
nwl=$(echo "$names" | grep -c .)
[ "$nwl" -gt 0 ] && ok "list workloads: $nwl workloads" || bad "list workloads is empty"

# JSON check: valid, a list of n objects with the keys, all passing.
check_json() {   # file expected-count size
  python3 -m json.tool "$1" >/dev/null 2>&1 || { bad "$1 is not valid JSON"; return 1; }
  python3 - "$1" "$2" "$3" "$names" <<'PY' || { bad "$1: content check failed"; return 1; }
import json, sys
path, n, size, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
d = json.load(open(path))
if isinstance(d, dict):
    d = [d]
keys = ["schema", "workload", "size", "seed", "mode", "config", "pass",
        "warp_insts", "thread_insts", "simd_util", "divergent_branches",
        "max_stack_depth", "nlaunches", "launches", "mem_digest", "sim"]
errs = []
if len(d) != n:
    errs.append("%d objects, want %d" % (len(d), n))
for o in d:
    for k in keys:
        if k not in o:
            errs.append("%s: no key %s" % (o.get("workload"), k))
    for k in ("wall_s", "thread_insts_per_s", "warp_insts_per_s"):
        if k not in o.get("sim", {}):
            errs.append("%s: no key sim.%s" % (o.get("workload"), k))
    if o.get("pass") is not True:
        errs.append("%s: pass is %r" % (o.get("workload"), o.get("pass")))
    if o.get("size") != size:
        errs.append("%s: size %r" % (o.get("workload"), o.get("size")))
    if not o.get("thread_insts", 0) > 0 or not o.get("nlaunches", 0) > 0:
        errs.append("%s: no instructions or launches recorded" % o.get("workload"))
    if o.get("schema") != 1:
        errs.append("%s: schema %r, want 1" % (o.get("workload"), o.get("schema")))
    ls = o.get("launches", [])
    if len(ls) != o.get("nlaunches") or \
       sum(l.get("thread_insts", 0) for l in ls) != o.get("thread_insts"):
        errs.append("%s: per-launch objects do not add up to the total" % o.get("workload"))
    budget = {"small": 2e6, "default": 20e6, "large": 100e6}[size]
    if o.get("thread_insts", 0) > budget:
        errs.append("%s: %d thread insts, over the %s budget of %d (docs/workloads.md)"
                    % (o.get("workload"), o["thread_insts"], size, budget))
    if not 0 < (o.get("simd_util") or 0) <= 1:
        errs.append("%s: simd_util %r outside (0, 1]" % (o.get("workload"), o.get("simd_util")))
if n == len(names) and sorted(o.get("workload") for o in d) != sorted(names):
    errs.append("workload names differ from `lockstep list workloads`")
for e in errs:
    print("  " + e, file=sys.stderr)
sys.exit(1 if errs else 0)
PY
}

# WL_SIZES narrows the sizes (make test-asan: small; the sanitizers make
# the large inputs slow without finding more)
for size in ${WL_SIZES:-small default large}; do
  out=$tmp/run-$size.txt
  start=$(date +%s)
  "$cli" run all --size "$size" --mode functional --stats-json "$tmp/$size.json" >"$out" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ "$rc" != 0 ] || grep -q '^ *FAIL' "$out"; then
    bad "run all --size $size (exit $rc, ${secs}s):"
    grep '^ *FAIL' "$out" >&2 || tail -5 "$out" >&2
  else
    ok "run all --size $size: $(grep -c '^PASS' "$out") workloads passed (${secs}s)"
  fi
  check_json "$tmp/$size.json" "$nwl" "$size" && ok "stats JSON ($size)"
done

# One workload gives one JSON object; the same seed gives the same figures.
first=$(echo "$names" | head -1)
for i in 1 2; do
  "$cli" run "$first" --size small --seed 7 --stats-json "$tmp/one$i.json" >/dev/null 2>&1 \
    || bad "run $first --seed 7 (try $i) failed"
done
python3 - "$tmp/one1.json" "$tmp/one2.json" <<'PY' && ok "run $first: one JSON object, reproducible for a seed" || bad "run $first: JSON not an object or not reproducible"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert isinstance(a, dict) and a["seed"] == 7
for k in ("warp_insts", "thread_insts", "divergent_branches", "max_stack_depth", "nlaunches"):
    assert a[k] == b[k], k
PY

# Usage errors: status 2 and a message on stderr.
expect2() {   # description, then the command
  local what=$1; shift
  "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  if [ "$rc" = 2 ] && [ -s "$tmp/e" ]; then ok "$what: exit 2: $(head -1 "$tmp/e")"
  else bad "$what: exit $rc, stderr '$(head -1 "$tmp/e")' (want 2 and a message)"; fi
}
expect2 "unknown workload" "$cli" run no_such_workload
expect2 "unknown option"   "$cli" run "$first" --no-such-option
expect2 "bad --size"       "$cli" run "$first" --size huge
expect2 "bad --seed"       "$cli" run "$first" --seed x12
expect2 "missing value"    "$cli" run "$first" --seed
expect2 "unknown command"  "$cli" frobnicate
expect2 "no arguments"     "$cli"
expect2 "bad list"         "$cli" list nothing
# xlarge exists for the four workloads wl_has_xlarge names: the others
# fail (status 1) with the reason, not with large's input under its name.
"$cli" run "$first" --size xlarge >"$tmp/o" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "has no xlarge input" "$tmp/o" \
  && ok "--size xlarge without an xlarge input: exit 1: $(grep -m1 'no xlarge' "$tmp/o")" \
  || bad "--size xlarge on $first: exit $rc (want 1 and 'has no xlarge input')"
# A run that cannot deliver its statistics is a failing run: status 1.
"$cli" run "$first" --size small --stats-json "$tmp/no/such/dir/x.json" >/dev/null 2>"$tmp/e"
rc=$?
[ "$rc" = 1 ] && [ -s "$tmp/e" ] && ok "unwritable --stats-json: exit 1: $(head -1 "$tmp/e")" \
  || bad "unwritable --stats-json: exit $rc (want 1 and a message)"
"$cli" --help >/dev/null && ok "--help" || bad "--help exited $?"
"$cli" --version | grep -q '^lockstep [0-9]' && ok "--version" || bad "--version"

# check: a good file passes; a malformed one names file:line:col, status 2.
good=$(ls "$(dirname "$0")"/../../workloads/*/*.ptx 2>/dev/null | head -1)
if [ -n "$good" ]; then
  "$cli" check "$good" >/dev/null 2>"$tmp/e" && ok "check $good" \
    || bad "check $good: $(head -1 "$tmp/e")"
fi
printf '.version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry k()\n{\n\tfrobnicate.u32 %%r1, 3;\n\tret;\n}\n' >"$tmp/bad.ptx"
"$cli" check "$tmp/bad.ptx" >/dev/null 2>"$tmp/e"
rc=$?
if [ "$rc" = 2 ] && grep -Eq "^$tmp/bad.ptx:7:[0-9]+: error:" "$tmp/e"; then
  ok "check bad.ptx: $(head -1 "$tmp/e")"
else
  bad "check bad.ptx: exit $rc, '$(head -1 "$tmp/e")' (want 2 and bad.ptx:7:col: error:)"
fi
expect2 "check missing file" "$cli" check "$tmp/missing.ptx"

# measured categories (make workload-table): every workload measured, the
# @category selections agree with workloads/categories.tsv, --long lists all
missing=""
for w in $names; do
  grep -q "^$w	" workloads/categories.tsv || missing="$missing $w"
done
[ -z "$missing" ] && ok "every workload has a measured row in workloads/categories.tsv" \
  || bad "not measured (run make workload-table and commit it):$missing"
for c in divergent non-divergent fg cg; do
  col=10; want=$c
  case $c in fg) col=11; want=FG ;; cg) col=11; want=CG ;; esac
  exp=$(awk -F'\t' -v c=$col -v w="$want" 'NR > 2 && $c == w {print $1}' workloads/categories.tsv | sort | tr '\n' ' ')
  got=$("$cli" run "@$c" --size small --mode functional --stats-json - 2>/dev/null |
        python3 -c "import json,sys; d=json.load(sys.stdin); d=d if isinstance(d,list) else [d]; print(' '.join(sorted(o['workload'] for o in d)) + ' ')" 2>/dev/null)
  [ -n "$exp" ] && [ "$got" = "$exp" ] && ok "run @$c: $(echo $exp | wc -w) workloads, as categories.tsv says" \
    || bad "run @$c ran '$got', categories.tsv says '$exp'"
  lst=$("$cli" list workloads "@$c" | sort | tr '\n' ' ')
  [ "$lst" = "$exp" ] && ok "list workloads @$c: the same names" \
    || bad "list workloads @$c printed '$lst', categories.tsv says '$exp'"
done
"$cli" run @nosuch >/dev/null 2>&1; [ $? = 2 ] && ok "run @nosuch: exit 2" || bad "run @nosuch"
"$cli" list workloads @nosuch >/dev/null 2>&1; [ $? = 2 ] && ok "list workloads @nosuch: exit 2" \
  || bad "list workloads @nosuch"
nlong=$("$cli" list workloads --long | grep -c -v '^workload \|^measured:')
[ "$nlong" = "$nwl" ] && ok "list workloads --long: $nlong rows" || bad "list --long: $nlong rows, want $nwl"

if [ "$fail" = 0 ]; then echo "test-workloads: all checks passed"; else echo "test-workloads: $fail checks FAILED" >&2; fi
[ "$fail" = 0 ]
