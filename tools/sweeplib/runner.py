"""Running points: one `lockstep run` per point, its stats JSON stored under
the point's key (OUT/points/KEY.json, the cache), or a failure record
(OUT/points/KEY.fail.json: status, exit code, command, stderr tail) that
never stops the other points. The local backend runs N at a time with a
progress line; a Slurm array task runs its slice with the same code."""
import concurrent.futures
import json
import os
import subprocess
import sys
import time

from . import points as pts
from . import programs as progs

TAIL_LINES = 20
TAIL_CHARS = 4000


def point_dir(out):
    """OUT/points, where results and failure records live."""
    return os.path.join(out, "points")


def stats_path(out, key):
    """The cached stats JSON of a point."""
    return os.path.join(point_dir(out), key + ".json")


def fail_path(out, key):
    """The failure record of a point."""
    return os.path.join(point_dir(out), key + ".fail.json")


def load_cached(out, p):
    """The cached stats object of point p, or None (absent, unreadable, not
    a passing run of p's workload)."""
    try:
        with open(stats_path(out, p["key"]), encoding="utf-8") as f:
            st = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(st, dict) or st.get("pass") is not True or \
            st.get("workload") != p["workload"]:
        return None
    return st


def _tail(text):
    lines = text.rstrip("\n").splitlines()[-TAIL_LINES:]
    return "\n".join(lines)[-TAIL_CHARS:]


def _write_json(path, obj):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def run_point(p, out, timeout=None, build_id=None):
    """Runs point p; stores its stats (a pass) or its failure record.
    Returns (status, wall_s): status "pass", "fail" (the run's result is
    wrong: exit 1), or "error" (anything else: a crash, a usage error, a
    timeout, a simulator that is not the one the sweep was made with)."""
    os.makedirs(point_dir(out), exist_ok=True)
    tmp = os.path.join(point_dir(out), f".{p['key']}.{os.getpid()}.{id(p)}.json")
    cmd = pts.command_line(p, stats_path(out, p["key"]))
    t0 = time.monotonic()
    rc, err, msg = None, "", ""
    if build_id is not None and pts.file_sha256(p["argv"][0]) != build_id:
        status, msg = "error", (f"{p['argv'][0]} is not the simulator this sweep was "
                                "expanded with (rebuilt since?): run the sweep again")
    elif p.get("kind") == "program":
        r = progs.run_point(p, out, tmp, timeout)
        status, msg, rc, err = r["status"], r["msg"], r["rc"], r["stderr_tail"]
        if status == "pass" and not os.path.isfile(tmp):
            status, msg = "error", "no statistics written"
    else:
        try:
            r = subprocess.run(p["argv"] + ["--stats-json", tmp], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=timeout)
            rc, err = r.returncode, r.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            err = (e.stderr or b"").decode("utf-8", "replace")
            msg = f"timed out after {timeout:g} s (spec timeout)"
        except OSError as e:
            msg = f"cannot run: {e.strerror}"
        st = None
        if rc is not None:
            try:
                with open(tmp, encoding="utf-8") as f:
                    st = json.load(f)
            except (OSError, ValueError):
                st = None
        if rc == 0 and isinstance(st, dict) and st.get("pass") is True:
            status = "pass"
        elif rc == 1:
            status = "fail"
            msg = (st or {}).get("msg") or "wrong result (exit 1)"
        else:
            status = "error"
            if rc is not None and not msg:
                msg = f"exit {rc}" if rc != 0 else "exit 0 but no passing stats JSON"
    wall = time.monotonic() - t0
    if status == "pass":
        os.replace(tmp, stats_path(out, p["key"]))
        try:
            os.unlink(fail_path(out, p["key"]))
        except FileNotFoundError:
            pass
    else:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        _write_json(fail_path(out, p["key"]), {
            "point": p["index"], "what": pts.describe(p), "status": status, "rc": rc,
            "msg": msg, "command": cmd, "stderr_tail": _tail(err),
            "wall_s": round(wall, 3)})
    return status, wall


def clear_results(out, todo):
    """Removes the results and failure records of the points about to run
    (--force: a rerun that fails must not leave the old pass behind)."""
    for p in todo:
        for path in (stats_path(out, p["key"]), fail_path(out, p["key"])):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def fmt_s(s):
    """Seconds as 1h02m, 3m05s or 12s."""
    s = int(round(s))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Progress:
    """`sweep NAME: done/total, F failed, ETA` on stream: redrawn in place
    on a terminal, else one line at most every `every` seconds."""

    def __init__(self, name, total, stream=None, every=10.0):
        self.name, self.total = name, total
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.t0 = time.monotonic()
        self.last = -1e9
        self.done = self.failed = 0
        self.drawn = None          # (done, failed) of the last line drawn

    def update(self, done, failed, force=False):
        """Records done/failed and draws the line when due (force: now)."""
        self.done, self.failed = done, failed
        now = time.monotonic()
        if not force and not self.tty and now - self.last < self.every:
            return
        self.last = now
        self.drawn = (done, failed)
        el = now - self.t0
        eta = "?" if done == 0 else fmt_s(el / done * (self.total - done))
        line = (f"sweep {self.name}: {done}/{self.total} done, {failed} failed, "
                f"elapsed {fmt_s(el)}, ETA {eta}")
        if self.tty:
            self.stream.write("\r" + line + "\x1b[K")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self):
        """The last line, unless it is already drawn (and a newline on a
        terminal)."""
        if self.tty or self.drawn != (self.done, self.failed):
            self.update(self.done, self.failed, force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def run_local(todo, out, jobs, timeout, progress):
    """Runs the points todo, jobs at a time. Returns {key: wall_s} of the
    points run; KeyboardInterrupt propagates after the running ones end."""
    clear_results(out, todo)
    walls, done, failed = {}, 0, 0
    progress.update(0, 0, force=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(run_point, p, out, timeout): p for p in todo}
        try:
            for f in concurrent.futures.as_completed(futs):
                status, wall = f.result()
                walls[futs[f]["key"]] = wall
                done += 1
                failed += status != "pass"
                progress.update(done, failed)
        except KeyboardInterrupt:
            ex.shutdown(wait=True, cancel_futures=True)
            raise
    progress.finish()
    return walls


def run_slice(todo, out, index, count, timeout, build_id, stream=None):
    """A Slurm array task: runs points todo[index::count] one after the
    other. Returns the number that did not pass."""
    stream = stream or sys.stdout
    bad = 0
    mine = todo[index::count]
    for i, p in enumerate(mine, 1):
        status, wall = run_point(p, out, timeout, build_id)
        bad += status != "pass"
        stream.write(f"[{i}/{len(mine)}] point {p['index']} {pts.describe(p)}: "
                     f"{status} ({wall:.2f} s)\n")
        stream.flush()
    return bad
