#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The time of `xstat -r --changes` against the walk that made its
snapshot (issue 41's target: at most 1.2x, hot cache, 100,000 entries).

Each round runs, side by side, the walk that makes a snapshot exactly as
a user does (`xstat -r --json --change-token DIR > SNAP`, written to a
file in the same directory as the snapshot) and `xstat -r --changes=SNAP
DIR > /dev/null` on the snapshot taken before the rounds, with nothing
changed; rounds are interleaved so that both see the same machine.  One
warm-up round is not counted.  Prints per tool: the median wall time of
each, their CPU time (user + system), and the median, lowest and highest
per-round ratio.

  bench/changes-time.py [--files 100000 | --dir DIR] [--rounds 11]
                        [--tool ./tools/xstat]... [--keep WORKDIR]

--files N makes a tree of N files in directories of 100 (under a
temporary directory, or WORKDIR); --dir times an existing tree (e.g. an
unpacked kernel source).  Several --tool: each build gets its own walk
and --changes in every round, in turn (to compare builds).
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
    ap.add_argument("--tool", action="append")
    ap.add_argument("--keep", help="work directory, kept")
    a = ap.parse_args()
    tools = a.tool or [os.environ.get("XSTAT_TOOL", "./tools/xstat")]
    base = a.keep or tempfile.mkdtemp(prefix="xstat-changes-time.")
    os.makedirs(base, exist_ok=True)
    try:
        if a.dir:
            root = os.path.abspath(a.dir)
        else:
            root = os.path.join(base, "tree")
            if not os.path.isdir(root):
                make_tree(root, a.files)
                time.sleep(1.1)     # past the racy window of the snapshot
        snap = os.path.join(base, "tree.snap")
        fresh = os.path.join(base, "fresh.snap")
        with open(snap, "wb") as f:
            subprocess.run([tools[0], "-r", "--json", "--change-token",
                            root], stdout=f, check=True)
        entries = sum(1 for _ in open(snap, "rb"))
        res = {t: {"walk": [], "chg": [], "wcpu": [], "ccpu": [],
                   "ratio": []} for t in tools}
        for rnd in range(a.rounds + 1):
            for t in tools:
                with open(fresh, "wb") as f:
                    w, wc, rc = timed([t, "-r", "--json", "--change-token",
                                       root], f)
                if rc != 0:
                    sys.exit("%s: the walk failed (%d)" % (t, rc))
                c, cc, rc = timed([t, "-r", "--changes=" + snap, root],
                                  subprocess.DEVNULL)
                if rc != 0:
                    sys.exit("%s --changes: exit %d, want 0 (nothing "
                             "changed)" % (t, rc))
                if rnd == 0:
                    continue        # warm-up
                r = res[t]
                r["walk"].append(w)
                r["chg"].append(c)
                r["wcpu"].append(wc)
                r["ccpu"].append(cc)
                r["ratio"].append(c / w)
        med = statistics.median
        print("%d entries (%s), snapshot %.1f MB, %d rounds, %d CPUs, "
              "load %.1f" % (entries, root, os.path.getsize(snap) / 1e6,
                             a.rounds, os.cpu_count(), os.getloadavg()[0]))
        print("| tool | walk > SNAP (s) | --changes (s) | walk CPU (s) "
              "| --changes CPU (s) | ratio median | ratio min-max |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for t in tools:
            r = res[t]
            print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f-%.3f |" % (
                t, med(r["walk"]), med(r["chg"]), med(r["wcpu"]),
                med(r["ccpu"]), med(r["ratio"]), min(r["ratio"]),
                max(r["ratio"])))
    finally:
        if not a.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
