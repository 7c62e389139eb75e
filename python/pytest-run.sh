#!/bin/sh
# pytest over one suite directory of python/ (the first argument), against
# the module built in this tree and the libxstat.so.1 beside it, arranged
# as the package is installed.  Further arguments: Python modules the
# suite needs, each "module:Debian package".  Exits 77 with the reason
# when configure built no binding or a module is missing; run by
# test-python.sh and test-distributed.sh.
suite=$1
shift
if [ "$XS_PYTHON" != yes ]; then
	echo "SKIP: Python binding not built (no Python 3 development files" \
		"found by configure)" >&2
	exit 77
fi
for need in pytest:python3-pytest "$@"; do
	if ! "$PYTHON" -c "import ${need%%:*}" 2>/dev/null; then
		echo "SKIP: ${need%%:*} is not installed for $PYTHON" \
			"(Debian: ${need#*:})" >&2
		exit 77
	fi
done

# The package as it is installed: one directory, the modules inside,
# readable by the tests' unprivileged children.
pkg=$(mktemp -d "${TMPDIR:-/tmp}/libxstat-py.XXXXXX") || exit 99
trap 'rm -rf "$pkg"' EXIT
chmod 755 "$pkg" && mkdir "$pkg/libxstat" || exit 99
for f in "$top_srcdir"/python/libxstat/*.py \
	"$top_srcdir"/python/libxstat/*.pyi "$top_srcdir"/python/libxstat/py.typed; do
	ln -s "$f" "$pkg/libxstat/" || exit 99
done
ln -s "$top_builddir/python/.libs/_libxstat$PYTHON_EXT_SUFFIX" \
	"$pkg/libxstat/" || exit 99

export PYTHONPATH="$pkg" PYTHONDONTWRITEBYTECODE=1
export LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SECCOMP_RUN="$top_builddir/tests/seccomp-run"
# pytest's own temporary directories too, so that none outlives the run.
"$PYTHON" -m pytest -q -rs -p no:cacheprovider --rootdir="$pkg" \
	--basetemp="$pkg/pytest" "$top_srcdir/python/$suite"
rc=$?
# 5: pytest collected no test - a broken suite, not a pass.
[ $rc -eq 5 ] && rc=1
exit $rc
