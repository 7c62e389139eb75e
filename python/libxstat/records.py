# SPDX-License-Identifier: LGPL-2.1-or-later
"""The JSON record of one file, byte for byte as ``xstat --json`` writes it.

A program that makes records in Python (libxstat.distributed) and the
xstat tool must agree on every byte, so that one's output can be read
where the other's is expected (``xstat -r --changes`` reads either).  The
schema is the table MEMBERS below: one row per member, in the tool's
order (tools/json.c).  A member added to the tool is one row here; the
tests compare the two line by line.

The conventions are the tool's (xstat(1), JSON): every member is present
and null when its value was not obtained; "path" is UTF-8 with U+FFFD for
each stray byte and then "path_bytes" holds the exact bytes in hex;
control characters, U+007F-U+009F, U+2028 and U+2029 are \\u escapes;
a 64-bit value past 2**53 is a string of digits.
"""

import os as _os
import re as _re
import typing as _t

from . import Request, TokenSource, Why, xstat_result

__all__ = ["SCHEMA", "MEMBERS", "record", "error_record", "size_needed"]

#: The "schema" member: JSON_SCHEMA of tools/json.h.
SCHEMA = 1

_EXACT_MAX = 1 << 53


def _num(v: _t.Optional[int]) -> str:
    if v is None:
        return "null"
    return str(v) if abs(v) <= _EXACT_MAX else f'"{v}"'


def _escape_char(cp: int) -> str:
    if cp == 0x22:
        return '\\"'
    if cp == 0x5C:
        return "\\\\"
    if cp == 0x0A:
        return "\\n"
    if cp == 0x09:
        return "\\t"
    if cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x2028, 0x2029):
        return f"\\u{cp:04x}"
    return chr(cp)


def _string(name: bytes) -> _t.Tuple[str, bool]:
    """@name as a JSON string, and whether a byte had to be replaced."""
    try:
        chars = _escape(name.decode("utf-8"))
        lossy = False
    except UnicodeDecodeError:
        # the tool replaces each byte that is not part of valid UTF-8
        chars = "".join(_escape(t) if isinstance(t, str) else "\\ufffd"
                        for t in _per_byte(name))
        lossy = True
    return '"' + chars + '"', lossy


# What the tool writes as an escape: '"', '\\', controls, U+007F-U+009F,
# U+2028 and U+2029.
_NEEDS_ESCAPE = _re.compile('["\\\\\x00-\x1f\x7f-\x9f\u2028\u2029]')


def _escape(text: str) -> str:
    return _NEEDS_ESCAPE.sub(lambda m: _escape_char(ord(m.group())), text)


def _per_byte(name: bytes) -> _t.List[_t.Union[str, int]]:
    """The valid UTF-8 sequences of @name decoded, each other byte as
    an int."""
    out: _t.List[_t.Union[str, int]] = []
    i, n = 0, len(name)
    while i < n:
        for size in (1, 2, 3, 4):
            try:
                out.append(name[i:i + size].decode("utf-8"))
            except UnicodeDecodeError:
                continue
            i += size
            break
        else:
            out.append(name[i])
            i += 1
    return out


def _time(ns: _t.Optional[int]) -> str:
    if ns is None:
        return "null"
    sec, nsec = divmod(ns, 1_000_000_000)
    return f'{{"sec":{_num(sec)},"nsec":{nsec}}}'


_TYPES = {0o100000: "regular file", 0o040000: "directory",
          0o120000: "symbolic link", 0o060000: "block special file",
          0o020000: "character special file", 0o010000: "fifo",
          0o140000: "socket"}


def _type(r: xstat_result) -> str:
    """stat's %F, as the tool's "type": null without the mode."""
    if r.st_mode is None:
        return "null"
    fmt = r.st_mode & 0o170000
    if fmt == 0o100000 and r.st_size == 0:
        return '"regular empty file"'
    return '"' + _TYPES.get(fmt, "weird file") + '"'


def _fs_id(r: xstat_result) -> str:
    """The tool's "fs_id": {"id": hex, "source": "uuid" | "fsid"}."""
    src = {1: "uuid", 2: "fsid"}.get(r.st_fs_id_source, "unknown")
    return f'{{"id":"{r.st_fs_id.hex()}","source":"{src}"}}'


def _dev(dev: _t.Optional[int]) -> str:
    if dev is None:
        return "null"
    return f'{{"major":{_os.major(dev)},"minor":{_os.minor(dev)}}}'


# One name per Promise bit, in bit order (tools/human.c).
_PROMISE_NAMES = ("every_change", "tick", "monotonic", "persistent",
                  "metadata", "atime", "wrap32", "clock_step", "lags",
                  "names")


def _promise(p: int) -> str:
    p = int(p)
    names = [n for i, n in enumerate(_PROMISE_NAMES) if p >> i & 1]
    rest = p & ~((1 << len(_PROMISE_NAMES)) - 1)
    if rest:
        names.append(hex(rest))
    flags = ",".join(f'"{n}"' for n in names)
    return f'"promise":{_num(p)},"flags":[{flags}]'


def _token(r: xstat_result) -> str:
    if r.st_change_token is None:
        return "null"
    source = {TokenSource.DATA_VERSION: "data_version",
              TokenSource.CTIME: "ctime"}.get(r.st_change_token_source,
                                              "unknown")
    return (f'{{"token":{_num(r.st_change_token)},"source":"{source}",'
            f'{_promise(r.st_change_token_promise or 0)}}}')


def _obj(**members: _t.Optional[int]) -> str:
    if any(v is None for v in members.values()):
        return "null"
    return "{" + ",".join(f'"{k}":{_num(v)}' for k, v in members.items()) \
        + "}"


def _mnt_id(r: xstat_result) -> str:
    if r.st_mnt_id is None:
        return "null"
    unique = "true" if r.st_mnt_id_unique else "false"
    return f'{{"id":{_num(r.st_mnt_id)},"unique":{unique}}}'


_WHY_FIELDS = ("btime", "gen", "data_version")


def _why(r: xstat_result) -> str:
    """The tool's "why_missing": each asked field that is missing, with its
    reason spelt as tools/human.c's human_why() (the Why name in lower
    case, a code this module does not know as "unknown")."""
    reasons = [(name, getattr(r, "st_why_missing_" + name))
               for name in _WHY_FIELDS]
    if reasons[0][1] is None:
        return "null"
    return "{" + ",".join(
        f'"{name}":"{Why(code).name.lower()}"' for name, code in reasons
        if code not in (Why.PRESENT, Why.NOT_REQUESTED)) + "}"


def _dv_promise(r: xstat_result) -> str:
    if r.st_dv_promise is None:
        return "null"
    return "{" + _promise(r.st_dv_promise) + "}"


# Sizes of the extra results (<xstat.h>), in the order the library packs
# them after struct xstat: "size_needed" is their sum over those present.
_STRUCT_SIZE = 152
_EXTRA_SIZES = tuple((int(bit), size) for bit, size in (
    (Request.MNT_ID, 16), (Request.ATTRIBUTES, 16), (Request.DIOALIGN, 8),
    (Request.SUBVOL, 8), (Request.WRITE_ATOMIC, 16),
    (Request.DIO_READ_ALIGN, 8), (Request.WHY_MISSING, 8),
    (Request.CHANGE_TOKEN, 24), (Request.DV_PROMISE, 8),
    (Request.FS_ID, 24), (Request.MNT_ID_REUSABLE, 8)))
_EXTRAS = int(Request.EXTRA)
_WHY_MISSING = int(Request.WHY_MISSING)


def size_needed(r: xstat_result, fields: int) -> int:
    """What xstat(3) returned for @r: struct xstat and the extra results
    present (the reasons whenever they were asked for)."""
    present = (int(r.st_result_mask) | (int(fields) & _WHY_MISSING)) & \
        _EXTRAS
    if not present:
        return _STRUCT_SIZE
    return _STRUCT_SIZE + sum(s for bit, s in _EXTRA_SIZES if present & bit)


_Row = _t.Tuple[str, int, _t.Callable[[xstat_result, int], str]]

#: The schema: (member, the Request bit of an extra result or 0, its value
#: as JSON text) in the tool's order, after "path", "path_bytes" and
#: "schema".  One row per member of tools/json.c; an extra result's member
#: is null when its bit is not in the result mask.
MEMBERS: _t.Tuple[_Row, ...] = (
    ("size_needed", 0, lambda r, f: _num(size_needed(r, f))),
    ("result_mask", 0, lambda r, f: str(int(r.st_result_mask))),
    ("mode", 0, lambda r, f: _num(r.st_mode)),
    ("type", 0, lambda r, f: _type(r)),
    ("nlink", 0, lambda r, f: _num(r.st_nlink)),
    ("uid", 0, lambda r, f: _num(r.st_uid)),
    ("gid", 0, lambda r, f: _num(r.st_gid)),
    ("rdev", 0, lambda r, f: _dev(r.st_rdev)),
    ("dev", 0, lambda r, f: _dev(r.st_dev)),
    ("atime", 0, lambda r, f: _time(r.st_atime_ns)),
    ("mtime", 0, lambda r, f: _time(r.st_mtime_ns)),
    ("ctime", 0, lambda r, f: _time(r.st_ctime_ns)),
    ("btime", 0, lambda r, f: _time(r.st_birthtime_ns)),
    ("ino", 0, lambda r, f: _num(r.st_ino)),
    ("size", 0, lambda r, f: _num(r.st_size)),
    ("blksize", 0, lambda r, f: _num(r.st_blksize)),
    ("blocks", 0, lambda r, f: _num(r.st_blocks)),
    ("gen", 0, lambda r, f: _num(r.st_gen)),
    ("data_version", 0, lambda r, f: _num(r.st_data_version)),
    ("mnt_id", int(Request.MNT_ID), lambda r, f: _mnt_id(r)),
    ("attributes", int(Request.ATTRIBUTES), lambda r, f: _obj(
        set=r.st_attributes, known=r.st_attributes_mask)),
    ("dioalign", int(Request.DIOALIGN), lambda r, f: _obj(
        mem=r.st_dio_mem_align, offset=r.st_dio_offset_align)),
    ("subvol", int(Request.SUBVOL), lambda r, f: _num(r.st_subvol)),
    ("write_atomic", int(Request.WRITE_ATOMIC), lambda r, f: _obj(
        unit_min=r.st_atomic_write_unit_min,
        unit_max=r.st_atomic_write_unit_max,
        unit_max_opt=r.st_atomic_write_unit_max_opt,
        segments_max=r.st_atomic_write_segments_max)),
    ("dio_read_align", int(Request.DIO_READ_ALIGN),
     lambda r, f: _num(r.st_dio_read_offset_align)),
    ("change_token", int(Request.CHANGE_TOKEN), lambda r, f: _token(r)),
    ("dv_promise", int(Request.DV_PROMISE), lambda r, f: _dv_promise(r)),
    ("fs_id", int(Request.FS_ID), lambda r, f: _fs_id(r)),
    ("mnt_id_reusable", int(Request.MNT_ID_REUSABLE),
     lambda r, f: _num(r.st_mnt_id_reusable)),
    ("why_missing", int(Request.WHY_MISSING), lambda r, f: _why(r)),
)


def _head(path: bytes) -> str:
    text, lossy = _string(path)
    raw = '"' + path.hex() + '"' if lossy else "null"
    return f'{{"path":{text},"path_bytes":{raw},"schema":{SCHEMA}'


_KEYED = tuple((f',"{name}":', bit, value) for name, bit, value in MEMBERS)
_FIXED = tuple(row for row in _KEYED if not row[1])
# The members of the extra results when none is present: the common case.
_NO_EXTRAS = "".join(key + "null" for key, bit, _ in _KEYED if bit)
_LAST_FIXED = max(i for i, row in enumerate(_KEYED) if not row[1])
_EXTRAS_LAST = all(row[1] for row in _KEYED[_LAST_FIXED + 1:]) and \
    all(not row[1] for row in _KEYED[:_LAST_FIXED + 1])


def record(path: bytes, r: xstat_result, fields: int,
           taken: _t.Optional[int] = None) -> str:
    """The line (without its newline) of the file @path whose result is
    @r, obtained with @fields; @taken: the tool's "taken", the time in
    nanoseconds before the walk began (given with a change token), or
    None."""
    tail = ',"taken":' + _time(taken) + "}"
    present = int(r.st_result_mask) & _EXTRAS
    if not present and _EXTRAS_LAST:
        body = "".join([key + value(r, fields) for key, _, value in _FIXED])
        return _head(path) + body + _NO_EXTRAS + tail
    body = "".join([key + (value(r, fields) if not bit or present & bit
                           else "null") for key, bit, value in _KEYED])
    return _head(path) + body + tail


def error_record(path: bytes, err: int) -> str:
    """The line of a file, or directory, that could not be examined or
    read: its errno and the C library's message."""
    text, _ = _string(_os.strerror(err).encode())
    return (_head(path) + f',"error":{{"errno":{err},"message":{text}}}}}')

