# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-call cost of the Python binding against os, in one process.

    make bench-python            (or: python3 bench/py-bench.py [N])

libxstat.stat(path) against os.stat(path) (target: <= 1.3x), the same
for lstat, fstat and larger masks, and libxstat.scandir() over N files
(default 100,000) against os.scandir() + a stat of each entry (target:
<= 1.2x) and, for EXTENDED and ALL, + a libxstat.lstat() of each entry.  Each figure is the best of several rounds, the two sides
alternating, hot cache; the ratios are what to compare across machines.
"""

import os
import shutil
import sys
import tempfile
import time

import libxstat
from libxstat import Request

ROUNDS = 5


def per_call(fn, n):
    best = float("inf")
    for _ in range(ROUNDS):
        t = time.perf_counter_ns()
        fn(n)
        best = min(best, (time.perf_counter_ns() - t) / n)
    return best


def loop(f, *args, **kw):
    def run(n):
        for _ in range(n):
            f(*args, **kw)
    return run


def pair(label, ours, theirs, n, target=None):
    # Alternate, so that frequency or cache drift hits both sides.
    a = b = float("inf")
    for _ in range(3):
        a = min(a, per_call(ours, n))
        b = min(b, per_call(theirs, n))
    ratio = a / b
    verdict = "" if target is None else \
        ("  (target <= %.1fx: %s)" % (target, "met" if ratio <= target
                                       else "MISSED"))
    print("%-44s %8.0f ns %8.0f ns  %5.2fx%s" % (label, a, b, ratio,
                                                verdict))
    return ratio


def scan_ours(d, fields):
    def run(n):
        k = 0
        for e in libxstat.scandir(d, fields=fields):
            e.xstat
            k += 1
        assert k == n
    return run


def scan_os_entry(d):
    def run(n):
        k = 0
        for e in os.scandir(d):
            e.stat(follow_symlinks=False)
            k += 1
        assert k == n
    return run


def scan_os_path(d):
    def run(n):
        k = 0
        for e in os.scandir(d):
            os.lstat(e.path)
            k += 1
        assert k == n
    return run


def scan_xs_path(d, fields):
    def run(n):
        k = 0
        for e in os.scandir(d):
            libxstat.lstat(e.path, fields=fields)
            k += 1
        assert k == n
    return run


def main():
    nfiles = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    top = tempfile.mkdtemp(prefix="libxstat-pybench.")
    try:
        path = os.path.join(top, "file")
        with open(path, "wb") as f:
            f.write(b"x" * 4096)
        fd = os.open(path, os.O_RDONLY)
        print("python %s, libxstat %s, uid %d, %s" % (
            sys.version.split()[0], libxstat.__version__, os.getuid(), top))
        print("%-44s %11s %11s  %s" % ("per call", "libxstat", "os", "ratio"))
        n = 50000
        pair("stat(path) [DEFAULT: basic+btime] / os.stat",
             loop(libxstat.stat, path), loop(os.stat, path), n, 1.3)
        pair("stat(path, fields=BASIC) / os.stat",
             loop(libxstat.stat, path, fields=Request.BASIC),
             loop(os.stat, path), n, 1.3)
        pair("lstat(path) / os.lstat",
             loop(libxstat.lstat, path), loop(os.lstat, path), n)
        pair("fstat(fd) / os.fstat",
             loop(libxstat.fstat, fd), loop(os.fstat, fd), n)
        pair("stat(path, EXTENDED) / os.stat",
             loop(libxstat.stat, path, fields=Request.EXTENDED),
             loop(os.stat, path), n // 4)
        r = libxstat.stat(path)
        o = os.stat(path)

        def read_ours(n):
            for _ in range(n):
                r.st_mtime, r.st_size, r.st_mode

        def read_os(n):
            for _ in range(n):
                o.st_mtime, o.st_size, o.st_mode
        pair("reading st_mtime, st_size, st_mode", read_ours, read_os, n)
        os.close(fd)

        d = os.path.join(top, "dir")
        os.mkdir(d)
        for i in range(nfiles):
            open(os.path.join(d, "f%06d" % i), "wb").close()
        print("\nper entry, %d files in one directory" % nfiles)
        ours = {f: scan_ours(d, f) for f in
                (libxstat.DEFAULT_FIELDS, Request.EXTENDED, Request.ALL)}
        global ROUNDS
        ROUNDS = 3
        for label, base in (("os.scandir + entry.stat()",
                             scan_os_entry(d)),
                            ("os.scandir + os.lstat(path)",
                             scan_os_path(d))):
            for f, fn in ours.items():
                pair("scandir(%s) / %s" % (
                    {libxstat.DEFAULT_FIELDS: "DEFAULT",
                     Request.EXTENDED: "EXTENDED",
                     Request.ALL: "ALL"}[f], label), fn, base, nfiles, 1.2)
        # The same work per name, one libxstat.lstat() each: what the
        # directory streams save (nothing where the device cannot be
        # opened: then each entry takes xstat() itself).
        for f, label in ((Request.EXTENDED, "EXTENDED"), (Request.ALL, "ALL")):
            pair("scandir(%s) / os.scandir + lstat(path, %s)" % (
                label, label), ours[f], scan_xs_path(d, f), nfiles)
    finally:
        shutil.rmtree(top)


if __name__ == "__main__":
    main()
