# SPDX-License-Identifier: LGPL-2.1-or-later
"""On an ext4 image loop-mounted here, where root can read the device: the
data version and the generation have values (elsewhere, with the device
out of reach, both sides of test_stat.py's comparisons may be None), and
they equal the C library's tool, lsattr -v and each other across stat(),
scandir() and the fallback with statx blocked."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import libxstat
from libxstat import Request

import oracle


@pytest.fixture(scope="module")
def ext4(tmp_path_factory):
    """A directory on a fresh loop-mounted ext4; skips where it cannot
    be made (not root, no mkfs.ext4, no loop devices)."""
    if os.geteuid() != 0:
        pytest.skip("loop-mounting an image needs root")
    if not shutil.which("mkfs.ext4"):
        pytest.skip("no mkfs.ext4 (e2fsprogs)")
    d = tmp_path_factory.mktemp("ext4")
    img, mnt = d / "img", d / "mnt"
    with open(img, "wb") as f:
        f.truncate(64 << 20)
    os.mkdir(mnt)
    p = subprocess.run(["mkfs.ext4", "-q", "-F", str(img)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip("mkfs.ext4: " + p.stderr)
    p = subprocess.run(["mount", "-o", "loop", str(img), str(mnt)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip("cannot loop-mount an image: " + p.stderr)
    try:
        why = raw_unreachable(str(mnt))
        if why:
            pytest.skip("the library cannot read this ext4's inodes: " + why)
        yield str(mnt)
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
        img.unlink()


def raw_unreachable(mnt):
    """Why the C library could not read raw inodes of the filesystem on
    mnt (its own path to the device: sysfs, /dev, the ext4 driver), or
    None.  A chroot without /sys, or a sandbox that denies the device,
    has no data version: a reason to skip, not a failure."""
    dev = os.stat(mnt).st_dev
    uevent = f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}/uevent"
    try:
        with open(uevent) as f:
            name = dict(line.split("=", 1) for line in
                        f.read().splitlines() if "=" in line)["DEVNAME"]
        os.close(os.open("/dev/" + name, os.O_RDONLY | os.O_CLOEXEC))
    except (OSError, KeyError) as e:
        return f"{uevent}: {e!r}"
    if not os.path.isdir("/sys/fs/ext4/" + name):
        return f"/sys/fs/ext4/{name}: not the ext4 driver"
    return None


def write(path, data):
    with open(path, "ab") as f:
        f.write(data)


def test_data_version_and_gen(ext4, xstat_tool):
    p = os.path.join(ext4, "f")
    write(p, b"1")
    seen = set()
    for data in (b"", b"2", b"33"):
        write(p, data)
        mask = Request.BASIC | Request.GEN | Request.DATA_VERSION
        r = libxstat.lstat(p, fields=mask)
        want = oracle.tool_json(xstat_tool, p, mask)
        assert r.st_data_version is not None, "no data version as root"
        assert r.st_data_version == want["data_version"]
        assert r.st_gen == want["gen"] == oracle.lsattr_generation(p)
        seen.add(r.st_data_version)
    # Each write that changed the data moved it.
    assert len(seen) == 3


def test_scandir_raw_equals_per_call(ext4):
    d = os.path.join(ext4, "many")
    os.mkdir(d)
    for i in range(300):
        write(os.path.join(d, f"f{i}"), b"x" * i)
    os.mkdir(os.path.join(d, "sub"))
    os.symlink("f1", os.path.join(d, "link"))
    for fields in (Request.EXTENDED, Request.ALL):
        n = 0
        for e in libxstat.scandir(d, fields=fields):
            assert e.xstat == libxstat.lstat(e.path, fields=fields), e.name
            assert e.xstat.st_gen is not None, e.name
            if not e.is_symlink():
                assert e.xstat.st_data_version is not None, e.name
            n += 1
        assert n == 302


CHILD = r"""
import json, sys
import libxstat, oracle
from libxstat import Request
r = libxstat.lstat(sys.argv[1], fields=Request.EXTENDED)
print(json.dumps({"blocked": oracle.raw_statx_errno(),
                  "btime": r.st_birthtime_ns, "gen": r.st_gen,
                  "dv": r.st_data_version, "basic": list(r)}))
"""


def test_fallback_from_raw_inode(ext4, xstat_tool):
    """statx blocked: the creation time, generation and data version come
    from the raw inode, and equal the kernel's statx, lsattr -v and the
    tool run without the block."""
    runner = os.environ.get("SECCOMP_RUN", "")
    if not os.access(runner, os.X_OK):
        pytest.skip("tests/seccomp-run not built")
    p = os.path.join(ext4, "fb")
    write(p, b"fallback")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(oracle.__file__), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([runner, "-e", "ENOSYS", "-s", "statx", "--",
                          sys.executable, "-c", CHILD, p], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["blocked"] == 38, "statx was not blocked in the child"
    want = oracle.tool_json(xstat_tool, p, Request.EXTENDED)
    assert got["btime"] is not None
    assert got["btime"] == oracle.statx_btime_ns(p, follow=False)
    assert got["gen"] == oracle.lsattr_generation(p) == want["gen"]
    assert got["dv"] is not None and got["dv"] == want["data_version"]
    assert got["basic"] == list(os.lstat(p))
