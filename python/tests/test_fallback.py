# SPDX-License-Identifier: LGPL-2.1-or-later
"""With statx(2) blocked by seccomp, as container sandboxes do, the
library's fallback serves the binding: every basic field still equals
os.lstat's (fstatat is not blocked), errors still match os's, and what
comes back for the creation time and generation is the kernel's or None."""

import json
import os
import stat as S
import subprocess
import sys

import pytest

import oracle

CHILD = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
import libxstat, oracle
from libxstat import Request

blocked = oracle.raw_statx_errno()
names = ["st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
         "st_size", "st_blocks", "st_blksize", "st_atime_ns", "st_mtime_ns",
         "st_ctime_ns", "st_rdev"]
out = {"blocked": blocked, "files": {}, "errors": []}
for name, p in json.loads(sys.argv[2]).items():
    r = libxstat.lstat(p, fields=Request.EXTENDED)
    o = os.lstat(p)
    out["files"][name] = {
        "ours": [getattr(r, n) for n in names] + [list(r)],
        "os": [getattr(o, n) for n in names] + [list(o)],
        "btime": r.st_birthtime_ns, "gen": r.st_gen,
        "mask": int(r.st_result_mask)}
def outcome(fn, p):
    try:
        fn(p)
    except OSError as e:
        return [type(e).__name__, e.errno, e.strerror, str(e.filename)]
for p in json.loads(sys.argv[3]):
    out["errors"].append([outcome(libxstat.stat, p), outcome(os.stat, p)])
print(json.dumps(out))
"""


@pytest.mark.parametrize("err", ["ENOSYS", "EPERM"])
def test_statx_blocked(files, err, tmp_path):
    runner = os.environ.get("SECCOMP_RUN", "")
    if not os.access(runner, os.X_OK):
        pytest.skip("tests/seccomp-run not built")
    missing = [str(tmp_path / "missing"), str(tmp_path / "f" / "below"),
               "x" * 5000, ""]
    (tmp_path / "f").write_bytes(b"")
    p = subprocess.run(
        [runner, "-e", err, "-s", "statx", "--", sys.executable, "-c",
         CHILD, os.path.dirname(oracle.__file__), json.dumps(files),
         json.dumps(missing)], capture_output=True, text=True)
    if p.returncode != 0 and "seccomp" in p.stderr.lower() and \
            "libxstat" not in p.stderr:
        pytest.skip("cannot install a seccomp filter: " + p.stderr)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["blocked"] == getattr(__import__("errno"), err), \
        "statx was not blocked in the child"
    for name, got in out["files"].items():
        assert got["ours"][:-2] == got["os"][:-2], name
        # st_rdev: a device node's, as os's; None for anything else
        # (os says 0), as with statx.
        mode = got["os"][0]
        if S.S_ISCHR(mode) or S.S_ISBLK(mode):
            assert got["ours"][-2] == got["os"][-2], name
        else:
            assert got["ours"][-2] is None, name
        assert got["ours"][-1] == got["os"][-1], name
        # Honest: the kernel's creation time, or none at all.
        if got["btime"] is not None:
            assert got["btime"] == oracle.statx_btime_ns(
                files[name], follow=False), name
        if got["gen"] is not None and name in ("regular", "directory"):
            want = oracle.lsattr_generation(files[name])
            if want is not None:
                assert got["gen"] == want, name
    for ours, theirs in out["errors"]:
        assert ours == theirs and theirs is not None
