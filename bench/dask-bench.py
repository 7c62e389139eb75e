# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.distributed against xstat -r, side by side in one run
(bench/dask-run.sh sets it up; see it for the knobs).

  dask-bench.py local TREE...       each TREE: the records compared with
                                    xstat -r --json, scan times, the
                                    measured per-task and per-entry costs
  dask-bench.py fuse MOUNTPOINT THREADS LATFS ARGS...
                                    LATFS ARGS mounted afresh for each
                                    run: files/s of 1 and 4 worker
                                    processes (THREADS threads each) and
                                    of xstat -r --threads=N for each N

Every worker process runs on this machine: a multi-node cluster emulated,
all of them clients of the same kernel and the same FUSE server.
"""

import os
import subprocess
import sys
import time

from distributed import Client, LocalCluster

from libxstat import distributed as xd

TOOL = os.environ["XSTAT_TOOL"]
KS = [int(k) for k in os.environ.get("XD_TOOL_THREADS", "1 4 16 32 64").split()]


def tool_lines(root, threads=None):
    cmd = [TOOL, "-r", "--json"]
    if threads:
        cmd.append(f"--threads={threads}")
    t0 = time.perf_counter()
    out = subprocess.run(cmd + [root], capture_output=True).stdout
    return time.perf_counter() - t0, out.splitlines()


def cluster(workers, threads):
    t0 = time.perf_counter()
    c = LocalCluster(n_workers=workers, threads_per_worker=threads,
                     processes=True, dashboard_address=":0")
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
    tmp = os.environ.get("TMPDIR", "/tmp")
    out_dir = os.path.join(tmp, "xstat-dask-bench.out")
    with Mount(latfs, mnt):
        t, ref = tool_lines(mnt, threads=64)
    n = len(ref)
    print(f"## latfs {' '.join(latfs[1:])}: {n} entries, a fresh mount "
          f"for each run; files/s = entries / scan time")
    best = 0.0
    for k in KS:
        with Mount(latfs, mnt):
            t, lines = tool_lines(mnt, threads=k)
        rate = len(lines) / t
        best = max(best, rate)
        print(f"xstat -r --threads={k:<3}            {rate:8.0f}/s  "
              f"{t:6.2f} s")
    rates = {}
    for w in (1, 4):
        c, client, up = cluster(w, threads)
        try:
            with Mount(latfs, mnt):
                s, lines = dask_scan(client, mnt, out_dir)
            rates[w] = s.entries / s.elapsed
            same = sorted(lines) == sorted(ref)
            print(f"dask {w} worker(s) x {threads} threads {rates[w]:8.0f}/s  "
                  f"{s.elapsed:6.2f} s  start-up {up:.2f} s  tasks "
                  f"{s.tasks}  {'same' if same else 'DIFFERENT'} records")
        finally:
            client.close()
            c.close()
    print(f"4 workers / 1 worker: {rates[4] / rates[1]:.2f} (target >= 3); "
          f"4 workers / best xstat -r: {rates[4] / best:.2f} (target > 1)")
    subprocess.run(["rm", "-rf", out_dir])


if __name__ == "__main__":
    if sys.argv[1] == "local":
        local(sys.argv[2:])
    else:
        fuse(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
