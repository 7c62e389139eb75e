# SPDX-License-Identifier: LGPL-2.1-or-later
"""Errors: the same exception as os.stat/os.lstat/os.fstat raise, with the
same errno, strerror, filename and message."""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

import libxstat


def outcome(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except Exception as e:       # noqa: BLE001 - compared in full below
        return (type(e), e.args, str(e), getattr(e, "errno", None),
                getattr(e, "filename", None), getattr(e, "filename2", None))
    return None


def same_error(ours, theirs, *args, **kw):
    """Both fail alike, or (where os's call succeeds) both succeed."""
    assert outcome(ours, *args, **kw) == outcome(theirs, *args, **kw)


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "file").write_bytes(b"x")
    os.symlink("loop", tmp_path / "loop")
    return tmp_path


def cases(t):
    f = str(t / "file")
    return [
        (str(t / "missing"),), (os.fsencode(str(t / "missing")),),
        (pathlib.Path(t / "missing"),), ("",), (b"",),
        (f + "/below",), (str(t / "loop"),), (str(t / "loop") + "/x",),
        ("x" * 5000,), (str(t / ("n" * 300)),),
        (str(t / "missing-\udcff"),), (str(t / "caf\u00e9"),),
        ("a\0b",), (b"a\0b",), (pathlib.Path("a\0b"),),
        ([],), (1.5,), (None,),
    ]


@pytest.mark.parametrize("i", range(18))
def test_stat_errors(tree, i):
    args = cases(tree)[i]
    same_error(libxstat.stat, os.stat, *args)
    same_error(libxstat.stat, os.stat, *args, follow_symlinks=False)


@pytest.mark.parametrize("i", range(18))
def test_lstat_errors(tree, i):
    same_error(libxstat.lstat, os.lstat, *cases(tree)[i])


def test_dir_fd_errors(tree):
    same_error(libxstat.stat, os.stat, "file", dir_fd=999)
    same_error(libxstat.stat, os.stat, "file", dir_fd=2**40)
    same_error(libxstat.stat, os.stat, "file", dir_fd="3")
    fd = os.open(tree / "file", os.O_RDONLY)
    try:
        same_error(libxstat.stat, os.stat, "x", dir_fd=fd)
        same_error(libxstat.lstat, os.lstat, "x", dir_fd=fd)
        same_error(libxstat.stat, os.stat, fd, dir_fd=fd)
        same_error(libxstat.stat, os.stat, fd, follow_symlinks=False)
    finally:
        os.close(fd)


def test_fd_errors():
    for fd in (999, 2**31, 2**40, -2**31 - 1, -2**40):
        same_error(libxstat.stat, os.stat, fd)
    for fd in (999, -1, -2, 2**31, 2**40, -2**31 - 1, "0", 1.0):
        same_error(libxstat.fstat, os.fstat, fd)


def test_argument_errors():
    with pytest.raises(TypeError):
        libxstat.stat()
    with pytest.raises(TypeError):
        libxstat.stat("/", "/")
    with pytest.raises(TypeError):
        libxstat.stat("/", bogus=1)
    with pytest.raises(TypeError):
        libxstat.stat("/", path="/")
    with pytest.raises(TypeError):
        libxstat.lstat("/", follow_symlinks=True)
    with pytest.raises(TypeError):
        libxstat.fstat(0, dir_fd=None)


CHILD = """
import os, sys, libxstat
if getattr(libxstat, "__file__", None) is None:
    # The package directory is reachable but its files are not (a build
    # tree under a 0700 directory): Python makes it a namespace package.
    raise ImportError("libxstat's files are not readable")
def outcome(fn, p):
    try:
        fn(p)
    except OSError as e:
        return (type(e).__name__, e.errno, e.strerror, e.filename)
for p in sys.argv[1:]:
    a, b = outcome(libxstat.stat, p), outcome(os.stat, p)
    assert a == b and b is not None, (p, a, b)
print("ok")
"""


def test_eacces_as_nobody():
    """EACCES needs an unprivileged caller: a child running as nobody."""
    if os.getuid() != 0:
        pytest.skip("needs root to become nobody")
    # Under a directory nobody can reach (pytest's own is mode 0700).
    top = tempfile.mkdtemp()
    os.chmod(top, 0o755)
    closed = os.path.join(top, "closed")
    os.mkdir(closed, 0o700)
    open(os.path.join(closed, "f"), "wb").close()
    try:
        run_as_nobody(closed)
    finally:
        shutil.rmtree(top)


def run_as_nobody(closed):
    pkg = os.path.dirname(os.path.dirname(libxstat.__file__))
    env = dict(os.environ, PYTHONPATH=pkg)
    p = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
         sys.executable, "-c", CHILD, os.path.join(closed, "f"),
         os.path.join(closed, "f", "x")],
        env=env, capture_output=True, text=True)
    if "ModuleNotFoundError" in p.stderr or "ImportError" in p.stderr:
        pytest.skip("nobody cannot read the built module: " + p.stderr)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok"


def test_import_from_the_source_tree_says_what_to_do(top_srcdir, tmp_path):
    """python/libxstat of the source tree has no compiled module: the
    import says so, not Python's "circular import"."""
    src = os.path.join(top_srcdir, "python")
    if any(n.startswith("_libxstat.") and n.endswith(".so")
           for n in os.listdir(os.path.join(src, "libxstat"))):
        pytest.skip("a compiled module lies in the source tree")
    p = subprocess.run([sys.executable, "-c", "import libxstat"],
                       cwd=str(tmp_path), env={"PYTHONPATH": src,
                                               "PYTHONDONTWRITEBYTECODE": "1"},
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 1
    assert "source tree" in p.stderr and "pip install" in p.stderr
    assert "circular import" not in p.stderr
