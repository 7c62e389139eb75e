# SPDX-License-Identifier: LGPL-2.1-or-later
# Type hints for the C part of libxstat (python/_libxstat.c).
import os
from typing import (Any, Iterator, Optional, Sequence, Tuple, Union,
                    overload)

from . import Promise, Request

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class xstat_result:
    """The result of stat(), lstat() or fstat(); immutable."""

    @property
    def st_mode(self) -> Optional[int]: ...
    @property
    def st_ino(self) -> Optional[int]: ...
    @property
    def st_dev(self) -> int: ...
    @property
    def st_nlink(self) -> Optional[int]: ...
    @property
    def st_uid(self) -> Optional[int]: ...
    @property
    def st_gid(self) -> Optional[int]: ...
    @property
    def st_size(self) -> Optional[int]: ...
    @property
    def st_atime(self) -> Optional[float]: ...
    @property
    def st_mtime(self) -> Optional[float]: ...
    @property
    def st_ctime(self) -> Optional[float]: ...
    @property
    def st_birthtime(self) -> Optional[float]: ...
    @property
    def st_atime_ns(self) -> Optional[int]: ...
    @property
    def st_mtime_ns(self) -> Optional[int]: ...
    @property
    def st_ctime_ns(self) -> Optional[int]: ...
    @property
    def st_birthtime_ns(self) -> Optional[int]: ...
    @property
    def st_blocks(self) -> Optional[int]: ...
    @property
    def st_blksize(self) -> int: ...
    @property
    def st_rdev(self) -> Optional[int]: ...
    @property
    def st_gen(self) -> Optional[int]: ...
    @property
    def st_data_version(self) -> Optional[int]: ...
    @property
    def st_mnt_id(self) -> Optional[int]: ...
    @property
    def st_mnt_id_unique(self) -> Optional[bool]: ...
    @property
    def st_mnt_id_reusable(self) -> Optional[int]: ...
    @property
    def st_attributes(self) -> Optional[int]: ...
    @property
    def st_attributes_mask(self) -> Optional[int]: ...
    @property
    def st_dio_mem_align(self) -> Optional[int]: ...
    @property
    def st_dio_offset_align(self) -> Optional[int]: ...
    @property
    def st_subvol(self) -> Optional[int]: ...
    @property
    def st_atomic_write_unit_min(self) -> Optional[int]: ...
    @property
    def st_atomic_write_unit_max(self) -> Optional[int]: ...
    @property
    def st_atomic_write_unit_max_opt(self) -> Optional[int]: ...
    @property
    def st_atomic_write_segments_max(self) -> Optional[int]: ...
    @property
    def st_dio_read_offset_align(self) -> Optional[int]: ...
    @property
    def st_why_missing_btime(self) -> Optional[int]: ...
    @property
    def st_why_missing_gen(self) -> Optional[int]: ...
    @property
    def st_why_missing_data_version(self) -> Optional[int]: ...
    @property
    def st_change_token(self) -> Optional[int]: ...
    @property
    def st_change_token_promise(self) -> Optional[Promise]: ...
    @property
    def st_change_token_source(self) -> Optional[int]: ...
    @property
    def st_dv_promise(self) -> Optional[Promise]: ...
    @property
    def st_fs_id(self) -> Optional[bytes]: ...
    @property
    def st_fs_id_source(self) -> Optional[int]: ...
    @property
    def st_result_mask(self) -> Request: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: int) -> Optional[int]: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Optional[int], ...]: ...
    def __iter__(self) -> Iterator[Optional[int]]: ...
    n_sequence_fields: int
    n_fields: int
    n_unnamed_fields: int
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

def compare(before: xstat_result, after: xstat_result,
            taken_ns: Optional[int] = ...) -> Tuple[int, int]: ...
def stat(path: Union[_Path, int], *, dir_fd: Optional[int] = ...,
         follow_symlinks: bool = ..., fields: int = ...,
         sync: Optional[bool] = ...) -> xstat_result: ...
def lstat(path: _Path, *, dir_fd: Optional[int] = ..., fields: int = ...,
          sync: Optional[bool] = ...) -> xstat_result: ...
def fstat(fd: int, *, fields: int = ...,
          sync: Optional[bool] = ...) -> xstat_result: ...
def _set_flag_types(request: type, promise: type = ...) -> None: ...
def _known_mask() -> int: ...
def _result_from_bytes(b: bytes) -> xstat_result: ...
def _json_record(path: bytes, result: xstat_result, size_needed: int,
                 taken_ns: Optional[int]) -> str: ...
def _json_error_record(path: bytes, errno: int) -> str: ...
# ((path, depth, (dev, ino) or None, ancestors, known), st_size)
_Subdir = tuple[tuple[bytes, int, Optional[tuple[int, int]],
                      tuple[tuple[int, int], ...], bool], int]
def _scan(work: Sequence[tuple[str, Any]], fields: int,
          max_depth: Optional[int], taken_ns: Optional[int], fd: int = ...,
          found: Optional[Callable[[list[_Subdir]], None]] = ...
          ) -> tuple[Union[bytes, int], list[_Subdir], int, int, int, int,
                     list[tuple[bytes, int]]]: ...
def _opendir(path: Union[str, bytes, int], fields: int,
             sync: Optional[bool],
             want_str: bool) -> Iterator[tuple[Union[str, bytes], int, int,
                                              Optional[xstat_result], int]]: ...

__version__: str
DEFAULT_FIELDS: int
REQUEST_MODE: int
REQUEST_NLINK: int
REQUEST_UID: int
REQUEST_GID: int
REQUEST_RDEV: int
REQUEST_ATIME: int
REQUEST_MTIME: int
REQUEST_CTIME: int
REQUEST_INO: int
REQUEST_SIZE: int
REQUEST_BLOCKS: int
REQUEST__BASIC_STATS: int
REQUEST_BTIME: int
REQUEST_GEN: int
REQUEST_DATA_VERSION: int
REQUEST__EXTENDED_STATS: int
REQUEST_MNT_ID: int
REQUEST_ATTRIBUTES: int
REQUEST_DIOALIGN: int
REQUEST_SUBVOL: int
REQUEST_WRITE_ATOMIC: int
REQUEST_DIO_READ_ALIGN: int
REQUEST_FS_ID: int
REQUEST_MNT_ID_REUSABLE: int
SAME: int
SAME_UNPROVEN: int
CHANGED_METADATA: int
CHANGED_DATA: int
OTHER_FILE: int
REQUEST_WHY_MISSING: int
REQUEST_CHANGE_TOKEN: int
REQUEST_DV_PROMISE: int
REQUEST__EXTRA_RESULTS: int
#: ((bit, payload size, statx bit or 0), ...) of the extra results, in
#: bit order (lib/fields.h).
EXTRA_RESULTS: Tuple[Tuple[int, int, int], ...]
REQUEST__ALL_STATS: int
ATTR_COMPRESSED: int
ATTR_IMMUTABLE: int
ATTR_APPEND: int
ATTR_NODUMP: int
ATTR_ENCRYPTED: int
ATTR_AUTOMOUNT: int
ATTR_MOUNT_ROOT: int
ATTR_VERITY: int
ATTR_DAX: int
ATTR_WRITE_ATOMIC: int
WHY_PRESENT: int
WHY_NOT_REQUESTED: int
WHY_UNKNOWN: int
WHY_NO_SOURCE: int
WHY_PRIVILEGE: int
WHY_REFUSED: int
WHY_KERNEL: int
WHY_NO_SYNC: int
WHY_UNVERIFIED: int
WHY_NO_DEVICE: int
PROMISE_EVERY_CHANGE: int
PROMISE_TICK: int
PROMISE_MONOTONIC: int
PROMISE_PERSISTENT: int
PROMISE_METADATA: int
PROMISE_ATIME: int
PROMISE_WRAP32: int
PROMISE_CLOCK: int
PROMISE_LAGS: int
PROMISE_NAMES: int
TOKEN_FROM_DATA_VERSION: int
TOKEN_FROM_CTIME: int
