# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.scandir() against os.scandir() and, entry by entry, against
libxstat.lstat() of the same name and os.lstat()."""

import os
import stat as S

import pytest

import libxstat
from libxstat import Request


def by_name(it):
    return {e.name: e for e in it}


@pytest.mark.parametrize("fields", [libxstat.DEFAULT_FIELDS, Request.BASIC,
                                    Request.EXTENDED, Request.ALL,
                                    Request.MODE, Request.SIZE])
def test_entries_equal_per_call(files, fields):
    d = os.path.dirname(files["regular"])
    ours = by_name(libxstat.scandir(d, fields=fields))
    theirs = by_name(os.scandir(d))
    assert ours.keys() == theirs.keys()
    # First, before anything follows a symlink (which moves its atime).
    for name, e in ours.items():
        assert e.xstat == libxstat.lstat(e.path, fields=fields), name
        if fields & Request.BASIC == Request.BASIC:
            assert tuple(e.xstat) == tuple(os.lstat(e.path)), name
    for name, e in ours.items():
        o = theirs[name]
        assert e.path == o.path and os.fspath(e) == o.path
        assert e.inode() == o.inode()
        assert e.error == 0
        assert e.stat(follow_symlinks=False) is e.xstat
        for follow in (True, False):
            assert e.is_dir(follow_symlinks=follow) == \
                o.is_dir(follow_symlinks=follow), name
            assert e.is_file(follow_symlinks=follow) == \
                o.is_file(follow_symlinks=follow), name
        assert e.is_symlink() == o.is_symlink()
        if o.is_symlink() and os.path.exists(e.path):
            assert tuple(e.stat()) == tuple(libxstat.stat(
                e.path, fields=fields))


def test_bytes_and_fd(files):
    d = os.path.dirname(files["regular"])
    want = sorted(os.listdir(os.fsencode(d)))
    got = list(libxstat.scandir(os.fsencode(d)))
    assert sorted(e.name for e in got) == want
    assert all(isinstance(e.path, bytes) for e in got)
    fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
    try:
        got = by_name(libxstat.scandir(fd))
        assert sorted(got) == sorted(os.listdir(d))
        for name, e in got.items():
            assert e.path == name
            assert e.xstat == libxstat.lstat(name, dir_fd=fd), name
        for name, e in got.items():
            if e.is_symlink() and os.path.exists(os.path.join(d, name)):
                assert e.stat() == libxstat.stat(name, dir_fd=fd)
        # The caller's descriptor is not read: a second scan sees all.
        assert sorted(by_name(libxstat.scandir(fd))) == sorted(got)
    finally:
        os.close(fd)


def test_empty_and_default(tmp_path, monkeypatch):
    assert list(libxstat.scandir(tmp_path)) == []
    (tmp_path / "a").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    [e] = list(libxstat.scandir())
    assert e.path == os.path.join(".", "a") == next(os.scandir()).path
    assert S.S_ISREG(e.stat().st_mode)


def test_many_entries(tmp_path):
    """More than one batch of the C library (1024 entries)."""
    for i in range(2500):
        (tmp_path / f"f{i}").write_bytes(b"x" * (i % 7))
    got = by_name(libxstat.scandir(tmp_path))
    assert len(got) == 2500
    for name, e in got.items():
        assert e.xstat.st_size == int(name[1:]) % 7
        assert e.xstat.st_ino == e.inode()


def test_errors_like_os_scandir(files, tmp_path):
    def outcome(fn, *a):
        try:
            list(fn(*a))
        except OSError as e:
            return type(e), e.errno, e.strerror, e.filename
    for p in (str(tmp_path / "missing"), files["regular"], "",
              os.fsencode(str(tmp_path / "missing")), 999):
        want = outcome(os.scandir, p)
        assert want is not None
        assert outcome(libxstat.scandir, p) == want


def test_context_manager_closes(tmp_path):
    for i in range(3):
        (tmp_path / str(i)).write_bytes(b"")
    fds = len(os.listdir("/proc/self/fd"))
    with libxstat.scandir(tmp_path) as it:
        next(it)
        assert len(os.listdir("/proc/self/fd")) == fds + 1
    assert len(os.listdir("/proc/self/fd")) == fds
    assert list(it) == []
    it = libxstat.scandir(tmp_path)
    list(it)
    assert len(os.listdir("/proc/self/fd")) == fds


def test_entry_of_removed_file(tmp_path):
    """A symlink whose target goes away: is_dir() is False, as os says."""
    os.symlink("gone", tmp_path / "link")
    [e] = list(libxstat.scandir(tmp_path))
    assert e.is_symlink() and not e.is_dir() and not e.is_file()
    with pytest.raises(FileNotFoundError):
        e.stat()


def test_batch_size_documented_as_the_library_does(top_srcdir):
    """The batch sizes scandir()'s docstring and the README give are the
    C library's (xstat_opendir(3)), which sets the order of entries."""
    import re
    man = open(os.path.join(top_srcdir, "man", "man3",
                            "xstat_opendir.3")).read()
    m = re.search(r"up to (\d+)\s+entries for a batch whose raw inodes "
                  r"are read \(see below\), else up to (\d+)", man)
    assert m, "xstat_opendir(3) no longer gives the batch sizes"
    want = {int(m.group(1)), int(m.group(2))}
    readme = open(os.path.join(top_srcdir, "README.md")).read()
    section = readme[readme.index("## Python"):]
    section = section[:section.index("\n## ", 1)]
    for text in (libxstat.scandir.__doc__, section):
        said = {int(n) for n in re.findall(r"up to (\d+)\s+entries",
                                           " ".join(text.split()))}
        assert said and said <= want, (said, want)
