# SPDX-License-Identifier: LGPL-2.1-or-later
"""The change token and the data-version promise (xstat(3), issue 21)
against the C library's tool (tools/xstat -j), before and after changes,
on the test directory's filesystem and on tmpfs, as root and as nobody."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

import libxstat
from libxstat import Promise, Request, TokenSource

import oracle

TOKEN = Request.CHANGE_TOKEN | Request.DV_PROMISE
MASKS = [TOKEN, TOKEN | Request.BASIC,
         TOKEN | Request.BASIC | Request.DATA_VERSION]

# The tool's JSON names of the promise flags (tools/human.c) and sources.
TOOL_FLAG = {"CLOCK": "clock_step"}
TOOL_SOURCE = {TokenSource.DATA_VERSION: "data_version",
               TokenSource.CTIME: "ctime"}


def tool_flags(promise):
    return [TOOL_FLAG.get(f.name, f.name.lower())
            for f in sorted(Promise, key=lambda f: f.value) if promise & f]


def tool_token(tool, path, mask):
    j = oracle.tool_json(tool, path, mask)
    return j["change_token"], j["dv_promise"]


def assert_equals_tool(r, tool, path, mask):
    tok, dvp = tool_token(tool, path, mask)
    if tok is None:
        assert r.st_change_token is None
        assert r.st_change_token_promise is None
        assert not r.st_result_mask & Request.CHANGE_TOKEN
    else:
        assert r.st_result_mask & Request.CHANGE_TOKEN
        assert isinstance(r.st_change_token_promise, Promise)
        assert r.st_change_token_promise == tok["promise"]
        assert tool_flags(r.st_change_token_promise) == tok["flags"]
        assert TOOL_SOURCE[TokenSource(r.st_change_token_source)] == \
            tok["source"]
        # A LAGS token may differ with no change between the two calls.
        if not r.st_change_token_promise & Promise.LAGS:
            assert r.st_change_token == int(tok["token"])
    if dvp is None:
        assert r.st_dv_promise is None
        assert not r.st_result_mask & Request.DV_PROMISE
    else:
        assert isinstance(r.st_dv_promise, Promise)
        assert r.st_dv_promise == dvp["promise"]
        assert tool_flags(r.st_dv_promise) == dvp["flags"]


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("name", ["regular", "directory", "symlink",
                                  "fifo", "chardev"])
def test_token_equals_tool(files, xstat_tool, name, mask):
    p = files[name]
    r = libxstat.lstat(p, fields=mask)
    # Every caller gets a token, from some source.
    assert r.st_change_token is not None
    assert_equals_tool(r, xstat_tool, p, mask)
    # The data version's promise comes with the data version only.
    if r.st_dv_promise is not None:
        assert r.st_result_mask & Request.DATA_VERSION


def test_token_only_when_asked(files):
    r = libxstat.stat(files["regular"], fields=Request.BASIC)
    assert r.st_change_token is None and r.st_change_token_promise is None
    assert r.st_change_token_source is None and r.st_dv_promise is None
    assert "st_change_token" not in repr(r)
    r = libxstat.stat(files["regular"], fields=Request.CHANGE_TOKEN)
    assert "st_change_token=" in repr(r)
    assert hash(r.st_change_token) == hash(int(r.st_change_token))


def test_promise_matches_header(top_srcdir):
    text = open(os.path.join(top_srcdir, "include", "xstat.h")).read()
    want = {m.group(1): int(m.group(2), 16) for m in re.finditer(
        r"^#define\s+XSTAT_PROMISE_(\w+)\s+(0x[0-9a-fA-F]+)ULL", text, re.M)}
    assert want and {f.name: f.value for f in Promise} == want
    want = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^#define\s+XSTAT_TOKEN_FROM_(\w+)\s+(\d+)\b", text, re.M)}
    assert want and {s.name: s.value for s in TokenSource} == want


def _fsync(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _append(p):
    with open(p, "ab") as fp:
        fp.write(b"more")
        fp.flush()
        os.fsync(fp.fileno())


def _truncate(p):
    os.truncate(p, 1)


def _chmod(p):
    os.chmod(p, os.stat(p).st_mode ^ 0o040)


def _utime(p):
    os.utime(p, ns=(10**18, 10**18))


def _link(p):
    os.link(p, p + ".link")


def _unlink(p):
    os.unlink(p + ".link")


def _rename(p):
    os.rename(p, p + ".new")
    os.rename(p + ".new", p)


# Each change, and the promise flags beyond EVERY_CHANGE that cover it.
CHANGES = [(_append, Promise(0)), (_truncate, Promise(0)),
           (_append, Promise(0)), (_chmod, Promise.METADATA),
           (_utime, Promise.METADATA), (_link, Promise.NAMES),
           (_unlink, Promise.NAMES), (_rename, Promise.NAMES)]


@pytest.mark.parametrize("where", ["tmp_path", "tmpfs"])
@pytest.mark.parametrize("mask", [Request.CHANGE_TOKEN,
                                  Request.CHANGE_TOKEN |
                                  Request.DATA_VERSION])
def test_token_follows_changes(tmp_path, xstat_tool, where, mask):
    """Each change moves the token wherever its promise covers that
    change; no change leaves it equal.  Both match the tool's."""
    if where == "tmpfs":
        if not os.path.isdir("/dev/shm") or not os.access("/dev/shm",
                                                          os.W_OK):
            pytest.skip("no writable tmpfs at /dev/shm")
        d = tempfile.mkdtemp(dir="/dev/shm")
    else:
        d = str(tmp_path)
    try:
        p = os.path.join(d, "f")
        with open(p, "wb") as fp:
            fp.write(b"1")
        _fsync(p)
        before = libxstat.stat(p, fields=mask)
        moved = 0
        for change, needs in CHANGES:
            promise = before.st_change_token_promise
            assert promise is not None
            # Nothing changed: the same token (a LAGS one may differ).
            again = libxstat.stat(p, fields=mask)
            if not promise & Promise.LAGS:
                assert again.st_change_token == before.st_change_token
            change(p)
            _fsync(p)
            after = libxstat.stat(p, fields=mask)
            assert_equals_tool(after, xstat_tool, p, mask)
            covered = promise & Promise.EVERY_CHANGE and \
                not promise & Promise.TICK and promise & needs == needs
            if covered:
                assert after.st_change_token != before.st_change_token, \
                    (change.__name__, promise)
                moved += 1
            before = after
        if before.st_change_token_promise & Promise.EVERY_CHANGE and \
                not before.st_change_token_promise & Promise.TICK:
            assert moved >= 3       # at least the data changes
    finally:
        if where == "tmpfs":
            shutil.rmtree(d)


def test_dv_promise_only_with_data_version(files):
    r = libxstat.stat(files["regular"],
                      fields=Request.DV_PROMISE | Request.DATA_VERSION)
    assert (r.st_dv_promise is None) == (r.st_data_version is None)
    r = libxstat.stat(files["regular"], fields=Request.DV_PROMISE)
    assert r.st_data_version is None


def _mount_visible(path):
    """Is the mount holding @path a line of /proc/self/mountinfo?"""
    sx = oracle.statx(path, oracle.STATX_MNT_ID)
    if not sx.stx_mask & oracle.STATX_MNT_ID:
        return False
    with open("/proc/self/mountinfo") as f:
        return any(line.split(None, 1)[0] == str(sx.stx_mnt_id)
                   for line in f)


CHILD = """
import sys
import libxstat
from libxstat import Request
r = libxstat.stat(sys.argv[1], fields=Request.CHANGE_TOKEN)
print(r.st_change_token, int(r.st_change_token_promise),
      r.st_change_token_source)
"""


def test_token_as_nobody():
    """An unprivileged caller gets the same ctime token as root, and it
    moves after a change."""
    if os.getuid() != 0:
        pytest.skip("needs root to become nobody")
    if shutil.which("setpriv") is None:
        pytest.skip("no setpriv")
    top = tempfile.mkdtemp()
    try:
        os.chmod(top, 0o755)
        p = os.path.join(top, "f")
        with open(p, "wb") as fp:
            fp.write(b"1")
        os.chmod(p, 0o644)
        _fsync(p)
        pkg = os.path.dirname(os.path.dirname(libxstat.__file__))
        env = dict(os.environ, PYTHONPATH=pkg)

        def child():
            c = subprocess.run(
                ["setpriv", "--reuid=65534", "--regid=65534",
                 "--clear-groups", sys.executable, "-c", CHILD, p],
                env=env, capture_output=True, text=True)
            if "ModuleNotFoundError" in c.stderr or \
                    "ImportError" in c.stderr:
                pytest.skip("nobody cannot read the built module: " +
                            c.stderr)
            assert c.returncode == 0, c.stderr
            tok, promise, source = c.stdout.split()
            return int(tok), Promise(int(promise)), int(source)

        tok, promise, source = child()
        r = libxstat.stat(p, fields=Request.CHANGE_TOKEN)
        assert source == TokenSource.CTIME == r.st_change_token_source
        if promise != r.st_change_token_promise and \
                not _mount_visible(p):
            # A chroot: nobody's statmount cannot see the mount, so it
            # cannot tell a multigrain filesystem; it must say so.
            assert promise & Promise.TICK
            assert not promise & Promise.EVERY_CHANGE
        else:
            assert promise == r.st_change_token_promise
        if not promise & Promise.LAGS:
            assert tok == r.st_change_token
        _append(p)
        tok2, promise2, _ = child()
        if promise & Promise.EVERY_CHANGE and not promise & Promise.TICK:
            assert tok2 != tok
        if not promise2 & Promise.LAGS:
            assert tok2 == libxstat.stat(
                p, fields=Request.CHANGE_TOKEN).st_change_token
    finally:
        shutil.rmtree(top)
