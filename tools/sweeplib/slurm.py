"""The Slurm backend: the points to run become one job array (`sbatch
--array=0-(T-1)`), task i running points i, i+T, i+2T, ... of the pending
list with `tools/sweep.py --task OUT --index i --count T`. The only shared
state is the output directory (OUT/sweep.json in, OUT/points/ out), so OUT
must be on a filesystem every node sees (as must the simulator and this
tool: the job names them by absolute path)."""
import os
import shlex
import subprocess
import sys
import time

from . import runner
from .points import SweepError

PENDING = "pending.json"


def slurm_dir(out):
    """OUT/slurm: the job script, the pending list, the task logs."""
    return os.path.join(out, "slurm")


def job_script(out, tool, python, ntasks):
    """The text of the batch script each array task runs."""
    return ("#!/bin/sh\n"
            "# written by tools/sweep.py --backend slurm: one task of the array runs\n"
            "# its slice of OUT/slurm/pending.json\n"
            f"exec {shlex.quote(python)} {shlex.quote(tool)} --task {shlex.quote(out)} "
            f"--index \"$SLURM_ARRAY_TASK_ID\" --count {ntasks}\n")


def sbatch_argv(opts, out, name, ntasks, script):
    """The sbatch command line: the array, the logs, --partition, --time,
    --mem when given, then every --sbatch-opt as it was written."""
    argv = [opts.sbatch, "--parsable", "--array", f"0-{ntasks - 1}",
            "--job-name", f"sweep-{name}",
            "--output", os.path.join(slurm_dir(out), "task-%A_%a.out")]
    if opts.partition:
        argv += ["--partition", opts.partition]
    if opts.time:
        argv += ["--time", opts.time]
    if opts.mem:
        argv += ["--mem", opts.mem]
    for o in opts.sbatch_opt or []:
        argv += shlex.split(o)
    return argv + [script]


def submit(todo, out, name, opts, tool, progress):
    """Submits todo as one job array; with opts.wait, waits for it while
    drawing progress from the results appearing in OUT/points. Returns the
    job id. Raises SweepError when sbatch refuses the job."""
    sd = slurm_dir(out)
    os.makedirs(sd, exist_ok=True)
    runner.clear_results(out, todo)
    ntasks = max(1, min(len(todo), opts.array_tasks))
    script = os.path.join(sd, "job.sh")
    with open(script, "w", encoding="utf-8") as f:
        f.write(job_script(out, tool, sys.executable, ntasks))
    os.chmod(script, 0o755)
    argv = sbatch_argv(opts, out, name, ntasks, script)
    with open(os.path.join(sd, "sbatch.cmd"), "w", encoding="utf-8") as f:
        f.write(shlex.join(argv) + "\n")
    try:
        r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as e:
        raise SweepError(f"{opts.sbatch}: cannot run ({e.strerror}): is Slurm installed "
                         "on this machine?") from None
    jobid = r.stdout.strip().split(";")[0] if r.returncode == 0 else ""
    if not jobid.isdigit():
        raise SweepError(f"sbatch refused the job (exit {r.returncode}): "
                         f"{(r.stderr or r.stdout).strip()}\n  command: {shlex.join(argv)}")
    sys.stderr.write(f"sweep {name}: submitted job array {jobid} ({len(todo)} points, "
                     f"{ntasks} tasks); logs in {sd}\n")
    if opts.wait:
        # squeue once a second (sbatch --wait polls every 10 s or so)
        errors = 0
        while True:
            progress.update(*_count(out, todo))
            state, err = _queued(opts.squeue, jobid)
            if state is False:
                break
            errors = 0 if state else errors + 1
            if errors >= 60:
                raise SweepError(f"squeue has failed for a minute: {err}; the job may "
                                 f"still run: collect later with --collect {out}")
            time.sleep(1.0)
        progress.done, progress.failed = _count(out, todo)
        progress.finish()
    return jobid


def _queued(squeue, jobid):
    """(True, None) while any task of the job is pending, running or
    completing; (False, None) when none is; (None, message) when squeue
    failed."""
    try:
        r = subprocess.run([squeue, "-h", "-j", jobid, "-o", "%i %T"],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as e:
        return None, e.strerror
    if r.returncode == 0:
        return bool(r.stdout.strip()), None
    if "Invalid job id" in r.stderr:     # purged from the controller: long done
        return False, None
    return None, r.stderr.strip() or f"exit {r.returncode}"


def _count(out, todo):
    """(done, failed) among todo, from the files in OUT/points."""
    done = failed = 0
    for p in todo:
        if os.path.exists(runner.fail_path(out, p["key"])):
            done += 1
            failed += 1
        elif os.path.exists(runner.stats_path(out, p["key"])):
            done += 1
    return done, failed
