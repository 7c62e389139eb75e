# SPDX-License-Identifier: LGPL-2.1-or-later
"""libxstat.statx()'s mount ID and stx_mask against os.statx()'s rules
(os_statx.py) applied to the kernel's own statx(2) answer, and against
os.statx() itself where the interpreter has it: for STATX_MNT_ID,
STATX_MNT_ID_UNIQUE, both and neither, with statx and in the fallback."""

import json
import os
import subprocess
import sys

import pytest

import libxstat
import oracle
import os_statx

MNT = oracle.STATX_MNT_ID | oracle.STATX_MNT_ID_UNIQUE
MASKS = {
    "mnt_id": oracle.STATX_MNT_ID,
    "unique": oracle.STATX_MNT_ID_UNIQUE,
    "both": oracle.STATX_MNT_ID | oracle.STATX_MNT_ID_UNIQUE,
    "neither": oracle.STATX_BASIC_STATS,
}
NAMES = ["regular", "directory", "symlink"]


def kernel_view(p, mask):
    """What os.statx(p, mask, follow_symlinks=False) gives for the
    mount: the kernel's answer through os.statx()'s getter."""
    k = oracle.statx(p, mask, follow=False)
    view = os_statx.mount_view(k)
    return view[0] & MNT, view[1]


def ours(p, mask):
    r = libxstat.statx(p, mask, follow_symlinks=False)
    return r.stx_mask & MNT, r.stx_mnt_id


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("which", sorted(MASKS))
def test_against_kernel(files, name, which):
    p = files[name]
    assert ours(p, MASKS[which]) == kernel_view(p, MASKS[which])


@pytest.mark.parametrize("which", sorted(MASKS))
def test_getters_follow_stx_mask(files, which):
    """CPython's check_statx_attributes: a member is None exactly when
    stx_mask lacks a bit it needs (the attributes aside: the fallback
    may lack them, which os.statx never does)."""
    for name in ("regular", "directory", "chardev"):
        if name not in files:
            continue
        r = libxstat.statx(files[name], MASKS[which] | oracle.STATX_ALL,
                           follow_symlinks=False)
        for member in os_statx.NEEDS:
            v = getattr(r, member)
            if member.startswith("stx_attributes"):
                continue
            if os_statx.has_value(member, r.stx_mask):
                assert v is not None, member
            else:
                assert v is None, member


@pytest.mark.skipif(not hasattr(os, "statx"),
                    reason="this Python has no os.statx() (3.15+)")
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("which", sorted(MASKS))
def test_against_os_statx(files, name, which):
    p, mask = files[name], MASKS[which]
    o = os.statx(p, mask, follow_symlinks=False)
    assert ours(p, mask) == (o.stx_mask & MNT, o.stx_mnt_id)


CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import libxstat, oracle
out = {"blocked": oracle.raw_statx_errno(), "got": {}}
for name, p in json.loads(sys.argv[2]).items():
    for which, mask in json.loads(sys.argv[3]).items():
        r = libxstat.statx(p, mask, follow_symlinks=False)
        out["got"][name + " " + which] = [r.stx_mask & 0x5000, r.stx_mnt_id]
print(json.dumps(out))
"""


@pytest.mark.parametrize("err", ["ENOSYS", "EPERM"])
def test_fallback_against_kernel(files, err):
    """With statx refused, the fallback tells the kinds apart the same
    way: name_to_handle_at()'s unique ID only when it is asked for."""
    runner = os.environ.get("SECCOMP_RUN", "")
    if not os.access(runner, os.X_OK):
        pytest.skip("tests/seccomp-run not built")
    some = {n: files[n] for n in NAMES}
    p = subprocess.run(
        [runner, "-e", err, "-s", "statx", "--", sys.executable, "-c",
         CHILD, os.path.dirname(oracle.__file__), json.dumps(some),
         json.dumps(MASKS)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["blocked"] != 0, "the filter did not block statx"
    for name, path in some.items():
        for which, mask in MASKS.items():
            want = list(kernel_view(path, mask))
            assert out["got"][name + " " + which] == want, (name, which)
