#!/usr/bin/env bash
# make equiv: every shipped parameter set of synth/shipped.txt proven equal
# to its RTL (synth/equiv.py), then every one-gate mutant of
# tests/gates/mutants.txt shown to fail both the proof (a counterexample
# that `lockstep replay` reproduces, exit 3) and a GPU run with the mutant
# netlist in the loop (exit 3).
#   tests/gates/equiv.sh LOCKSTEP [proofs|mutants|all]
# BLOCKS="a b" restricts the blocks; EQUIV_LIMIT=S is synth/equiv.py's
# --limit (ABC's wall seconds per proof). Results: one line each, and the
# summary build/equiv/summary-<proofs|mutants|all>.txt. Exit 1 when a set fails its proof or a
# mutant survives; an unproven set is named with the reason, not failed.
set -u
cli=${1:-build/lockstep}
what=${2:-all}
out=build/equiv
mkdir -p "$out"
sum=$out/summary-$what.txt
: > "$sum"
fail=0
want() { [ -z "${BLOCKS:-}" ] || echo " $BLOCKS " | grep -q " $1 "; }
run_set=(--config gtx480 --set lamar.gdu=bgp --set gscalar.compress=on
         --set simt.compaction=capri --set slp.permutation=balanced)
params_of() { sed 's/#.*//' synth/shipped.txt | awk -v b="$1" -v l="$2" '$1==b && $2==l {for (i=3;i<=NF;i++) printf "%s ", $i}'; }
now() { date +%s; }

if [ "$what" != mutants ]; then
  while read -r blk label params; do
    [ -n "$blk" ] || continue
    want "$blk" || continue
    # shellcheck disable=SC2086
    line=$(nice python3 synth/equiv.py ${EQUIV_LIMIT:+--limit "$EQUIV_LIMIT"} --out "$out/${blk}_$label" "$blk" "$label" $params)
    rc=$?
    echo "$line" | tee -a "$sum"
    [ $rc = 0 ] || [ $rc = 3 ] || fail=1
  done < <(sed 's/#.*//' synth/shipped.txt)
fi

if [ "$what" != proofs ]; then
  while read -r blk label port wl; do
    [ -n "$blk" ] || continue
    want "$blk" || continue
    params=$(params_of "$blk" "$label")
    nl=build/netlist/$blk
    for kv in $params; do nl="${nl}_${kv%%=*}${kv#*=}"; done
    # shellcheck disable=SC2046,SC2086
    bash synth/netlist.sh "$blk" "$nl" $(for kv in $params; do printf -- '-G%s ' "$kv"; done) >/dev/null ||
      { echo "FAIL mutant $blk: no netlist" | tee -a "$sum"; fail=1; continue; }
    md=$out/mutants/$blk
    mkdir -p "$md"
    mut=$(python3 synth/mutate.py "$nl/$blk.v" "$md/$blk.v" "$port") ||
      { echo "FAIL mutant $blk: synth/mutate.py found no gate for $port" | tee -a "$sum"; fail=1; continue; }
    t0=$(now)
    # shellcheck disable=SC2086
    eq=$(nice python3 synth/equiv.py ${EQUIV_LIMIT:+--limit "$EQUIV_LIMIT"} --netlist "$md/$blk.v" --out "$md/equiv" "$blk" "$label" $params)
    erc=$?
    rp="no counterexample"; rrc=-
    if [ $erc = 1 ] && [ -f "$md/equiv/cex.trace" ]; then
      "$cli" replay "$md/equiv/cex.trace" > "$md/replay.log" 2>&1
      rrc=$?
      rp="replay of the counterexample exit $rrc"
    fi
    t1=$(now)
    "$cli" run "$wl" --size small "${run_set[@]}" --cosim "$blk" --rtl "$blk=$md/$blk.v" \
      --fail-dir "$md/fail" > "$md/loop.log" 2>&1
    lrc=$?
    t2=$(now)
    first=$(grep -m1 -o 'MISMATCH [^(]*' "$md/loop.log" || true)
    if [ $erc = 1 ] && [ "$rrc" = 3 ] && [ $lrc = 3 ]; then verdict=caught; else verdict=SURVIVED; fail=1; fi
    {
      echo "mutant $blk ($mut): $verdict"
      echo "  proof: $eq"
      echo "  $rp; loop ($wl, small, netlist in the loop): exit $lrc${first:+, $first}; proof and replay $((t1 - t0)) s, loop $((t2 - t1)) s"
    } | tee -a "$sum"
  done < <(sed 's/#.*//' tests/gates/mutants.txt)
fi
echo "make equiv: $([ $fail = 0 ] && echo PASS || echo FAIL) (summary $sum)"
exit $fail
