# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.stat/lstat/fstat against os.stat/os.lstat/os.fstat, glibc's
statx, lsattr -v and the C library's tool."""

import errno
import os
import pathlib
import stat as S
import subprocess
import threading

import pytest

import libxstat
from libxstat import Request

import oracle

TYPES = ["regular", "empty", "hardlink", "directory", "symlink", "dangling",
         "fifo", "socket", "chardev", "blockdev", "unicode", "undecodable"]

# os.stat_result's names that libxstat returns in the same form.
SAME = ["st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid",
        "st_size", "st_blocks", "st_blksize", "st_atime", "st_mtime",
        "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns"]


def path_of(files, name):
    if name not in files:
        pytest.skip(f"no {name} here (device nodes need root)")
    return files[name]


def assert_same(r, o):
    """Every basic field of r (libxstat) equals os's o."""
    for name in SAME:
        assert getattr(r, name) == getattr(o, name), name
    # st_rdev: only device nodes have one (xstat(3) class (2)).
    if S.S_ISCHR(o.st_mode) or S.S_ISBLK(o.st_mode):
        assert r.st_rdev == o.st_rdev
    else:
        assert r.st_rdev is None and o.st_rdev == 0
    assert tuple(r) == tuple(o)
    assert len(r) == len(o) == 10
    assert r[S.ST_MODE] == o[S.ST_MODE] and r[-1] == o[-1]
    assert r[2:8] == o[2:8]


@pytest.mark.parametrize("name", TYPES)
def test_lstat_equals_os_lstat(files, name):
    p = path_of(files, name)
    assert_same(libxstat.lstat(p), os.lstat(p))
    assert_same(libxstat.stat(p, follow_symlinks=False), os.lstat(p))


@pytest.mark.parametrize("name", TYPES)
def test_stat_equals_os_stat(files, name):
    p = path_of(files, name)
    try:
        o = os.stat(p)
    except FileNotFoundError:
        with pytest.raises(FileNotFoundError):
            libxstat.stat(p)
        return
    assert_same(libxstat.stat(p), o)


@pytest.mark.parametrize("name", ["regular", "directory", "fifo", "socket"])
def test_path_forms(files, name):
    """bytes, os.PathLike, dir_fd and fd paths as os.stat takes them."""
    p = files[name]
    o = os.lstat(p)
    assert_same(libxstat.lstat(os.fsencode(p)), o)
    assert_same(libxstat.lstat(pathlib.Path(p)), o)
    assert_same(libxstat.stat(path=p, follow_symlinks=False), o)
    dfd = os.open(os.path.dirname(p), os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert_same(libxstat.lstat(os.path.basename(p), dir_fd=dfd), o)
    finally:
        os.close(dfd)
    if name != "socket":
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
        try:
            assert_same(libxstat.fstat(fd), os.fstat(fd))
            assert_same(libxstat.fstat(fd=fd), os.fstat(fd))
            assert_same(libxstat.stat(fd), os.stat(fd))
        finally:
            os.close(fd)


def test_fd_of_every_type(files):
    """fstat on O_PATH descriptors, which every type can be opened as."""
    for name in TYPES:
        if name not in files:
            continue
        fd = os.open(files[name], os.O_PATH | os.O_NOFOLLOW)
        try:
            assert_same(libxstat.fstat(fd), os.fstat(fd))
        finally:
            os.close(fd)


@pytest.mark.parametrize("name", TYPES)
def test_btime_equals_statx(files, name):
    p = path_of(files, name)
    want = oracle.statx_btime_ns(p, follow=False)
    r = libxstat.lstat(p)
    assert r.st_birthtime_ns == want
    assert bool(r.st_result_mask & Request.BTIME) == (want is not None)
    if want is None:
        assert r.st_birthtime is None
    else:
        assert r.st_birthtime == r.st_birthtime_ns // 10**9 + \
            (r.st_birthtime_ns % 10**9) * 1e-9


def test_btime_tmpfs(tmp_path):
    """A second filesystem type: tmpfs, where statx has a btime too."""
    shm = "/dev/shm"
    if not os.access(shm, os.W_OK):
        pytest.skip("no writable /dev/shm")
    fd, p = __import__("tempfile").mkstemp(dir=shm)
    try:
        assert libxstat.fstat(fd).st_birthtime_ns == \
            oracle.statx_btime_ns(p)
        assert_same(libxstat.stat(p), os.stat(p))
    finally:
        os.close(fd)
        os.unlink(p)


@pytest.mark.parametrize("name", ["regular", "directory"])
def test_generation_equals_lsattr(files, name):
    p = files[name]
    want = oracle.lsattr_generation(p)
    if want is None:
        pytest.skip("lsattr -v does not work on this filesystem")
    r = libxstat.stat(p, fields=Request.GEN)
    assert r.st_gen == want
    assert r.st_result_mask & Request.GEN


@pytest.mark.parametrize("name", ["regular", "directory", "symlink"])
def test_data_version_equals_tool(files, xstat_tool, name):
    p = files[name]
    mask = Request.BASIC | Request.DATA_VERSION
    want = oracle.tool_json(xstat_tool, p, mask)["data_version"]
    r = libxstat.lstat(p, fields=mask)
    assert r.st_data_version == want
    assert bool(r.st_result_mask & Request.DATA_VERSION) == \
        (want is not None)


def test_data_version_follows_writes(tmp_path, xstat_tool):
    p = str(tmp_path / "dv")
    with open(p, "wb") as fp:
        fp.write(b"1")
    for data in (b"2", b"33"):
        with open(p, "ab") as fp:
            fp.write(data)
        want = oracle.tool_json(xstat_tool, p, Request.DATA_VERSION)
        assert libxstat.stat(p, fields=Request.DATA_VERSION)\
            .st_data_version == want["data_version"]


def test_extras_equal_statx(files):
    p = files["regular"]
    r = libxstat.stat(p, fields=Request.BASIC | Request.EXTRA)
    mask = r.st_result_mask
    sx = oracle.statx(p, oracle.STATX_MNT_ID_UNIQUE | oracle.STATX_DIOALIGN)
    if mask & Request.MNT_ID:
        if sx.stx_mask & oracle.STATX_MNT_ID_UNIQUE:
            assert r.st_mnt_id_unique is True
        if r.st_mnt_id_unique:
            assert r.st_mnt_id == sx.stx_mnt_id
        else:
            sx = oracle.statx(p, oracle.STATX_MNT_ID)
            assert r.st_mnt_id == sx.stx_mnt_id
    else:
        assert r.st_mnt_id is None and r.st_mnt_id_unique is None
    sx = oracle.statx(p, oracle.STATX_ALL)
    if sx.stx_mask & oracle.STATX_DIOALIGN:
        assert mask & Request.DIOALIGN
        assert r.st_dio_mem_align == sx.stx_dio_mem_align
        assert r.st_dio_offset_align == sx.stx_dio_offset_align
    assert mask & Request.ATTRIBUTES
    assert r.st_attributes == sx.stx_attributes
    assert r.st_attributes_mask == sx.stx_attributes_mask
    # Extras are returned only when asked for.
    r = libxstat.stat(p)
    assert r.st_mnt_id is None and r.st_attributes is None
    assert not r.st_result_mask & Request.EXTRA


def test_request_matches_header(top_srcdir):
    want = oracle.header_constants(top_srcdir)
    names = {"_BASIC_STATS": "BASIC", "_EXTENDED_STATS": "EXTENDED",
             "_EXTRA_RESULTS": "EXTRA", "_ALL_STATS": "ALL"}
    for key, value in want.items():
        kind, _, bit = key.partition("_")
        cls = libxstat.Request if kind == "REQUEST" else libxstat.Attr
        assert cls[names.get(bit, bit)] == value, key
    assert libxstat.DEFAULT_FIELDS == Request.BASIC | Request.BTIME


@pytest.mark.parametrize("fields", [0, Request.MODE, Request.SIZE,
                                    Request.BTIME, Request.GEN,
                                    Request.EXTENDED, Request.ALL])
def test_none_exactly_when_absent(files, fields):
    """A field is None exactly when its bit is clear in st_result_mask."""
    bits = {"st_mode": Request.MODE, "st_ino": Request.INO,
            "st_nlink": Request.NLINK, "st_uid": Request.UID,
            "st_gid": Request.GID, "st_size": Request.SIZE,
            "st_blocks": Request.BLOCKS, "st_atime_ns": Request.ATIME,
            "st_mtime_ns": Request.MTIME, "st_ctime_ns": Request.CTIME,
            "st_atime": Request.ATIME, "st_birthtime": Request.BTIME,
            "st_birthtime_ns": Request.BTIME, "st_gen": Request.GEN,
            "st_data_version": Request.DATA_VERSION,
            "st_mnt_id": Request.MNT_ID, "st_subvol": Request.SUBVOL,
            "st_attributes": Request.ATTRIBUTES,
            "st_change_token": Request.CHANGE_TOKEN,
            "st_change_token_promise": Request.CHANGE_TOKEN,
            "st_change_token_source": Request.CHANGE_TOKEN,
            "st_dv_promise": Request.DV_PROMISE}
    r = libxstat.stat(files["regular"], fields=fields)
    assert isinstance(r.st_result_mask, Request)
    for name, bit in bits.items():
        assert (getattr(r, name) is None) == (not r.st_result_mask & bit), \
            name
    assert not r.st_result_mask & Request.EXTRA & ~fields


def test_result_is_immutable(files):
    r = libxstat.stat(files["regular"])
    with pytest.raises(AttributeError):
        r.st_size = 0
    with pytest.raises(AttributeError):
        del r.st_mode
    with pytest.raises(AttributeError):
        r.anything = 1
    with pytest.raises(TypeError):
        libxstat.xstat_result()
    with pytest.raises(TypeError):
        type("Sub", (libxstat.xstat_result,), {})
    with pytest.raises(TypeError):
        r[0] = 1


def test_result_value_semantics(files):
    a = libxstat.lstat(files["regular"])
    b = libxstat.lstat(files["hardlink"])
    c = libxstat.lstat(files["directory"])
    assert a == b and hash(a) == hash(b)
    assert a != c
    # As os.stat_result: equal to a tuple of the same 10 items.
    assert a == tuple(a) and hash(a) == hash(tuple(a))
    assert repr(a).startswith("libxstat.xstat_result(st_mode=")
    assert "st_gen" not in repr(a)
    with pytest.raises(IndexError):
        a[10]
    assert list(a) == list(os.lstat(files["regular"]))


def test_sync_flags(files):
    p = files["regular"]
    o = os.stat(p)
    for sync in (None, True, False):
        assert_same(libxstat.stat(p, sync=sync), o)
    with pytest.raises(TypeError):
        libxstat.stat(p, sync=1)


def test_fields_argument(files):
    p = files["regular"]
    assert libxstat.stat(p, fields=int(Request.SIZE)).st_size == 10000
    # Undefined bits are ignored, as by xstat(3).
    assert libxstat.stat(p, fields=1 << 63 | Request.SIZE).st_size == 10000
    with pytest.raises(TypeError):
        libxstat.stat(p, fields="size")
    with pytest.raises(ValueError):
        libxstat.stat(p, fields=-1)
    with pytest.raises(ValueError):
        libxstat.stat(p, fields=1 << 64)


def test_threads(files):
    """Many threads at once (the GIL is dropped around each call)."""
    p = files["regular"]
    want = os.stat(p)
    bad = []

    def run():
        for _ in range(2000):
            if tuple(libxstat.stat(p)) != tuple(want):
                bad.append(1)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad


def test_typing_marker():
    d = os.path.dirname(libxstat.__file__)
    assert os.path.exists(os.path.join(d, "py.typed"))
    assert os.path.exists(os.path.join(d, "_libxstat.pyi"))
    assert libxstat.stat.__doc__ and libxstat.xstat_result.st_gen.__doc__


MYPY_USE = '''
import libxstat
from libxstat import Request
r = libxstat.stat("/", fields=Request.BASIC | Request.GEN)
b: float | None = r.st_birthtime
m: Request = r.st_result_mask
for e in libxstat.scandir("/etc"):
    x: int | None = e.stat(follow_symlinks=False).st_size
y: str = r.st_size
'''


def test_type_hints(tmp_path):
    """mypy --strict accepts the package and a user's code, and catches a
    wrong type in it (the hints are there and say what the code does)."""
    pytest.importorskip("mypy")
    import subprocess
    import sys
    use = tmp_path / "use.py"
    use.write_text(MYPY_USE)
    pkg = os.path.dirname(libxstat.__file__)
    p = subprocess.run([sys.executable, "-m", "mypy", "--strict",
                        "--no-incremental", "--cache-dir", str(tmp_path),
                        pkg, str(use)], capture_output=True, text=True,
                       cwd=tmp_path)
    errors = [line for line in p.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "use.py:9:" in errors[0], p.stdout


@pytest.mark.parametrize("fields", [Request.BASIC, Request.BTIME,
                                    Request.EXTENDED])
def test_why_missing(files, fields):
    """Each reason agrees with st_result_mask: PRESENT exactly when the
    field is there, NOT_REQUESTED only for what was not asked for."""
    for name in ("regular", "directory", "symlink", "fifo"):
        r = libxstat.lstat(files[name], fields=fields | Request.WHY_MISSING)
        assert r.st_result_mask & Request.WHY_MISSING
        for attr, bit in (("btime", Request.BTIME), ("gen", Request.GEN),
                          ("data_version", Request.DATA_VERSION)):
            why = libxstat.Why(getattr(r, "st_why_missing_" + attr))
            present = bool(r.st_result_mask & bit)
            assert (why == libxstat.Why.PRESENT) == present, (name, attr)
            if why == libxstat.Why.NOT_REQUESTED:
                assert not fields & bit, (name, attr)
            elif not present:
                assert fields & bit, (name, attr)
    r = libxstat.lstat(files["regular"], fields=fields)
    assert r.st_why_missing_gen is None


def test_why_matches_header(top_srcdir):
    import re
    text = open(os.path.join(top_srcdir, "include", "xstat.h")).read()
    want = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^#define\s+XSTAT_WHY_(\w+)\s+(\d+)\b", text, re.M)}
    assert want and {w.name: w.value for w in libxstat.Why} == want


def test_names_of_os_stat_result(files):
    """Every st_* attribute os.stat_result has here, xstat_result has, with
    a value of the same type where both hold one."""
    names = [n for n in dir(os.stat_result) if n.startswith("st_")]
    assert "st_mode" in names and "st_atime_ns" in names
    missing = [n for n in names if not hasattr(libxstat.xstat_result, n)]
    assert not missing
    p = files["chardev"]
    r, o = libxstat.lstat(p), os.lstat(p)
    for n in names:
        assert type(getattr(r, n)) is type(getattr(o, n)), n


def _ext4_device_refused(path):
    """The /dev node of @path's ext4 when root's own open of it is refused
    (EPERM, EACCES), else None."""
    if os.geteuid() != 0:
        return None
    st = os.stat(path)
    try:
        with open("/sys/dev/block/%d:%d/uevent" % (os.major(st.st_dev),
                                                   os.minor(st.st_dev))) as f:
            name = [line[8:].strip() for line in f
                    if line.startswith("DEVNAME=")][0]
        fstype = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", "-T",
                                 path], capture_output=True,
                                text=True).stdout.split()[-1:]
    except (OSError, IndexError):
        return None
    if fstype != ["ext4"]:
        return None
    try:
        os.close(os.open("/dev/" + name, os.O_RDONLY | os.O_NONBLOCK))
    except (PermissionError, OSError) as e:
        if e.errno in (errno.EPERM, errno.EACCES):
            return "/dev/" + name
    return None


def test_why_specific(tmp_path):
    """The reasons under real conditions, not Why.UNKNOWN: a tmpfs file
    has no data version (stat -f says tmpfs); as root on an ext4 whose
    device refuses root's own open, the data version is REFUSED."""
    checked = 0
    shm = "/dev/shm"
    fstype = subprocess.run(["stat", "-f", "-c", "%T", shm],
                            capture_output=True, text=True).stdout.strip()
    if fstype == "tmpfs" and os.access(shm, os.W_OK):
        p = os.path.join(shm, "libxstat-why.%d" % os.getpid())
        open(p, "w").close()
        try:
            r = libxstat.lstat(p, fields=Request.DATA_VERSION |
                               Request.WHY_MISSING)
        finally:
            os.unlink(p)
        assert r.st_data_version is None
        assert libxstat.Why(r.st_why_missing_data_version) == \
            libxstat.Why.NO_SOURCE
        checked += 1
    f = tmp_path / "f"
    f.write_bytes(b"x")
    if _ext4_device_refused(str(f)):
        r = libxstat.lstat(str(f), fields=Request.DATA_VERSION |
                           Request.WHY_MISSING)
        assert r.st_data_version is None
        assert libxstat.Why(r.st_why_missing_data_version) == \
            libxstat.Why.REFUSED
        checked += 1
    if not checked:
        pytest.skip("no tmpfs to write to, and not root on an ext4 whose "
                    "device refuses root")


def test_why_unknown_code():
    """A code this module does not know reads as UNKNOWN."""
    assert libxstat.Why(200) == libxstat.Why.UNKNOWN
    assert libxstat.Why.NO_DEVICE == 9
