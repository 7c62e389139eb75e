# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.distributed against xstat -r, side by side in one run
(bench/dask-run.sh sets it up; see it for the knobs).

  dask-bench.py local TREE...       each TREE: the records compared with
                                    xstat -r --json, scan times, the
                                    measured per-task and per-entry costs
  dask-bench.py fuse MOUNTPOINT T1,T2.. LATFS ARGS...
                                    LATFS ARGS mounted afresh for each
                                    run: files/s of 1 and 4 worker
                                    processes (T1, T2... threads each) and
                                    of xstat -r --threads=N for each N

Every worker process runs on this machine: a multi-node cluster emulated,
all of them clients of the same kernel and the same FUSE server.
"""

import os
import resource
import subprocess
import sys
import time

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
        cpu = []
        with Mount(latfs, mnt):
            t, lines = tool_lines(mnt, threads=k, cpu=cpu)
        rate = len(lines) / t
        best = max(best, rate)
        print(f"xstat -r --threads={k:<3}             {rate:8.0f}/s  "
              f"{t:6.2f} s  cpu {cpu[0] / n * 1e6:5.0f} us/entry")
    for per_worker in threads:
        rates = {}
        for w in (1, 4):
            c, client, up = cluster(w, per_worker)
            try:
                with Mount(latfs, mnt):
                    c0 = cluster_cpu(client)
                    s, lines = dask_scan(client, mnt, out_dir)
                    used = cluster_cpu(client) - c0
                    # each mount has a device number of its own
                    _, ref = tool_lines(mnt, threads=64)
                rates[w] = s.entries / s.elapsed
                same = sorted(lines) == sorted(ref)
                print(f"dask {w} worker(s) x {per_worker:<2} threads  "
                      f"{rates[w]:8.0f}/s  {s.elapsed:6.2f} s  cpu "
                      f"{used / n * 1e6:5.0f} us/entry  start-up {up:.2f} s"
                      f"  tasks {s.tasks}  "
                      f"{'same' if same else 'DIFFERENT'} records")
            finally:
                client.close()
                c.close()
        print(f"  {per_worker} threads per worker: 4 workers / 1 worker "
              f"{rates[4] / rates[1]:.2f} (target >= 3); 4 workers / best "
              f"xstat -r {rates[4] / best:.2f} (target > 1)")
    subprocess.run(["rm", "-rf", out_dir])


if __name__ == "__main__":
    print("load average at start: %.1f %.1f %.1f (2 cores shared)"
          % os.getloadavg())
    if sys.argv[1] == "local":
        local(sys.argv[2:])
    else:
        fuse(sys.argv[2], [int(t) for t in sys.argv[3].split(",")],
             sys.argv[4:])
