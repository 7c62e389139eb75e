# The Python binding (python/python.am); m4_include'd by configure.ac.
#
# --enable-python=auto (the default) builds it where a Python 3 with its
# development headers is found, yes requires it, no skips it.  Without
# PYTHON=, the interpreter is the first python3 on PATH, then
# /usr/bin/python3, preferring one that can import pytest, since
# "make check" runs the binding's tests with it.
AC_ARG_ENABLE([python],
	[AS_HELP_STRING([--enable-python],
		[build the Python binding (default: auto, where Python 3
		 development files are found)])],
	[], [enable_python=auto])
why_python="no python3 found (Debian: python3-dev)"
AS_IF([test "x$enable_python" = xno], [PYTHON=: why_python=--disable-python],
      [test -z "$PYTHON"], [
	for xs_py in python3 /usr/bin/python3; do
		xs_py=`command -v "$xs_py" 2>/dev/null` || continue
		why_python="no Python.h for $xs_py (Debian: python3-dev)"
		$xs_py -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("include"),
					  "Python.h")))' \
			2>/dev/null || continue
		test -n "$PYTHON" || PYTHON=$xs_py
		if $xs_py -c 'import pytest' 2>/dev/null; then
			PYTHON=$xs_py
			break
		fi
	done
	test -n "$PYTHON" || PYTHON=:])
AM_PATH_PYTHON([], [], [PYTHON=:])

# Where "make install" puts the package.  automake's pyexecdir is the
# posix_prefix scheme's site-packages under the prefix, where Debian's
# interpreter does not look: it reads /usr/local/lib/python3.X/
# dist-packages (its posix_local scheme; substituting the prefix into
# that scheme's sysconfig paths gives /usr/local/local/...).  So when
# automake's directory is not on the interpreter's sys.path but one of
# the site directories it names for the prefix (site.getsitepackages())
# is, that one is used.  The interpreter's own prefix (/usr) is left to
# the distribution's packaging, which places the files itself.
AS_IF([test "x$PYTHON" != x:], [
	xs_py_prefix=$prefix
	test "x$xs_py_prefix" = xNONE && xs_py_prefix=$ac_default_prefix
	xs_py_site=`$PYTHON -c 'import site, sys, sysconfig
p = sys.argv[[1]].rstrip("/")
mine = sysconfig.get_path("platlib", "posix_prefix",
			  vars={"base": p, "platbase": p})
ver = "python%d.%d" % sys.version_info[[:2]]
if p != sys.base_prefix and mine not in sys.path:
	for d in site.getsitepackages([[p]]):
		if d in sys.path and d.startswith(p + "/") and ver in d:
			print(d)
			break' "$xs_py_prefix" 2>/dev/null`
	AS_IF([test -n "$xs_py_site"], [
		AC_MSG_NOTICE([Python package directory: $xs_py_site (on $PYTHON's sys.path)])
		pyexecdir="\${prefix}${xs_py_site#"$xs_py_prefix"}"
		pythondir=$pyexecdir])])

have_python=no
AS_IF([test "x$PYTHON" != x:], [
	PYTHON_CPPFLAGS="-I`$PYTHON -c 'import sysconfig
print(sysconfig.get_path("include"))'` -I`$PYTHON -c 'import sysconfig
print(sysconfig.get_path("platinclude"))'`"
	PYTHON_EXT_SUFFIX=`$PYTHON -c 'import sysconfig
print(sysconfig.get_config_var("EXT_SUFFIX") or ".so")'`
	xs_py_ptr=`$PYTHON -c 'import struct; print(struct.calcsize("P"))'`
	xs_py_glibc=`$PYTHON -c 'import platform
print(int(platform.libc_ver()[[0]] == "glibc"))' 2>/dev/null || echo 0`
	xs_py_multiarch=`$PYTHON -c 'import sysconfig
print(sysconfig.get_config_var("MULTIARCH") or "")' 2>/dev/null`
	xs_cc_multiarch=`$CC -print-multiarch 2>/dev/null`
	# The module is loaded by $PYTHON: built by $CC for the same word
	# size (not -m32 beside a 64-bit Python), the same C library (not
	# musl-gcc beside a glibc Python) and, where both name it, the same
	# target (not a cross compiler beside the build machine's Python).
	AC_MSG_CHECKING([whether $CC builds extensions for $PYTHON])
	xs_save_CPPFLAGS=$CPPFLAGS
	CPPFLAGS="$CPPFLAGS $PYTHON_CPPFLAGS"
	AS_IF([test -n "$xs_py_multiarch" && test -n "$xs_cc_multiarch" &&
	       test "x$xs_py_multiarch" != "x$xs_cc_multiarch"],
		[why_python="$PYTHON is for $xs_py_multiarch, $CC for $xs_cc_multiarch"],
	[AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <Python.h>]],
		[[_Static_assert(sizeof(void *) == $xs_py_ptr, "word size");
#if defined __GLIBC__ != $xs_py_glibc
#error "not the C library of the interpreter"
#endif
		  return PyLong_FromLong == 0;]])],
		[have_python=yes],
		[why_python="$CC cannot build a module for $PYTHON (its headers, word size or C library)"])])
	CPPFLAGS=$xs_save_CPPFLAGS
	AC_MSG_RESULT([$have_python])])
AS_IF([test "x$enable_python$have_python" = xyesno],
	[AC_MSG_ERROR([--enable-python: $why_python])])
AC_SUBST([PYTHON_CPPFLAGS])
AC_SUBST([PYTHON_EXT_SUFFIX])
AC_SUBST([XS_PYTHON], [$have_python])
AM_CONDITIONAL([XS_PYTHON], [test "x$have_python" = xyes])
XS_SUMMARY([the Python binding (import libxstat)], [$have_python],
	[$why_python])
have_pytest=no
xs_why_pytest="no Python binding"
AS_IF([test "x$have_python" = xyes], [
	xs_why_pytest="pytest is not installed for $PYTHON (Debian: python3-pytest)"
	$PYTHON -c 'import pytest' 2>/dev/null && have_pytest=yes])
XS_SUMMARY([the Python binding's tests (pytest)], [$have_pytest],
	[$xs_why_pytest])
