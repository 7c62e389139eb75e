# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.statx(): Python 3.15's os.statx() on the interpreters before it.

The signature, the STATX_* and AT_* constants and the stx_* attribute
names are os.statx()'s, so that code written for 3.15 runs on older
Pythons with ``from libxstat import statx``.  The call is a libxstat.stat()
(xstat(3)): statx(2) where the kernel and the sandbox allow it, its
fallback elsewhere.  What libxstat adds (generation, data version, change
token, ...) is asked for with the keyword-only ``extra=`` (Request bits)
and read from ``result.xstat``, the whole libxstat.xstat_result, or
through the shortcuts st_gen, st_data_version and st_change_token: names
that no stx_* attribute of os.statx_result can take.
"""

import errno as _errno
import operator as _operator
import os as _os
import typing as _t

from . import _libxstat as _c

# statx(2)'s mask bits (<linux/stat.h>), as os.STATX_*.
STATX_TYPE = 0x1
STATX_MODE = 0x2
STATX_NLINK = 0x4
STATX_UID = 0x8
STATX_GID = 0x10
STATX_ATIME = 0x20
STATX_MTIME = 0x40
STATX_CTIME = 0x80
STATX_INO = 0x100
STATX_SIZE = 0x200
STATX_BLOCKS = 0x400
STATX_BASIC_STATS = 0x7FF
STATX_BTIME = 0x800
STATX_MNT_ID = 0x1000
STATX_DIOALIGN = 0x2000
STATX_MNT_ID_UNIQUE = 0x4000
STATX_SUBVOL = 0x8000
STATX_WRITE_ATOMIC = 0x10000
STATX_DIO_READ_ALIGN = 0x20000

# The flags os.statx() takes (<fcntl.h>).
AT_STATX_SYNC_AS_STAT = 0x0
AT_STATX_FORCE_SYNC = 0x2000
AT_STATX_DONT_SYNC = 0x4000
AT_NO_AUTOMOUNT = 0x800

_FLAGS = AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC | AT_NO_AUTOMOUNT

# STATX_* bit -> the libxstat request bit that fills the same field.
_TO_REQUEST = (
    (STATX_TYPE | STATX_MODE, _c.REQUEST_MODE),
    (STATX_NLINK, _c.REQUEST_NLINK),
    (STATX_UID, _c.REQUEST_UID),
    (STATX_GID, _c.REQUEST_GID),
    (STATX_ATIME, _c.REQUEST_ATIME),
    (STATX_MTIME, _c.REQUEST_MTIME),
    (STATX_CTIME, _c.REQUEST_CTIME),
    (STATX_INO, _c.REQUEST_INO),
    (STATX_SIZE, _c.REQUEST_SIZE),
    (STATX_BLOCKS, _c.REQUEST_BLOCKS),
    (STATX_BTIME, _c.REQUEST_BTIME),
) + tuple((stx, bit) for bit, _, stx in _c.EXTRA_RESULTS if stx)
# (the extra results that mirror a statx field: their rows of fields.h)

# The extras of libxstat that extra= may ask for.
_EXTRA = (_c.REQUEST_GEN | _c.REQUEST_DATA_VERSION | _c.REQUEST_CHANGE_TOKEN
          | _c.REQUEST_DV_PROMISE | _c.REQUEST_WHY_MISSING)

# stx_* name -> (the xstat_result attribute, the STATX_* bits that must be
# in stx_mask for it to hold a value; 0: always holds one).
_SAME = {
    "stx_nlink": ("st_nlink", STATX_NLINK),
    "stx_uid": ("st_uid", STATX_UID),
    "stx_gid": ("st_gid", STATX_GID),
    "stx_ino": ("st_ino", STATX_INO),
    "stx_size": ("st_size", STATX_SIZE),
    "stx_blocks": ("st_blocks", STATX_BLOCKS),
    "stx_blksize": ("st_blksize", 0),
    "stx_dev": ("st_dev", 0),
    "stx_atime": ("st_atime", STATX_ATIME),
    "stx_atime_ns": ("st_atime_ns", STATX_ATIME),
    "stx_mtime": ("st_mtime", STATX_MTIME),
    "stx_mtime_ns": ("st_mtime_ns", STATX_MTIME),
    "stx_ctime": ("st_ctime", STATX_CTIME),
    "stx_ctime_ns": ("st_ctime_ns", STATX_CTIME),
    "stx_btime": ("st_birthtime", STATX_BTIME),
    "stx_btime_ns": ("st_birthtime_ns", STATX_BTIME),
    "stx_dio_mem_align": ("st_dio_mem_align", STATX_DIOALIGN),
    "stx_dio_offset_align": ("st_dio_offset_align", STATX_DIOALIGN),
    "stx_dio_read_offset_align": ("st_dio_read_offset_align",
                                  STATX_DIO_READ_ALIGN),
    "stx_subvol": ("st_subvol", STATX_SUBVOL),
    "stx_atomic_write_unit_min": ("st_atomic_write_unit_min",
                                  STATX_WRITE_ATOMIC),
    "stx_atomic_write_unit_max": ("st_atomic_write_unit_max",
                                  STATX_WRITE_ATOMIC),
    "stx_atomic_write_unit_max_opt": ("st_atomic_write_unit_max_opt",
                                      STATX_WRITE_ATOMIC),
    "stx_atomic_write_segments_max": ("st_atomic_write_segments_max",
                                      STATX_WRITE_ATOMIC),
}


_MNT_BITS = STATX_MNT_ID | STATX_MNT_ID_UNIQUE


def _mount_request(asked: int) -> int:
    """The request bit of the mount ID statx(2) would give for @asked.

    statx(2) fills one mount ID on every call: the never-reused one when
    STATX_MNT_ID_UNIQUE is asked for (and the kernel has it), else the
    reusable one of /proc/self/mountinfo, whether STATX_MNT_ID was asked
    for or not.
    """
    if asked & STATX_MNT_ID_UNIQUE:
        return _c.REQUEST_MNT_ID
    return _c.REQUEST_MNT_ID_REUSABLE


def _mount(x: _t.Any, asked: int) -> _t.Tuple[int, _t.Optional[int]]:
    """stx_mask's mount bit and stx_mnt_id, as os.statx() gives them.

    os.statx() has stx_mnt_id only when STATX_MNT_ID is in stx_mask: the
    unique ID, flagged STATX_MNT_ID_UNIQUE, is not shown there.
    """
    if asked & STATX_MNT_ID_UNIQUE:
        if x.st_mnt_id is None:
            return 0, None
        if x.st_mnt_id_unique:
            return STATX_MNT_ID_UNIQUE, None
        return STATX_MNT_ID, x.st_mnt_id
    if x.st_mnt_id_reusable is None:
        return 0, None
    return STATX_MNT_ID, x.st_mnt_id_reusable


def _stx_mask(x: _t.Any, asked: int) -> int:
    """The STATX_* bits of what x holds: statx(2)'s stx_mask."""
    have = int(x.st_result_mask)
    mask = _mount(x, asked)[0]
    for bits, req in _TO_REQUEST:
        if have & req:
            mask |= bits
    for name, (attr, bits) in _SAME.items():
        # An extra result the filesystem does not give leaves its bit out.
        if bits and mask & bits and getattr(x, attr) is None:
            mask &= ~bits
    return mask


class statx_result:
    """The result of libxstat.statx(): os.statx_result's attributes.

    Every stx_* attribute of Python 3.15's os.statx_result, None where
    stx_mask lacks its bit, as there.  Besides: xstat, the whole
    libxstat.xstat_result of the call (what extra= asked for is there),
    and st_gen, st_data_version and st_change_token from it.  Where it
    differs from os.statx_result: stx_attributes and stx_attributes_mask
    are None when the fallback backend could not read the attributes
    (os.statx always has them: it fails instead); stx_mode is the full
    mode whenever STATX_TYPE or STATX_MODE was obtained (statx(2) gives
    the two halves separately).  The mount ID is statx(2)'s: the reusable
    one of /proc/self/mountinfo (STATX_MNT_ID in stx_mask, stx_mnt_id) on
    every call, unless STATX_MNT_ID_UNIQUE is asked for: then the
    never-reused one, flagged STATX_MNT_ID_UNIQUE, which os.statx() does
    not show as stx_mnt_id (read it from xstat.st_mnt_id).
    """

    __slots__ = ("xstat", "stx_mask", "_mnt")

    def __init__(self, x: _t.Any, asked: int) -> None:
        self.xstat = x
        self.stx_mask = _stx_mask(x, asked)
        self._mnt = _mount(x, asked)[1]

    def __getattr__(self, name: str) -> _t.Any:
        try:
            attr, bits = _SAME[name]
        except KeyError:
            raise AttributeError(
                f"'libxstat.statx_result' object has no attribute {name!r}"
            ) from None
        if bits and not self.stx_mask & bits:
            return None
        return getattr(self.xstat, attr)

    @property
    def stx_mode(self) -> _t.Optional[int]:
        """File type and mode bits; None without STATX_TYPE|STATX_MODE."""
        if not self.stx_mask & (STATX_TYPE | STATX_MODE):
            return None
        return self.xstat.st_mode

    @property
    def stx_mnt_id(self) -> _t.Optional[int]:
        """mountinfo's mount ID; None without STATX_MNT_ID in stx_mask."""
        return self._mnt

    @property
    def stx_dev_major(self) -> int:
        return _os.major(self.xstat.st_dev)

    @property
    def stx_dev_minor(self) -> int:
        return _os.minor(self.xstat.st_dev)

    @property
    def stx_rdev(self) -> int:
        """The device a device node stands for; 0 for other files."""
        rdev = self.xstat.st_rdev
        return 0 if rdev is None else rdev

    @property
    def stx_rdev_major(self) -> int:
        return _os.major(self.stx_rdev)

    @property
    def stx_rdev_minor(self) -> int:
        return _os.minor(self.stx_rdev)

    @property
    def stx_attributes(self) -> _t.Optional[int]:
        """STATX_ATTR_* bits (libxstat.Attr) of the file."""
        a = self.xstat.st_attributes
        return None if a is None else int(a)

    @property
    def stx_attributes_mask(self) -> _t.Optional[int]:
        """Which stx_attributes bits the filesystem supports."""
        a = self.xstat.st_attributes_mask
        return None if a is None else int(a)

    @property
    def st_gen(self) -> _t.Optional[int]:
        """libxstat's inode generation (extra=Request.GEN)."""
        return self.xstat.st_gen

    @property
    def st_data_version(self) -> _t.Optional[int]:
        """libxstat's data version (extra=Request.DATA_VERSION)."""
        return self.xstat.st_data_version

    @property
    def st_change_token(self) -> _t.Optional[int]:
        """libxstat's change token (extra=Request.CHANGE_TOKEN)."""
        return self.xstat.st_change_token

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, statx_result):
            return NotImplemented
        return self.stx_mask == other.stx_mask and \
            self._mnt == other._mnt and self.xstat == other.xstat

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        names = ["stx_mask", "stx_mode", "stx_ino", "stx_dev", "stx_nlink",
                 "stx_uid", "stx_gid", "stx_size", "stx_atime_ns",
                 "stx_mtime_ns", "stx_ctime_ns", "stx_btime_ns"]
        parts = []
        for n in names:
            v = getattr(self, n)
            if v is not None:
                parts.append(f"{n}={v!r}")
        return f"libxstat.statx_result({', '.join(parts)})"

    def __reduce__(self) -> _t.Any:
        return (_rebuild, (self.xstat, self.stx_mask, self._mnt))


def _rebuild(x: _t.Any, mask: int, mnt: _t.Optional[int]) -> statx_result:
    r = statx_result.__new__(statx_result)
    r.xstat = x
    r.stx_mask = mask
    r._mnt = mnt
    return r


def statx(path: _t.Union[str, bytes, "_os.PathLike[str]",
                         "_os.PathLike[bytes]", int],
          mask: int, *, flags: int = 0, dir_fd: _t.Optional[int] = None,
          follow_symlinks: bool = True, extra: int = 0) -> statx_result:
    """os.statx() of Python 3.15, through libxstat.

    path is str, bytes, os.PathLike or an open file descriptor; mask is
    STATX_* bits; flags is AT_STATX_* and/or AT_NO_AUTOMOUNT (libxstat
    never automounts, so that one changes nothing); dir_fd and
    follow_symlinks are os.stat()'s.  extra (keyword-only, libxstat's):
    Request bits of what statx(2) lacks - GEN, DATA_VERSION,
    CHANGE_TOKEN, DV_PROMISE, WHY_MISSING - read from the result's
    xstat.  Raises OSError as os.statx() does; EINVAL for flags outside
    those named.
    """
    mask = _operator.index(mask)
    flags = _operator.index(flags)
    if flags & ~_FLAGS or (flags & AT_STATX_FORCE_SYNC and
                           flags & AT_STATX_DONT_SYNC):
        raise OSError(_errno.EINVAL, _os.strerror(_errno.EINVAL))
    if _operator.index(extra) & ~_EXTRA:
        raise ValueError("extra= takes Request.GEN, DATA_VERSION, "
                         "CHANGE_TOKEN, DV_PROMISE and WHY_MISSING")
    fields = _operator.index(extra)
    for bits, req in _TO_REQUEST:
        if mask & bits:
            fields |= req
    # statx(2) always fills the attributes and one mount ID; so does this,
    # where it can (free with statx, a probe more in the fallback).
    fields |= _c.REQUEST_ATTRIBUTES | _mount_request(mask)
    sync = None
    if flags & AT_STATX_FORCE_SYNC:
        sync = True
    elif flags & AT_STATX_DONT_SYNC:
        sync = False
    # A descriptor, dir_fd and follow_symlinks: os.stat()'s rules and
    # errors, which libxstat.stat() follows.
    x = _c.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks,
                fields=fields, sync=sync)
    return statx_result(x, mask)
