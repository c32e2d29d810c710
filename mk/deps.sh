#!/usr/bin/env bash
# Installs the Debian packages the build and tests need; does nothing when
# every one is already present. Called by `make deps`; `mk/deps.sh plot`
# adds matplotlib (results plots), `mk/deps.sh slurm` Slurm and munge
# (make test-slurm).
set -eu
pkgs="build-essential make gcc g++ clang libclang-rt-14-dev verilator yosys libcmocka-dev python3 valgrind ccache"
for group in "$@"; do
  case $group in
    plot)  pkgs="$pkgs python3-matplotlib" ;;
    slurm) pkgs="$pkgs slurm-wlm munge" ;;
    *) echo "deps: unknown group '$group' (plot, slurm)" >&2; exit 2 ;;
  esac
done
find_missing() {
  missing=""
  for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
}
find_missing
[ -z "$missing" ] && exit 0
# make -j runs several test groups that may each install a group: one
# apt-get at a time (the lock is dpkg's too), then look again
exec 9>"${TMPDIR:-/tmp}/lockstep-deps.lock"
flock 9
find_missing
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
