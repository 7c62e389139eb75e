# SPDX-License-Identifier: LGPL-2.1-or-later
"""The binding's C extension, for pip (pyproject.toml): built against the
libxstat that pkg-config finds, the way any program of it is built."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup

HINT = ("install libxstat first: Debian's libxstat-dev, or from its "
        "source tree ./configure && make && make install (then "
        "ldconfig); for a prefix pkg-config does not search, set "
        "PKG_CONFIG_PATH=PREFIX/lib/pkgconfig")


def fail(why):
    sys.exit(f"libxstat binding: {why}; {HINT}")


def pkg_config(*args):
    if not shutil.which("pkg-config"):
        sys.exit("libxstat binding: pkg-config is missing "
                 "(Debian: pkg-config); it finds the libxstat C library")
    p = subprocess.run(["pkg-config", *args, "libxstat"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode:
        fail("pkg-config finds no libxstat (" +
             (p.stderr.strip().splitlines() or ["not found"])[-1] + ")")
    return p.stdout.split()


version = pkg_config("--modversion")[0]
cflags = pkg_config("--cflags")
libs = pkg_config("--libs")
incdirs = [f[2:] for f in cflags if f.startswith("-I")]
if not any(os.path.exists(os.path.join(d, "xstat.h"))
           for d in incdirs + ["/usr/local/include", "/usr/include"]):
    fail("pkg-config knows libxstat " + version + " but its header "
         "xstat.h is not installed (Debian: libxstat-dev)")
# The field table (lib/fields.h) and the tool's JSON record writer
# (tools/json-record.c) come from the source tree this directory is in.
top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.path.exists(os.path.join(top, "lib", "fields.h")):
    sys.exit("libxstat binding: build it from libxstat's source tree "
             "(it needs lib/fields.h and tools/json-record.c beside "
             "python/)")
libdirs = [f[2:] for f in libs if f.startswith("-L")]
# A library outside the loader's own directories is found at run time
# through the extension's RUNPATH.
rpath = [d for d in libdirs if not d.startswith(("/usr/lib", "/lib"))]

setup(
    version=version,
    packages=["libxstat"],
    package_data={"libxstat": ["py.typed", "*.pyi"]},
    ext_modules=[Extension(
        "libxstat._libxstat",
        sources=["_libxstat.c", "scan.c", "../tools/json-record.c",
                 "../tools/human.c"],
        include_dirs=incdirs + [os.path.join(top, "lib"),
                                os.path.join(top, "tools")],
        library_dirs=libdirs,
        libraries=[f[2:] for f in libs if f.startswith("-l")],
        runtime_library_dirs=rpath,
        define_macros=[("XS_PY_VERSION", '"%s"' % version)],
        extra_compile_args=["-fvisibility=hidden"],
    )],
)
