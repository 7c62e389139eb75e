# SPDX-License-Identifier: LGPL-2.1-or-later
"""Oracles that share no code with libxstat.

glibc's statx() called through ctypes (the kernel's own answer), the
constants of <xstat.h> read from the header text, lsattr -v for the
generation, and the C library's tool (tools/xstat -j) for the data version.
"""

import ctypes
import ctypes.util
import json
import os
import re
import subprocess

AT_FDCWD = -100
AT_SYMLINK_NOFOLLOW = 0x100
AT_EMPTY_PATH = 0x1000

STATX_BASIC_STATS = 0x7ff
STATX_BTIME = 0x800
STATX_MNT_ID = 0x1000
STATX_DIOALIGN = 0x2000
STATX_MNT_ID_UNIQUE = 0x4000
STATX_SUBVOL = 0x8000
STATX_WRITE_ATOMIC = 0x10000
STATX_DIO_READ_ALIGN = 0x20000
# Everything libxstat's extras mirror (the attribute mask depends on it).
STATX_ALL = STATX_BASIC_STATS | STATX_BTIME | STATX_MNT_ID_UNIQUE | \
    STATX_DIOALIGN | STATX_SUBVOL | STATX_WRITE_ATOMIC | STATX_DIO_READ_ALIGN


class StatxTimestamp(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_int64), ("tv_nsec", ctypes.c_uint32),
                ("reserved", ctypes.c_int32)]

    def ns(self):
        return self.tv_sec * 10**9 + self.tv_nsec


class Statx(ctypes.Structure):
    """struct statx of <linux/stat.h>, 256 bytes."""

    _fields_ = [
        ("stx_mask", ctypes.c_uint32), ("stx_blksize", ctypes.c_uint32),
        ("stx_attributes", ctypes.c_uint64),
        ("stx_nlink", ctypes.c_uint32), ("stx_uid", ctypes.c_uint32),
        ("stx_gid", ctypes.c_uint32), ("stx_mode", ctypes.c_uint16),
        ("spare0", ctypes.c_uint16), ("stx_ino", ctypes.c_uint64),
        ("stx_size", ctypes.c_uint64), ("stx_blocks", ctypes.c_uint64),
        ("stx_attributes_mask", ctypes.c_uint64),
        ("stx_atime", StatxTimestamp), ("stx_btime", StatxTimestamp),
        ("stx_ctime", StatxTimestamp), ("stx_mtime", StatxTimestamp),
        ("stx_rdev_major", ctypes.c_uint32),
        ("stx_rdev_minor", ctypes.c_uint32),
        ("stx_dev_major", ctypes.c_uint32),
        ("stx_dev_minor", ctypes.c_uint32),
        ("stx_mnt_id", ctypes.c_uint64),
        ("stx_dio_mem_align", ctypes.c_uint32),
        ("stx_dio_offset_align", ctypes.c_uint32),
        ("stx_subvol", ctypes.c_uint64),
        ("spare", ctypes.c_uint64 * 11),
    ]


assert ctypes.sizeof(Statx) == 256

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6",
                    use_errno=True)
_statx = getattr(_libc, "statx", None)


def statx(path, mask, follow=True, fd=None):
    """The kernel's statx(2) through glibc; raises OSError on failure."""
    if _statx is None:
        raise OSError(38, "glibc has no statx()")
    sx = Statx()
    flags = 0 if follow else AT_SYMLINK_NOFOLLOW
    if fd is not None:
        dfd, name, flags = fd, b"", flags | AT_EMPTY_PATH
    else:
        dfd, name = AT_FDCWD, os.fsencode(path)
    if _statx(dfd, name, flags, mask, ctypes.byref(sx)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), path)
    return sx


_NR_STATX = {"x86_64": 332, "i386": 383, "i686": 383, "aarch64": 291}


def raw_statx_errno(path="/"):
    """errno of the bare statx system call (0: it works).  glibc's statx()
    would hide a blocked call: it emulates statx with fstatat on ENOSYS."""
    machine = os.uname().machine
    if machine == "x86_64" and ctypes.sizeof(ctypes.c_void_p) == 4:
        machine = "i386"        # a 32-bit interpreter on a 64-bit kernel
    nr = _NR_STATX.get(machine)
    if nr is None:
        raise OSError(38, "statx number unknown here")
    sx = Statx()
    ret = _libc.syscall(ctypes.c_long(nr), ctypes.c_int(AT_FDCWD),
                        ctypes.c_char_p(os.fsencode(path)), ctypes.c_int(0),
                        ctypes.c_uint(STATX_BASIC_STATS), ctypes.byref(sx))
    return ctypes.get_errno() if ret != 0 else 0


def statx_btime_ns(path, follow=True):
    """The creation time statx reports, or None if it has none."""
    sx = statx(path, STATX_BTIME, follow)
    return sx.stx_btime.ns() if sx.stx_mask & STATX_BTIME else None


def header_constants(top_srcdir):
    """Every #define XSTAT_REQUEST_* / XSTAT_ATTR_* of include/xstat.h."""
    text = open(os.path.join(top_srcdir, "include", "xstat.h")).read()
    return {m.group(1): int(m.group(2), 16) for m in re.finditer(
        r"^#define\s+XSTAT_((?:REQUEST|ATTR)_\w+)\s+(0x[0-9a-fA-F]+)ULL",
        text, re.M)}


def lsattr_generation(path):
    """lsattr -v's generation, or None where the filesystem has none."""
    p = subprocess.run(["lsattr", "-vd", path], capture_output=True,
                       text=True)
    if p.returncode != 0:
        return None
    return int(p.stdout.split()[0])


def tool_json(tool, path, mask, follow=False):
    """The C library's answer for path, from tools/xstat -j."""
    args = [tool, "-j", "-m", hex(mask)] + (["-L"] if follow else [])
    out = subprocess.run(args + ["--", path], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.splitlines()[0])
