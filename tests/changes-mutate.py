#!/usr/bin/python3
# Random changes to a tree, for tests/tool-changes-rsync.sh:
#   changes-mutate.py DIR SEED COUNT [SECONDS]
# COUNT changes drawn by random.Random(SEED), each of the kinds a backup
# must follow: a file made, rewritten at the same size (its mtime set
# back or not), appended to, removed, renamed over another, moved to
# another directory, hard-linked, chmod'ed; a directory made deep, removed
# whole, replaced by a file; a symlink made.  With SECONDS the changes
# are spread over that long (made while a walk runs).
import os
import random
import shutil
import sys
import time

root, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spread = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
rnd = random.Random(seed)


def entries():
    files, dirs = [], [root]
    for top, ds, fs in os.walk(root):
        for d in ds:
            dirs.append(os.path.join(top, d))
        for f in fs:
            files.append(os.path.join(top, f))
    return files, dirs


def name():
    return "r%06d" % rnd.randrange(1000000)


def regular(files):
    files = [f for f in files if os.path.isfile(f) and
             not os.path.islink(f)]
    return rnd.choice(files) if files else None


def change():
    files, dirs = entries()
    kind = rnd.choice(["new", "same", "sameback", "append", "rm", "over",
                       "move", "link", "chmod", "deep", "rmtree",
                       "dir2file", "symlink"])
    d = rnd.choice(dirs)
    f = regular(files)
    if kind == "new" or f is None:
        with open(os.path.join(d, name()), "wb") as o:
            o.write(os.urandom(rnd.randrange(1, 3000)))
    elif kind in ("same", "sameback"):
        st = os.stat(f)
        with open(f, "r+b") as o:
            o.write(os.urandom(st.st_size))
        if kind == "sameback":
            os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    elif kind == "append":
        with open(f, "ab") as o:
            o.write(b"more\n")
    elif kind == "rm":
        os.unlink(f)
    elif kind == "over":
        g = regular(files)
        if g and g != f:
            os.rename(f, g)
    elif kind == "move":
        os.rename(f, os.path.join(d, name()))
    elif kind == "link":
        os.link(f, os.path.join(d, name()))
    elif kind == "chmod":
        os.chmod(f, rnd.choice([0o600, 0o644, 0o640, 0o755]))
    elif kind == "deep":
        p = d
        for _ in range(rnd.randrange(2, 7)):
            p = os.path.join(p, name())
        os.makedirs(p)
        with open(os.path.join(p, "leaf"), "wb") as o:
            o.write(os.urandom(100))
    elif kind in ("rmtree", "dir2file") and d != root:
        shutil.rmtree(d)
        if kind == "dir2file":
            with open(d, "wb") as o:
                o.write(b"was a directory\n")
    elif kind == "symlink":
        os.symlink(rnd.choice(["x", "../y", f]), os.path.join(d, name()))


for i in range(count):
    try:
        change()
    except OSError:
        pass    # a race with itself: a name gone, a name taken
    if spread:
        time.sleep(spread / count)
