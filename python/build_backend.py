# SPDX-License-Identifier: LGPL-2.1-or-later
"""The binding's PEP 517 build backend: setuptools', and a wheel without
the "wheel" package where it is missing.

setuptools before 70.1 makes wheels with the bdist_wheel command of the
separate "wheel" package, which a venv of Debian 12's python3 lacks; so
"pip install --no-build-isolation ./python" there (offline: no build
requirement is fetched) would stop at "invalid command 'bdist_wheel'".
Without it, this backend lets setuptools build (setup.py build, egg_info)
and packs the wheel itself: a zip of the built package, METADATA from
setuptools' PKG-INFO, WHEEL and RECORD (PEP 427).

Where setup.py stops with a message of its own (what to install: no
pkg-config, no libxstat, no xstat.h), that message is the last and only
word, as it is from setuptools' own backend: no traceback of this one.
Its own bytecode is not left in the source tree (pip builds in place).
"""

import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import tempfile
import zipfile


def _forget_own_bytecode():
    """Remove the __pycache__ entry that importing this module wrote
    beside it in the source tree, and the directory when that leaves it
    empty; a tree that cannot be written keeps it, harmlessly."""
    cached = globals().get("__cached__")
    if not cached or os.path.basename(os.path.dirname(cached)) != \
            "__pycache__":
        return
    try:
        os.unlink(cached)
        os.rmdir(os.path.dirname(cached))
    except OSError:
        pass


_forget_own_bytecode()

from setuptools import build_meta as _setuptools  # noqa: E402
from setuptools.build_meta import (  # noqa: F401,E402 - the hooks
    build_sdist, get_requires_for_build_sdist, get_requires_for_build_wheel)

try:
    import wheel  # noqa: F401
except ImportError:
    _HAVE_WHEEL = False
else:
    _HAVE_WHEEL = True
    # Only where setuptools can make it; else pip builds the wheel and
    # reads the metadata from it.
    prepare_metadata_for_build_wheel = \
        _setuptools.prepare_metadata_for_build_wheel


def _tag():
    """The wheel tag of this interpreter: cp311-cp311-linux_x86_64."""
    impl = "cp%d%d" % sys.version_info[:2]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}{sys.abiflags}-{plat}"


def _setup(*args, cwd):
    """setup.py in a child, its log on stderr (stdout is pip's); a child
    that failed has said why last (setup.py's message, a compiler's
    error), so this exits with its status and adds no traceback."""
    p = subprocess.run([sys.executable, "setup.py", *args], cwd=cwd,
                       stdout=sys.stderr)
    if p.returncode:
        sys.exit(p.returncode)


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{name},sha256={digest.rstrip(b'=').decode()},{len(data)}\n"


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    if _HAVE_WHEEL:
        return _setuptools.build_wheel(wheel_directory, config_settings,
                                       metadata_directory)
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        lib, info = os.path.join(tmp, "lib"), os.path.join(tmp, "info")
        os.mkdir(info)
        _setup("build", "--build-base", os.path.join(tmp, "build"),
               "--build-lib", lib, cwd=here)
        _setup("egg_info", "--egg-base", info, cwd=here)
        egg = [d for d in os.listdir(info) if d.endswith(".egg-info")][0]
        with open(os.path.join(info, egg, "PKG-INFO"), "rb") as f:
            metadata = f.read()
        fields = dict(line.split(": ", 1) for line in
                      metadata.decode().splitlines()[:3] if ": " in line)
        name, version = fields["Name"].replace("-", "_"), fields["Version"]
        dist_info = f"{name}-{version}.dist-info"
        tag = _tag()
        whl = f"{name}-{version}-{tag}.whl"
        record = ""
        with zipfile.ZipFile(os.path.join(wheel_directory, whl), "w",
                             zipfile.ZIP_DEFLATED) as z:
            for root, dirs, files in os.walk(lib):
                dirs.sort()
                for fn in sorted(files):
                    if fn.endswith((".pyc", ".pyo")):
                        continue
                    path = os.path.join(root, fn)
                    arc = os.path.relpath(path, lib)
                    with open(path, "rb") as f:
                        data = f.read()
                    z.writestr(arc, data)
                    record += _record_line(arc, data)
            extra = {
                "METADATA": metadata,
                "WHEEL": (f"Wheel-Version: 1.0\nGenerator: libxstat "
                          f"build_backend.py\nRoot-Is-Purelib: false\n"
                          f"Tag: {tag}\n").encode(),
                "top_level.txt": b"libxstat\n",
            }
            for fn, data in extra.items():
                z.writestr(f"{dist_info}/{fn}", data)
                record += _record_line(f"{dist_info}/{fn}", data)
            record += f"{dist_info}/RECORD,,\n"
            z.writestr(f"{dist_info}/RECORD", record)
    return whl
