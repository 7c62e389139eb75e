#!/bin/sh
# libxstat.distributed on a real Dask cluster (python/tests-distributed/):
# python/pytest-run.sh, skipping (77) without Dask distributed or without
# the POSIX semaphores its worker processes need.
if [ "$XS_PYTHON" = yes ] &&
   ! "$PYTHON" -c 'import multiprocessing; multiprocessing.Lock()' \
	2>/dev/null; then
	echo "SKIP: no POSIX semaphores for $PYTHON's multiprocessing" \
		"(/dev/shm not writable?): Dask cannot start worker processes" >&2
	exit 77
fi
exec sh "$top_srcdir/python/pytest-run.sh" tests-distributed \
	"distributed:python3-distributed" "dask.bag:python3-dask"
