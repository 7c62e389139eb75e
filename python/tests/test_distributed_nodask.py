# SPDX-License-Identifier: LGPL-2.1-or-later
"""python3 -m libxstat.distributed where Dask distributed cannot be
imported (hidden here by a None in sys.modules, which makes its import
fail as a missing module's does, whether or not it is installed): one
line naming what to install, exit status 2, no traceback; --help still
works without it."""

import subprocess
import sys

import pytest

HIDE = ("import runpy, sys\n"
        "sys.modules['distributed'] = None\n"
        "sys.argv = ['libxstat.distributed'] + sys.argv[1:]\n"
        "runpy.run_module('libxstat.distributed', run_name='__main__',\n"
        "                 alter_sys=True)\n")


def _run(*args):
    return subprocess.run([sys.executable, "-c", HIDE, *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


@pytest.mark.parametrize("args", [
    (), ("--local", "2", "--out", "/nonexistent/out", "/"),
    ("--scheduler", "tcp://127.0.0.1:1", "/")], ids=["bare", "local",
                                                     "scheduler"])
def test_without_dask_one_line_and_exit_2(args):
    p = _run(*args)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert "python3-distributed" in lines[0], lines[0]
    assert "pip install distributed" in lines[0], lines[0]
    assert p.stdout == ""


def test_help_needs_no_dask():
    p = _run("--help")
    assert p.returncode == 0, p.stderr
    assert "--replace" in p.stdout and "--local" in p.stdout
