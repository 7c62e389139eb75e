# SPDX-License-Identifier: LGPL-2.1-or-later
"""The written parts of the binding held to the field table (lib/fields.h,
which the extension is made from): every extra result has its Request
member and its REQUEST_* in the type stub, every attribute of
xstat_result is in the stub, and the payload sizes add up to the header's
largest result."""

import os
import re

import libxstat
from libxstat import records
from libxstat import _libxstat as _c


def _stub(top_srcdir):
    with open(os.path.join(top_srcdir, "python", "libxstat",
                           "_libxstat.pyi")) as f:
        return f.read()


def test_every_extra_result_is_a_request_member(top_srcdir):
    stub = _stub(top_srcdir)
    declared = set(re.findall(r"^(REQUEST_\w+): int$", stub, re.M))
    by_value = {v: k for k, v in vars(_c).items()
                if k.startswith("REQUEST_") and not k.startswith("REQUEST__")}
    assert _c.EXTRA_RESULTS
    for bit, size, stx in _c.EXTRA_RESULTS:
        name = by_value.get(bit)
        assert name, hex(bit)
        assert name in declared, name + " is not in _libxstat.pyi"
        assert libxstat.Request[name[len("REQUEST_"):]] == bit, name
        assert size % 8 == 0 and size > 0, name
        assert stx == 0 or stx & (stx - 1) == 0, name
    extra = 0
    for bit, _, _ in _c.EXTRA_RESULTS:
        extra |= bit
    assert extra == _c.REQUEST__EXTRA_RESULTS


def test_every_attribute_is_in_the_stub(top_srcdir):
    stub = _stub(top_srcdir)
    cls = stub[stub.index("class xstat_result"):]
    cls = cls[:cls.index("\nclass ") if "\nclass " in cls else len(cls)]
    declared = set(re.findall(r"\b(st_\w+)\b", cls))
    attrs = [n for n in dir(_c.xstat_result) if n.startswith("st_")]
    assert "st_dio_mem_align" in attrs
    missing = sorted(set(attrs) - declared)
    assert not missing, "not in _libxstat.pyi: " + ", ".join(missing)


def test_sizes_add_up_to_the_largest_result():
    r = libxstat.lstat("/", fields=int(libxstat.Request.ALL))
    all_sizes = 152 + sum(size for _, size, _ in _c.EXTRA_RESULTS)
    assert records.size_needed(r, int(libxstat.Request.ALL)) <= \
        all_sizes
