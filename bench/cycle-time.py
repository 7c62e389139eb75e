#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A backup cycle, `xstat -r --changes=OLD --save=NEW DIR`, against the
two walks it replaces (`xstat -r --changes=OLD DIR`, then `xstat -r
--json --change-token DIR > NEW`); target: at most 0.6x.

Each round runs both sides, in turn, on the same tree with nothing
changed since OLD was taken (so no entry waits for the racy window);
NEW is written beside OLD by both (the cycle also fsyncs it and its
directory, as it must).  One warm-up round is not counted.  Prints the
median wall time of each side, their CPU time (user + system), and the
median, lowest and highest per-round ratio of wall and of CPU time (the
steadier one on a shared machine).

  bench/cycle-time.py [--files 100000 | --dir DIR] [--rounds 11]
                      [--tool ./tools/xstat] [--keep WORKDIR]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def make_tree(root, files):
    per = 100
    for i in range(files):
        d = os.path.join(root, "d%03d" % (i // per))
        if i % per == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "f%05d" % i), "wb") as f:
            f.write(b"content %08d\n" % i)


def timed(argv, out):
    """Wall and CPU seconds of one run; its exit status."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=out)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    return wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=100000)
    ap.add_argument("--dir")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--tool", default=os.environ.get("XSTAT_TOOL",
                                                     "./tools/xstat"))
    ap.add_argument("--keep", help="work directory, kept")
    a = ap.parse_args()
    t = a.tool
    base = a.keep or tempfile.mkdtemp(prefix="xstat-cycle-time.")
    os.makedirs(base, exist_ok=True)
    try:
        if a.dir:
            root = os.path.abspath(a.dir)
        else:
            root = os.path.join(base, "tree")
            if not os.path.isdir(root):
                make_tree(root, a.files)
        time.sleep(1.1)     # the tree past the racy window of OLD
        old = os.path.join(base, "old.snap")
        new = os.path.join(base, "new.snap")
        subprocess.run([t, "-r", "--save=" + old, root], check=True)
        entries = sum(1 for _ in open(old, "rb"))
        two, one, twocpu, onecpu, ratio, cpuratio = [], [], [], [], [], []
        for rnd in range(a.rounds + 1):
            c, cc, rc = timed([t, "-r", "--changes=" + old, root],
                              subprocess.DEVNULL)
            with open(new, "wb") as f:
                w, wc, rc2 = timed([t, "-r", "--json", "--change-token",
                                    root], f)
            s, sc, rc3 = timed([t, "-r", "--changes=" + old,
                                "--save=" + new, root], subprocess.DEVNULL)
            if rc or rc2 or rc3:
                sys.exit("exit statuses %d %d %d, want 0 (nothing changed)"
                         % (rc, rc2, rc3))
            if rnd == 0:
                continue        # warm-up
            two.append(c + w)
            twocpu.append(cc + wc)
            one.append(s)
            onecpu.append(sc)
            ratio.append(s / (c + w))
            cpuratio.append(sc / (cc + wc))
        med = statistics.median
        print("%d entries (%s), snapshot %.1f MB, %d rounds, %d CPUs, "
              "load %.1f" % (entries, root, os.path.getsize(old) / 1e6,
                             a.rounds, os.cpu_count(), os.getloadavg()[0]))
        print("| two walks (s) | cycle (s) | two walks CPU (s) | cycle CPU "
              "(s) | ratio median | ratio min-max | CPU ratio median | CPU ratio "
              "min-max |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        print("| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f-%.3f | %.3f | "
              "%.3f-%.3f |" % (
                  med(two), med(one), med(twocpu), med(onecpu), med(ratio),
                  min(ratio), max(ratio), med(cpuratio), min(cpuratio),
                  max(cpuratio)))
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
