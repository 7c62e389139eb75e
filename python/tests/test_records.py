# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.records against the tool: the line of every file of every
type, for the default fields, every field and a change token, and of a
missing file, is the line ``xstat -j`` writes, byte for byte.  (The
walk's records are compared on a Dask cluster in tests-distributed.)"""

import errno
import os
import re
import subprocess

import pytest

import libxstat
from libxstat import records, Request


def _taken(line):
    """The tool's "taken" (read with a change token) in nanoseconds."""
    m = re.search(r',"taken":\{"sec":(-?\d+),"nsec":(\d+)\}\}$', line)
    return int(m.group(1)) * 10**9 + int(m.group(2)) if m else None


def _as_the_tool(fields):
    """The tool's JSON asks why a class (3) field it asked for is missing."""
    if fields & int(Request.BTIME | Request.GEN | Request.DATA_VERSION):
        fields |= int(Request.WHY_MISSING)
    return fields


def _tool_line(tool, path, mask):
    out = subprocess.run([tool, "-j", "-m", hex(mask), "--", path],
                         stdout=subprocess.PIPE, check=False).stdout
    return out.decode("utf-8").splitlines()[0]


@pytest.mark.parametrize("fields", [
    int(libxstat.DEFAULT_FIELDS), int(Request.ALL),
    int(Request.BASIC | Request.CHANGE_TOKEN | Request.WHY_MISSING)])
def test_every_type_as_the_tool(xstat_tool, files, fields):
    for name, path in sorted(files.items()):
        if path is None:
            continue
        want = _tool_line(xstat_tool, path, fields)
        fields = _as_the_tool(fields)
        r = libxstat.lstat(path, fields=fields)
        assert records.record(os.fsencode(path), r, fields,
                              _taken(want)) == want, name


def test_names_as_the_tool(xstat_tool, tmp_path):
    """Names that are not UTF-8, controls, quotes and U+2028."""
    for raw in (b"plain", b"bad\xffname", b"tab\there", b'q"uote\\',
                "line\u2028sep".encode(), b"esc\x1b[1m"):
        path = os.path.join(os.fsencode(str(tmp_path)), raw)
        with open(path, "wb"):
            pass
        fields = int(libxstat.DEFAULT_FIELDS)
        want = _tool_line(xstat_tool, os.fsdecode(path), fields)
        fields = _as_the_tool(fields)
        r = libxstat.lstat(path, fields=fields)
        assert records.record(path, r, fields) == want, raw


def test_error_line_as_the_tool(xstat_tool, tmp_path):
    path = str(tmp_path / "missing")
    want = _tool_line(xstat_tool, path, int(libxstat.DEFAULT_FIELDS))
    assert records.error_record(os.fsencode(path), errno.ENOENT) == want


def test_taken(files):
    r = libxstat.lstat(files["regular"])
    fields = int(libxstat.DEFAULT_FIELDS)
    line = records.record(b"f", r, fields, -1)
    assert line.endswith(',"taken":{"sec":-1,"nsec":999999999}}')
    line = records.record(b"f", r, fields, 3 * 10**9 + 5)
    assert line.endswith(',"taken":{"sec":3,"nsec":5}}')
