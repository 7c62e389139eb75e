#!/bin/sh
# libxstat.distributed on a real Dask cluster (python/tests-distributed/),
# against the module built in this tree.  Skips (77) when configure built
# no binding or the interpreter lacks pytest or Dask distributed.
if [ "$XS_PYTHON" != yes ]; then
	echo "SKIP: Python binding not built (no Python 3 development files" \
		"found by configure)" >&2
	exit 77
fi
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
	echo "SKIP: pytest is not installed for $PYTHON" \
		"(Debian: python3-pytest)" >&2
	exit 77
fi
if ! "$PYTHON" -c 'import distributed, dask.bag' 2>/dev/null; then
	echo "SKIP: Dask distributed is not installed for $PYTHON" \
		"(Debian: python3-distributed)" >&2
	exit 77
fi

# Worker processes (multiprocessing) need POSIX semaphores.
if ! "$PYTHON" -c 'import multiprocessing; multiprocessing.Lock()' \
	2>/dev/null; then
	echo "SKIP: no POSIX semaphores for $PYTHON's multiprocessing" \
		"(/dev/shm not writable?): Dask cannot start worker processes" >&2
	exit 77
fi

# The package as it is installed: one directory, the modules inside,
# readable by the unprivileged worker the tests start.
pkg=$(mktemp -d "${TMPDIR:-/tmp}/libxstat-dask.XXXXXX") || exit 99
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
"$PYTHON" -m pytest -q -rs -p no:cacheprovider --rootdir="$pkg" \
	"$top_srcdir/python/tests-distributed"
rc=$?
# 5: pytest collected no test - a broken suite, not a pass.
[ $rc -eq 5 ] && rc=1
exit $rc
