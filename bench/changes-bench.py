#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The answer of `xstat -r --changes`, scored (issue 41).

Makes a tree of FILES files, snapshots it (xstat -r --json --change-token)
and records what rsync (size + mtime), restic (inode + size + mtime +
ctime) and git (its stat data: ctime, mtime, inode, size, mode, owner,
with the racy-clean rule: an entry whose mtime is not older than the index
is re-read) would remember; applies a scripted mix of adversarial and
ordinary changes, keeping the truth of each name (is its content what the
snapshot saw at that name?); then asks each heuristic and xstat which
names to read again, and counts:

  missed       content changed, not re-read
  false alarm  content unchanged (chmod, hard link, touch, rename), re-read
  re-read      names read again (new names included, for every tool)

xstat's verdicts are scored twice: re-reading "metadata" entries too
(careful) and skipping them (the restic --ignore-ctime choice, made per
file instead of for every file).  With --timing N, also runs
bench/changes-time.py on a tree of N files: the walk that writes a
snapshot against `--changes` on it, hot cache, interleaved rounds.

  bench/changes-bench.py [--files 10000] [--dir DIR] [--timing 100000]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOOL = os.environ.get("XSTAT_TOOL", "./tools/xstat")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def make_tree(root, files):
    per = 100
    names = []
    for i in range(files):
        d = os.path.join(root, "d%03d" % (i // per))
        if i % per == 0:
            os.makedirs(d, exist_ok=True)
        p = os.path.join(d, "f%05d" % i)
        write(p, b"content %08d\n" % i)
        names.append(p)
    return names


def remember(root):
    """What the path heuristics keep: lstat of every entry."""
    seen = {}
    for d, dirs, fs in os.walk(root):
        for n in dirs + fs:
            p = os.path.join(d, n)
            seen[p] = os.lstat(p)
    return seen


def content(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except (IsADirectoryError, FileNotFoundError):
        return None


def mix(root, names, victims):
    """The scripted mix; returns {kind: count} and the inode reuse count.
    @victims: files made just before the snapshot, renamed over first:
    ext4 hands a freed inode number out again only while the inode table
    block is fresh (recently_deleted() in fs/ext4/ialloc.c), so that the
    rename really reuses the number."""
    n = len(names)
    k = max(1, n // 100)          # 1% of the tree per adversarial kind
    it = iter(names[k * 2:])      # names[:2k] were the "tick" files
    take = lambda m: [next(it) for _ in range(m)]
    kinds = {}
    # rename over, the new file taking the old inode number where it can
    reused = 0
    for p in victims:
        st = os.stat(p)
        data = open(p, "rb").read()
        os.unlink(p)
        tmp = p + ".tmp"
        write(tmp, data.upper())
        if os.stat(tmp).st_ino == st.st_ino:
            reused += 1
        os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
        os.rename(tmp, p)
    kinds["rename over (same size, mtime kept)"] = len(victims)
    # same-size rewrite within one tick of the snapshot (made just before)
    for p in names[:k]:
        write(p, b"CONTENT" + open(p, "rb").read()[7:])
    kinds["same-size rewrite, same tick"] = k
    # a write, then mtime set back (touch -r)
    for p in take(k):
        st = os.stat(p)
        write(p, b"XXXXXXX" + open(p, "rb").read()[7:])
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    kinds["write + mtime set back"] = k
    # chmod -R of a tenth of the directories
    sub = sorted({os.path.dirname(p) for p in names})[::10]
    cnt = 0
    for d in sub:
        for f in os.listdir(d):
            os.chmod(os.path.join(d, f), 0o600)
            cnt += 1
        os.chmod(d, 0o700)
    kinds["chmod -R"] = cnt
    # hard links added (in another directory)
    os.mkdir(os.path.join(root, "links"))
    for i, p in enumerate(take(3 * k)):
        os.link(p, os.path.join(root, "links", "l%05d" % i))
    kinds["hard links added"] = 3 * k
    # unlink + create of the same name, same size, mtime kept
    for p in take(k):
        st = os.stat(p)
        data = open(p, "rb").read()
        os.unlink(p)
        write(p, data[::-1])
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    kinds["unlink + create (same size, mtime kept)"] = k
    # ordinary: appends, touch, renames, added and removed entries
    for p in take(5 * k):
        with open(p, "ab") as f:
            f.write(b"more\n")
    kinds["append"] = 5 * k
    for p in take(3 * k):
        os.utime(p)
    kinds["touch"] = 3 * k
    for p in take(k):
        os.rename(p, p + ".renamed")
    kinds["rename"] = k
    for i in range(3 * k):
        write(os.path.join(root, "d000", "new%05d" % i), b"new\n")
    kinds["added"] = 3 * k
    for p in take(3 * k):
        os.unlink(p)
    kinds["removed"] = 3 * k
    return kinds, reused


def changes(root, snap):
    out = subprocess.run([TOOL, "-r", "--json", "--changes=" + snap, root],
                         capture_output=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit("xstat --changes: %s" % out.stderr.decode())
    return [json.loads(l) for l in out.stdout.splitlines()]


def score(before_content, after_names, reread):
    """missed, false alarms, re-read over the names there now."""
    missed = alarms = n = 0
    for p, (now, moved_from) in after_names.items():
        r = reread(p)
        n += r
        old = before_content.get(moved_from or p)
        if old is None:
            continue                      # new: read by everyone
        if now != old and not r:
            missed += 1
        if now == old and r:
            alarms += 1
    return missed, alarms, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--timing", type=int, default=0)
    a = ap.parse_args()
    base = tempfile.mkdtemp(prefix="xstat-changes-bench.", dir=a.dir)
    try:
        run(base, a)
    finally:
        shutil.rmtree(base)


def run(base, a):
    root = os.path.join(base, "t")
    snap = os.path.join(base, "snap")
    os.mkdir(root)
    names = make_tree(root, a.files)
    time.sleep(1.1)
    # the "same tick" files: written just before the snapshot
    k = max(1, len(names) // 100)
    for p in names[:k]:
        write(p, b"content %08d\n" % 0)
    victims = [os.path.join(root, "d%03d" % i, "victim") for i in range(k)
               if os.path.isdir(os.path.join(root, "d%03d" % i))]
    for p in victims:
        write(p, b"victim\n")
    with open(snap, "wb") as f:
        subprocess.run([TOOL, "-r", "--json", "--change-token", root],
                       stdout=f, check=True)
    seen = remember(root)
    index_time = time.time_ns()           # git writes its index now
    before_content = {p: content(p) for p in seen}
    kinds, reused = mix(root, names, victims)
    verdicts = {}
    moved = {}
    for o in changes(root, snap):
        verdicts[o["path"]] = (o["change"], o.get("also"))
        if o["change"] == "moved":
            moved[o["path"]] = o["from"]
    after = {}
    for d, dirs, fs in os.walk(root):
        for n in fs:
            p = os.path.join(d, n)
            after[p] = (content(p), moved.get(p))
    now = {p: os.lstat(p) for p in after}

    def rsync(p):
        o = seen.get(p)
        return o is None or (o.st_size, o.st_mtime_ns) != \
            (now[p].st_size, now[p].st_mtime_ns)

    def restic(p):
        o = seen.get(p)
        return o is None or (o.st_ino, o.st_size, o.st_mtime_ns,
                             o.st_ctime_ns) != \
            (now[p].st_ino, now[p].st_size, now[p].st_mtime_ns,
             now[p].st_ctime_ns)

    def git(p):
        o, s = seen.get(p), now[p]
        if o is None:
            return True
        if (o.st_ctime_ns, o.st_mtime_ns, o.st_ino, o.st_size, o.st_mode,
                o.st_uid, o.st_gid) != (s.st_ctime_ns, s.st_mtime_ns,
                                        s.st_ino, s.st_size, s.st_mode,
                                        s.st_uid, s.st_gid):
            return True
        return o.st_mtime_ns >= index_time   # racily clean: re-hashed

    def xstat(skip_metadata):
        def f(p):
            v = verdicts.get(p)
            if v is None:
                return False
            change, also = v
            if change == "moved":
                return also in ("data", "unproven") or \
                    (also == "metadata" and not skip_metadata)
            return change != "metadata" or not skip_metadata
        return f

    rows = [("rsync (size + mtime)", rsync),
            ("restic (inode, size, mtime, ctime)", restic),
            ("git (stat data, racy-clean rule)", git),
            ("xstat --changes, re-read metadata", xstat(False)),
            ("xstat --changes, skip metadata", xstat(True))]
    print("tree: %d files; mix: %s; rename-over reused the inode number "
          "%d of %d times" % (a.files, ", ".join(
              "%s %d" % kv for kv in kinds.items()), reused,
              kinds["rename over (same size, mtime kept)"]))
    print()
    print("| tool | missed changes | false alarms | files re-read |")
    print("|---|---:|---:|---:|")
    for name, fn in rows:
        m, fa, n = score(before_content, after, fn)
        print("| %s | %d | %d | %d |" % (name, m, fa, n))
    counts = {}
    for c, _ in verdicts.values():
        counts[c] = counts.get(c, 0) + 1
    print()
    print("xstat verdicts: " + ", ".join("%s %d" % kv
                                         for kv in sorted(counts.items())))
    if a.timing:
        timing(base, a.timing)


def timing(base, files):
    """bench/changes-time.py on a tree of @files files: the walk that
    writes a snapshot against --changes on it, interleaved rounds."""
    here = os.path.dirname(os.path.abspath(__file__))
    print()
    subprocess.run([sys.executable, os.path.join(here, "changes-time.py"),
                    "--files", str(files), "--rounds", "7",
                    "--keep", os.path.join(base, "timing"),
                    "--tool", TOOL], check=True)


if __name__ == "__main__":
    main()
