# SPDX-License-Identifier: LGPL-2.1-or-later
"""os.statx()'s rules (CPython 3.15), for interpreters without it.

os.statx_result passes statx(2)'s stx_mask through unchanged, and each
stx_* member holds a value only when every STATX_* bit it needs is in
that mask; otherwise it is None.  The bits each member needs are the ones
CPython's own test (Lib/test/test_os.py, check_statx_attributes) holds
os.statx to; 0: always a value.  stx_mnt_id needs STATX_MNT_ID: the
unique mount ID (STATX_MNT_ID_UNIQUE in stx_mask) is never shown there.
"""

# <linux/stat.h>'s mask bits.
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
STATX_BTIME = 0x800
STATX_MNT_ID = 0x1000
STATX_DIOALIGN = 0x2000
STATX_SUBVOL = 0x8000
STATX_WRITE_ATOMIC = 0x10000
STATX_DIO_READ_ALIGN = 0x20000

NEEDS = {
    "stx_atime": STATX_ATIME, "stx_atime_ns": STATX_ATIME,
    "stx_btime": STATX_BTIME, "stx_btime_ns": STATX_BTIME,
    "stx_ctime": STATX_CTIME, "stx_ctime_ns": STATX_CTIME,
    "stx_mtime": STATX_MTIME, "stx_mtime_ns": STATX_MTIME,
    "stx_atomic_write_segments_max": STATX_WRITE_ATOMIC,
    "stx_atomic_write_unit_max": STATX_WRITE_ATOMIC,
    "stx_atomic_write_unit_max_opt": STATX_WRITE_ATOMIC,
    "stx_atomic_write_unit_min": STATX_WRITE_ATOMIC,
    "stx_attributes": 0, "stx_attributes_mask": 0,
    "stx_blksize": 0, "stx_blocks": STATX_BLOCKS,
    "stx_dev": 0, "stx_dev_major": 0, "stx_dev_minor": 0,
    "stx_dio_mem_align": STATX_DIOALIGN,
    "stx_dio_offset_align": STATX_DIOALIGN,
    "stx_dio_read_offset_align": STATX_DIO_READ_ALIGN,
    "stx_gid": STATX_GID, "stx_ino": STATX_INO, "stx_mask": 0,
    "stx_mnt_id": STATX_MNT_ID,
    "stx_mode": STATX_TYPE | STATX_MODE,
    "stx_nlink": STATX_NLINK,
    "stx_rdev": 0, "stx_rdev_major": 0, "stx_rdev_minor": 0,
    "stx_size": STATX_SIZE, "stx_subvol": STATX_SUBVOL, "stx_uid": STATX_UID,
}


def has_value(name, stx_mask):
    """Would os.statx_result's member @name hold a value for @stx_mask?"""
    need = NEEDS[name]
    return stx_mask & need == need


def mount_view(k):
    """(stx_mask, stx_mnt_id) of os.statx() for the kernel's answer @k
    (oracle.statx()'s struct statx)."""
    mask = int(k.stx_mask)
    return mask, (int(k.stx_mnt_id) if has_value("stx_mnt_id", mask)
                  else None)
