#!/usr/bin/env bash
# limits.sh CLI: inputs a user can hit (`make test-limits`): each must give a
# clear error naming the file, or a result, in bounded memory.
#   - 10^5 nested braces: an error (scopes nested too deeply), exit 2
#   - 10^6 kernels in one module: an error at the 65,536-function limit,
#     under 512 MB
#   - a 2 GB PTX file (sparse): refused before reading (256 MiB limit)
#   - a label used 10^5 times: parses (post-dominators of a 10^5-block
#     chain), under 512 MB
#   - control characters in PTX: the error shows them as \xNN
#   - a config file that is not text: an error naming the NUL byte
#   - Ctrl-C during a long run: the kernel in flight reports its statistics
#     so far, the JSON is written, exit 130; a second Ctrl-C exits at once
set -u
cli=${1:?usage: limits.sh path/to/lockstep}
out=build/test-limits
rm -rf "$out"
mkdir -p "$out"
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*" >&2; fail=$((fail + 1)); }
python3 - "$out" <<'PY'
import sys
o = sys.argv[1]
hdr = ".version 7.5\n.target sm_75\n.address_size 64\n"
open(f"{o}/nest.ptx", "w").write(hdr + ".visible .entry k()\n" + "{" * 100000 + " ret; " + "}" * 100000 + "\n")
open(f"{o}/labels.ptx", "w").write(hdr + ".visible .entry k()\n{\n.reg .pred %p;\nsetp.eq.u32 %p, 1, 1;\n$L:\n"
                                    + "@%p bra $L;\n" * 100000 + "ret;\n}\n")
with open(f"{o}/kernels.ptx", "w") as f:
    f.write(hdr)
    f.write("".join(".visible .entry k%d()\n{ ret; }\n" % i for i in range(1000000)))
open(f"{o}/ctl.ptx", "wb").write(b".version 7.5\n\x01\x02\n")
open(f"{o}/bin.conf", "wb").write(bytes(range(256)) * 4)
PY
truncate -s 2G "$out/big.ptx"
# run a command; print its exit status and peak RSS (MB) of the child
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True, text=True, errors="replace")
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
sys.stdout.write(f"{p.returncode} {rss}\n{p.stdout[-400:]}{p.stderr[-400:]}")
PY
}
check() {  # what, want-exit, max-MB, pattern, command...
  local what=$1 want=$2 mb=$3 pat=$4; shift 4
  measure "$@" >"$out/r.txt"
  read -r rc rss <"$out/r.txt"
  if [ "$rc" = "$want" ] && [ "$rss" -le "$mb" ] && grep -q -- "$pat" "$out/r.txt"; then
    ok "$what: exit $rc, peak $rss MB"
  else
    bad "$what: exit $rc (want $want), peak $rss MB (limit $mb)"; tail -3 "$out/r.txt" >&2
  fi
}
check "10^5 nested braces" 2 64 "nested too deeply" "$cli" check "$out/nest.ptx"
check "10^6 kernels" 2 512 "more than 65536 functions" "$cli" check "$out/kernels.ptx"
check "a 2 GB PTX file" 2 64 "larger than 256 MiB" "$cli" check "$out/big.ptx"
check "a label used 10^5 times" 0 512 "reconverges" "$cli" check "$out/labels.ptx"
check "control characters in PTX" 2 64 'unexpected character (\\x01)' "$cli" check "$out/ctl.ptx"
check "a binary config file" 2 64 "not a text config file (a NUL byte at offset 0)" \
  "$cli" run vecadd --config "$out/bin.conf"
rm -f "$out/big.ptx" "$out/kernels.ptx"
# Ctrl-C
"$cli" run all --size large --stats-json "$out/int.json" >"$out/int.txt" 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 130 ] && grep -q '^interrupted (Ctrl-C)' "$out/int.txt" && grep -q '^  interrupted .* so far [0-9]* cycles' "$out/int.txt" \
   && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); l=d[-1]['launches'][-1]; assert l['status']=='LS_ERR_INTERRUPTED' and l['cycles']>0" "$out/int.json"; then
  ok "Ctrl-C: exit 130, statistics so far of the kernel in flight, JSON written"
else
  bad "Ctrl-C: exit $rc"; tail -3 "$out/int.txt" >&2
fi
"$cli" run all --size large >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid; kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] && ok "a second Ctrl-C: exit 130 at once" || bad "second Ctrl-C: exit $rc"
[ $fail = 0 ] && echo "limits: all checks passed" || echo "limits: $fail checks failed"
[ $fail = 0 ]
