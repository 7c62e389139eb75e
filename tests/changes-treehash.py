#!/usr/bin/python3
# A tree as lines "PATH TYPE MODE SHA256-or-TARGET", sorted, for comparing
# a copy with its source byte for byte and in mode (tests/
# tool-changes-rsync.sh): an oracle that shares no code with xstat.
#   changes-treehash.py DIR
import hashlib
import os
import stat
import sys

root = sys.argv[1]
out = []
for top, dirs, files in os.walk(root):
    for n in [""] + dirs + files if top == root else dirs + files:
        p = os.path.join(top, n) if n else top
        st = os.lstat(p)
        rel = os.path.relpath(p, root)
        mode = "%04o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                what = "file " + hashlib.sha256(f.read()).hexdigest()
        elif stat.S_ISLNK(st.st_mode):
            what = "link " + os.readlink(p)
            mode = "-"      # a symlink's mode is no part of it
        elif stat.S_ISDIR(st.st_mode):
            what = "dir"
        else:
            what = "other %o" % stat.S_IFMT(st.st_mode)
        out.append(os.fsencode(rel) + b" " + what.encode() + b" " +
                   mode.encode())
sys.stdout.buffer.write(b"".join(sorted(l + b"\n" for l in out)))
