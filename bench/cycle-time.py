#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A backup cycle, `xstat -r --changes=OLD --save=NEW DIR`, against the
two walks it replaces (`xstat -r --changes=OLD DIR`, then `xstat -r
--json --change-token DIR > NEW`); target: at most 0.6x.

Each round runs both sides, in turn, on the same tree with nothing
changed since OLD was taken (so no entry waits for the racy window);
NEW is written beside OLD by both (the cycle also fsyncs it and its
directory, as it must).  One warm-up round is not counted.  Prints per
tool: the median wall time of each side, their CPU time (user + system),
and the median, lowest and highest per-round ratio of wall and of CPU
time (the steadier one on a shared machine; bench/tree_timing.py); then
each side's median CPU time.

  bench/cycle-time.py [--files 100000 | --dir DIR] [--rounds 11]
                      [--tool ./tools/xstat]... [--keep WORKDIR]

--files N makes a tree of N files in directories of 100 (under a
temporary directory, or WORKDIR); --dir times an existing tree (e.g. an
unpacked kernel source).  Several --tool: each build runs both sides in
every round, in turn (to compare builds); OLD is made by the first.
"""

import subprocess
import sys

import tree_timing as tt


def main():
    a, paths = tt.arguments(__doc__, "xstat-cycle-time.")
    tools = [tt.Tool(p) for p in paths]
    with tt.Workdir(a) as w:
        old, new = w.path("old.snap"), w.path("new.snap")
        if tools[0].run(["-r", "--save=" + old, w.root], None, None,
                        False):
            sys.exit("the first snapshot failed")
        entries = sum(1 for _ in open(old, "rb"))

        def one_round(t, counted):
            rc = t.run(["-r", "--changes=" + old, w.root],
                       subprocess.DEVNULL, "changes", counted)
            # truncated by the walk itself: the cycle pays for the NEW
            # it renames over
            rc2 = t.run(["-r", "--json", "--change-token", w.root], new,
                        "walk", counted)
            rc3 = t.run(["-r", "--changes=" + old, "--save=" + new,
                         w.root], subprocess.DEVNULL, "cycle", counted)
            if rc or rc2 or rc3:
                sys.exit("%s: exit statuses %d %d %d, want 0 (nothing "
                         "changed)" % (t.path, rc, rc2, rc3))

        tt.interleave(tools, a.rounds, one_round)
        tt.header(entries, w.root, old, a.rounds)
        tt.ratio_table(tools, ["cycle"], ["changes", "walk"], "cycle",
                       "two walks")
        # each side alone: the cycle's floor is `--changes` alone
        for t in tools:
            print("%s: CPU medians: changes %.3f s, walk %.3f s, cycle "
                  "%.3f s" % (t.path, tt.MED(t.cpu["changes"]),
                              tt.MED(t.cpu["walk"]), tt.MED(t.cpu["cycle"])))


if __name__ == "__main__":
    main()
