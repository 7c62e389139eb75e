# SPDX-License-Identifier: LGPL-2.1-or-later
"""pip's route where libxstat is not installed: the build backend
(python/build_backend.py) ends with setup.py's one-line message of what
to install, alone, with no traceback, both where it packs the wheel
itself (no "wheel" package, as in a venv of Debian 12's python3) and
where setuptools does; and it leaves no __pycache__ in the source tree
pip builds in.  The oracle for "not installed" is pkg-config itself,
asked with the same environment."""

import os
import shutil
import subprocess
import sys

import pytest

MESSAGE = "libxstat binding: pkg-config finds no libxstat"


@pytest.fixture
def src(top_srcdir, tmp_path):
    """A copy of python/'s build files, as pip sees the directory."""
    if not shutil.which("pkg-config"):
        pytest.skip("pkg-config is missing (Debian: pkg-config)")
    try:
        import setuptools  # noqa: F401
    except ImportError:
        pytest.skip("setuptools is missing (Debian: python3-setuptools)")
    here = os.path.join(top_srcdir, "python")
    d = tmp_path / "src"
    d.mkdir()
    for f in ("pyproject.toml", "setup.py", "build_backend.py",
              "_libxstat.c"):
        shutil.copy(os.path.join(here, f), str(d))
    shutil.copytree(os.path.join(here, "libxstat"), str(d / "libxstat"),
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return d


@pytest.fixture
def no_libxstat(tmp_path):
    """An environment where pkg-config finds no libxstat, bytecode on."""
    empty = tmp_path / "no-pc"
    empty.mkdir()
    env = dict(os.environ, PKG_CONFIG_LIBDIR=str(empty), PKG_CONFIG_PATH="")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    p = subprocess.run(["pkg-config", "--exists", "libxstat"], env=env)
    assert p.returncode != 0, "pkg-config finds libxstat in an empty path"
    return env


def _hook(src, env, hide_wheel):
    """build_wheel() of the backend in a child, as pip's hook runner
    calls it (cwd the source, the backend imported from there)."""
    code = ("import sys\n"
            + ("sys.modules['wheel'] = None\n" if hide_wheel else "")
            + "sys.path.insert(0, '.')\n"
              "import build_backend\n"
              "build_backend.build_wheel(sys.argv[1])\n")
    wheels = src.parent / "wheels"
    wheels.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-c", code, str(wheels)],
                          cwd=str(src),
                          env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def _has_wheel():
    try:
        import wheel  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("hide_wheel", [True, False],
                         ids=["own-wheel", "setuptools-wheel"])
def test_missing_libxstat_is_one_line(src, no_libxstat, hide_wheel):
    if not hide_wheel and not _has_wheel():
        pytest.skip("the wheel package is not installed: only the "
                    "backend's own packing is used here")
    p = _hook(src, no_libxstat, hide_wheel)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr, p.stderr
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    assert lines and lines[-1].startswith(MESSAGE), p.stderr
    assert len(lines) == 1, p.stderr


def test_no_bytecode_left_in_the_source_tree(src, no_libxstat):
    p = _hook(src, no_libxstat, hide_wheel=True)
    assert p.returncode != 0
    left = [os.path.join(root, d) for root, dirs, _ in os.walk(str(src))
            for d in dirs if d == "__pycache__"]
    assert not left, left


def test_pip_says_it_last_and_alone(src, no_libxstat, tmp_path):
    """The whole route: pip wheel --no-build-isolation, offline."""
    p = subprocess.run([sys.executable, "-m", "pip", "--version"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        pytest.skip("pip is not installed for %s (Debian: python3-pip)"
                    % sys.executable)
    env = dict(no_libxstat, PIP_NO_INDEX="1", PIP_NO_CACHE_DIR="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    p = subprocess.run([sys.executable, "-m", "pip", "wheel",
                        "--no-build-isolation", "--no-deps",
                        "-w", str(tmp_path / "wheels"), str(src)],
                       env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    out = p.stdout
    assert p.returncode != 0, out
    assert MESSAGE in out, out
    assert "Traceback" not in out, out
    # pip frames the backend's output; the message is all of it
    if "[end of output]" in out:
        framed = out.split("[end of output]")[0].splitlines()
        start = max(i for i, ln in enumerate(framed) if "lines of output]"
                    in ln)
        body = [ln.strip() for ln in framed[start + 1:] if ln.strip()]
        assert len(body) == 1 and body[0].startswith(MESSAGE), out
    assert not os.path.exists(str(src / "__pycache__"))
