#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Time commands over interleaved rounds: wall and CPU (user + system of
the process and its threads), the median of each.  Used by
bench/walk-run.sh.

    walk-time.py ROUNDS CASES_FILE

CASES_FILE: one case a line, "label<TAB>command words separated by TABs".
Prints one line a case: label, median wall ms, median CPU ms.
"""
import os
import statistics
import subprocess
import sys
import time


def run(argv):
    with open(os.devnull, "wb") as null:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("failed: %s" % " ".join(argv))
    return wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000


def main():
    rounds = int(sys.argv[1])
    cases = []
    with open(sys.argv[2]) as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                label, *argv = line.split("\t")
                cases.append((label, argv))
    times = {label: ([], []) for label, _ in cases}
    for label, argv in cases:
        run(argv)              # warm the cache, and fail early
    for _ in range(rounds):
        for label, argv in cases:     # interleaved: drift hits all alike
            w, c = run(argv)
            times[label][0].append(w)
            times[label][1].append(c)
    for label, _ in cases:
        w, c = times[label]
        print("%s\t%.1f\t%.1f" % (label, statistics.median(w),
                                  statistics.median(c)))


main()
