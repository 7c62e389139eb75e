# SPDX-License-Identifier: LGPL-2.1-or-later
"""The GIL is released while the C library runs: a stat(), fstat() or
scandir() that blocks in the kernel leaves the other threads running.

The call is made to block for as long as the test likes: the file is on a
FUSE mount (tests/fuse/countfs, attribute and entry timeouts 0) whose
server is stopped with SIGSTOP.  A child interpreter starts the call in
a thread and, a while later, its main thread prints "running": it can only
do so if the blocked call let go of the GIL.  Then the server continues
and the call must complete with the right answer."""

import os
import select
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import os, sys, threading, time
import libxstat
path, what = sys.argv[1], sys.argv[2]
started, out = threading.Event(), {}
fd = os.open(path, os.O_RDONLY) if what == "fstat" else None
print("ready", flush=True)
sys.stdin.readline()            # the parent has stopped the server

def run():
    started.set()
    if what == "stat":
        out["size"] = libxstat.stat(path).st_size
    elif what == "fstat":
        out["size"] = libxstat.fstat(fd, sync=True).st_size
    else:
        out["size"] = [e.xstat.st_size
                       for e in libxstat.scandir(os.path.dirname(path))][0]

t = threading.Thread(target=run, daemon=True)
t.start()
started.wait()
time.sleep(0.5)
# Only reached if the blocked thread released the GIL.
print("running", t.is_alive(), flush=True)
t.join()
print("size", out["size"], flush=True)
"""


def _readline(p, timeout):
    r, _, _ = select.select([p.stdout], [], [], timeout)
    return p.stdout.readline().strip() if r else None


@pytest.fixture
def fuse_file(tmp_path):
    """A 1234-byte file, alone in its directory, on a countfs mount;
    yields (path, server)."""
    top = os.environ.get("top_builddir")
    countfs = os.path.join(top or ".", "tests", "fuse", "countfs")
    if not top or not os.access(countfs, os.X_OK):
        pytest.skip("tests/fuse/countfs not built (libfuse3, cmocka)")
    if os.geteuid() != 0:
        pytest.skip("a countfs mount needs root")
    try:
        os.close(os.open("/dev/fuse", os.O_RDWR))
    except OSError as e:
        pytest.skip(f"/dev/fuse: {e}")
    src, mnt = tmp_path / "src", tmp_path / "mnt"
    os.mkdir(src)
    os.mkdir(mnt)
    os.mkdir(src / "d")
    (src / "d" / "f").write_bytes(b"x" * 1234)
    server = subprocess.Popen(
        [countfs, "-f", f"--source={src}",
         f"--counters={tmp_path / 'counters'}", "--attr-timeout=0",
         "--entry-timeout=0", "-o", "fsname=countfs,subtype=countfs",
         str(mnt)], stderr=subprocess.PIPE)
    try:
        for _ in range(500):
            if os.path.ismount(mnt) or server.poll() is not None:
                break
            time.sleep(0.01)
        if not os.path.ismount(mnt):
            server.kill()
            pytest.skip("countfs did not mount: " +
                        server.communicate()[1].decode(errors="replace"))
        yield str(mnt / "d" / "f"), server
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGCONT)
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
        if server.poll() is None:
            server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.parametrize("what", ["stat", "fstat", "scandir"])
def test_blocked_call_releases_gil(fuse_file, what):
    path, server = fuse_file
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, path, what], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _readline(child, 30) == "ready", child.stderr.read()
        server.send_signal(signal.SIGSTOP)
        child.stdin.write("go\n")
        child.stdin.flush()
        line = _readline(child, 10)
        server.send_signal(signal.SIGCONT)
        # None: the main thread never ran again while the call blocked.
        assert line == "running True", \
            "the GIL was held during the blocked call"
        assert _readline(child, 30) == "size 1234"
        assert child.wait(timeout=30) == 0
    finally:
        server.send_signal(signal.SIGCONT)
        if child.poll() is None:
            child.kill()
            child.wait()
