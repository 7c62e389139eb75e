// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libxstat._libxstat - the CPython binding of xstat()/fxstat().
 *
 * Only the public header, like any application.  The calls run with the
 * GIL released.  A result keeps the bytes the library wrote and turns a
 * field into a Python object only when it is read: a call costs one
 * allocation and one copy, however many fields it asked for, which is
 * what keeps stat() within reach of os.stat() (bench/py-bench.py).
 *
 * The Request, Attr and Promise flag classes are written in Python
 * (__init__.py) from the constants this module exports, then handed back
 * through _set_flag_types() so that st_result_mask reads as a Request and
 * the promises as a Promise.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "xstat.h"
#include "fields.h"
#include "json-record.h"
#include "scan.h"

#ifndef XS_PY_VERSION
#define XS_PY_VERSION "unknown"
#endif

/* What stat() asks for by default: everything one statx(2) returns. */
#define XS_PY_DEFAULT_FIELDS \
	(XSTAT_REQUEST__BASIC_STATS | XSTAT_REQUEST_BTIME)

/* Room for struct xstat and every extra result, with space to grow. */
#define XS_PY_ROOM	512

/*
 * The result: the library's bytes, ob_size 8-byte words of them, of which
 * len hold the answer.  There is no setter and no constructor: immutable.
 */
typedef struct {
	PyObject_VAR_HEAD
	Py_ssize_t		len;
	unsigned long long	buf[];
} XsResult;

static PyTypeObject XsResult_Type;
static PyObject *request_type;	/* libxstat.Request, once registered */
static PyObject *promise_type;	/* libxstat.Promise, once registered */

static const struct xstat *res_x(const XsResult *r)
{
	return (const struct xstat *)r->buf;
}

/* How a field's bytes become a Python object. */
enum xs_kind {
	K_U32,		/* unsigned int */
	K_U64,		/* unsigned long long */
	K_DEV,		/* struct xstat_dev, as os.stat's dev_t int */
	K_TIME,		/* struct xstat_time, as float seconds */
	K_TIME_NS,	/* struct xstat_time, as int nanoseconds */
	K_TIME_INT,	/* struct xstat_time, whole seconds (sequence only) */
	K_BOOL32,	/* unsigned int flag */
	K_U8,		/* unsigned char */
	K_MASK,		/* the result mask, as a Request */
	K_PROMISE,	/* unsigned long long XSTAT_PROMISE_*, as a Promise */
	K_BYTES16,	/* unsigned char[16], as bytes */
};

/*
 * One field: where it lies (in struct xstat, or in the payload of an
 * extra result when extra is set) and the result bit that says it holds
 * a value (0: always holds one).  Absent fields read as None.
 */
struct xs_field {
	const char		*name;
	unsigned short		off;
	unsigned char		kind;
	unsigned char		extra;
	unsigned char		in_repr;
	unsigned long long	bit;
	const char		*doc;
};

#define F(n, k, m, b, r, d) \
	{ n, offsetof(struct xstat, m), k, 0, r, b, d }
#define E(n, k, s, m, b, d) \
	{ n, offsetof(struct s, m), k, 1, 1, b, d }

static const struct xs_field xs_fields[] = {
	F("st_mode", K_U32, st_mode, XSTAT_REQUEST_MODE, 1,
	  "File type and mode bits, as os.stat's."),
	F("st_ino", K_U64, st_ino, XSTAT_REQUEST_INO, 1, "Inode number."),
	F("st_dev", K_DEV, st_dev, 0, 1,
	  "ID of the device holding the file, as os.stat's (os.major/minor)."),
	F("st_nlink", K_U32, st_nlink, XSTAT_REQUEST_NLINK, 1,
	  "Number of hard links."),
	F("st_uid", K_U32, st_uid, XSTAT_REQUEST_UID, 1, "User ID of owner."),
	F("st_gid", K_U32, st_gid, XSTAT_REQUEST_GID, 1, "Group ID of owner."),
	F("st_size", K_U64, st_size, XSTAT_REQUEST_SIZE, 1,
	  "Size in bytes."),
	F("st_atime", K_TIME, st_atim, XSTAT_REQUEST_ATIME, 0,
	  "Last access, in seconds (float)."),
	F("st_mtime", K_TIME, st_mtim, XSTAT_REQUEST_MTIME, 0,
	  "Last data modification, in seconds (float)."),
	F("st_ctime", K_TIME, st_ctim, XSTAT_REQUEST_CTIME, 0,
	  "Last status change, in seconds (float)."),
	F("st_birthtime", K_TIME, st_btim, XSTAT_REQUEST_BTIME, 0,
	  "Creation time, in seconds (float); None if unknown."),
	F("st_atime_ns", K_TIME_NS, st_atim, XSTAT_REQUEST_ATIME, 1,
	  "Last access, in integer nanoseconds."),
	F("st_mtime_ns", K_TIME_NS, st_mtim, XSTAT_REQUEST_MTIME, 1,
	  "Last data modification, in integer nanoseconds."),
	F("st_ctime_ns", K_TIME_NS, st_ctim, XSTAT_REQUEST_CTIME, 1,
	  "Last status change, in integer nanoseconds."),
	F("st_birthtime_ns", K_TIME_NS, st_btim, XSTAT_REQUEST_BTIME, 1,
	  "Creation time, in integer nanoseconds; None if unknown."),
	F("st_blocks", K_U64, st_blocks, XSTAT_REQUEST_BLOCKS, 1,
	  "Number of 512-byte blocks allocated."),
	F("st_blksize", K_U64, st_blksize, 0, 1,
	  "Preferred I/O block size."),
	F("st_rdev", K_DEV, st_rdev, XSTAT_REQUEST_RDEV, 1,
	  "Device ID of a device special file, as os.stat's."),
	F("st_gen", K_U64, st_gen, XSTAT_REQUEST_GEN, 1,
	  "Inode generation number; None if not obtained."),
	F("st_data_version", K_U64, st_data_version,
	  XSTAT_REQUEST_DATA_VERSION, 1,
	  "Data version number; None if not obtained."),
	/*
	 * The members of the extra results: their rows of fields.h.  The
	 * token is an int: opaque, compared for equality only (never
	 * ordered, xstat.h), hashable, and what the tool's JSON prints.
	 */
#define XS_PY_MEMBER(NAME, name, member, kind, directive, base, key, py, \
		     doc)						\
	E(py, K_##kind, xstat_##name, member, XSTAT_REQUEST_##NAME, doc),
	XS_EXTRA_MEMBERS(XS_PY_MEMBER)
#undef XS_PY_MEMBER
	{ "st_result_mask", offsetof(struct xstat, st_result_mask), K_MASK,
	  0, 1, 0, "Request bits of the fields that hold values." },
};

#define NFIELDS	(sizeof(xs_fields) / sizeof(xs_fields[0]))

/* The os.stat_result sequence: mode ino dev nlink uid gid size a m c. */
static const struct xs_field xs_seq[] = {
	F("st_mode", K_U32, st_mode, XSTAT_REQUEST_MODE, 0, NULL),
	F("st_ino", K_U64, st_ino, XSTAT_REQUEST_INO, 0, NULL),
	F("st_dev", K_DEV, st_dev, 0, 0, NULL),
	F("st_nlink", K_U32, st_nlink, XSTAT_REQUEST_NLINK, 0, NULL),
	F("st_uid", K_U32, st_uid, XSTAT_REQUEST_UID, 0, NULL),
	F("st_gid", K_U32, st_gid, XSTAT_REQUEST_GID, 0, NULL),
	F("st_size", K_U64, st_size, XSTAT_REQUEST_SIZE, 0, NULL),
	F("st_atime", K_TIME_INT, st_atim, XSTAT_REQUEST_ATIME, 0, NULL),
	F("st_mtime", K_TIME_INT, st_mtim, XSTAT_REQUEST_MTIME, 0, NULL),
	F("st_ctime", K_TIME_INT, st_ctim, XSTAT_REQUEST_CTIME, 0, NULL),
};

#define NSEQ	((Py_ssize_t)(sizeof(xs_seq) / sizeof(xs_seq[0])))

#undef F
#undef E

/* sec * 10^9 + nsec, exactly, as os.stat's st_*time_ns. */
static PyObject *time_ns(const struct xstat_time *t)
{
	long long ns;
	PyObject *s, *billion, *prod, *sum, *frac;

	if (!__builtin_mul_overflow(t->tv_sec, 1000000000LL, &ns) &&
	    !__builtin_add_overflow(ns, (long long)t->tv_nsec, &ns))
		return PyLong_FromLongLong(ns);
	/* Only beyond year 2262: the slow way. */
	s = PyLong_FromLongLong(t->tv_sec);
	billion = PyLong_FromLong(1000000000L);
	frac = PyLong_FromUnsignedLongLong(t->tv_nsec);
	prod = s && billion ? PyNumber_Multiply(s, billion) : NULL;
	sum = prod && frac ? PyNumber_Add(prod, frac) : NULL;
	Py_XDECREF(s);
	Py_XDECREF(billion);
	Py_XDECREF(frac);
	Py_XDECREF(prod);
	return sum;
}

static PyObject *field_value(const XsResult *r, const struct xs_field *f)
{
	const struct xstat *x = res_x(r);
	const unsigned char *base = (const unsigned char *)x;
	const struct xstat_dev *d;
	const struct xstat_time *t;
	const void *p;
	unsigned long long v;

	if (f->extra) {
		base = xstat_extra(x, (size_t)r->len, f->bit);
		if (!base)
			Py_RETURN_NONE;
	} else if (f->bit && !(x->st_result_mask & f->bit)) {
		Py_RETURN_NONE;
	}
	p = base + f->off;

	switch (f->kind) {
	case K_U32:
		return PyLong_FromUnsignedLong(*(const unsigned int *)p);
	case K_U64:
		return PyLong_FromUnsignedLongLong(
				*(const unsigned long long *)p);
	case K_U8:
		return PyLong_FromLong(*(const unsigned char *)p);
	case K_BOOL32:
		return PyBool_FromLong(*(const unsigned int *)p != 0);
	case K_DEV:
		d = p;
		return PyLong_FromUnsignedLongLong(
				(unsigned long long)makedev(d->major, d->minor));
	case K_TIME:
		t = p;
		/* os.stat's formula, so that the floats compare equal. */
		return PyFloat_FromDouble((double)t->tv_sec +
					  (double)t->tv_nsec * 1e-9);
	case K_TIME_NS:
		return time_ns(p);
	case K_TIME_INT:
		t = p;
		return PyLong_FromLongLong(t->tv_sec);
	case K_MASK:
		v = *(const unsigned long long *)p;
		if (request_type)
			return PyObject_CallFunction(request_type, "K", v);
		return PyLong_FromUnsignedLongLong(v);
	case K_BYTES16:
		return PyBytes_FromStringAndSize((const char *)p, 16);
	case K_PROMISE:
		v = *(const unsigned long long *)p;
		if (promise_type)
			return PyObject_CallFunction(promise_type, "K", v);
		return PyLong_FromUnsignedLongLong(v);
	}
	PyErr_SetString(PyExc_SystemError, "libxstat: unknown field kind");
	return NULL;
}

static PyObject *res_get(PyObject *self, void *closure)
{
	return field_value((XsResult *)self, closure);
}

static PyGetSetDef res_getset[NFIELDS + 1];

static void res_init_getset(void)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++) {
		res_getset[i].name = xs_fields[i].name;
		res_getset[i].get = res_get;
		res_getset[i].doc = xs_fields[i].doc;
		res_getset[i].closure = (void *)&xs_fields[i];
	}
}

/* The os.stat_result-compatible part: r[0] .. r[9], iteration, slices. */
static Py_ssize_t res_length(PyObject *self)
{
	(void)self;
	return NSEQ;
}

static PyObject *res_item(PyObject *self, Py_ssize_t i)
{
	if (i < 0 || i >= NSEQ) {
		PyErr_SetString(PyExc_IndexError,
				"xstat_result index out of range");
		return NULL;
	}
	return field_value((XsResult *)self, &xs_seq[i]);
}

static PyObject *res_tuple(PyObject *self)
{
	PyObject *t = PyTuple_New(NSEQ), *v;
	Py_ssize_t i;

	if (!t)
		return NULL;
	for (i = 0; i < NSEQ; i++) {
		v = res_item(self, i);
		if (!v) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, i, v);
	}
	return t;
}

static PyObject *res_subscript(PyObject *self, PyObject *key)
{
	PyObject *t, *v;
	Py_ssize_t i;

	if (PyIndex_Check(key)) {
		i = PyNumber_AsSsize_t(key, PyExc_IndexError);
		if (i == -1 && PyErr_Occurred())
			return NULL;
		return res_item(self, i < 0 ? i + NSEQ : i);
	}
	t = res_tuple(self);
	if (!t)
		return NULL;
	v = PyObject_GetItem(t, key);
	Py_DECREF(t);
	return v;
}

/* Every field, for equality and hashing: equal results, equal values. */
static PyObject *res_all(PyObject *self)
{
	PyObject *t = PyTuple_New(NFIELDS), *v;
	size_t i;

	if (!t)
		return NULL;
	for (i = 0; i < NFIELDS; i++) {
		v = field_value((XsResult *)self, &xs_fields[i]);
		if (!v) {
			Py_DECREF(t);
			return NULL;
		}
		PyTuple_SET_ITEM(t, i, v);
	}
	return t;
}

/*
 * Two results: equal when every field is.  A result and a tuple (an
 * os.stat_result is one): equal when the 10-item sequence is, as an
 * os.stat_result compares with a tuple.  Only == and !=.
 */
static PyObject *res_richcompare(PyObject *a, PyObject *b, int op)
{
	PyObject *ta, *tb, *ret;

	if (op != Py_EQ && op != Py_NE)
		Py_RETURN_NOTIMPLEMENTED;
	if (!PyObject_TypeCheck(a, &XsResult_Type)) {
		PyObject *t = a;	/* reflected: tuple == result */

		a = b;
		b = t;
	}
	if (PyTuple_Check(b)) {
		ta = res_tuple(a);
		ret = ta ? PyObject_RichCompare(ta, b, op) : NULL;
		Py_XDECREF(ta);
		return ret;
	}
	if (!PyObject_TypeCheck(b, &XsResult_Type))
		Py_RETURN_NOTIMPLEMENTED;
	ta = res_all(a);
	tb = ta ? res_all(b) : NULL;
	ret = tb ? PyObject_RichCompare(ta, tb, op) : NULL;
	Py_XDECREF(ta);
	Py_XDECREF(tb);
	return ret;
}

/*
 * The hash of the 10-item sequence: a result equal to a tuple hashes as
 * the tuple does, and equal results (every field) hash alike.
 */
static Py_hash_t res_hash(PyObject *self)
{
	PyObject *t = res_tuple(self);
	Py_hash_t h;

	if (!t)
		return -1;
	h = PyObject_Hash(t);
	Py_DECREF(t);
	return h;
}

/* Like os.stat_result's repr, with only the fields that hold values. */
static PyObject *res_repr(PyObject *self)
{
	PyObject *parts = PyList_New(0), *sep = NULL, *body = NULL, *s, *v;
	PyObject *ret = NULL;
	size_t i;

	if (!parts)
		return NULL;
	for (i = 0; i < NFIELDS; i++) {
		if (!xs_fields[i].in_repr)
			continue;
		v = field_value((XsResult *)self, &xs_fields[i]);
		if (!v)
			goto out;
		if (v == Py_None) {
			Py_DECREF(v);
			continue;
		}
		s = PyUnicode_FromFormat("%s=%R", xs_fields[i].name, v);
		Py_DECREF(v);
		if (!s || PyList_Append(parts, s)) {
			Py_XDECREF(s);
			goto out;
		}
		Py_DECREF(s);
	}
	sep = PyUnicode_FromString(", ");
	body = sep ? PyUnicode_Join(sep, parts) : NULL;
	if (body)
		ret = PyUnicode_FromFormat("libxstat.xstat_result(%U)", body);
out:
	Py_XDECREF(body);
	Py_XDECREF(sep);
	Py_DECREF(parts);
	return ret;
}

/*
 * Pickling and copy: the library's bytes, rebuilt by
 * _libxstat._result_from_bytes().  They are the public layout in this
 * machine's byte order (xstat(3)), the same on i386 and x86_64.
 */
static PyObject *res_reduce(PyObject *self, PyObject *unused)
{
	XsResult *r = (XsResult *)self;
	PyObject *mod, *fn;

	(void)unused;
	mod = PyImport_ImportModule("libxstat._libxstat");
	fn = mod ? PyObject_GetAttrString(mod, "_result_from_bytes") : NULL;
	Py_XDECREF(mod);
	if (!fn)
		return NULL;
	return Py_BuildValue("(N(y#))", fn, (const char *)r->buf, r->len);
}

static PyMethodDef res_methods[] = {
	{ "__reduce__", res_reduce, METH_NOARGS,
	  "Pickle support: the result's bytes." },
	{ NULL, NULL, 0, NULL },
};

static PySequenceMethods res_as_sequence = {
	.sq_length = res_length,
	.sq_item = res_item,
};

static PyMappingMethods res_as_mapping = {
	.mp_length = res_length,
	.mp_subscript = res_subscript,
};

PyDoc_STRVAR(res_doc,
"The result of libxstat.stat(), lstat() or fstat(); immutable.\n\n"
"Has os.stat_result's attribute names and, like it, reads as the\n"
"10-item sequence (st_mode, st_ino, st_dev, st_nlink, st_uid, st_gid,\n"
"st_size, st_atime, st_mtime, st_ctime) with whole-second times, and\n"
"equals a tuple (an os.stat_result is one) holding the same 10 items.\n"
"Two results are equal when every field is.  Pickles and copies.  A\n"
"field that was not asked for or could not be obtained is None, never\n"
"0; st_result_mask says which hold values.");

static PyTypeObject XsResult_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "libxstat.xstat_result",
	.tp_basicsize = offsetof(XsResult, buf),
	.tp_itemsize = sizeof(unsigned long long),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = res_doc,
	.tp_repr = res_repr,
	.tp_hash = res_hash,
	.tp_richcompare = res_richcompare,
	.tp_as_sequence = &res_as_sequence,
	.tp_as_mapping = &res_as_mapping,
	.tp_getset = res_getset,
	.tp_methods = res_methods,
};

/* Wrap the library's bytes; len is what it wrote, at most the room. */
static PyObject *res_new(const void *buf, size_t len)
{
	Py_ssize_t words = (Py_ssize_t)((len + 7) / 8);
	XsResult *r = PyObject_NewVar(XsResult, &XsResult_Type, words);

	if (!r)
		return NULL;
	memset(r->buf, 0, (size_t)words * 8);
	memcpy(r->buf, buf, len);
	r->len = (Py_ssize_t)len;
	return (PyObject *)r;
}

/* _result_from_bytes(b): the result a pickle holds (res_reduce). */
static PyObject *res_from_bytes(PyObject *m, PyObject *arg)
{
	char *p;
	Py_ssize_t n;

	(void)m;
	if (PyBytes_AsStringAndSize(arg, &p, &n))
		return NULL;
	if (n < (Py_ssize_t)sizeof(struct xstat) || n > XS_PY_ROOM) {
		PyErr_SetString(PyExc_ValueError,
				"not the bytes of an xstat_result");
		return NULL;
	}
	return res_new(p, (size_t)n);
}

/* ---- argument parsing, as os.stat() does it ---- */

enum { KW_PATH, KW_FD, KW_DIR_FD, KW_FOLLOW, KW_FIELDS, KW_SYNC, NKW };

static const char *const kw_names[NKW] = {
	"path", "fd", "dir_fd", "follow_symlinks", "fields", "sync",
};
static PyObject *kw_str[NKW];	/* interned */

enum xs_func { FN_STAT, FN_LSTAT, FN_FSTAT };

static const char *const fn_names[] = { "stat", "lstat", "fstat" };

/* Which keywords each function takes; the first is also positional. */
static const unsigned fn_kws[] = {
	[FN_STAT] = 1 << KW_PATH | 1 << KW_DIR_FD | 1 << KW_FOLLOW |
		    1 << KW_FIELDS | 1 << KW_SYNC,
	[FN_LSTAT] = 1 << KW_PATH | 1 << KW_DIR_FD | 1 << KW_FIELDS |
		     1 << KW_SYNC,
	[FN_FSTAT] = 1 << KW_FD | 1 << KW_FIELDS | 1 << KW_SYNC,
};

static int kw_index(PyObject *name)
{
	int i;

	for (i = 0; i < NKW; i++)
		if (name == kw_str[i])
			return i;
	for (i = 0; i < NKW; i++)
		if (PyUnicode_Check(name) &&
		    PyUnicode_Compare(name, kw_str[i]) == 0)
			return i;
	return -1;
}

static int parse_args(enum xs_func fn, PyObject *const *args,
		      Py_ssize_t nargs, PyObject *kwnames,
		      PyObject *vals[NKW])
{
	const char *name = fn_names[fn];
	int first = fn == FN_FSTAT ? KW_FD : KW_PATH;
	Py_ssize_t i, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	int k;

	memset(vals, 0, NKW * sizeof(vals[0]));
	if (nargs > 1) {
		PyErr_Format(PyExc_TypeError,
			     "%s() takes at most 1 positional argument "
			     "(%zd given)", name, nargs);
		return -1;
	}
	if (nargs == 1)
		vals[first] = args[0];
	for (i = 0; i < nkw; i++) {
		PyObject *kw = PyTuple_GET_ITEM(kwnames, i);

		k = kw_index(kw);
		if (k < 0 || !(fn_kws[fn] & 1u << k)) {
			PyErr_Format(PyExc_TypeError,
				     "%s() got an unexpected keyword argument "
				     "'%S'", name, kw);
			return -1;
		}
		if (vals[k]) {
			PyErr_Format(PyExc_TypeError,
				     "argument for %s() given by name ('%s') "
				     "and position (1)", name, kw_names[k]);
			return -1;
		}
		vals[k] = args[nargs + i];
	}
	if (!vals[first]) {
		PyErr_Format(PyExc_TypeError,
			     "%s() missing required argument '%s' (pos 1)",
			     name, kw_names[first]);
		return -1;
	}
	return 0;
}

/*
 * An int descriptor, with os's messages for the out-of-range ones:
 * os.fstat's plain int conversion (plain) or os.stat's fd converter.
 */
static int fd_from(PyObject *o, int *fd, int plain)
{
	int overflow;
	long v;

	if (!plain && !PyIndex_Check(o)) {
		PyErr_Format(PyExc_TypeError,
			     "argument should be integer or None, not %.200s",
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	o = PyNumber_Index(o);
	if (!o)
		return -1;
	v = PyLong_AsLongAndOverflow(o, &overflow);
	Py_DECREF(o);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (plain && (overflow || v > INT_MAX || v < INT_MIN)) {
		PyErr_SetString(PyExc_OverflowError,
				"Python int too large to convert to C int");
		return -1;
	}
	if (overflow > 0 || v > INT_MAX) {
		PyErr_SetString(PyExc_OverflowError,
				"fd is greater than maximum");
		return -1;
	}
	if (overflow < 0 || v < INT_MIN) {
		PyErr_SetString(PyExc_OverflowError, "fd is less than minimum");
		return -1;
	}
	*fd = (int)v;
	return 0;
}

/*
 * A path as os.stat takes it: str (encoded with the filesystem encoding),
 * bytes, or os.PathLike of either.  *err_name is what OSError reports as
 * the filename (os reports the __fspath__() value); *keep owns *s.
 */
static int path_from(enum xs_func fn, PyObject *o, const char **s,
		     PyObject **keep, PyObject **err_name)
{
	PyObject *p, *b;
	Py_ssize_t n;

	if (PyUnicode_Check(o) || PyBytes_Check(o)) {
		p = o;
		Py_INCREF(p);
	} else if (PyObject_HasAttrString((PyObject *)Py_TYPE(o),
					  "__fspath__")) {
		p = PyOS_FSPath(o);
		if (!p)
			return -1;
	} else {
		PyErr_Format(PyExc_TypeError,
			     fn == FN_STAT ?
			     "%s: path should be string, bytes, os.PathLike "
			     "or integer, not %.200s" :
			     "%s: path should be string, bytes or os.PathLike, "
			     "not %.200s", fn_names[fn], Py_TYPE(o)->tp_name);
		return -1;
	}

	/*
	 * ASCII encodes to itself in every filesystem encoding Python
	 * supports: use the characters in place, no bytes object.
	 */
	if (PyUnicode_Check(p) && PyUnicode_IS_ASCII(p)) {
		*s = (const char *)PyUnicode_DATA(p);
		n = PyUnicode_GET_LENGTH(p);
	} else if (PyUnicode_Check(p)) {
		if (!PyUnicode_FSConverter(p, &b)) {
			Py_DECREF(p);
			return -1;
		}
		*keep = b;
		*err_name = p;
		*s = PyBytes_AS_STRING(b);
		return 0;	/* the converter refused embedded NULs */
	} else {
		*s = PyBytes_AS_STRING(p);
		n = PyBytes_GET_SIZE(p);
	}
	if (strlen(*s) != (size_t)n) {
		/* os's two messages: the str one is the encoder's. */
		if (PyUnicode_Check(p))
			PyErr_SetString(PyExc_ValueError, "embedded null byte");
		else
			PyErr_Format(PyExc_ValueError,
				     "%s: embedded null character in path",
				     fn_names[fn]);
		Py_DECREF(p);
		return -1;
	}
	*keep = NULL;
	*err_name = p;
	return 0;
}

static int fields_from(PyObject *o, unsigned long long *mask)
{
	PyObject *i;

	if (!o) {
		*mask = XS_PY_DEFAULT_FIELDS;
		return 0;
	}
	if (!PyIndex_Check(o)) {
		PyErr_Format(PyExc_TypeError,
			     "fields must be an int (libxstat.Request), "
			     "not %.200s", Py_TYPE(o)->tp_name);
		return -1;
	}
	i = PyNumber_Index(o);
	if (!i)
		return -1;
	*mask = PyLong_AsUnsignedLongLong(i);
	Py_DECREF(i);
	if (*mask == (unsigned long long)-1 && PyErr_Occurred()) {
		if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
			PyErr_Clear();
			PyErr_SetString(PyExc_ValueError,
					"fields must be a non-negative "
					"64-bit mask");
		}
		return -1;
	}
	return 0;
}

/* sync=None: as stat(2) does; True: force a refresh; False: never. */
static int sync_from(PyObject *o, unsigned *flags)
{
	if (!o || o == Py_None)
		return 0;
	if (o == Py_True) {
		*flags |= AT_FORCE_ATTR_SYNC;
		return 0;
	}
	if (o == Py_False) {
		*flags |= AT_NO_ATTR_SYNC;
		return 0;
	}
	PyErr_Format(PyExc_TypeError, "sync must be None, True or False, "
		     "not %.200s", Py_TYPE(o)->tp_name);
	return -1;
}

static PyObject *do_call(enum xs_func fn, PyObject *const *args,
			 Py_ssize_t nargs, PyObject *kwnames)
{
	union {
		struct xstat	x;
		unsigned char	room[XS_PY_ROOM];
	} buf;
	PyObject *v[NKW], *keep = NULL, *err_name = NULL, *ret;
	struct xstat_parameters params;
	const char *path = NULL;
	int dfd = AT_FDCWD, fd = -1, use_fd, follow;
	/* os.stat never triggers an automount (the kernel's fstatat). */
	unsigned flags = AT_NO_AUTOMOUNT;
	ssize_t n;

	if (parse_args(fn, args, nargs, kwnames, v) ||
	    fields_from(v[KW_FIELDS], &params.request_mask) ||
	    sync_from(v[KW_SYNC], &flags))
		return NULL;

	if (fn == FN_FSTAT) {
		if (fd_from(v[KW_FD], &fd, 1))
			return NULL;
		flags &= ~AT_NO_AUTOMOUNT;
		Py_BEGIN_ALLOW_THREADS
		n = fxstat(fd, flags, &params, &buf.x, sizeof(buf));
		Py_END_ALLOW_THREADS
		if (n < 0)
			return PyErr_SetFromErrno(PyExc_OSError);
		return res_new(&buf, (size_t)n < sizeof(buf) ? (size_t)n :
			       sizeof(buf));
	}

	follow = fn == FN_STAT;
	if (v[KW_FOLLOW]) {
		follow = PyObject_IsTrue(v[KW_FOLLOW]);
		if (follow < 0)
			return NULL;
	}
	if (!follow)
		flags |= AT_SYMLINK_NOFOLLOW;

	use_fd = fn == FN_STAT && PyIndex_Check(v[KW_PATH]);
	if (v[KW_DIR_FD] && v[KW_DIR_FD] != Py_None) {
		if (use_fd) {
			PyErr_Format(PyExc_ValueError,
				     "%s: can't specify dir_fd without "
				     "matching path", fn_names[fn]);
			return NULL;
		}
		if (fd_from(v[KW_DIR_FD], &dfd, 0))
			return NULL;
	}
	if (use_fd) {
		if (!follow) {
			PyErr_Format(PyExc_ValueError,
				     "%s: cannot use fd and follow_symlinks "
				     "together", fn_names[fn]);
			return NULL;
		}
		if (fd_from(v[KW_PATH], &fd, 0))
			return NULL;
		Py_BEGIN_ALLOW_THREADS
		n = fxstat(fd, flags & (AT_FORCE_ATTR_SYNC |
			   AT_NO_ATTR_SYNC), &params, &buf.x, sizeof(buf));
		Py_END_ALLOW_THREADS
		err_name = v[KW_PATH];
		Py_INCREF(err_name);
	} else {
		if (path_from(fn, v[KW_PATH], &path, &keep, &err_name))
			return NULL;
		Py_BEGIN_ALLOW_THREADS
		n = xstat(dfd, path, flags, &params, &buf.x, sizeof(buf));
		Py_END_ALLOW_THREADS
	}
	if (n < 0) {
		ret = PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError,
							   err_name);
	} else {
		ret = res_new(&buf, (size_t)n < sizeof(buf) ? (size_t)n :
			      sizeof(buf));
	}
	Py_XDECREF(keep);
	Py_XDECREF(err_name);
	return ret;
}

static PyObject *xs_stat(PyObject *m, PyObject *const *args,
			 Py_ssize_t nargs, PyObject *kwnames)
{
	(void)m;
	return do_call(FN_STAT, args, nargs, kwnames);
}

static PyObject *xs_lstat(PyObject *m, PyObject *const *args,
			  Py_ssize_t nargs, PyObject *kwnames)
{
	(void)m;
	return do_call(FN_LSTAT, args, nargs, kwnames);
}

static PyObject *xs_fstat(PyObject *m, PyObject *const *args,
			  Py_ssize_t nargs, PyObject *kwnames)
{
	(void)m;
	return do_call(FN_FSTAT, args, nargs, kwnames);
}

/* ---- directory streams: the C half of libxstat.scandir() ---- */

/*
 * One xstat_dir.  Its entries are valid only until the next call, so
 * each is copied out before the GIL is taken by anyone else; busy keeps
 * a second thread from reading or closing the stream while one thread
 * has it with the GIL released (the stream is not thread-safe).
 */
typedef struct {
	PyObject_HEAD
	struct xstat_dir	*dir;
	int			busy;
	int			want_str;	/* names as str, else bytes */
	PyObject		*err_name;	/* the path, for OSError */
} XsDir;

static PyTypeObject XsDir_Type;

static int dir_check(XsDir *d)
{
	if (d->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"libxstat scandir stream in use by another "
				"thread");
		return -1;
	}
	return 0;
}

static void dir_close_now(XsDir *d)
{
	struct xstat_dir *dir = d->dir;

	d->dir = NULL;
	if (dir) {
		Py_BEGIN_ALLOW_THREADS
		xstat_closedir(dir);
		Py_END_ALLOW_THREADS
	}
}

static void dir_dealloc(PyObject *self)
{
	XsDir *d = (XsDir *)self;

	dir_close_now(d);
	Py_XDECREF(d->err_name);
	PyObject_Free(self);
}

/* (name, d_type, d_ino, result or None, errno) for the next entry. */
static PyObject *dir_next(PyObject *self)
{
	XsDir *d = (XsDir *)self;
	const struct xstat_dirent *e;
	PyObject *name, *res, *ret;
	size_t len;
	int err;

	if (dir_check(d) || !d->dir)
		return NULL;
	d->busy = 1;
	Py_BEGIN_ALLOW_THREADS
	errno = 0;
	e = xstat_readdir(d->dir);
	err = errno;
	Py_END_ALLOW_THREADS
	d->busy = 0;
	if (!e) {
		dir_close_now(d);
		if (err) {
			errno = err;
			PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError,
							     d->err_name);
		}
		return NULL;
	}
	name = d->want_str ? PyUnicode_DecodeFSDefault(e->d_name) :
			     PyBytes_FromString(e->d_name);
	if (!name)
		return NULL;
	if (e->d_error || !e->d_xstat_len) {
		res = Py_None;
		Py_INCREF(res);
	} else {
		len = e->d_xstat_len < XS_PY_ROOM ? e->d_xstat_len : XS_PY_ROOM;
		res = res_new(e->d_xstat, len);
		if (!res) {
			Py_DECREF(name);
			return NULL;
		}
	}
	ret = Py_BuildValue("(NiKNi)", name, (int)e->d_type,
			    (unsigned long long)e->d_ino, res, e->d_error);
	return ret;
}

static PyObject *dir_close(PyObject *self, PyObject *unused)
{
	(void)unused;
	if (dir_check((XsDir *)self))
		return NULL;
	dir_close_now((XsDir *)self);
	Py_RETURN_NONE;
}

static PyMethodDef dir_methods[] = {
	{ "close", dir_close, METH_NOARGS, "Close the directory stream." },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject XsDir_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "libxstat._libxstat.DirStream",
	.tp_basicsize = sizeof(XsDir),
	.tp_dealloc = dir_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "An xstat_opendir(3) stream; use libxstat.scandir().",
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = dir_next,
	.tp_methods = dir_methods,
};

/*
 * _opendir(path or fd, fields, sync, want_str): path is str, bytes or
 * PathLike (already turned into one by scandir()), or an int descriptor.
 */
static PyObject *xs_opendir(PyObject *m, PyObject *args)
{
	PyObject *target, *fields_o, *sync_o, *keep = NULL, *err_name = NULL;
	struct xstat_parameters params;
	unsigned flags = AT_NO_AUTOMOUNT;
	const char *path = "";
	int dfd = AT_FDCWD, want_str;
	struct xstat_dir *dir;
	XsDir *d;

	(void)m;
	if (!PyArg_ParseTuple(args, "OOOp:_opendir", &target, &fields_o,
			      &sync_o, &want_str) ||
	    fields_from(fields_o, &params.request_mask) ||
	    sync_from(sync_o, &flags))
		return NULL;
	if (PyLong_Check(target)) {
		if (fd_from(target, &dfd, 0))
			return NULL;
		flags |= AT_EMPTY_PATH;
		/* os.scandir(fd) names no file in its errors. */
	} else if (path_from(FN_STAT, target, &path, &keep, &err_name)) {
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	dir = xstat_opendir(dfd, path, flags, &params);
	Py_END_ALLOW_THREADS
	if (!dir) {
		PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, err_name);
		Py_XDECREF(keep);
		Py_XDECREF(err_name);
		return NULL;
	}
	Py_XDECREF(keep);
	d = PyObject_New(XsDir, &XsDir_Type);
	if (!d) {
		xstat_closedir(dir);
		Py_XDECREF(err_name);
		return NULL;
	}
	d->dir = dir;
	d->busy = 0;
	d->want_str = want_str;
	d->err_name = err_name;
	return (PyObject *)d;
}

/*
 * compare(before, after, taken_ns=None) -> (verdict, why): xstat_compare(3)
 * on two results, the one implementation the tool uses too.
 */
static PyObject *xs_compare(PyObject *m, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "before", "after", "taken_ns", NULL };
	PyObject *a, *b, *taken = Py_None;
	struct xstat_time t, *tp = NULL;
	unsigned long long why = 0;
	long long ns;
	int v;

	(void)m;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!|O", kwlist,
					 &XsResult_Type, &a, &XsResult_Type,
					 &b, &taken))
		return NULL;
	if (taken != Py_None) {
		ns = PyLong_AsLongLong(taken);
		if (ns == -1 && PyErr_Occurred())
			return NULL;
		t.tv_sec = ns / 1000000000 - (ns % 1000000000 < 0);
		t.tv_nsec = (unsigned long long)(ns - t.tv_sec * 1000000000);
		tp = &t;
	}
	v = xstat_compare(res_x((XsResult *)a), (size_t)((XsResult *)a)->len,
			  res_x((XsResult *)b), (size_t)((XsResult *)b)->len,
			  tp, &why);
	if (v < 0)
		return PyErr_SetFromErrno(PyExc_OSError);
	return Py_BuildValue("(iK)", v, why);
}

static PyObject *xs_known_mask(PyObject *m, PyObject *unused)
{
	(void)m;
	(void)unused;
	return PyLong_FromUnsignedLongLong(xstat_known_mask());
}

static PyObject *xs_set_flag_types(PyObject *m, PyObject *args)
{
	PyObject *req, *promise = NULL;

	(void)m;
	if (!PyArg_ParseTuple(args, "O|O:_set_flag_types", &req, &promise))
		return NULL;
	Py_INCREF(req);
	Py_XSETREF(request_type, req);
	if (promise) {
		Py_INCREF(promise);
		Py_XSETREF(promise_type, promise);
	}
	Py_RETURN_NONE;
}

/*
 * The JSON records of libxstat.records: the tool's writer (json-record.c,
 * compiled into this module too), so that the two agree by construction.
 * The line is written to memory and returned without its newline.
 */
static PyObject *record_text(char **bufp, size_t *lenp, FILE *f)
{
	PyObject *out;
	char *buf;
	size_t len;

	/* open_memstream() sets *bufp and *lenp when the stream closes */
	if (fclose(f)) {
		free(*bufp);
		return PyErr_NoMemory();
	}
	buf = *bufp;
	len = *lenp;
	if (len && buf[len - 1] == '\n')
		len--;
	out = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)len, "strict");
	free(buf);
	return out;
}

static int record_path(PyObject *o, const char **path)
{
	Py_ssize_t n;
	char *p;

	if (PyBytes_AsStringAndSize(o, &p, &n) < 0)
		return -1;
	if ((size_t)n != strlen(p)) {
		PyErr_SetString(PyExc_ValueError, "path: embedded null byte");
		return -1;
	}
	*path = p;
	return 0;
}

static PyObject *xs_json_record(PyObject *self, PyObject *args)
{
	PyObject *path_o, *res, *taken_o;
	struct file_result fr = { .dfd = AT_FDCWD };
	struct xstat_time taken, *tp = NULL;
	long long size_needed, ns, sec, nsec;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)self;
	if (!PyArg_ParseTuple(args, "O!O!LO", &PyBytes_Type, &path_o,
			      &XsResult_Type, &res, &size_needed, &taken_o) ||
	    record_path(path_o, &fr.name) < 0)
		return NULL;
	if (taken_o != Py_None) {
		ns = PyLong_AsLongLong(taken_o);
		if (ns == -1 && PyErr_Occurred())
			return NULL;
		/* floor division: the nanoseconds are never negative */
		sec = ns / 1000000000;
		nsec = ns % 1000000000;
		if (nsec < 0) {
			nsec += 1000000000;
			sec--;
		}
		taken.tv_sec = sec;
		taken.tv_nsec = (unsigned long long)nsec;
		tp = &taken;
	}
	fr.ret = (ssize_t)size_needed;
	fr.x = res_x((XsResult *)res);
	fr.buflen = (size_t)((XsResult *)res)->len;
	f = open_memstream(&buf, &len);
	if (!f)
		return PyErr_NoMemory();
	json_record(f, &fr, tp);
	return record_text(&buf, &len, f);
}

static PyObject *xs_json_error_record(PyObject *self, PyObject *args)
{
	PyObject *path_o;
	const char *path;
	char *buf = NULL;
	size_t len = 0;
	int err;
	FILE *f;

	(void)self;
	if (!PyArg_ParseTuple(args, "O!i", &PyBytes_Type, &path_o, &err) ||
	    record_path(path_o, &path) < 0)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return PyErr_NoMemory();
	json_error_record(f, path, err);
	return record_text(&buf, &len, f);
}

PyDoc_STRVAR(stat_doc,
"stat(path, *, dir_fd=None, follow_symlinks=True, fields=DEFAULT_FIELDS,\n"
"     sync=None)\n--\n\n"
"Extended status of a file, with xstat(3).\n\n"
"path, dir_fd and follow_symlinks are as for os.stat(); path may be an\n"
"open file descriptor.  fields is a Request mask of what to get\n"
"(default: the basic stats and the creation time, all that one statx(2)\n"
"returns); sync=True forces attributes to be refreshed from a network\n"
"server, sync=False uses cached ones, None does what stat(2) does.\n"
"Raises OSError as os.stat() does.  The GIL is released during the call.");

PyDoc_STRVAR(lstat_doc,
"lstat(path, *, dir_fd=None, fields=DEFAULT_FIELDS, sync=None)\n--\n\n"
"Like stat(), but does not follow a final symbolic link.");

PyDoc_STRVAR(fstat_doc,
"fstat(fd, *, fields=DEFAULT_FIELDS, sync=None)\n--\n\n"
"Extended status of the open file descriptor fd, with fxstat(3).");

static PyMethodDef xs_methods[] = {
	{ "stat", (PyCFunction)(void (*)(void))xs_stat,
	  METH_FASTCALL | METH_KEYWORDS, stat_doc },
	{ "lstat", (PyCFunction)(void (*)(void))xs_lstat,
	  METH_FASTCALL | METH_KEYWORDS, lstat_doc },
	{ "fstat", (PyCFunction)(void (*)(void))xs_fstat,
	  METH_FASTCALL | METH_KEYWORDS, fstat_doc },
	{ "_opendir", xs_opendir, METH_VARARGS,
	  "_opendir(path_or_fd, fields, sync, want_str): a DirStream." },
	{ "compare", (PyCFunction)(void (*)(void))xs_compare,
	  METH_VARARGS | METH_KEYWORDS,
	  "compare(before, after, taken_ns=None) -> (verdict, why): what "
	  "changed between two results of one name, as xstat_compare(3) "
	  "says; taken_ns: time.time_ns() read before the call that gave "
	  "before." },
	{ "_json_record", xs_json_record, METH_VARARGS,
	  "_json_record(path, result, size_needed, taken_ns): the line of "
	  "xstat --json for result, without its newline." },
	{ "_json_error_record", xs_json_error_record, METH_VARARGS,
	  "_json_error_record(path, errno): xstat --json's error line." },
	{ "_scan", xs_scan, METH_VARARGS, XS_SCAN_DOC },
	{ "_result_from_bytes", res_from_bytes, METH_O,
	  "_result_from_bytes(b): the xstat_result a pickle holds." },
	{ "_known_mask", xs_known_mask, METH_NOARGS,
	  "xstat_known_mask(): the request bits this libxstat knows." },
	{ "_set_flag_types", xs_set_flag_types, METH_VARARGS,
	  "Register libxstat.Request, the type of st_result_mask, and "
	  "libxstat.Promise, that of the promises." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef xs_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "libxstat._libxstat",
	.m_doc = "The C part of libxstat: xstat()/fxstat() for Python.",
	.m_size = -1,
	.m_methods = xs_methods,
};

/* The header's values, exported so Python never repeats a number. */
static const struct {
	const char		*name;
	unsigned long long	value;
} xs_consts[] = {
#define C(n) { #n, XSTAT_ ## n }
	C(REQUEST_MODE), C(REQUEST_NLINK), C(REQUEST_UID), C(REQUEST_GID),
	C(REQUEST_RDEV), C(REQUEST_ATIME), C(REQUEST_MTIME),
	C(REQUEST_CTIME), C(REQUEST_INO), C(REQUEST_SIZE),
	C(REQUEST_BLOCKS), C(REQUEST__BASIC_STATS), C(REQUEST_BTIME),
	C(REQUEST_GEN), C(REQUEST_DATA_VERSION),
	C(REQUEST__EXTENDED_STATS),
#define XS_PY_REQUEST(NAME, ...)	C(REQUEST_##NAME),
	XS_EXTRA_RESULTS(XS_PY_REQUEST)
#undef XS_PY_REQUEST
	C(REQUEST__EXTRA_RESULTS), C(REQUEST__ALL_STATS),
	C(ATTR_COMPRESSED), C(ATTR_IMMUTABLE), C(ATTR_APPEND),
	C(ATTR_NODUMP), C(ATTR_ENCRYPTED), C(ATTR_AUTOMOUNT),
	C(ATTR_MOUNT_ROOT), C(ATTR_VERITY), C(ATTR_DAX),
	C(ATTR_WRITE_ATOMIC),
	C(WHY_PRESENT), C(WHY_NOT_REQUESTED), C(WHY_UNKNOWN), C(WHY_NO_SOURCE),
	C(WHY_PRIVILEGE), C(WHY_REFUSED), C(WHY_KERNEL), C(WHY_NO_SYNC),
	C(WHY_UNVERIFIED), C(WHY_NO_DEVICE),
	C(PROMISE_EVERY_CHANGE), C(PROMISE_TICK), C(PROMISE_MONOTONIC),
	C(PROMISE_PERSISTENT), C(PROMISE_METADATA), C(PROMISE_ATIME),
	C(PROMISE_WRAP32), C(PROMISE_CLOCK), C(PROMISE_LAGS),
	C(PROMISE_NAMES),
	C(TOKEN_FROM_DATA_VERSION), C(TOKEN_FROM_CTIME),
	C(SAME), C(SAME_UNPROVEN), C(CHANGED_METADATA), C(CHANGED_DATA),
	C(OTHER_FILE),
#undef C
	{ "DEFAULT_FIELDS", XS_PY_DEFAULT_FIELDS },
};

static int add_consts(PyObject *m)
{
	size_t i;
	PyObject *v;

	for (i = 0; i < sizeof(xs_consts) / sizeof(xs_consts[0]); i++) {
		v = PyLong_FromUnsignedLongLong(xs_consts[i].value);
		if (!v || PyModule_AddObject(m, xs_consts[i].name, v)) {
			Py_XDECREF(v);
			return -1;
		}
	}
	return 0;
}

/*
 * EXTRA_RESULTS: ((bit, payload size, statx bit or 0), ...): the rows of
 * fields.h, in bit order.
 */
static int add_extra_results(PyObject *m)
{
	PyObject *t = Py_BuildValue("("
#define XS_PY_FMT(...)	"(KnI)"
		XS_EXTRA_RESULTS(XS_PY_FMT)
#undef XS_PY_FMT
		")"
#define XS_PY_ARGS(NAME, name, bit, size, stx, ...) \
		, (unsigned long long)(bit), (Py_ssize_t)(size), \
		(unsigned int)(stx)
		XS_EXTRA_RESULTS(XS_PY_ARGS)
#undef XS_PY_ARGS
		);

	if (!t || PyModule_AddObject(m, "EXTRA_RESULTS", t)) {
		Py_XDECREF(t);
		return -1;
	}
	return 0;
}

static int set_type_int(PyTypeObject *t, const char *name, long v)
{
	PyObject *o = PyLong_FromLong(v);
	int ret = o ? PyDict_SetItemString(t->tp_dict, name, o) : -1;

	Py_XDECREF(o);
	PyType_Modified(t);
	return ret;
}

PyMODINIT_FUNC PyInit__libxstat(void)
{
	PyObject *m;
	int i;

	for (i = 0; i < NKW; i++) {
		kw_str[i] = PyUnicode_InternFromString(kw_names[i]);
		if (!kw_str[i])
			return NULL;
	}
	res_init_getset();
	if (PyType_Ready(&XsResult_Type) < 0 ||
	    PyType_Ready(&XsDir_Type) < 0)
		return NULL;
	/* os.stat_result's class attributes: 10 items, all named. */
	if (set_type_int(&XsResult_Type, "n_sequence_fields", NSEQ) ||
	    set_type_int(&XsResult_Type, "n_fields", NSEQ) ||
	    set_type_int(&XsResult_Type, "n_unnamed_fields", 0))
		return NULL;
	m = PyModule_Create(&xs_module);
	if (!m)
		return NULL;
	Py_INCREF(&XsResult_Type);
	if (PyModule_AddObject(m, "xstat_result",
			       (PyObject *)&XsResult_Type) ||
	    add_consts(m) || add_extra_results(m) ||
	    PyModule_AddStringConstant(m, "__version__", XS_PY_VERSION)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
