# SPDX-License-Identifier: LGPL-2.1-or-later
"""Extended file status for Python: creation time, generation, data version
and a change token.

libxstat.stat() is os.stat() with more in it.  It returns everything
os.stat() does, under the same names, plus the creation time
(st_birthtime, st_birthtime_ns), the inode generation (st_gen), the data
version (st_data_version), a change token for every caller
(st_change_token, with what it promises in st_change_token_promise) and
the extra results of statx(2), and it lets
the caller say which fields it needs (fields=Request.X | Request.Y).  It is
built on the libxstat C library (xstat(3)), which falls back to fstatat(2)
and filesystem probes where statx(2) is missing or blocked by a sandbox.

Where it differs from os.stat():

- A field that was not asked for, or that the filesystem or the caller's
  privileges do not provide, is None, never 0.  st_result_mask says which
  fields hold values.
- By default it asks for DEFAULT_FIELDS: the basic stats and the creation
  time, all that one statx(2) call returns.  Request.GEN and
  Request.DATA_VERSION cost extra system calls and are asked for
  explicitly (the data version needs root on most filesystems).
- The result is an xstat_result, not an os.stat_result; it reads as the
  same 10-item sequence (st_atime etc. at indexes 7-9 are whole seconds,
  as os.stat_result's are), equals a tuple or an os.stat_result with the
  same 10 items, and pickles; it is not a tuple subclass.

statx() is Python 3.15's os.statx(), with the same constants and
attribute names, for interpreters that lack it.
"""

import enum as _enum
import typing as _t
import os as _os
import stat as _stat

try:
    from . import _libxstat as _c
except ImportError as _e:
    # Python's own message for a missing module here ("partially
    # initialized module ... circular import") says nothing of what is
    # wrong; this says what to do.
    _here = _os.path.dirname(_os.path.abspath(__file__))
    if not any(n.startswith("_libxstat.") and n.endswith(".so")
               for n in _os.listdir(_here)):
        raise ImportError(
            f"libxstat: no compiled _libxstat module in {_here}: this is "
            "the source tree's Python part only.  Install the binding "
            "(./configure && make && make install; or, with libxstat "
            "installed, pip install --no-build-isolation ./python) and "
            "import it from outside the tree, or run the tree's build as "
            "python/test-python.sh does.", name=__name__) from None
    raise ImportError(
        f"libxstat: cannot load its C extension in {_here}: {_e}.  The "
        "C library libxstat.so.1 must be installed (Debian: libxstat1; "
        "after make install, run ldconfig).", name=__name__) from _e
from ._libxstat import compare, fstat, lstat, stat, xstat_result

__all__ = ["stat", "lstat", "fstat", "compare", "scandir", "DirEntry",
           "xstat_result", "Request", "Attr", "Why", "Promise", "TokenSource",
           "DEFAULT_FIELDS", "known_fields", "statx", "statx_result"]
__version__ = _c.__version__


class Request(_enum.IntFlag):
    """Request bits for fields=, and result bits of st_result_mask.

    The XSTAT_REQUEST_* values of <xstat.h>.
    """

    MODE = _c.REQUEST_MODE
    NLINK = _c.REQUEST_NLINK
    UID = _c.REQUEST_UID
    GID = _c.REQUEST_GID
    RDEV = _c.REQUEST_RDEV
    ATIME = _c.REQUEST_ATIME
    MTIME = _c.REQUEST_MTIME
    CTIME = _c.REQUEST_CTIME
    INO = _c.REQUEST_INO
    SIZE = _c.REQUEST_SIZE
    BLOCKS = _c.REQUEST_BLOCKS
    #: struct stat's fields: everything os.stat() returns.
    BASIC = _c.REQUEST__BASIC_STATS
    BTIME = _c.REQUEST_BTIME
    GEN = _c.REQUEST_GEN
    DATA_VERSION = _c.REQUEST_DATA_VERSION
    #: BASIC plus BTIME, GEN and DATA_VERSION: the patch's struct xstat.
    EXTENDED = _c.REQUEST__EXTENDED_STATS
    MNT_ID = _c.REQUEST_MNT_ID
    ATTRIBUTES = _c.REQUEST_ATTRIBUTES
    DIOALIGN = _c.REQUEST_DIOALIGN
    SUBVOL = _c.REQUEST_SUBVOL
    WRITE_ATOMIC = _c.REQUEST_WRITE_ATOMIC
    DIO_READ_ALIGN = _c.REQUEST_DIO_READ_ALIGN
    #: Why each requested class (3) field is missing (XSTAT_WHY_* codes).
    WHY_MISSING = _c.REQUEST_WHY_MISSING
    #: The change token: st_change_token, st_change_token_promise and
    #: st_change_token_source (for every caller; xstat(3)).
    CHANGE_TOKEN = _c.REQUEST_CHANGE_TOKEN
    #: What the data version promises: st_dv_promise.
    DV_PROMISE = _c.REQUEST_DV_PROMISE
    #: The filesystem's lasting name (compare() tells files apart by it).
    FS_ID = _c.REQUEST_FS_ID
    #: The mount ID of /proc/self/mountinfo: st_mnt_id_reusable (MNT_ID
    #: gives the never-reused one where the kernel has it).
    MNT_ID_REUSABLE = _c.REQUEST_MNT_ID_REUSABLE
    #: Every extra result.
    EXTRA = _c.REQUEST__EXTRA_RESULTS
    #: Every defined bit.
    ALL = _c.REQUEST__ALL_STATS


class Attr(_enum.IntFlag):
    """File attributes of st_attributes / st_attributes_mask.

    The XSTAT_ATTR_* values of <xstat.h> (statx(2)'s STATX_ATTR_*).
    """

    COMPRESSED = _c.ATTR_COMPRESSED
    IMMUTABLE = _c.ATTR_IMMUTABLE
    APPEND = _c.ATTR_APPEND
    NODUMP = _c.ATTR_NODUMP
    ENCRYPTED = _c.ATTR_ENCRYPTED
    AUTOMOUNT = _c.ATTR_AUTOMOUNT
    MOUNT_ROOT = _c.ATTR_MOUNT_ROOT
    VERITY = _c.ATTR_VERITY
    DAX = _c.ATTR_DAX
    WRITE_ATOMIC = _c.ATTR_WRITE_ATOMIC


class Why(_enum.IntEnum):
    """Why a creation time, generation or data version is missing:
    Why(st_why_missing_btime) etc. (Request.WHY_MISSING), XSTAT_WHY_* of
    <xstat.h>.  A code a newer library gives that this module does not
    know reads as UNKNOWN."""

    PRESENT = _c.WHY_PRESENT
    NOT_REQUESTED = _c.WHY_NOT_REQUESTED
    UNKNOWN = _c.WHY_UNKNOWN
    NO_SOURCE = _c.WHY_NO_SOURCE
    PRIVILEGE = _c.WHY_PRIVILEGE
    REFUSED = _c.WHY_REFUSED
    KERNEL = _c.WHY_KERNEL
    NO_SYNC = _c.WHY_NO_SYNC
    UNVERIFIED = _c.WHY_UNVERIFIED
    NO_DEVICE = _c.WHY_NO_DEVICE

    @classmethod
    def _missing_(cls, value):
        return cls.UNKNOWN if isinstance(value, int) and \
            0 <= value <= 255 else None


class Promise(_enum.IntFlag):
    """What a change token or data version promises about later changes
    of the file: st_change_token_promise, st_dv_promise.

    The XSTAT_PROMISE_* values of <xstat.h>.  A clear flag makes no
    claim; the weaknesses (TICK, ATIME, WRAP32, CLOCK, LAGS) are flags
    too, so that a program can refuse a value with one it cannot live
    with.  The measured facts per filesystem are in libxstat(7).
    """

    #: Every change (write, truncate, a faulting store) moves it.
    EVERY_CHANGE = _c.PROMISE_EVERY_CHANGE
    #: Changes within one timestamp tick (up to 1 s) may leave it alone.
    TICK = _c.PROMISE_TICK
    #: A number that never goes down while mounted.
    MONOTONIC = _c.PROMISE_MONOTONIC
    #: Kept across unmount, mount and reboot.
    PERSISTENT = _c.PROMISE_PERSISTENT
    #: Metadata changes (chmod, chown, utimes, xattrs) move it.
    METADATA = _c.PROMISE_METADATA
    #: An atime update (a read) may move it too: false alarms.
    ATIME = _c.PROMISE_ATIME
    #: 32 bits: repeats after 2**32 changes.
    WRAP32 = _c.PROMISE_WRAP32
    #: Made from a time: may repeat an earlier value after the clock is
    #: stepped back.
    CLOCK = _c.PROMISE_CLOCK
    #: May be older than the newest value: a later call can differ with
    #: no change between (false alarm).
    LAGS = _c.PROMISE_LAGS
    #: Link, unlink and rename of the file move it too.
    NAMES = _c.PROMISE_NAMES


class TokenSource(_enum.IntEnum):
    """What st_change_token is made from: XSTAT_TOKEN_FROM_* of
    <xstat.h>."""

    #: st_data_version, the ctime and other attributes.
    DATA_VERSION = _c.TOKEN_FROM_DATA_VERSION
    #: The ctime this very call read, and other attributes.
    CTIME = _c.TOKEN_FROM_CTIME


#: What stat(), lstat() and fstat() ask for when fields= is not given.
DEFAULT_FIELDS = Request(_c.DEFAULT_FIELDS)

_c._set_flag_types(Request, Promise)


def known_fields() -> Request:
    """The Request bits the installed C library knows (xstat_known_mask(3)).

    A bit clear here is one the library ignores because it is older than
    this binding, not one the file lacks.
    """
    return Request(_c._known_mask())


# Python 3.15's os.statx(), its constants and result type (_statx.py).
from ._statx import statx, statx_result  # noqa: E402
from ._statx import (  # noqa: E402,F401
    STATX_TYPE, STATX_MODE, STATX_NLINK, STATX_UID, STATX_GID, STATX_ATIME,
    STATX_MTIME, STATX_CTIME, STATX_INO, STATX_SIZE, STATX_BLOCKS,
    STATX_BASIC_STATS, STATX_BTIME, STATX_MNT_ID, STATX_DIOALIGN,
    STATX_MNT_ID_UNIQUE, STATX_SUBVOL, STATX_WRITE_ATOMIC,
    STATX_DIO_READ_ALIGN, AT_STATX_SYNC_AS_STAT, AT_STATX_FORCE_SYNC,
    AT_STATX_DONT_SYNC, AT_NO_AUTOMOUNT)


# DT_* of <dirent.h>, as S_IFMT values.
_DT_MODE = {1: _stat.S_IFIFO, 2: _stat.S_IFCHR, 4: _stat.S_IFDIR,
            6: _stat.S_IFBLK, 8: _stat.S_IFREG, 10: _stat.S_IFLNK,
            12: _stat.S_IFSOCK}


class DirEntry:
    """An entry of scandir(): os.DirEntry's interface, result attached.

    xstat is the entry's xstat_result (what lstat() of it returns, with
    the fields scandir() was asked for), or None if that failed; error is
    then its errno (0 otherwise).
    """

    __slots__ = ("name", "path", "xstat", "error", "_type", "_ino",
                 "_dir_fd", "_fields", "_followed")

    name: _t.Union[str, bytes]
    path: _t.Union[str, bytes]
    xstat: _t.Optional[xstat_result]
    error: int
    _type: int
    _ino: int
    _dir_fd: _t.Optional[int]
    _fields: int
    _followed: _t.Optional[xstat_result]

    def __init__(self, name: _t.Union[str, bytes], path: _t.Union[str, bytes],
                 d_type: int, d_ino: int, result: _t.Optional[xstat_result],
                 error: int, dir_fd: _t.Optional[int], fields: int) -> None:
        self.name = name
        self.path = path
        self.xstat = result
        self.error = error
        self._type = d_type
        self._ino = d_ino
        self._dir_fd = dir_fd
        self._fields = fields
        self._followed = None

    def __fspath__(self) -> _t.Union[str, bytes]:
        return self.path

    def __repr__(self) -> str:
        return f"<libxstat.DirEntry {self.name!r}>"

    def inode(self) -> int:
        """The inode number, as the directory records it."""
        return self._ino

    def _mode(self) -> int:
        r = self.xstat
        if r is not None and r.st_mode is not None:
            return r.st_mode
        mode = _DT_MODE.get(self._type)
        if mode is None:    # DT_UNKNOWN: ask, as os.DirEntry does
            mode = self._ask_mode(False)
        return mode

    def _ask_mode(self, follow: bool) -> int:
        """The file type from the filesystem: for DT_UNKNOWN, or when the
        fields scandir() was given leave the mode out."""
        if self._dir_fd is None:
            r = stat(self.path, follow_symlinks=follow, fields=Request.MODE)
        else:
            r = stat(self.name, dir_fd=self._dir_fd,
                     follow_symlinks=follow, fields=Request.MODE)
        return r.st_mode if r.st_mode is not None else 0

    def is_symlink(self) -> bool:
        """True for a symbolic link (never followed)."""
        return _stat.S_ISLNK(self._mode())

    def _is(self, fmt: int, follow_symlinks: bool) -> bool:
        if follow_symlinks and self.is_symlink():
            try:
                m = self.stat().st_mode
                mode = m if m is not None else self._ask_mode(True)
            except FileNotFoundError:
                return False
        else:
            mode = self._mode()
        return _stat.S_IFMT(mode) == fmt

    def is_dir(self, *, follow_symlinks: bool = True) -> bool:
        """True for a directory, or a symlink to one if following."""
        return self._is(_stat.S_IFDIR, follow_symlinks)

    def is_file(self, *, follow_symlinks: bool = True) -> bool:
        """True for a regular file, or a symlink to one if following."""
        return self._is(_stat.S_IFREG, follow_symlinks)

    def stat(self, *, follow_symlinks: bool = True) -> xstat_result:
        """The entry's xstat_result: the attached one, or for a symlink
        followed, stat() of its target (cached), with the same fields."""
        if self.xstat is None:
            raise OSError(self.error, _os.strerror(self.error), self.path)
        if not follow_symlinks or not _stat.S_ISLNK(self._mode()):
            return self.xstat
        if self._followed is None:
            if self._dir_fd is None:
                self._followed = stat(self.path, fields=self._fields)
            else:
                self._followed = stat(self.name, dir_fd=self._dir_fd,
                                      fields=self._fields)
        return self._followed


class _Scandir:
    """The iterator scandir() returns; a context manager, like os's."""

    __slots__ = ("_stream", "_prefix", "_dir_fd", "_fields")

    def __init__(self, stream: _t.Any, prefix: _t.Any,
                 dir_fd: _t.Optional[int], fields: int) -> None:
        self._stream = stream
        self._prefix = prefix
        self._dir_fd = dir_fd
        self._fields = fields

    def __iter__(self) -> "_Scandir":
        return self

    def __next__(self) -> DirEntry:
        name, d_type, d_ino, result, error = next(self._stream)
        return DirEntry(name, self._prefix + name, d_type, d_ino, result,
                        error, self._dir_fd, self._fields)

    def close(self) -> None:
        """Close the directory now rather than when exhausted or freed."""
        self._stream.close()

    def __enter__(self) -> "_Scandir":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def scandir(path: _t.Union[str, bytes, "_os.PathLike[str]",
                         "_os.PathLike[bytes]", int] = ".", *,
            fields: int = DEFAULT_FIELDS,
            sync: _t.Optional[bool] = None) -> _Scandir:
    """Iterate over the entries of a directory, each with its status.

    Like os.scandir() - path is str, bytes, os.PathLike or an open
    directory descriptor; names are bytes for a bytes path; "." and ".."
    are left out; usable as a context manager - but each DirEntry carries
    the xstat_result of its entry (entry.xstat, or entry.stat()), with
    the fields asked for, read in batches by the C library's directory
    streams (xstat_opendir(3)): on ext4, where the process can read the
    block device (root), one read of the inode table per block for the
    generation and data version of all the entries it holds; elsewhere
    each entry costs what a stat() of it does.  Entries come in batches
    of up to 32768 entries (raw inodes read) or up to 512 entries, in the
    directory's order; within a batch, in inode order.  Raises OSError
    as os.scandir() does.
    """
    if isinstance(path, int):
        return _Scandir(_c._opendir(path, fields, sync, True), "", path,
                        fields)
    p = _os.fspath(path)
    prefix: _t.Union[str, bytes]
    if isinstance(p, str):
        prefix = p if p.endswith("/") else p + "/"
    else:
        prefix = p if p.endswith(b"/") else p + b"/"
    return _Scandir(_c._opendir(p, fields, sync, isinstance(p, str)), prefix,
                    None, fields)
