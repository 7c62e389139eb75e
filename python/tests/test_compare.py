# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.compare() (issue 41): the verdict for each thing done to a
file, and the same verdict as the tool's xstat --changes on the same
files: one implementation, xstat_compare(3), behind both."""

import json
import os
import subprocess
import time

import pytest

import libxstat
from libxstat import Request

FIELDS = (Request.BASIC | Request.BTIME | Request.CHANGE_TOKEN |
          Request.FS_ID)
# The tool's word for each verdict (tools/changes.c).
WORD = {libxstat._libxstat.SAME_UNPROVEN: "unproven",
        libxstat._libxstat.CHANGED_METADATA: "metadata",
        libxstat._libxstat.CHANGED_DATA: "data",
        libxstat._libxstat.OTHER_FILE: "replaced"}


def rewrite(path, data):
    with open(path, "r+b") as f:
        f.write(data)


def mtime_back(path):
    st = os.stat(path)
    rewrite(path, b"HELLO")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def recreate(path):
    os.unlink(path)
    with open(path, "wb") as f:
        f.write(b"hello")


ACTS = {
    "nothing": (lambda p: None, None),
    "chmod": (lambda p: os.chmod(p, 0o600), "metadata"),
    "link": (lambda p: os.link(p, p + ".link"), "metadata"),
    "rewrite": (lambda p: rewrite(p, b"HELLO"), "data"),
    "append": (lambda p: open(p, "ab").write(b"!"), "data"),
    "mtime_back": (mtime_back, "metadata"),
    "recreate": (recreate, "replaced"),
}


def test_compare_agrees_with_tool(tmp_path, xstat_tool):
    root = str(tmp_path / "t")
    os.mkdir(root)
    for name in ACTS:
        with open(os.path.join(root, name), "wb") as f:
            f.write(b"hello")
    time.sleep(1.1)    # outside the racy window
    taken = time.time_ns()
    before = {n: libxstat.lstat(os.path.join(root, n), fields=FIELDS)
              for n in ACTS}
    snap = subprocess.run([xstat_tool, "-r", "--json", "--change-token",
                           root], check=True, capture_output=True).stdout
    with open(str(tmp_path / "snap"), "wb") as f:
        f.write(snap)
    for name, (act, _) in ACTS.items():
        act(os.path.join(root, name))
    out = subprocess.run([xstat_tool, "-r", "--json",
                          "--changes=" + str(tmp_path / "snap"), root],
                         capture_output=True)
    if out.returncode == 2 and b"built without simdjson" in out.stderr:
        pytest.skip("xstat was built without simdjson: no --changes")
    assert out.returncode == 1, out.stderr
    tool = {}
    for line in out.stdout.splitlines():
        o = json.loads(line)
        tool[os.path.relpath(o["path"], root)] = o["change"]
    for name, (_, want) in ACTS.items():
        after = libxstat.lstat(os.path.join(root, name), fields=FIELDS)
        verdict, why = libxstat.compare(before[name], after, taken)
        word = WORD.get(verdict)
        assert tool.get(name) == word, (name, tool.get(name), word, why)
        if want is not None and not (want == "replaced" and
                                     word == "data" and
                                     not after.st_btime_ns):
            assert word == want, (name, word, hex(why))
    assert tool.get("link.link") == "new"


def test_compare_errors():
    r = libxstat.lstat("/", fields=FIELDS)
    assert libxstat.compare(r, r)[0] == libxstat._libxstat.SAME_UNPROVEN
    with pytest.raises(TypeError):
        libxstat.compare(r, "x")
