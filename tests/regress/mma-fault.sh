#!/usr/bin/env bash
# mma-fault.sh DIR: DIR holds test_ptx_mma and test_nv_wmma built with
# -DLS_FAULT_MMA_TRANSPOSE (the mma.sync A fragment and the wmma B
# fragment read transposed). Both must fail, each naming a wrong element;
# if either passes, its checks cannot see a transposed fragment mapping.
set -u
dir=${1:?usage: mma-fault.sh DIR}
fail=0
for t in test_ptx_mma test_nv_wmma; do
  out=$("$dir/$t" 2>&1)
  if [ $? = 0 ]; then
    echo "FAIL mma-fault: $t passed with transposed fragments" >&2; fail=1
  elif ! grep -q "got 0x" <<<"$out"; then
    echo "FAIL mma-fault: $t failed without naming a wrong element:" >&2
    echo "$out" | tail -5 >&2; fail=1
  else
    echo "ok   mma-fault: $t fails with transposed fragments ($(grep -c 'got 0x' <<<"$out") wrong values reported)"
  fi
done
exit $fail
