"""The source commit a results page is rendered at (every experiments/*.py
page states it)."""
import os
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# what a page's figures depend on: a change here since HEAD marks the page
SOURCE_PATHS = ("csim", "include", "experiments", "configs", "workloads")


def source_commit():
    """(short HEAD, source paths changed since it); ("unknown", []) outside
    a git checkout."""
    def git(*a):
        try:
            return subprocess.run(["git", "-C", ROOT] + list(a), capture_output=True,
                                  text=True).stdout.rstrip()
        except OSError:
            return ""
    head = git("rev-parse", "--short=12", "HEAD").strip() or "unknown"
    dirty = [ln[3:] for ln in git("status", "--porcelain", "--untracked-files=no",
                                  "--", *SOURCE_PATHS).splitlines()]
    return head, dirty


def commit_label():
    """HEAD's short hash, with + when a source path differs from it."""
    head, dirty = source_commit()
    return head + ("+" if dirty else "")
