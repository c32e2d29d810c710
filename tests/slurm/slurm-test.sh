#!/usr/bin/env bash
# make test-slurm: the small sweep (tests/sweep/small.toml) on a real
# one-node Slurm cluster started here, against the same sweep run locally.
#   usage: slurm-test.sh LOCKSTEP BASE     (BASE: build/slurm; root only)
# Starts munged (a generated key, its own socket), slurmctld and slurmd from
# tests/slurm/slurm.conf.in (this host, $(nproc) CPUs, free ports, state and
# spool under BASE), runs the sweep with --backend slurm (waiting on the
# array, then again with --no-wait and --collect), checks both merged
# tables equal the local one byte for byte and that every array task ran,
# and stops the daemons on any exit (trap). Needs slurm-wlm and munge
# (mk/deps.sh slurm).
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 LOCKSTEP BASE" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=$(readlink -f "$1")
base=$2
py=$(command -v /usr/bin/python3 || command -v python3)
t0=$(date +%s.%N)
fail=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
since() { "$py" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

[ "$(id -u)" = 0 ] || { echo "test-slurm: needs root (it starts munged, slurmctld, slurmd)" >&2; exit 1; }
for b in munged slurmctld slurmd sbatch squeue sinfo; do
  command -v "$b" >/dev/null || { echo "test-slurm: $b missing (bash mk/deps.sh slurm)" >&2; exit 1; }
done
[ -x "$cli" ] || { echo "test-slurm: no simulator at $1" >&2; exit 1; }

mkdir -p "$base"
base=$(readlink -f "$base")
# only our own daemons, by the pids they wrote; always, however we exit
stop() {
  for f in "$base/run/slurmd.pid" "$base/run/slurmctld.pid" "$base/munge/munged.pid"; do
    [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  for f in "$base/run/slurmd.pid" "$base/run/slurmctld.pid" "$base/munge/munged.pid"; do
    for _ in $(seq 50); do
      [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null || break
      sleep 0.1
    done
  done
}
trap stop EXIT
stop   # leftovers of an interrupted run
rm -rf "$base/state" "$base/spool" "$base/run" "$base/log" "$base/munge" "$base/out"
mkdir -p "$base/state" "$base/spool/slurmd.$(hostname -s)" "$base/run" "$base/log" "$base/munge" "$base/out"
chmod 700 "$base/munge"

# munge: a fresh key, a private socket
dd if=/dev/urandom of="$base/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$base/munge/munge.key"
munged --force --key-file="$base/munge/munge.key" --socket="$base/munge/munge.socket" \
  --pid-file="$base/munge/munged.pid" --log-file="$base/munge/munged.log" \
  --seed-file="$base/munge/munged.seed"

# slurm.conf: this host, its CPUs, two free ports
read -r p1 p2 < <("$py" -c "
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(('', 0))
print(*[s.getsockname()[1] for s in ss])")
mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
host=$(hostname -s)
sed -e "s|@HOST@|$host|g" -e "s|@CPUS@|$(nproc)|g" -e "s|@MEM@|$mem|g" \
    -e "s|@BASE@|$base|g" -e "s|@CTLD_PORT@|$p1|g" -e "s|@SLURMD_PORT@|$p2|g" \
    "$root/tests/slurm/slurm.conf.in" > "$base/slurm.conf"
export SLURM_CONF="$base/slurm.conf"
slurmctld -c
slurmd
state=""
for _ in $(seq 300); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.1
done
if [ "$state" != idle ]; then
  echo "test-slurm: node $host is '${state:-not there}' after 30 s; logs:" >&2
  tail -n 20 "$base/log/slurmctld.log" "$base/log/slurmd.log" >&2 || true
  exit 1
fi
t_up=$(since "$t0")
ok "cluster up in ${t_up} s: $host, $(nproc) CPUs, ports $p1/$p2"

cd "$root"
sweep() { "$py" tools/sweep.py tests/sweep/small.toml --lockstep "$cli" "$@"; }
t1=$(date +%s.%N)
sweep --out "$base/out/local" --jobs "$(nproc)" 2>"$base/log/local.err" \
  && ok "local sweep: $(tail -n 1 "$base/log/local.err")" \
  || { bad "local sweep failed:"; cat "$base/log/local.err"; }
t_local=$(since "$t1")

t2=$(date +%s.%N)
if sweep --out "$base/out/slurm" --backend slurm --partition test --time 5 --mem 200M \
     --array-tasks 6 --sbatch-opt=--job-name=lockstep-sweep-test 2>"$base/log/slurm.err"; then
  ok "slurm sweep: $(tail -n 1 "$base/log/slurm.err")"
else
  bad "slurm sweep failed:"; cat "$base/log/slurm.err"
  tail -n 20 "$base/log/slurmctld.log" "$base/log/slurmd.log" || true
fi
t_slurm=$(since "$t2")
ntask=$(ls "$base/out/slurm/slurm/" | grep -c '^task-.*\.out$' || true)
[ "$ntask" = 6 ] && ok "6 array tasks ran, each with its log" || bad "$ntask task logs, want 6"
grep -q -- "--array 0-5" "$base/out/slurm/slurm/sbatch.cmd" && ok "sbatch --array 0-5" \
  || bad "sbatch command: $(cat "$base/out/slurm/slurm/sbatch.cmd")"
npts=$(cat "$base"/out/slurm/slurm/task-*.out | grep -c ': pass (' || true)
[ "$npts" = 12 ] && ok "the tasks ran 12 points between them" || bad "tasks ran $npts points, want 12"

# --no-wait, then a later --collect once the array has left the queue
t3=$(date +%s.%N)
sweep --out "$base/out/nowait" --backend slurm --no-wait 2>"$base/log/nowait.err" \
  || { bad "slurm --no-wait failed:"; cat "$base/log/nowait.err"; }
job=$(sed -n 's/.*submitted job array \([0-9]*\).*/\1/p' "$base/log/nowait.err")
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.1
done
"$py" tools/sweep.py --collect "$base/out/nowait" 2>"$base/log/collect.err" \
  && ok "--no-wait job $job, then --collect: $(tail -n 1 "$base/log/collect.err")" \
  || { bad "--collect failed:"; cat "$base/log/collect.err"; }
t_nowait=$(since "$t3")

for d in slurm nowait; do
  for f in results.csv results.json; do
    if cmp -s "$base/out/local/$f" "$base/out/$d/$f"; then
      ok "$d: $f equals the local one"
    else
      bad "$d: $f differs from the local one:"
      diff "$base/out/local/$f" "$base/out/$d/$f" | head -n 20 || true
    fi
  done
done
# the comparison can fail: one changed cell is found
sed '3s/,pass,/,fail,/' "$base/out/slurm/results.csv" > "$base/out/tampered.csv"
cmp -s "$base/out/local/results.csv" "$base/out/tampered.csv" \
  && bad "a tampered table compared equal" || ok "a tampered table is told apart"

stop
trap - EXIT
echo "test-slurm: cluster up ${t_up} s, local sweep ${t_local} s, slurm sweep ${t_slurm} s," \
     "--no-wait + --collect ${t_nowait} s, total $(since "$t0") s"
if [ "$fail" = 0 ]; then echo "test-slurm: all checks passed"; else echo "test-slurm: checks FAILED" >&2; fi
[ "$fail" = 0 ]
