# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.distributed against xstat -r, side by side in one run
(bench/dask-run.sh sets it up; see it for the knobs).

  dask-bench.py local TREE...       each TREE: the records compared with
                                    xstat -r --json, scan times, the
                                    measured per-task and per-entry costs
  dask-bench.py cpu ROUNDS TREE...  each TREE: CPU per entry of xstat -r
                                    --json against python3 -m
                                    libxstat.distributed --local 2 (the
                                    whole run less the same over an empty
                                    directory; the tasks' own), ROUNDS
                                    interleaved rounds, medians
  dask-bench.py fuse MOUNTPOINT T1,T2.. LATFS ARGS...
                                    LATFS ARGS mounted afresh for each
                                    run: files/s of 1 and 4 worker
                                    processes (T1, T2... threads each) and
                                    of xstat -r --threads=N for each N

Every worker process runs on this machine: a multi-node cluster emulated,
all of them clients of the same kernel and the same FUSE server.
"""

import atexit
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import dask
from distributed import Client, LocalCluster

from libxstat import distributed as xd

TOOL = os.environ["XSTAT_TOOL"]
KS = [int(k) for k in
      os.environ.get("XD_TOOL_THREADS", "1 4 16 32 64").split()]


def tool_lines(root, threads=None, cpu=None):
    cmd = [TOOL, "-r", "--json"]
    if threads:
        cmd.append(f"--threads={threads}")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd + [root], capture_output=True).stdout
    t = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return t, out.splitlines()


def _cpu_seconds():
    t = os.times()
    return t.user + t.system


def cluster_cpu(client):
    """CPU seconds of the workers and of this process (the client and
    LocalCluster's scheduler)."""
    return sum(client.run(_cpu_seconds).values()) + _cpu_seconds()


# The workers' space (lock files, spilled data): the run's own, removed
# at its end, not a dask-worker-space left in /tmp.
SPACE = tempfile.mkdtemp(prefix="xstat-dask-bench-space.")
atexit.register(shutil.rmtree, SPACE, True)
dask.config.set({"temporary-directory": SPACE})


def cluster(workers, threads):
    t0 = time.perf_counter()
    c = LocalCluster(n_workers=workers, threads_per_worker=threads,
                     processes=True, dashboard_address=":0",
                     local_directory=SPACE)
    client = Client(c)
    return c, client, time.perf_counter() - t0


def dask_scan(client, root, out_dir, batch=None):
    subprocess.run(["rm", "-rf", out_dir])
    s, _ = xd.run(root, client, out=out_dir, batch=batch)
    lines = []
    for p in s.parts:
        with open(os.path.join(out_dir, p), "rb") as f:
            lines.extend(f.read().splitlines())
    return s, lines


def local(trees):
    tmp = os.environ.get("TMPDIR", "/tmp")
    out_dir = os.path.join(tmp, "xstat-dask-bench.out")
    for root in trees:
        tool_lines(root)                        # atimes settled
        t_tool, ref = tool_lines(root)
        t_tool1, _ = tool_lines(root, threads=1)
        print(f"## {root}: {len(ref)} entries")
        print(f"xstat -r (4 threads)  {t_tool:7.2f} s")
        print(f"xstat -r --threads=1  {t_tool1:7.2f} s")
        for n in (1, 2, 4):
            c, client, up = cluster(n, 1)
            try:
                s, lines = dask_scan(client, root, out_dir)
                same = sorted(lines) == sorted(ref)
                print(f"dask {n} worker(s)     {s.elapsed:7.2f} s  "
                      f"x{s.elapsed / t_tool:.1f} of xstat -r  "
                      f"start-up {up:.2f} s  tasks {s.tasks} for "
                      f"{s.dirs} dirs  task {s.per_task_s * 1e3:.2f} ms  "
                      f"entry {s.per_entry_s * 1e6:.1f} us  worth a task "
                      f"{s.worth_a_task} entries  "
                      f"{'same records' if same else 'RECORDS DIFFER'}")
                if n == 2:
                    for batch in (1, 100000):
                        s, _ = dask_scan(client, root, out_dir, batch)
                        print(f"  --batch {batch:<6}          "
                              f"{s.elapsed:7.2f} s  tasks {s.tasks}")
            finally:
                client.close()
                c.close()
        sys.stdout.flush()
    subprocess.run(["rm", "-rf", out_dir])


def _rusage_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed_cpu(cmd, stdout):
    """CPU seconds of @cmd and of every process it waited for, and its
    standard error."""
    c0 = _rusage_children()
    p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE,
                       check=True)
    return _rusage_children() - c0, p.stderr.decode()


_SUMMARY = re.compile(r"(\d+) entries, (?:.*tasks' CPU ([\d.]+) s)?")


def _cpu_row(name, cpu, entries, against=None, note=""):
    """A row: median CPU seconds, per entry, and the median of the
    per-round ratios to @against."""
    line = (f"{name:<32} {_median(cpu):6.2f} s  "
            f"{_median(cpu) / entries * 1e6:6.2f} us/entry")
    if against:
        line += (f"  x{_median([c / a for c, a in zip(cpu, against)]):.2f}"
                 f" of xstat -r{note}")
    print(line)


def _median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def cpu(rounds, trees):
    """CPU per entry, the tool's and a --local 2 scan's, in interleaved
    rounds (each starting at another command); both write their records
    to files in one temporary directory."""
    tmp = tempfile.mkdtemp(prefix="xstat-dask-cpu.")
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    py = [sys.executable, "-m", "libxstat.distributed", "--local", "2",
          "-q", "--out"]
    try:
        for root in trees:
            tool_lines(root)                    # atimes settled
            out = os.path.join(tmp, "tool.jsonl")
            rows = {"tool": [], "whole": [], "empty": [], "tasks": []}
            entries = 0

            def tool():
                with open(out, "wb") as f:
                    c, _ = _timed_cpu([TOOL, "-r", "--json", root], f)
                rows["tool"].append(c)

            def command(which, path):
                nonlocal entries
                parts = os.path.join(tmp, "parts")
                shutil.rmtree(parts, ignore_errors=True)
                c, err = _timed_cpu(py + [parts, path], subprocess.DEVNULL)
                rows[which].append(c)
                m = _SUMMARY.search(err)
                if which == "whole" and m:
                    entries = int(m.group(1))
                    # an earlier version's summary may not say it
                    if m.group(2):
                        rows["tasks"].append(float(m.group(2)))
            steps = [tool, lambda: command("whole", root),
                     lambda: command("empty", empty)]
            for r in range(rounds):
                for i in range(len(steps)):
                    steps[(r + i) % len(steps)]()
            scan = [w - e for w, e in zip(rows["whole"], rows["empty"])]
            tool_s = _median(rows["tool"])
            print(f"## {root}: {entries} entries, {rounds} interleaved "
                  f"rounds, medians (CPU = user + system)")
            _cpu_row("xstat -r --json", rows["tool"], entries)
            _cpu_row("--local 2, whole run", rows["whole"], entries)
            _cpu_row("--local 2, empty directory", rows["empty"], entries)
            _cpu_row("--local 2, whole - empty", scan, entries,
                     rows["tool"])
            if rows["tasks"]:
                _cpu_row("--local 2, the tasks' own", rows["tasks"],
                         entries, rows["tool"], " (target <= 1.5)")
            print(f"  per round (s): tool "
                  f"{' '.join(f'{c:.2f}' for c in rows['tool'])}; tasks "
                  f"{' '.join(f'{c:.2f}' for c in rows['tasks'])}; whole "
                  f"- empty {' '.join(f'{c:.2f}' for c in scan)}; "
                  f"tool median {tool_s:.2f}")
            sys.stdout.flush()
    finally:
        shutil.rmtree(tmp)


class Mount:
    """A fresh latfs mount for each run: the kernel's name and attribute
    cache starts cold, as on a client that has not seen the tree."""

    def __init__(self, cmd, mnt):
        self.cmd, self.mnt = cmd, mnt

    def __enter__(self):
        subprocess.run(self.cmd + [self.mnt], check=True)
        return self.mnt

    def __exit__(self, *exc):
        subprocess.run(["fusermount3", "-u", self.mnt], check=True)


def fuse(mnt, threads, latfs):
    """files/s over latfs of xstat -r --threads=N (each N of KS) and of
    W worker processes (each W of $XD_WORKERS) x T threads (each T of
    @threads), in $XD_ROUNDS interleaved rounds, each run on a fresh
    mount; medians."""
    tmp = os.environ.get("TMPDIR", "/tmp")
    out_dir = os.path.join(tmp, "xstat-dask-bench.out")
    workers = [int(w) for w in os.environ.get("XD_WORKERS", "1 4").split()]
    rounds = int(os.environ.get("XD_ROUNDS", "1"))
    with Mount(latfs, mnt):
        t, ref = tool_lines(mnt, threads=64)
    n = len(ref)
    print(f"## latfs {' '.join(latfs[1:])}: {n} entries, a fresh mount "
          f"for each run; files/s = entries / scan time; {rounds} "
          f"interleaved round(s), medians")
    results = {}

    def tool(k):
        cpu = []
        with Mount(latfs, mnt):
            t, lines = tool_lines(mnt, threads=k, cpu=cpu)
        return len(lines) / t, cpu[0] / n, t, ""

    def dask(w, per_worker):
        c, client, up = cluster(w, per_worker)
        try:
            with Mount(latfs, mnt):
                c0 = cluster_cpu(client)
                s, lines = dask_scan(client, mnt, out_dir)
                used = cluster_cpu(client) - c0
                # each mount has a device number of its own
                _, ref = tool_lines(mnt, threads=64)
        finally:
            client.close()
            c.close()
        same = sorted(lines) == sorted(ref)
        return (s.entries / s.elapsed, used / n, s.elapsed,
                f"start-up {up:.2f} s  tasks {s.tasks}  "
                f"{'same' if same else 'DIFFERENT'} records")
    configs = [(f"xstat -r --threads={k}", lambda k=k: tool(k))
               for k in KS]
    configs += [(f"dask {w} worker(s) x {t} threads",
                 lambda w=w, t=t: dask(w, t))
                for t in threads for w in workers]
    for r in range(rounds):
        for i in range(len(configs)):
            name, run = configs[(r + i) % len(configs)]
            results.setdefault(name, []).append(run())
    best, best_name = 0.0, ""
    for name, _ in configs:
        got = results[name]
        rate = _median([g[0] for g in got])
        if name.startswith("xstat") and rate > best:
            best, best_name = rate, name
        print(f"{name:<34} {rate:8.0f}/s  cpu "
              f"{_median([g[1] for g in got]) * 1e6:5.0f} us/entry  "
              f"({' '.join(f'{g[0]:.0f}' for g in got)}/s)  {got[-1][3]}")
    for name, _ in configs:
        if name.startswith("dask"):
            rate = _median([g[0] for g in results[name]])
            print(f"  {name}: x{rate / best:.2f} of the best xstat -r "
                  f"({best_name})")
    subprocess.run(["rm", "-rf", out_dir])


if __name__ == "__main__":
    print("load average at start: %.1f %.1f %.1f (2 cores shared)"
          % os.getloadavg())
    if sys.argv[1] == "local":
        local(sys.argv[2:])
    elif sys.argv[1] == "cpu":
        cpu(int(sys.argv[2]), sys.argv[3:])
    else:
        fuse(sys.argv[2], [int(t) for t in sys.argv[3].split(",")],
             sys.argv[4:])
