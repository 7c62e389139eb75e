// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * _scan(): the work of one libxstat.distributed task, in C.
 *
 * A task reads a few roots or directories of a tree and hands back their
 * records and the subdirectories it found, which the client makes into
 * new tasks.  Entry by entry in Python that cost several times the tool's
 * CPU (bench/RESULTS-dask.md); here each entry costs what it costs in
 * xstat -r: the directory stream, and its record written by the tool's
 * JSON writer (json-record.c) into one buffer that the task gets back as
 * bytes.  The GIL is released while a root is examined or a directory is
 * read, so that a worker's threads read in parallel.
 *
 * What is entered and what is reported is what tools/walk.c does: a
 * directory that cannot be opened, is not the one its entry described,
 * is its own ancestor, or cannot be read to its end, had its record
 * already (its entry's) and gets no error record of its own - one path,
 * one record - but is counted as an error and listed as unread.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "xstat.h"
#include "json-record.h"
#include "scan.h"

/* (dev, ino): a directory's identity, dev as os.stat's st_dev. */
struct ident {
	unsigned long long dev, ino;
};

/* A subdirectory found, to be read by a later task. */
struct subdir {
	char		*path;
	struct ident	id;
	bool		check;		/* @id is its entry's identity */
	bool		known;		/* type known: ENOTDIR is an error */
	unsigned long long size;	/* st_size of its entry, or 0 */
};

/* A directory that was entered but not read, or not whole. */
struct unread {
	char		*path;
	int		err;		/* 0: changed during the walk */
};

struct task {
	unsigned		flags;	/* xstat()'s and xstat_opendir()'s */
	struct xstat_parameters	params;
	int			max_depth;	/* -1: no limit */
	const struct xstat_time	*taken;
	FILE			*out;	/* the records: part file or memory */
	unsigned long long	entries, errors, dir_bytes, dir_entries;
	struct subdir		*sub;	/* found by the current directory */
	size_t			nsub, subroom;
	struct unread		*unread;
	size_t			nunread, unreadroom;
	/*
	 * found(subdirs), called with each subdirectory as soon as its
	 * entry is read (NULL: they are returned at the end), so that
	 * another thread can start on it while this one reads on.
	 */
	PyObject		*found;
	PyThreadState		*ts;	/* while the GIL is released */
	PyObject		*ancestors;	/* of the item being read */
	bool			failed;	/* found() raised: stop */
};

static bool grow(void **p, size_t *room, size_t n, size_t size)
{
	size_t want = *room ? *room * 2 : 16;
	void *q;

	if (n < *room)
		return true;
	q = realloc(*p, want * size);
	if (!q)
		return false;
	*p = q;
	*room = want;
	return true;
}

static void record(struct task *t, const char *path, const struct xstat *x,
		   ssize_t ret)
{
	struct file_result r = {
		.name = path, .dfd = AT_FDCWD, .path = path,
		.ret = ret, .x = x, .buflen = (size_t)ret,
	};

	json_record(t->out, &r, t->taken);
	t->entries++;
}

static void error_record(struct task *t, const char *path, int err)
{
	json_error_record(t->out, path, err);
	t->errors++;
}

/* @path was entered but not read (whole): counted and listed, no record. */
static void not_read(struct task *t, const char *path, int err)
{
	char *p = strdup(path);

	t->errors++;
	if (!p || !grow((void **)&t->unread, &t->unreadroom, t->nunread,
			sizeof(*t->unread))) {
		free(p);
		return;		/* still counted */
	}
	t->unread[t->nunread].path = p;
	t->unread[t->nunread].err = err;
	t->nunread++;
}

/* DT_* of a result, or @dt when the mode was not obtained. */
static unsigned char type_of(const struct xstat *x, unsigned char dt)
{
	if (x->st_result_mask & XSTAT_REQUEST_MODE)
		return IFTODT(x->st_mode);
	return dt;
}

/* Keep @path (a directory of @type, result @x) for a later task. */
static void keep_subdir(struct task *t, const char *path,
			const struct xstat *x, unsigned char type)
{
	struct subdir *s;
	char *p = strdup(path);

	if (!p || !grow((void **)&t->sub, &t->subroom, t->nsub,
			sizeof(*t->sub))) {
		free(p);
		not_read(t, path, ENOMEM);
		return;
	}
	s = &t->sub[t->nsub++];
	s->path = p;
	s->id.dev = makedev(x->st_dev.major, x->st_dev.minor);
	s->id.ino = x->st_ino;
	s->check = x->st_result_mask & XSTAT_REQUEST_INO;
	s->known = type != DT_UNKNOWN;
	s->size = x->st_result_mask & XSTAT_REQUEST_SIZE ? x->st_size : 0;
}

/* One entry of a directory at @depth: its record, and kept if a directory. */
static void do_entry(struct task *t, const char *path, int depth,
		     const struct xstat_dirent *e)
{
	unsigned char type;

	if (e->d_error) {
		error_record(t, path, e->d_error);
		return;
	}
	record(t, path, e->d_xstat, (ssize_t)e->d_xstat_len);
	if (t->max_depth >= 0 && depth + 1 >= t->max_depth)
		return;
	type = type_of(e->d_xstat, e->d_type);
	if (type == DT_DIR || type == DT_UNKNOWN)
		keep_subdir(t, path, e->d_xstat, type);
}

/* The directory to read and what its opened descriptor must match. */
struct dir_item {
	const char		*path;
	int			depth;
	bool			check;	/* @want holds its entry's identity */
	bool			known;
	struct ident		want;
	const struct ident	*ancestors;
	size_t			nanc;
	struct ident		here;	/* set once opened */
};

/*
 * The opened directory is the one its entry described, and not one of
 * its own ancestors; else not_read().
 */
static bool check_dir(struct task *t, struct dir_item *d, int fd,
		      unsigned long long *size)
{
	struct stat st;
	size_t i;

	if (fstat(fd, &st) < 0) {
		not_read(t, d->path, errno);
		return false;
	}
	d->here.dev = st.st_dev;
	d->here.ino = st.st_ino;
	*size = (unsigned long long)st.st_size;
	if (d->check && (d->here.dev != d->want.dev ||
			 d->here.ino != d->want.ino)) {
		not_read(t, d->path, 0);
		return false;
	}
	for (i = 0; i < d->nanc; i++) {
		if (d->ancestors[i].dev == d->here.dev &&
		    d->ancestors[i].ino == d->here.ino) {
			not_read(t, d->path, ELOOP);
			return false;
		}
	}
	return true;
}

static bool hand_over(struct task *t, const struct dir_item *d);

/* Read @d: a record per entry, its subdirectories in t->sub. */
static void read_dir(struct task *t, struct dir_item *d)
{
	const struct xstat_dirent *e;
	struct xstat_dir *dir;
	unsigned long long size, count = 0;
	size_t plen = strlen(d->path), room = plen + 258, nlen;
	char *path, *q;

	dir = xstat_opendir(AT_FDCWD, d->path, t->flags, &t->params);
	if (!dir) {
		if (!(errno == ENOTDIR && !d->known))
			not_read(t, d->path, errno);
		return;
	}
	path = malloc(room);
	if (!path) {
		not_read(t, d->path, ENOMEM);
		goto out;
	}
	if (!check_dir(t, d, xstat_dirfd(dir), &size))
		goto out;
	/* "@dir/@name", one slash between them, as find prints it */
	memcpy(path, d->path, plen);
	if (!plen || path[plen - 1] != '/')
		path[plen++] = '/';
	for (;;) {
		errno = 0;
		e = xstat_readdir(dir);
		if (!e) {
			if (errno)
				not_read(t, d->path, errno);
			break;
		}
		count++;
		nlen = strlen(e->d_name);
		if (plen + nlen + 1 > room) {
			q = realloc(path, plen + nlen + 1);
			if (!q) {
				error_record(t, e->d_name, ENOMEM);
				continue;
			}
			path = q;
			room = plen + nlen + 1;
		}
		memcpy(path + plen, e->d_name, nlen + 1);
		do_entry(t, path, d->depth, e);
		if (t->found && t->nsub && !hand_over(t, d))
			break;
	}
	t->dir_bytes += size;
	t->dir_entries += count;
out:
	free(path);
	xstat_closedir(dir);
}

/* A root: its own record, then its directory, as xstat -r. */
static void read_root(struct task *t, struct dir_item *d)
{
	union xstat_buffer buf;
	ssize_t n;

	memset(&buf, 0, sizeof(buf));
	n = xstat(AT_FDCWD, d->path, t->flags, &t->params, &buf.x,
		  sizeof(buf));
	if (n < 0) {
		error_record(t, d->path, errno);
		return;
	}
	record(t, d->path, &buf.x, n < (ssize_t)sizeof(buf) ? n :
	       (ssize_t)sizeof(buf));
	if (t->max_depth == 0)
		return;
	d->known = buf.x.st_result_mask & XSTAT_REQUEST_MODE;
	if (d->known && !S_ISDIR(buf.x.st_mode))
		return;
	d->check = buf.x.st_result_mask & XSTAT_REQUEST_INO;
	d->want.dev = makedev(buf.x.st_dev.major, buf.x.st_dev.minor);
	d->want.ino = buf.x.st_ino;
	read_dir(t, d);
}

/* ---- the Python side: arguments in, objects out ---- */

static int ident_from(PyObject *o, struct ident *id)
{
	if (!PyArg_ParseTuple(o, "KK;an identity is (dev, ino)", &id->dev,
			      &id->ino))
		return -1;
	return 0;
}

/*
 * ("dir", (path, depth, (dev, ino) or None, ancestors, known)), its
 * ancestors' identities into *@anc (PyMem_Free it).
 */
static int dir_item_from(PyObject *o, struct dir_item *d,
			 struct ident **anc)
{
	PyObject *want, *ancestors;
	Py_ssize_t i, n;
	int known;

	if (!PyArg_ParseTuple(o, "yiOO!p;a directory to read", &d->path,
			      &d->depth, &want, &PyTuple_Type, &ancestors,
			      &known))
		return -1;
	d->known = known;
	d->check = want != Py_None;
	if (d->check && ident_from(want, &d->want))
		return -1;
	n = PyTuple_GET_SIZE(ancestors);
	*anc = PyMem_New(struct ident, n ? n : 1);
	if (!*anc) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ident_from(PyTuple_GET_ITEM(ancestors, i), &(*anc)[i])) {
			PyMem_Free(*anc);
			*anc = NULL;
			return -1;
		}
	}
	d->ancestors = *anc;
	d->nanc = (size_t)n;
	return 0;
}

static PyObject *ident_tuple(const struct ident *id)
{
	return Py_BuildValue("(KK)", id->dev, id->ino);
}

/* @ancestors + (@d->here,): the loop check of @d's subdirectories. */
static PyObject *below(PyObject *ancestors, const struct dir_item *d)
{
	Py_ssize_t i, n = ancestors ? PyTuple_GET_SIZE(ancestors) : 0;
	PyObject *t = PyTuple_New(n + 1), *here;

	if (!t)
		return NULL;
	for (i = 0; i < n; i++) {
		Py_INCREF(PyTuple_GET_ITEM(ancestors, i));
		PyTuple_SET_ITEM(t, i, PyTuple_GET_ITEM(ancestors, i));
	}
	here = ident_tuple(&d->here);
	if (!here) {
		Py_DECREF(t);
		return NULL;
	}
	PyTuple_SET_ITEM(t, n, here);
	return t;
}

static void free_subdirs(struct task *t)
{
	size_t i;

	for (i = 0; i < t->nsub; i++)
		free(t->sub[i].path);
	t->nsub = 0;
}

/*
 * The subdirectories @d left in t->sub onto @list as ((path, depth,
 * (dev, ino) or None, ancestors, known), size), the items a later
 * task's work takes.
 */
static int add_subdirs(struct task *t, PyObject *list, PyObject *ancestors,
		       const struct dir_item *d)
{
	PyObject *anc, *id, *item;
	const struct subdir *s;
	int ret = -1;
	size_t i;

	if (!t->nsub)
		return 0;
	anc = below(ancestors, d);
	if (!anc)
		goto out;
	for (i = 0; i < t->nsub; i++) {
		s = &t->sub[i];
		if (s->check) {
			id = ident_tuple(&s->id);
		} else {
			id = Py_None;
			Py_INCREF(id);
		}
		if (!id)
			goto out;
		item = Py_BuildValue("((yiNOO)K)", s->path, d->depth + 1, id,
				     anc, s->known ? Py_True : Py_False,
				     s->size);
		if (!item || PyList_Append(list, item)) {
			Py_XDECREF(item);
			goto out;
		}
		Py_DECREF(item);
	}
	ret = 0;
out:
	Py_XDECREF(anc);
	free_subdirs(t);
	return ret;
}

/*
 * The subdirectories in t->sub to t->found, with the GIL held for the
 * call; false when it raised (t->failed, the exception kept).
 */
static bool hand_over(struct task *t, const struct dir_item *d)
{
	PyObject *list, *r = NULL;

	PyEval_RestoreThread(t->ts);
	list = PyList_New(0);
	if (list && !add_subdirs(t, list, t->ancestors, d))
		r = PyObject_CallOneArg(t->found, list);
	Py_XDECREF(list);
	Py_XDECREF(r);
	t->failed = !r;
	free_subdirs(t);
	t->ts = PyEval_SaveThread();
	return !t->failed;
}

/* One item of the work: ("root", path) or ("dir", ...). */
static int do_item(struct task *t, PyObject *item, PyObject *subdirs)
{
	struct dir_item d = { .path = NULL };
	struct ident *anc = NULL;
	PyObject *kind, *arg, *ancestors = NULL;
	int ret;

	if (!PyArg_ParseTuple(item, "UO;a work item is (kind, what)", &kind,
			      &arg))
		return -1;
	if (!PyUnicode_CompareWithASCIIString(kind, "root")) {
		if (!PyBytes_Check(arg)) {
			PyErr_SetString(PyExc_TypeError, "a root is bytes");
			return -1;
		}
		d.path = PyBytes_AS_STRING(arg);
		if (strlen(d.path) != (size_t)PyBytes_GET_SIZE(arg)) {
			PyErr_SetString(PyExc_ValueError,
					"path: embedded null byte");
			return -1;
		}
		t->ancestors = NULL;
		t->ts = PyEval_SaveThread();
		read_root(t, &d);
		PyEval_RestoreThread(t->ts);
	} else if (!PyUnicode_CompareWithASCIIString(kind, "dir")) {
		if (dir_item_from(arg, &d, &anc))
			return -1;
		ancestors = PyTuple_GET_ITEM(arg, 3);
		t->ancestors = ancestors;
		t->ts = PyEval_SaveThread();
		read_dir(t, &d);
		PyEval_RestoreThread(t->ts);
		PyMem_Free(anc);
	} else {
		PyErr_Format(PyExc_ValueError, "unknown work item %R", kind);
		return -1;
	}
	if (t->failed)
		return -1;
	ret = add_subdirs(t, subdirs, ancestors, &d);
	return ret;
}

static PyObject *unread_list(const struct task *t)
{
	PyObject *list = PyList_New((Py_ssize_t)t->nunread), *u;
	size_t i;

	if (!list)
		return NULL;
	for (i = 0; i < t->nunread; i++) {
		u = Py_BuildValue("(yi)", t->unread[i].path, t->unread[i].err);
		if (!u) {
			Py_DECREF(list);
			return NULL;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, u);
	}
	return list;
}

static int taken_from(PyObject *o, struct xstat_time *t)
{
	long long ns = PyLong_AsLongLong(o), sec, nsec;

	if (ns == -1 && PyErr_Occurred())
		return -1;
	/* floor division: the nanoseconds are never negative */
	sec = ns / 1000000000;
	nsec = ns % 1000000000;
	if (nsec < 0) {
		nsec += 1000000000;
		sec--;
	}
	t->tv_sec = sec;
	t->tv_nsec = (unsigned long long)nsec;
	return 0;
}

/*
 * The task's records go to @fd (its part file) through a buffer of this
 * size, so that a task holds no more than that of them however many
 * entries it reads; without @fd, into memory, handed back as bytes.
 */
#define XS_SCAN_BUFFER	(1 << 20)

static FILE *open_records(int fd, char **bufp, size_t *lenp, char **iobuf)
{
	FILE *f;
	int fd2, err;

	if (fd < 0)
		return open_memstream(bufp, lenp);
	*iobuf = malloc(XS_SCAN_BUFFER);
	if (!*iobuf) {
		errno = ENOMEM;
		return NULL;
	}
	fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (fd2 < 0)
		return NULL;
	f = fdopen(fd2, "w");
	if (!f) {
		err = errno;
		close(fd2);
		errno = err;
		return NULL;
	}
	setvbuf(f, *iobuf, _IOFBF, XS_SCAN_BUFFER);
	return f;
}

PyObject *xs_scan(PyObject *m, PyObject *args)
{
	PyObject *work, *seq = NULL, *max_o, *taken_o, *subdirs = NULL;
	PyObject *found = Py_None;
	PyObject *unread = NULL, *records = NULL, *ret = NULL;
	struct xstat_time taken;
	struct task t = {
		.flags = AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		.max_depth = -1,
	};
	char *buf = NULL, *iobuf = NULL;
	size_t len = 0, i;
	Py_ssize_t k;
	long depth;
	off_t written = 0;
	int fd = -1, err;

	(void)m;
	if (!PyArg_ParseTuple(args, "OKOO|iO:_scan", &work,
			      &t.params.request_mask, &max_o, &taken_o, &fd,
			      &found))
		return NULL;
	if (found != Py_None) {
		if (!PyCallable_Check(found)) {
			PyErr_SetString(PyExc_TypeError,
					"found must be callable or None");
			return NULL;
		}
		t.found = found;
	}
	if (max_o != Py_None) {
		depth = PyLong_AsLong(max_o);
		if (depth == -1 && PyErr_Occurred())
			return NULL;
		/* below 0: the roots alone, as 0 */
		t.max_depth = depth < 0 ? 0 : depth > INT_MAX ? INT_MAX :
			      (int)depth;
	}
	if (taken_o != Py_None) {
		if (taken_from(taken_o, &taken))
			return NULL;
		t.taken = &taken;
	}
	seq = PySequence_Fast(work, "work is a sequence");
	subdirs = PyList_New(0);
	if (!seq || !subdirs)
		goto out;
	t.out = open_records(fd, &buf, &len, &iobuf);
	if (!t.out) {
		PyErr_SetFromErrno(PyExc_OSError);
		goto out;
	}
	/* this call's own stream: no lock per character */
	__fsetlocking(t.out, FSETLOCKING_BYCALLER);
	for (k = 0; k < PySequence_Fast_GET_SIZE(seq); k++)
		if (do_item(&t, PySequence_Fast_GET_ITEM(seq, k), subdirs))
			goto out;
	if (fd >= 0)
		written = ftello(t.out);
	/* a part file that cannot be written whole fails the task */
	err = fclose(t.out) ? errno : 0;
	t.out = NULL;
	if (err) {
		errno = err;
		PyErr_SetFromErrno(PyExc_OSError);
		goto out;
	}
	records = fd >= 0 ? PyLong_FromLongLong((long long)written) :
			    PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
	unread = unread_list(&t);
	if (!records || !unread)
		goto out;
	ret = Py_BuildValue("(OOKKKKO)", records, subdirs, t.entries,
			    t.errors, t.dir_bytes, t.dir_entries, unread);
out:
	if (t.out)
		fclose(t.out);
	free(buf);
	free(iobuf);
	free_subdirs(&t);
	free(t.sub);
	for (i = 0; i < t.nunread; i++)
		free(t.unread[i].path);
	free(t.unread);
	Py_XDECREF(seq);
	Py_XDECREF(subdirs);
	Py_XDECREF(records);
	Py_XDECREF(unread);
	return ret;
}
