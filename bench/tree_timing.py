# SPDX-License-Identifier: LGPL-2.1-or-later
"""The harness of bench/changes-time.py and bench/cycle-time.py: a tree
to time on, the runs of each tool in interleaved rounds, their wall and
CPU time, and the table of the medians.

Each round runs every side of every tool once, in turn, so that all see
the same machine; the first round is a warm-up, not counted.  On a
shared machine the CPU time (user + system of the child) is the steadier
figure.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

MED = statistics.median


def make_tree(root, files):
    """@files small files in directories of 100 under @root."""
    per = 100
    for i in range(files):
        d = os.path.join(root, "d%03d" % (i // per))
        if i % per == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "f%05d" % i), "wb") as f:
            f.write(b"content %08d\n" % i)


def arguments(doc, prefix):
    """The common options; returns (args, tools)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--files", type=int, default=100000)
    ap.add_argument("--dir")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--tool", action="append")
    ap.add_argument("--keep", help="work directory, kept")
    a = ap.parse_args()
    a.prefix = prefix
    tools = a.tool or [os.environ.get("XSTAT_TOOL", "./tools/xstat")]
    return a, tools


class Workdir:
    """The work directory and the tree: --dir, or --files made there
    (and left 1.1 s, past the racy window of a snapshot taken next).
    Removed at the end unless --keep."""

    def __init__(self, a):
        self.a = a
        self.base = a.keep or tempfile.mkdtemp(prefix=a.prefix)
        os.makedirs(self.base, exist_ok=True)
        if a.dir:
            self.root = os.path.abspath(a.dir)
        else:
            self.root = os.path.join(self.base, "tree")
            if not os.path.isdir(self.root):
                make_tree(self.root, a.files)
        time.sleep(1.1)

    def path(self, name):
        return os.path.join(self.base, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not self.a.keep:
            shutil.rmtree(self.base, ignore_errors=True)


def runnable(tool):
    """(program, environment) to run @tool: a libtool wrapper script
    (the build tree's tools/xstat) is run as the program it wraps, with
    the library path it would set, so that no shell's start is timed."""
    env = dict(os.environ)
    try:
        with open(tool, "rb") as f:
            head = f.read(16384).decode("latin-1")
    except OSError:
        return tool, env
    if not head.startswith("#!") or "libtool" not in head:
        return tool, env
    prog = libpath = None
    for line in head.splitlines():
        line = line.strip()
        if line.startswith("program='"):
            prog = line.split("'")[1]
        elif line.startswith('LD_LIBRARY_PATH="') and libpath is None:
            libpath = line.split('"')[1].replace(":$LD_LIBRARY_PATH", "")
    real = os.path.join(os.path.dirname(tool), ".libs", prog or "")
    if not prog or not libpath or not os.path.isfile(real):
        return tool, env
    old = env.get("LD_LIBRARY_PATH")
    env["LD_LIBRARY_PATH"] = libpath + (":" + old if old else "")
    return real, env


class Tool:
    """One build, and the times of its sides, round after round."""

    def __init__(self, path):
        self.path = path
        self.prog, self.env = runnable(path)
        self.wall = {}
        self.cpu = {}

    def run(self, args, out, side, counted=True):
        """Run with @args, stdout to @out, timed as @side if @counted;
        its exit status.  @out: None (ours), subprocess.DEVNULL, an open
        file, or the name of a file that the child opens with O_TRUNC
        itself, so that releasing the old file's pages is in the child's
        time, as it is for a tool that renames over its output (--save)."""
        acts = []
        if out is subprocess.DEVNULL:
            acts = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
        elif hasattr(out, "fileno"):
            acts = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1)]
        elif out is not None:
            acts = [(os.POSIX_SPAWN_OPEN, 1, out,
                     os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
        t0 = time.perf_counter()
        pid = os.posix_spawnp(self.prog, [self.prog] + args, self.env,
                              file_actions=acts)
        _, status, ru = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
        if counted:
            self.wall.setdefault(side, []).append(wall)
            self.cpu.setdefault(side, []).append(ru.ru_utime + ru.ru_stime)
        return os.waitstatus_to_exitcode(status)

    def total(self, times, sides):
        """Per round, the sum of @sides in @times (wall or cpu)."""
        return [sum(r) for r in zip(*(times[s] for s in sides))]


def interleave(tools, rounds, one_round):
    """one_round(tool, counted) for each tool in turn, rounds + 1 times;
    the first round (the warm-up) with counted False."""
    for rnd in range(rounds + 1):
        for t in tools:
            one_round(t, rnd > 0)


def header(entries, root, snap, rounds):
    print("%d entries (%s), snapshot %.1f MB, %d rounds, %d CPUs, "
          "load %.1f" % (entries, root, os.path.getsize(snap) / 1e6,
                         rounds, os.cpu_count(), os.getloadavg()[0]))


def ratio_row(t, num, den):
    """| tool | den wall | num wall | den CPU | num CPU | ratio median,
    min-max | CPU ratio median, min-max |: @num and @den lists of sides
    (summed per round)."""
    nw, dw = t.total(t.wall, num), t.total(t.wall, den)
    nc, dc = t.total(t.cpu, num), t.total(t.cpu, den)
    r = [a / b for a, b in zip(nw, dw)]
    rc = [a / b for a, b in zip(nc, dc)]
    return ("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f-%.3f | %.3f | "
            "%.3f-%.3f |" % (t.path, MED(dw), MED(nw), MED(dc), MED(nc),
                             MED(r), min(r), max(r), MED(rc), min(rc),
                             max(rc)))


def ratio_table(tools, num, den, num_name, den_name):
    print("| tool | %s (s) | %s (s) | %s CPU (s) | %s CPU (s) | ratio "
          "median | ratio min-max | CPU ratio median | CPU ratio min-max |"
          % (den_name, num_name, den_name, num_name))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in tools:
        print(ratio_row(t, num, den))
