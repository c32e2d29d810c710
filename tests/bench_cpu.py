"""CPU seconds of the runs tests/bench.sh timed (its Python steps import it)."""
import os


def _one(path):
    """user + sys seconds in a /usr/bin/time -f "%U %S" file, or None"""
    try:
        u, s = open(path).read().split()[-2:]
        return float(u) + float(s)
    except (OSError, ValueError):
        return None


def cpu_s(tmp, name):
    """Run name's CPU seconds: its name.cpu file, else the median of its
    rounds name.cpu.1, name.cpu.2, ...; None without /usr/bin/time."""
    single = _one(os.path.join(tmp, name + ".cpu"))
    if single is not None:
        return single
    v = []
    while True:
        x = _one(os.path.join(tmp, "%s.cpu.%d" % (name, len(v) + 1)))
        if x is None:
            break
        v.append(x)
    v.sort()
    return v[len(v) // 2] if v else None
