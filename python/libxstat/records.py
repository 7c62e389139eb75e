# SPDX-License-Identifier: LGPL-2.1-or-later
"""The JSON record of one file, byte for byte as ``xstat --json`` writes it.

A program that makes records in Python (libxstat.distributed) and the
xstat tool must agree on every byte, so that one's output can be read
where the other's is expected (``xstat -r --changes`` reads either).  So
there is one writer: the tool's (tools/json-record.c), compiled into the
binding's C extension from the same source.  The schema and its
conventions are in xstat(1), JSON: every member is present and null when
its value was not obtained; "path" is UTF-8 with U+FFFD for each stray
byte and then "path_bytes" holds the exact bytes in hex; control
characters, U+007F-U+009F, U+2028 and U+2029 are \\u escapes; a 64-bit
value past 2**53 is a string of digits.
"""

import typing as _t

from . import _libxstat as _c
from . import xstat_result

__all__ = ["SCHEMA", "record", "error_record", "size_needed"]

#: The "schema" member: JSON_SCHEMA of tools/json-record.h.
SCHEMA = 1

# struct xstat, then the extra results present, in bit order (fields.h).
_STRUCT_SIZE = 152
_EXTRAS = int(_c.REQUEST__EXTRA_RESULTS)
_WHY_MISSING = int(_c.REQUEST_WHY_MISSING)


def size_needed(r: xstat_result, fields: int) -> int:
    """What xstat(3) returned for @r: struct xstat and the extra results
    present (the reasons whenever they were asked for)."""
    present = (int(r.st_result_mask) | (int(fields) & _WHY_MISSING)) & \
        _EXTRAS
    if not present:
        return _STRUCT_SIZE
    return _STRUCT_SIZE + sum(s for bit, s, _ in _c.EXTRA_RESULTS
                              if present & bit)


def record(path: bytes, r: xstat_result, fields: int,
           taken: _t.Optional[int] = None) -> str:
    """The line (without its newline) of the file @path whose result is
    @r, obtained with @fields; @taken: the tool's "taken", the time in
    nanoseconds before the walk began (given with a change token), or
    None."""
    return _c._json_record(path, r, size_needed(r, fields), taken)


def error_record(path: bytes, err: int) -> str:
    """The line of a file, or directory, that could not be examined or
    read: its errno and the C library's message."""
    return _c._json_error_record(path, err)
