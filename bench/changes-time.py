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
per-round ratio of wall and of CPU time (bench/tree_timing.py).

  bench/changes-time.py [--files 100000 | --dir DIR] [--rounds 11]
                        [--tool ./tools/xstat]... [--keep WORKDIR]

--files N makes a tree of N files in directories of 100 (under a
temporary directory, or WORKDIR); --dir times an existing tree (e.g. an
unpacked kernel source).  Several --tool: each build gets its own walk
and --changes in every round, in turn (to compare builds).
"""

import subprocess
import sys

import tree_timing as tt


def main():
    a, paths = tt.arguments(__doc__, "xstat-changes-time.")
    tools = [tt.Tool(p) for p in paths]
    with tt.Workdir(a) as w:
        snap, fresh = w.path("tree.snap"), w.path("fresh.snap")
        with open(snap, "wb") as f:
            if tools[0].run(["-r", "--json", "--change-token", w.root], f,
                            None, False):
                sys.exit("the first walk failed")
        entries = sum(1 for _ in open(snap, "rb"))

        def one_round(t, counted):
            with open(fresh, "wb") as f:
                rc = t.run(["-r", "--json", "--change-token", w.root], f,
                           "walk", counted)
            if rc != 0:
                sys.exit("%s: the walk failed (%d)" % (t.path, rc))
            rc = t.run(["-r", "--changes=" + snap, w.root],
                       subprocess.DEVNULL, "changes", counted)
            if rc != 0:
                sys.exit("%s --changes: exit %d, want 0 (nothing changed)"
                         % (t.path, rc))

        tt.interleave(tools, a.rounds, one_round)
        tt.header(entries, w.root, snap, a.rounds)
        tt.ratio_table(tools, ["changes"], ["walk"], "--changes",
                       "walk > SNAP")


if __name__ == "__main__":
    main()
