# SPDX-License-Identifier: LGPL-2.1-or-later
"""A libxstat.distributed task without a cluster: the task function run
here, its subdirectories fed back as the client does.  The oracles: the
C tool (``xstat -r --json`` walks with its own code) for the records,
os.stat() for the identities the loop and change checks compare."""

import collections
import errno
import os
import subprocess

import pytest

from libxstat import Request
from libxstat import distributed as xd

FIELDS = int(xd.DEFAULT_FIELDS | Request.WHY_MISSING)


def _walk(root, out=None, batch=3, max_depth=None):
    """Every task of a scan of @root, @batch directories a task: their
    record lines, errors and unread directories."""
    todo = collections.deque([("root", os.fsencode(root))])
    lines, errors, unread, parts = [], 0, [], []
    while todo:
        work = [todo.popleft() for _ in range(min(batch, len(todo)))]
        r = xd._task(work, FIELDS, max_depth, out)
        m = r["meta"]
        if out is None:
            lines.extend(r["lines"])
        elif m["part"]:
            parts.append(m["part"])
        errors += m["errors"]
        unread.extend(m["unread"])
        todo.extend(("dir", d) for d, _ in m["subdirs"])
    for p in parts:
        with open(os.path.join(out, p), encoding="utf-8") as f:
            lines.extend(f.read().splitlines())
    return sorted(lines), errors, unread


def _tool(root, *options):
    tool = os.environ.get("XSTAT_TOOL")
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("XSTAT_TOOL (tools/xstat) not set")
    cmd = [tool, "-r", "--json", *options, root]
    subprocess.run(cmd, stdout=subprocess.DEVNULL)     # atimes settled
    p = subprocess.run(cmd, capture_output=True)
    return sorted(p.stdout.decode("utf-8").splitlines()), p.returncode


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "t"
    for d in range(5):
        sub = root / f"d{d}" / "inner"
        sub.mkdir(parents=True)
        for f in range(d * 3):
            (sub.parent / f"f{f}").write_bytes(b"x" * f)
    (root / "d0" / "long").mkdir()
    open(os.path.join(os.fsencode(root), b"odd\xff\nname"), "w").close()
    os.symlink("d1", root / "link")
    os.mkfifo(root / "fifo")
    return str(root)


@pytest.mark.parametrize("to_files", [False, True], ids=["lines", "parts"])
def test_records_are_the_tools(tree, tmp_path, to_files):
    want, rc = _tool(tree)
    assert rc == 0
    out = None
    if to_files:
        out = str(tmp_path / "out")
        os.mkdir(out)
    got, errors, unread = _walk(tree, out)
    assert got == want
    assert (errors, unread) == (0, [])
    if to_files:
        assert all(n.startswith("part-") for n in os.listdir(out))


def test_max_depth_as_the_tool(tree):
    for depth in (0, 1, 2):
        want, _ = _tool(tree, f"--max-depth={depth}")
        assert _walk(tree, max_depth=depth)[0] == want


def _dir(path, want=None, ancestors=(), known=True):
    return ("dir", (os.fsencode(path), 1, want, ancestors, known))


def _ident(path):
    st = os.stat(path)
    return (st.st_dev, st.st_ino)


def test_missing_directory_is_unread_not_a_record(tree):
    """xstat -r writes a directory's record once, from its entry: one it
    then cannot open is an error, said apart, with no second record."""
    gone = os.path.join(tree, "gone")
    r = xd._task([_dir(gone)], FIELDS, None, None)
    assert r["lines"] == []
    assert r["meta"]["errors"] == 1
    assert r["meta"]["unread"] == [(os.fsencode(gone), errno.ENOENT)]
    assert "cannot read directory" in xd._unread_message(gone.encode(),
                                                         errno.ENOENT)


def test_not_a_directory_of_unknown_type_is_no_error(tree):
    """An entry whose type was not known is tried as a directory:
    ENOTDIR is then no error (as xstat -r)."""
    f = os.path.join(tree, "d1", "f0")
    r = xd._task([_dir(f, known=False)], FIELDS, None, None)
    assert (r["lines"], r["meta"]["errors"], r["meta"]["unread"]) == \
        ([], 0, [])
    r = xd._task([_dir(f, known=True)], FIELDS, None, None)
    assert r["meta"]["unread"] == [(os.fsencode(f), errno.ENOTDIR)]


def test_changed_directory_not_entered(tree):
    d = os.path.join(tree, "d2")
    other = _ident(os.path.join(tree, "d3"))
    r = xd._task([_dir(d, want=other)], FIELDS, None, None)
    assert r["lines"] == []
    assert r["meta"]["unread"] == [(os.fsencode(d), 0)]
    assert r["meta"]["errors"] == 1
    assert "changed during the walk" in xd._unread_message(d.encode(), 0)
    r = xd._task([_dir(d, want=_ident(d))], FIELDS, None, None)
    assert len(r["lines"]) == len(os.listdir(d))
    assert r["meta"]["unread"] == []


def test_loop_not_entered(tree):
    """A directory that is its own ancestor (a bind mount of a parent)
    is a file system loop: not read, reported."""
    d = os.path.join(tree, "d4")
    r = xd._task([_dir(d, ancestors=(_ident(tree), _ident(d)))], FIELDS,
                 None, None)
    assert r["lines"] == []
    assert r["meta"]["unread"] == [(os.fsencode(d), errno.ELOOP)]
    # the subdirectories of a directory read carry its identity on
    r = xd._task([_dir(d, ancestors=(_ident(tree),))], FIELDS, None, None)
    (sub, _), = r["meta"]["subdirs"]
    assert sub[0] == os.fsencode(os.path.join(d, "inner"))
    assert sub[2] == _ident(os.path.join(d, "inner"))
    assert sub[3] == (_ident(tree), _ident(d))


@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("to_files", [False, True], ids=["lines", "parts"])
def test_descent_is_the_tools(tree, tmp_path, threads, to_files):
    """A task that reads one level below its work (on its own threads,
    each subdirectory started as soon as its entry is read): the same
    records, once, and the deeper directories left to later tasks."""
    want, _ = _tool(tree)
    out = None
    if to_files:
        out = str(tmp_path / "out")
        os.mkdir(out)
    todo = [("root", os.fsencode(tree))]
    lines, tasks = [], 0
    while todo:
        r = xd._task(todo[:2], FIELDS, None, out, levels=1, threads=threads)
        todo = todo[2:] + [("dir", d) for d, _ in r["meta"]["subdirs"]]
        tasks += 1
        assert all(d[1] >= 2 for d, _ in r["meta"]["subdirs"])
        if out is None:
            lines.extend(r["lines"])
        elif r["meta"]["part"]:
            with open(os.path.join(out, r["meta"]["part"]),
                      encoding="utf-8") as f:
                lines.extend(f.read().splitlines())
    assert sorted(lines) == want
    assert tasks < 1 + 5 + 1        # the first read two levels


def test_found_that_raises_stops_the_read(tree):
    """_scan()'s found() raising: the read stops and the error is the
    call's."""
    def found(subdirs):
        raise RuntimeError("stop")
    with pytest.raises(RuntimeError, match="stop"):
        xd._c._scan([("root", os.fsencode(tree))], FIELDS, None, None, -1,
                    found)
