# SPDX-License-Identifier: LGPL-2.1-or-later
"""python3 -m libxstat.distributed as its users run it, on a cluster of
its own (--local): what it leaves behind (nothing in the temporary
directory: the workers' space is the run's own) and a scan run again
into the same --out (refused, naming --replace; with --replace the new
parts take the old ones' place, and only once the scan is complete).
The oracle is the C tool: ``xstat -r --json`` on the same tree."""

import os
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed")

from libxstat import distributed as xd  # noqa: E402


def _tool(root):
    """The tool's lines, read before the scan: its first walk moves the
    directories' atimes (relatime), the second is the reference, and the
    scan's reads leave them alone from then on."""
    tool = os.environ.get("XSTAT_TOOL")
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("XSTAT_TOOL (tools/xstat) not set")
    cmd = [tool, "-r", "--json", root]
    subprocess.run(cmd, stdout=subprocess.DEVNULL)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=False).stdout
    return sorted(out.decode("utf-8", "surrogateescape").splitlines())


def _parts(out):
    """{name: lines} of the part files in @out."""
    got = {}
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), encoding="utf-8",
                  errors="surrogateescape") as f:
            got[name] = f.read().splitlines()
    return got


def _lines(out):
    return sorted(line for lines in _parts(out).values() for line in lines)


def _tree(base):
    for d in range(3):
        os.makedirs(os.path.join(base, f"d{d}", "sub"))
        for f in range(4):
            with open(os.path.join(base, f"d{d}", f"f{f}"), "wb") as fp:
                fp.write(b"x" * f)
    return base


@pytest.fixture
def where(tmp_path):
    """A tree, and an empty directory to be the command's TMPDIR."""
    tmp = tmp_path / "tmpdir"
    tmp.mkdir()
    return _tree(str(tmp_path / "t")), str(tmp)


def _command(tmpdir, *args):
    env = dict(os.environ, TMPDIR=tmpdir)
    return subprocess.run(
        [sys.executable, "-m", "libxstat.distributed", "--local", "1", "-q",
         *args], env=env, cwd="/", stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, universal_newlines=True)


def test_local_run_leaves_nothing_in_tmpdir(where, tmp_path):
    root, tmpdir = where
    out = str(tmp_path / "out")
    want = _tool(root)
    p = _command(tmpdir, "--out", out, root)
    assert p.returncode == 0, p.stderr
    assert _lines(out) == want
    left = [os.path.join(r, n) for r, ds, fs in os.walk(tmpdir)
            for n in ds + fs]
    assert not left, left


def test_same_out_again_refused_then_replaced(where, tmp_path):
    root, tmpdir = where
    out = str(tmp_path / "out")
    assert _command(tmpdir, "--out", out, root).returncode == 0
    before = _parts(out)
    # the tree changes; the same command again is refused, naming the way
    with open(os.path.join(root, "d1", "new"), "w") as f:
        f.write("new")
    p = _command(tmpdir, "--out", out, root)
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1 and "--replace" in p.stderr, \
        p.stderr
    assert _parts(out) == before
    want = _tool(root)
    p = _command(tmpdir, "--replace", "--out", out, root)
    assert p.returncode == 0, p.stderr
    assert _lines(out) == want
    # nothing beside it: the new scan's directory became DIR
    assert sorted(os.listdir(str(tmp_path))) == ["out", "t", "tmpdir"]
    assert not os.listdir(tmpdir)


def test_failed_scan_keeps_the_old_parts(where, tmp_path):
    """replace=True and a scan that raises midway: the earlier parts as
    they were, and no directory of the new scan left beside them; then
    complete, the new parts; never over files that are not parts."""
    root, tmpdir = where
    out = str(tmp_path / "out")
    space = str(tmp_path / "space")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1,
                                  processes=False, dashboard_address=":0",
                                  local_directory=space) as cluster, \
            distributed.Client(cluster) as client:
        xd.run(root, client, out=out)
        before = _parts(out)
        with open(os.path.join(root, "d0", "new"), "w") as f:
            f.write("new")

        def fail(s):
            if s.tasks >= 2:
                raise RuntimeError("the scan fails here")
        with pytest.raises(RuntimeError):
            xd.run(root, client, out=out, replace=True, progress=fail)
        assert _parts(out) == before
        assert sorted(os.listdir(str(tmp_path))) == \
            ["out", "space", "t", "tmpdir"]
        with pytest.raises(xd.OutHoldsAnotherScan):
            xd.run(root, client, out=out)
        want = _tool(root)
        summary, _ = xd.run(root, client, out=out, replace=True)
        assert sorted(summary.parts) == sorted(os.listdir(out))
        assert _lines(out) == want
        # a DIR with other files than parts is never replaced
        open(os.path.join(out, "notes.txt"), "w").close()
        before = _parts(out)
        with pytest.raises(xd.OutHoldsAnotherScan) as e:
            xd.run(root, client, out=out, replace=True)
        assert "notes.txt" in str(e.value) and e.value.others == \
            ["notes.txt"]
        assert _parts(out) == before
