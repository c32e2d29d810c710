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
import threading
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
    if opts.wait:
        argv.append("--wait")
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
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise SweepError(f"{opts.sbatch}: cannot run ({e.strerror}): is Slurm installed "
                         "on this machine?") from None
    # sbatch --parsable prints the job id at once, then (--wait) blocks
    jobid = proc.stdout.readline().strip().split(";")[0]
    if not jobid:
        rc = proc.wait()
        err = proc.stderr.read().strip()
        raise SweepError(f"sbatch refused the job (exit {rc}): {err}\n"
                         f"  command: {shlex.join(argv)}")
    sys.stderr.write(f"sweep {name}: submitted job array {jobid} ({len(todo)} points, "
                     f"{ntasks} tasks); logs in {sd}\n")
    if not opts.wait:
        return jobid
    done_ev = threading.Event()
    err_lines = []

    def drain():
        err_lines.extend(proc.stderr.read().splitlines())
        done_ev.set()
    threading.Thread(target=drain, daemon=True).start()
    while proc.poll() is None:
        progress.update(*_count(out, todo))
        time.sleep(1.0)
    done_ev.wait(5)
    progress.update(*_count(out, todo), force=True)
    progress.finish()
    if proc.returncode != 0:
        # a task that ran a failing point exits 1: the table says which
        sys.stderr.write(f"sweep {name}: job {jobid} ended with sbatch exit "
                         f"{proc.returncode}" + (": " + " ".join(err_lines[-3:])
                                                 if err_lines else "") + "\n")
    return jobid


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
