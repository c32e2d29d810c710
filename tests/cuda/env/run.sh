#!/usr/bin/env bash
# tests/cuda/env/run.sh CLI (make test-cuda-env): every LOCKSTEP_* variable
# build/libcudart.so.13 reads (docs/cuda-programs.md, "Environment"), on a
# CUDA host program built without nvcc (host.c: a hand-made fat binary of
# the committed collatz.ptx, linked to the library directly).
#   LOCKSTEP_COSIM=all  every block of the GPU loop in lockstep with its RTL,
#                       each under the mechanism that clocks it; a list, none,
#                       an unknown name, LOCKSTEP_SET winning over it
#   LOCKSTEP_MODE, LOCKSTEP_CONFIG, LOCKSTEP_SET (with a continued value),
#   LOCKSTEP_STATS (file and -), LOCKSTEP_QUIET (1 and 0), bad values
# Every checker is shown to fail on the output of a run that lacks what it
# checks (the baseline run without the variable).
set -u
cli=${1:?usage: run.sh CLI}
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "$cli")" && pwd)
out=$bin/cuda-env
mkdir -p "$out"
ptx=$here/collatz.ptx
fails=0
n=0
fail() { echo "FAIL cuda-env: $*"; fails=$((fails + 1)); }

host=$out/host
if ! [ -x "$host" ] || [ "$here/host.c" -nt "$host" ] || [ "$bin/libcudart.so.13" -nt "$host" ]; then
  "${CC:-gcc}" -std=c11 -O1 -o "$host" "$here/host.c" -L"$bin" -l:libcudart.so.13 \
    -Wl,-rpath,"$bin" || { echo "FAIL cuda-env: host.c did not build"; exit 1; }
fi

# go NAME VAR=VALUE...: runs the program with only those LOCKSTEP_*
# variables and LOCKSTEP_STATS=$out/NAME.json unless given; output in
# $out/NAME.{out,err,rc}
go() {
  local name=$1; shift
  n=$((n + 1))
  env -u LOCKSTEP_CONFIG -u LOCKSTEP_MODE -u LOCKSTEP_SET -u LOCKSTEP_COSIM \
      -u LOCKSTEP_STATS -u LOCKSTEP_QUIET LOCKSTEP_STATS="$out/$name.json" "$@" \
      "$host" "$ptx" > "$out/$name.out" 2> "$out/$name.err"
  echo $? > "$out/$name.rc"
}

# check CASE NAME [ARG]: the checker CASE on run NAME's output; 0 = holds
check() {
  python3 - "$1" "$out/$2" "${3:-}" <<'EOF'
import json, sys
case, base, arg = sys.argv[1], sys.argv[2], sys.argv[3]
rc = int(open(base + ".rc").read())
out, err = open(base + ".out").read(), open(base + ".err").read()
def stats():
    try:
        return json.load(open(base + ".json"))
    except (OSError, ValueError):
        return None
j = stats()
ok = rc == 0 and "PASS collatz" in out and j is not None
why = "exit %d, %s" % (rc, (out + err).strip().splitlines()[:2])
if case == "plain":          # the run and its JSON (LOCKSTEP_STATS)
    ok = ok and j["workload"] == "host" and j["category"] == "cuda" and j["pass"] \
        and j["nlaunches"] == 1 and j["launches"][0]["kernel"] == "collatz" \
        and j["mode"] == "timing" and j["config"] == "builtin" and j["cycles"] > 0
elif case == "summary":      # the exit summary on stderr
    ok = ok and "lockstep: host: 1 kernel, 1 launch" in err
elif case == "quiet":
    ok = ok and "lockstep:" not in err and "cosim " not in err
elif case == "stdout":       # LOCKSTEP_STATS=-: the JSON after the program's lines
    try:
        j = json.loads(out[out.index("PASS collatz\n") + 13:])
        ok = rc == 0 and j["workload"] == "host"
    except ValueError:
        ok = False
elif case == "functional":
    ok = ok and j["mode"] == "functional" and j["cycles"] == 0 and j["warp_insts"] > 0
elif case == "config":       # arg: "NAME SMS"
    name, sms = arg.split()
    ok = ok and j["config"] == name and ("sms %s\n" % sms) in out
elif case == "sms":
    ok = ok and ("sms %s\n" % arg) in out
elif case == "checks":       # LOCKSTEP_SET=check=racecheck,synccheck
    ok = ok and j.get("checks", {}).get("enabled") == ["memcheck", "racecheck", "synccheck"]
elif case == "cosim":        # arg: the blocks that must be in lockstep
    want = arg.split(",")
    c = j["cosim"] if ok else {}
    ok = ok and all(b in c and c[b]["backend"] == "lockstep" and c[b]["instances"] > 0
                    and c[b]["cycles"] > 0 and c[b]["transactions"] > 0
                    and c[b]["mismatches"] == 0 for b in want) \
        and all(v["backend"] != "lockstep" for b, v in c.items() if b not in want)
    why += ", cosim %s" % {b: (v["backend"], v["cycles"]) for b, v in c.items()}
elif case == "refused":      # arg: what stderr must say; every CUDA call fails
    ok = rc == 1 and "initialization error" in out and arg in err
else:
    ok, why = False, "unknown case " + case
if not ok:
    print(why)
sys.exit(0 if ok else 1)
EOF
}

# expect CASE NAME [ARG]: the check must hold
expect() { local m; m=$(check "$@") || fail "$2: $1${3:+ ($3)}: $m"; }
# refute CASE NAME [ARG]: an injected fault: the check must fail on NAME
refute() { check "$@" > /dev/null && fail "the $1 check cannot fail (it passed on run $2)"; }

blocks=capt,wcu,slp,rvc_comp,bgp,rvc_decomp
mech=lamar.gdu=bgp,gscalar.compress=on,simt.compaction=capri
fx_sms=$("$cli" config --config fx5800 --dump | sed -n 's/^num_sms *= *\([0-9]*\).*/\1/p')

go plain
go quiet LOCKSTEP_QUIET=1
go quiet0 LOCKSTEP_QUIET=0
go stdout LOCKSTEP_STATS=-
go functional LOCKSTEP_MODE=functional
go timing LOCKSTEP_MODE=timing
go config LOCKSTEP_CONFIG=fx5800
go set LOCKSTEP_SET=num_sms=4
go checks LOCKSTEP_SET=check=racecheck,synccheck
go all LOCKSTEP_COSIM=all LOCKSTEP_SET=$mech
go slp LOCKSTEP_COSIM=slp LOCKSTEP_SET=$mech
go none LOCKSTEP_COSIM=none LOCKSTEP_SET=$mech,slp.backend=lockstep
go rvc LOCKSTEP_COSIM=rvc,capt LOCKSTEP_SET=$mech,capt.backend=c
go bad_mode LOCKSTEP_MODE=cycle
go bad_config LOCKSTEP_CONFIG=gtx999
go bad_set LOCKSTEP_SET=num_smz=4
go bad_cosim LOCKSTEP_COSIM=slp,xyz

expect plain plain
expect summary plain
expect quiet quiet
expect summary quiet0
expect stdout stdout
expect functional functional
expect plain timing
expect config config "fx5800 $fx_sms"
expect sms set 4
expect checks checks
expect cosim all $blocks
expect cosim slp slp
expect cosim none slp                       # LOCKSTEP_SET wins over the list
expect cosim rvc rvc_comp,rvc_decomp        # rvc names both; capt.backend=c wins
expect refused bad_mode "LOCKSTEP_MODE='cycle': expected functional or timing"
expect refused bad_config "unknown config 'gtx999'"
expect refused bad_set "unknown key 'num_smz'"
expect refused bad_cosim "LOCKSTEP_COSIM='slp,xyz': unknown block 'xyz'"

# injected faults: each checker on a run without what it checks
refute summary quiet
refute quiet plain
refute stdout plain
refute functional plain
refute config plain "fx5800 $fx_sms"
refute sms plain 4
refute checks plain
refute cosim slp $blocks                    # one block in lockstep, not all
refute cosim plain slp
refute refused plain "unknown key"

if [ "$fails" -gt 0 ]; then
  echo "test-cuda-env: $fails failed"
  exit 1
fi
echo "test-cuda-env: $n runs of a CUDA program built without nvcc: every LOCKSTEP_* variable, LOCKSTEP_COSIM=all with all 6 blocks in lockstep, bad values refused; every checker fails on an injected fault"
