# SPDX-License-Identifier: LGPL-2.1-or-later
"""xstat_result behaves as os.stat_result where it can: a 10-item
sequence, == with results and tuples, hashing, pickling and copying."""

import copy
import os
import pickle

import pytest

import libxstat
from libxstat import Request


def test_sequence_as_os_stat_result(files):
    p = files["regular"]
    o = os.stat(p)
    r = libxstat.stat(p)
    assert len(r) == len(o) == libxstat.xstat_result.n_sequence_fields
    assert libxstat.xstat_result.n_fields == 10
    assert libxstat.xstat_result.n_unnamed_fields == 0
    assert list(r) == list(o)
    assert r[:] == tuple(o) and r[-3:] == o[-3:]
    mode, ino, *_ = r
    assert (mode, ino) == (o.st_mode, o.st_ino)
    with pytest.raises(IndexError):
        r[10]


def test_equal_to_os_stat_result_and_tuples(files):
    p = files["directory"]
    o = os.lstat(p)
    r = libxstat.lstat(p)
    assert r == o and o == r and not r != o
    assert r == tuple(o) and tuple(o) == r
    assert r != tuple(o)[:9] and r != (0,) * 10
    # Equal to a tuple: the same hash, as os.stat_result's.
    assert hash(r) == hash(tuple(o)) == hash(o)
    assert r != "not a result" and r != 1


def test_results_compare_every_field(files):
    p = files["regular"]
    f = Request.BASIC | Request.BTIME
    a = libxstat.lstat(p, fields=f)
    b = libxstat.lstat(p, fields=f)
    c = libxstat.lstat(p, fields=Request.BASIC)
    assert a == b and hash(a) == hash(b)
    if a.st_birthtime is not None:
        # The same 10 items, not the same fields.
        assert tuple(a) == tuple(c) and a != c
    with pytest.raises(TypeError):
        a < b   # noqa: B015 - only == and !=


@pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(files, proto):
    p = files["regular"]
    r = libxstat.stat(p, fields=Request.ALL)
    s = pickle.loads(pickle.dumps(r, proto))
    assert type(s) is libxstat.xstat_result
    assert s == r and repr(s) == repr(r)
    for name in ("st_result_mask", "st_gen", "st_data_version",
                 "st_mnt_id", "st_change_token", "st_birthtime_ns"):
        assert getattr(s, name) == getattr(r, name), name
    assert copy.copy(r) == r and copy.deepcopy(r) == r


def test_unpickle_checks_the_bytes():
    with pytest.raises(ValueError):
        libxstat._libxstat._result_from_bytes(b"short")
    with pytest.raises(TypeError):
        libxstat._libxstat._result_from_bytes("not bytes")
