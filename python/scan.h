/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The C half of a libxstat.distributed task (scan.c), a function of the
 * _libxstat module.
 */
#ifndef XS_PY_SCAN_H
#define XS_PY_SCAN_H

#include <Python.h>

/*
 * _scan(work, fields, max_depth, taken_ns[, fd[, found]]) -> (records, subdirs,
 * entries, errors, dir_bytes, dir_entries, unread)
 */
PyObject *xs_scan(PyObject *m, PyObject *args);

#define XS_SCAN_DOC \
	"_scan(work, fields, max_depth, taken_ns, fd=-1, found=None): " \
	"read the roots " \
	"and directories of one libxstat.distributed task as xstat -r " \
	"does; returns (records, one xstat --json line each: as bytes, or " \
	"with fd written to it and their number of bytes; " \
	"subdirectories to read, ((path, depth, ident, ancestors, known), " \
	"size) each (with found, none: found(list of them) is called with " \
	"each as soon as its entry is read); entries; errors; bytes and " \
	"entries of the directories " \
	"read; unread, (path, errno) of each directory entered but not " \
	"read whole, errno 0 where it changed during the walk)."

#endif
