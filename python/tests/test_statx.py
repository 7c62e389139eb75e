# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.statx(), Python 3.15's os.statx() early: against os.statx
where the interpreter has it, the kernel's statx(2) through glibc and
libxstat.stat() everywhere."""

import os
import pickle
import stat as S

import pytest

import libxstat
from libxstat import Request

import oracle

TYPES = ["regular", "empty", "directory", "symlink", "fifo", "socket",
         "chardev", "undecodable"]

# The names os.statx_result has (Doc/library/os.rst, 3.15).
STX_NAMES = [
    "stx_atime", "stx_atime_ns", "stx_atomic_write_segments_max",
    "stx_atomic_write_unit_max", "stx_atomic_write_unit_max_opt",
    "stx_atomic_write_unit_min", "stx_attributes", "stx_attributes_mask",
    "stx_blksize", "stx_blocks", "stx_btime", "stx_btime_ns", "stx_ctime",
    "stx_ctime_ns", "stx_dev", "stx_dev_major", "stx_dev_minor",
    "stx_dio_mem_align", "stx_dio_offset_align",
    "stx_dio_read_offset_align", "stx_gid", "stx_ino", "stx_mask",
    "stx_mnt_id", "stx_mode", "stx_mtime", "stx_mtime_ns", "stx_nlink",
    "stx_rdev", "stx_rdev_major", "stx_rdev_minor", "stx_size",
    "stx_subvol", "stx_uid"]

CONSTS = ["STATX_TYPE", "STATX_MODE", "STATX_NLINK", "STATX_UID",
          "STATX_GID", "STATX_ATIME", "STATX_MTIME", "STATX_CTIME",
          "STATX_INO", "STATX_SIZE", "STATX_BLOCKS", "STATX_BASIC_STATS",
          "STATX_BTIME", "STATX_MNT_ID", "STATX_DIOALIGN",
          "STATX_MNT_ID_UNIQUE", "STATX_SUBVOL", "STATX_WRITE_ATOMIC",
          "STATX_DIO_READ_ALIGN", "AT_STATX_SYNC_AS_STAT",
          "AT_STATX_FORCE_SYNC", "AT_STATX_DONT_SYNC", "AT_NO_AUTOMOUNT"]

MASK = libxstat.STATX_BASIC_STATS | libxstat.STATX_BTIME

# Fields that stay put between two calls on an untouched file (atime
# may move: the tests read files).
STABLE = ["stx_mode", "stx_ino", "stx_dev", "stx_dev_major",
          "stx_dev_minor", "stx_nlink", "stx_uid", "stx_gid", "stx_size",
          "stx_blocks", "stx_blksize", "stx_mtime_ns", "stx_ctime_ns",
          "stx_btime_ns", "stx_rdev", "stx_rdev_major", "stx_rdev_minor",
          "stx_mnt_id"]


def path_of(files, name):
    if name not in files:
        pytest.skip(f"no {name} here")
    return files[name]


def test_constants_are_the_kernels():
    """The values of <linux/stat.h> and <fcntl.h>, as the oracle has
    them, and os's where it has them."""
    for name in CONSTS:
        v = getattr(libxstat, name)
        if hasattr(oracle, name):
            assert v == getattr(oracle, name), name
        if hasattr(os, name):
            assert v == getattr(os, name), name
    assert libxstat.STATX_BASIC_STATS == 0x7FF
    assert libxstat.AT_STATX_FORCE_SYNC == 0x2000
    assert libxstat.AT_STATX_DONT_SYNC == 0x4000
    assert libxstat.AT_NO_AUTOMOUNT == 0x800


def test_every_name_of_os_statx_result(files):
    r = libxstat.statx(files["regular"], libxstat.STATX_BASIC_STATS |
                       libxstat.STATX_BTIME | libxstat.STATX_DIOALIGN)
    for name in STX_NAMES:
        getattr(r, name)        # none missing
    if hasattr(os, "statx_result"):
        theirs = {n for n in dir(os.statx_result) if n.startswith("stx_")}
        assert theirs <= set(dir(r)) | set(STX_NAMES)


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("follow", [True, False])
def test_against_glibc_statx(files, name, follow):
    """stx_* against the kernel's own struct statx."""
    p = path_of(files, name)
    try:
        k = oracle.statx(p, MASK, follow)
    except OSError as e:
        if e.errno == 38:
            pytest.skip("no statx(2) here")
        with pytest.raises(OSError) as ours:
            libxstat.statx(p, MASK, follow_symlinks=follow)
        assert ours.value.errno == e.errno
        return
    r = libxstat.statx(p, MASK, follow_symlinks=follow)
    assert libxstat.statx(p, MASK, follow_symlinks=follow) is not r
    # The basic stats and btime as the kernel reported them.
    assert r.stx_mask & MASK == k.stx_mask & MASK
    assert r.stx_mode == k.stx_mode
    assert r.stx_ino == k.stx_ino
    assert r.stx_nlink == k.stx_nlink
    assert (r.stx_uid, r.stx_gid) == (k.stx_uid, k.stx_gid)
    assert r.stx_size == k.stx_size
    assert r.stx_blksize == k.stx_blksize
    assert (r.stx_dev_major, r.stx_dev_minor) == (k.stx_dev_major,
                                                  k.stx_dev_minor)
    assert r.stx_dev == os.makedev(k.stx_dev_major, k.stx_dev_minor)
    assert (r.stx_rdev_major, r.stx_rdev_minor) == (k.stx_rdev_major,
                                                    k.stx_rdev_minor)
    assert r.stx_mtime_ns == k.stx_mtime.ns()
    assert r.stx_ctime_ns == k.stx_ctime.ns()
    if k.stx_mask & libxstat.STATX_BTIME:
        assert r.stx_btime_ns == k.stx_btime.ns()
        assert r.stx_btime == pytest.approx(k.stx_btime.ns() / 1e9)
    else:
        assert r.stx_btime is None and r.stx_btime_ns is None
    # The kernel always gives a mount ID, mountinfo's when the unique one
    # is not asked for (test_statx_mnt.py: each mask), and the attributes.
    mnt = libxstat.STATX_MNT_ID | libxstat.STATX_MNT_ID_UNIQUE
    assert r.stx_mask & mnt == k.stx_mask & mnt == libxstat.STATX_MNT_ID
    assert r.stx_mnt_id == k.stx_mnt_id
    assert r.stx_attributes_mask == k.stx_attributes_mask
    assert r.stx_attributes == k.stx_attributes


@pytest.mark.parametrize("name", TYPES)
def test_against_libxstat_stat(files, name):
    """The same call as libxstat.stat() with the matching fields."""
    p = path_of(files, name)
    fields = Request.BASIC | Request.BTIME
    x = libxstat.lstat(p, fields=fields)
    r = libxstat.statx(p, MASK, follow_symlinks=False)
    assert r.stx_mode == x.st_mode and r.stx_ino == x.st_ino
    assert r.stx_dev == x.st_dev and r.stx_size == x.st_size
    assert r.stx_blocks == x.st_blocks and r.stx_blksize == x.st_blksize
    assert r.stx_mtime_ns == x.st_mtime_ns
    assert r.stx_btime_ns == x.st_birthtime_ns
    assert r.stx_rdev == (x.st_rdev or 0)
    assert r.xstat.st_result_mask & fields == x.st_result_mask & fields


@pytest.mark.skipif(not hasattr(os, "statx"),
                    reason="this Python has no os.statx() (3.15+)")
@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("mask", [
    0x7FF | 0x800, 0x1, 0x800, 0x7FF | 0x4000, 0x7FF | 0x2000 | 0x20000])
def test_against_os_statx(files, name, mask):
    p = path_of(files, name)
    o = os.statx(p, mask, follow_symlinks=False)
    r = libxstat.statx(p, mask, follow_symlinks=False)
    assert r.stx_mask & (mask | 0x7FF | 0x1000) == \
        o.stx_mask & (mask | 0x7FF | 0x1000)
    assert r.stx_mnt_id == o.stx_mnt_id
    for n in STABLE + ["stx_attributes", "stx_attributes_mask",
                       "stx_dio_mem_align", "stx_dio_offset_align",
                       "stx_dio_read_offset_align"]:
        assert getattr(r, n) == getattr(o, n), n


def test_descriptor_and_dir_fd(files):
    p = files["regular"]
    fd = os.open(p, os.O_RDONLY)
    try:
        a = libxstat.statx(fd, MASK)
    finally:
        os.close(fd)
    d = os.open(os.path.dirname(p), os.O_RDONLY | os.O_DIRECTORY)
    try:
        b = libxstat.statx(os.path.basename(p), MASK, dir_fd=d)
    finally:
        os.close(d)
    c = libxstat.statx(p.encode(), MASK)
    for n in STABLE:
        assert getattr(a, n) == getattr(b, n) == getattr(c, n), n


def test_symlinks(files):
    link = libxstat.statx(files["symlink"], MASK, follow_symlinks=False)
    target = libxstat.statx(files["symlink"], MASK)
    assert S.S_ISLNK(link.stx_mode) and S.S_ISREG(target.stx_mode)
    assert target.stx_ino == os.stat(files["regular"]).st_ino


def test_mask_limits_what_is_given(files):
    r = libxstat.statx(files["regular"], libxstat.STATX_INO)
    assert r.stx_ino == os.stat(files["regular"]).st_ino
    # No btime, no direct I/O alignment unless asked.
    assert r.stx_btime is None and not r.stx_mask & libxstat.STATX_BTIME
    assert r.stx_dio_mem_align is None


def test_flags(files):
    p = files["regular"]
    for f in (0, libxstat.AT_STATX_FORCE_SYNC, libxstat.AT_STATX_DONT_SYNC,
              libxstat.AT_NO_AUTOMOUNT, libxstat.AT_STATX_SYNC_AS_STAT):
        assert libxstat.statx(p, MASK, flags=f).stx_ino == os.stat(p).st_ino
    with pytest.raises(OSError) as e:
        libxstat.statx(p, MASK, flags=0x100)     # AT_SYMLINK_NOFOLLOW
    assert e.value.errno == 22
    with pytest.raises(OSError):
        libxstat.statx(p, MASK, flags=libxstat.AT_STATX_FORCE_SYNC |
                       libxstat.AT_STATX_DONT_SYNC)
    with pytest.raises(TypeError):
        libxstat.statx(p, MASK, 0)      # flags is keyword-only, as in 3.15


def test_errors_as_os_stat(tmp_path):
    missing = str(tmp_path / "missing")
    with pytest.raises(FileNotFoundError) as e:
        libxstat.statx(missing, MASK)
    assert e.value.filename == missing
    with pytest.raises(TypeError):
        libxstat.statx(1.5, MASK)


def test_extras(files):
    """libxstat's own fields through extra= and result.xstat."""
    p = files["regular"]
    r = libxstat.statx(p, MASK, extra=Request.GEN | Request.CHANGE_TOKEN)
    x = libxstat.stat(p, fields=Request.GEN | Request.CHANGE_TOKEN |
                      Request.INO)
    assert r.st_gen == x.st_gen
    assert r.st_change_token == x.st_change_token is not None
    assert r.xstat.st_change_token_promise == x.st_change_token_promise
    plain = libxstat.statx(p, MASK)
    assert plain.st_gen is None and plain.st_change_token is None
    with pytest.raises(ValueError):
        libxstat.statx(p, MASK, extra=Request.INO)


def test_equality_and_pickle(files):
    p = files["directory"]
    a = libxstat.statx(p, MASK & ~libxstat.STATX_ATIME)
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is libxstat.statx_result and a == b
    assert b.stx_mask == a.stx_mask and b.stx_mnt_id == a.stx_mnt_id
    assert "stx_ino=" in repr(a)
