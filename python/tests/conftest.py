# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared fixtures: one file of every type, and the tree's paths."""

import os
import shutil
import socket
import stat as S

import pytest


def _mknod(path, kind, dev):
    try:
        os.mknod(path, kind | 0o600, dev)
        return path
    except PermissionError:
        return None


@pytest.fixture(scope="session")
def top_srcdir():
    return os.environ.get("top_srcdir", os.path.join(
        os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def xstat_tool():
    tool = os.environ.get("XSTAT_TOOL")
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("XSTAT_TOOL (tools/xstat) not set")
    return tool


@pytest.fixture(scope="session")
def files(tmp_path_factory):
    """name -> path, one of every file type (devices only as root)."""
    d = tmp_path_factory.mktemp("types")
    f = {}
    f["regular"] = str(d / "regular")
    with open(f["regular"], "wb") as fp:
        fp.write(b"x" * 10000)
        # With delayed allocation st_blocks moves while writeback runs;
        # the tests compare it with os.stat's, so settle it first.
        fp.flush()
        os.fsync(fp.fileno())
    f["empty"] = str(d / "empty")
    open(f["empty"], "wb").close()
    f["hardlink"] = str(d / "hardlink")
    os.link(f["regular"], f["hardlink"])
    f["directory"] = str(d / "dir")
    os.mkdir(f["directory"])
    f["symlink"] = str(d / "symlink")
    os.symlink("regular", f["symlink"])
    f["dangling"] = str(d / "dangling")
    os.symlink("no-such-target", f["dangling"])
    f["fifo"] = str(d / "fifo")
    os.mkfifo(f["fifo"])
    f["socket"] = str(d / "socket")
    s = socket.socket(socket.AF_UNIX)
    s.bind(f["socket"])
    s.close()
    f["chardev"] = _mknod(str(d / "chardev"), S.S_IFCHR, os.makedev(1, 3)) \
        or "/dev/null"
    blk = _mknod(str(d / "blockdev"), S.S_IFBLK, os.makedev(7, 200))
    if blk:
        f["blockdev"] = blk
    f["unicode"] = str(d / "caf\u00e9-\u6587\u4ef6")
    open(f["unicode"], "wb").close()
    # A name that is not UTF-8: reached as str through surrogateescape.
    raw = os.fsencode(str(d)) + b"/bad-\xff\xfe"
    open(raw, "wb").close()
    f["undecodable"] = os.fsdecode(raw)
    yield f
    shutil.rmtree(d, ignore_errors=True)
