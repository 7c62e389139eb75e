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
AS_IF([test "x$enable_python" = xno], [PYTHON=:],
      [test -z "$PYTHON"], [
	for xs_py in python3 /usr/bin/python3; do
		xs_py=`command -v "$xs_py" 2>/dev/null` || continue
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

have_python=no
AS_IF([test "x$PYTHON" != x:], [
	PYTHON_CPPFLAGS="-I`$PYTHON -c 'import sysconfig
print(sysconfig.get_path("include"))'` -I`$PYTHON -c 'import sysconfig
print(sysconfig.get_path("platinclude"))'`"
	PYTHON_EXT_SUFFIX=`$PYTHON -c 'import sysconfig
print(sysconfig.get_config_var("EXT_SUFFIX") or ".so")'`
	xs_py_ptr=`$PYTHON -c 'import struct; print(struct.calcsize("P"))'`
	# The headers must build with $CC for the interpreter's word size:
	# a -m32 build next to a 64-bit Python has no binding.
	AC_MSG_CHECKING([whether $CC builds extensions for $PYTHON])
	xs_save_CPPFLAGS=$CPPFLAGS
	CPPFLAGS="$CPPFLAGS $PYTHON_CPPFLAGS"
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <Python.h>]],
		[[_Static_assert(sizeof(void *) == $xs_py_ptr, "word size");
		  return PyLong_FromLong == 0;]])],
		[have_python=yes])
	CPPFLAGS=$xs_save_CPPFLAGS
	AC_MSG_RESULT([$have_python])])
AS_IF([test "x$enable_python$have_python" = xyesno],
	[AC_MSG_ERROR([--enable-python: no Python 3 development files for $CC])])
AC_SUBST([PYTHON_CPPFLAGS])
AC_SUBST([PYTHON_EXT_SUFFIX])
AC_SUBST([XS_PYTHON], [$have_python])
AM_CONDITIONAL([XS_PYTHON], [test "x$have_python" = xyes])
