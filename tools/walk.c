// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat -r: walk a tree with the directory streams.
 *
 * Directories to read wait on one stack (last in, first out, so that the
 * stack holds about depth x fan-out nodes, not a whole level of a wide
 * tree), guarded by one mutex with one condition variable.  A worker pops
 * a directory, opens it by its path from the starting point (in steps
 * below PATH_MAX where it is longer), prints each
 * entry and pushes the subdirectories; it holds one stream at a time, so
 * the walk holds at most one descriptor per thread.  A directory whose
 * open fails with EMFILE waits for another worker's stream to close and
 * tries again; only when no other stream is open is EMFILE an error.
 *
 * A node stays allocated while a descendant is queued or being read, for
 * the loop check (a bind mount or, with -L, a symlink back up the tree);
 * its path is freed as soon as it has been read, so a deep tree costs
 * one small node per level plus the paths of the queued directories.
 *
 * Output: each worker prints into a buffer of its own (out.h), handed to
 * stdout whole records at a time; the quoting buffers and the name caches
 * are per thread too, so workers share no lock entry by entry.  The
 * counts for the progress line are added once a directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "xstat.h"
#include "out.h"
#include "progress.h"
#include "quote.h"
#include "walk.h"

struct node {
	struct node	*parent;	/* a reference: for the loop check */
	struct node	*next;		/* on the stack */
	char		*path;		/* until the directory has been read */
	unsigned	refs;		/* self + children alive (w->lock) */
	int		depth;		/* levels below the root */
	bool		check;		/* want_* hold the entry's identity */
	bool		quiet_notdir;	/* type unknown: ENOTDIR is no error */
	struct xstat_dev want_dev;
	unsigned long long want_ino;
	dev_t		dev;		/* of the opened directory */
	ino_t		ino;
};

struct walk {
	const struct walk_opts *o;
	pthread_mutex_t	lock;		/* everything below */
	pthread_cond_t	work;		/* stack filled, or walk over */
	pthread_cond_t	closed;		/* w->events moved */
	struct node	*stack;
	unsigned	busy;		/* workers reading a directory */
	unsigned	held;		/* streams open */
	unsigned	inflight;	/* opens not made under the lock */
	unsigned long	events;		/* closes and ends of such opens */
	struct xstat_dev root_dev;
	atomic_bool	failed;
	atomic_bool	stop;		/* output lost: no point going on */
	bool		pressure;	/* EMFILE seen: open under w->lock */
	struct progress	*progress;	/* NULL: none shown */
};

/* Print @r, or report its failure as "@what NAME: error". */
static void emit(struct walk *w, const struct file_result *r,
		 const char *what)
{
	const struct walk_opts *o = w->o;

	if (r->ret < 0) {
		/* err 0: not a failure of a call, a message only */
		if (o->error_records && r->err)
			o->print(r, o->ctx);
		warn_msg(r->err, what, quoteaf(r->name));
		atomic_store(&w->failed, true);
		progress_add(w->progress, 0, 0, 1);
	} else if (!o->print(r, o->ctx)) {
		atomic_store(&w->failed, true);
	}
	if (out_stdout_failed())
		atomic_store(&w->stop, true);
}

/* A failure of @path with no xstat result: an error record all the same. */
static void fail(struct walk *w, const char *path, int err, const char *what)
{
	struct file_result r = {
		.name = path, .dfd = AT_FDCWD, .path = path,
		.follow = !(w->o->flags & AT_SYMLINK_NOFOLLOW),
		.ret = -1, .err = err,
	};

	emit(w, &r, what);
}

/*
 * A directory @path could not be read, or not whole: @what it.  Its own
 * entry was printed already (the walk enters only what it printed), so
 * no error record: one path, one record.  The failure is said on stderr
 * and in the exit status, and handed to the unread hook.
 */
static void fail_dir(struct walk *w, const char *path, int err,
		     const char *what)
{
	warn_msg(err, what, quoteaf(path));
	atomic_store(&w->failed, true);
	progress_add(w->progress, 0, 0, 1);
	if (w->o->unread)
		w->o->unread(path, w->o->ctx);
}

/* Drop a reference (w->lock held); a node goes with its last child. */
static void put_node(struct node *n)
{
	while (n && --n->refs == 0) {
		struct node *p = n->parent;

		free(n->path);
		free(n);
		n = p;
	}
}

static void push(struct walk *w, struct node *n)
{
	pthread_mutex_lock(&w->lock);
	if (n->parent)
		n->parent->refs++;
	n->next = w->stack;
	w->stack = n;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
}

/* "@dir/@name", one slash between them, as find prints it. */
static char *join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	bool slash = a && dir[a - 1] != '/';
	char *p = malloc(a + slash + b + 1);

	if (!p)
		return NULL;
	memcpy(p, dir, a);
	if (slash)
		p[a] = '/';
	memcpy(p + a + slash, name, b + 1);
	return p;
}

/*
 * Open the directory @path, which may be longer than PATH_MAX (a tree
 * deeper than that): then its leading components, up to PATH_MAX at a
 * time, are opened O_PATH one below the other and the stream is opened
 * below the last, as find does.  The walk entered every one of them, so
 * a prefix's last component is a directory; -L aside, one replaced by a
 * symlink since is not followed.  For a moment this holds a second
 * descriptor (EMFILE is handled by the caller as for the stream's own).
 */
static struct xstat_dir *opendir_path(const char *path, int flags,
				      struct xstat_parameters *params)
{
	int nofollow = flags & AT_SYMLINK_NOFOLLOW ? O_NOFOLLOW : 0;
	char part[PATH_MAX];
	struct xstat_dir *d;
	const char *p = path, *slash;
	int dfd = AT_FDCWD, fd, err;
	size_t len;

	d = xstat_opendir(AT_FDCWD, path, flags, params);
	if (d || errno != ENAMETOOLONG)
		return d;
	while (strlen(p) >= PATH_MAX) {
		slash = memrchr(p, '/', PATH_MAX - 1);
		if (!slash || slash == p) {
			err = ENAMETOOLONG;	/* one name over PATH_MAX */
			goto out;
		}
		len = (size_t)(slash - p);
		memcpy(part, p, len);
		part[len] = '\0';
		fd = openat(dfd, part, O_PATH | O_DIRECTORY | O_CLOEXEC |
				       nofollow);
		err = errno;
		if (dfd != AT_FDCWD)
			close(dfd);
		if (fd < 0) {
			errno = err;
			return NULL;
		}
		dfd = fd;
		p = slash + 1;
	}
	d = xstat_opendir(dfd, p, flags, params);
	err = errno;
out:
	if (dfd != AT_FDCWD)
		close(dfd);
	errno = err;
	return d;
}

/*
 * Open @path, waiting out EMFILE/ENFILE while another worker holds a
 * stream: its close frees a descriptor.  After the first EMFILE, opens
 * are made under w->lock and the ones begun before are waited for, so
 * that w->held is exact when one fails: with no stream of ours open,
 * EMFILE is an error (reported, the walk goes on); with one, the close
 * waited for is sure to come, as a worker holding a stream never waits
 * for another.
 */
static struct xstat_dir *open_dir(struct walk *w, const char *path)
{
	struct xstat_parameters params = { w->o->query };
	struct xstat_dir *d;
	unsigned long gen;
	bool locked;
	int err;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		locked = w->pressure;
		if (!locked) {
			w->inflight++;
			pthread_mutex_unlock(&w->lock);
		}
		d = opendir_path(path, w->o->flags, &params);
		err = errno;
		if (!locked) {
			pthread_mutex_lock(&w->lock);
			w->inflight--;
			w->events++;
			pthread_cond_broadcast(&w->closed);
		}
		if (d) {
			w->held++;
			pthread_mutex_unlock(&w->lock);
			return d;
		}
		if (err != EMFILE && err != ENFILE)
			break;
		w->pressure = true;
		if (locked && !w->held && !w->inflight)
			break;
		if (locked) {
			gen = w->events;
			while (w->events == gen)
				pthread_cond_wait(&w->closed, &w->lock);
		}
		pthread_mutex_unlock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	errno = err;
	return NULL;
}

static void close_dir(struct walk *w, struct xstat_dir *d)
{
	xstat_closedir(d);
	pthread_mutex_lock(&w->lock);
	w->held--;
	w->events++;
	pthread_cond_broadcast(&w->closed);
	pthread_mutex_unlock(&w->lock);
}

/*
 * The opened directory is the one its entry described (nothing renamed
 * a directory or put a symlink in its place on the way down), and not
 * one of its own ancestors.  False, reported, if not.
 */
static bool check_dir(struct walk *w, struct node *n, struct xstat_dir *d)
{
	const struct node *a;
	struct stat st;

	if (fstat(xstat_dirfd(d), &st) < 0) {
		fail_dir(w, n->path, errno, "cannot stat directory %s");
		return false;
	}
	if (n->check && (st.st_ino != n->want_ino ||
			 major(st.st_dev) != n->want_dev.major ||
			 minor(st.st_dev) != n->want_dev.minor)) {
		fail_dir(w, n->path, 0, "%s changed during the walk, not entered");
		return false;
	}
	n->dev = st.st_dev;
	n->ino = st.st_ino;
	for (a = n->parent; a; a = a->parent) {
		if (a->dev == st.st_dev && a->ino == st.st_ino) {
			fail_dir(w, n->path, ELOOP, "file system loop at %s");
			return false;
		}
	}
	return true;
}

/* DT_* of an entry's result; DT_UNKNOWN when the mode was not returned. */
static unsigned char type_of(const struct file_result *r, unsigned char dt)
{
	if (r->ret < 0)
		return DT_UNKNOWN;
	if (have(r, XSTAT_REQUEST_MODE))
		return IFTODT(r->x->st_mode);
	return dt;
}

/* Queue @r (an entry of @parent) if the walk is to enter it. */
static void maybe_enter(struct walk *w, struct node *parent,
			const struct file_result *r, unsigned char type)
{
	struct node *n;

	if (r->ret < 0 || (type != DT_DIR && type != DT_UNKNOWN))
		return;
	if (w->o->max_depth >= 0 &&
	    (parent ? parent->depth + 1 : 0) >= w->o->max_depth)
		return;
	if (w->o->xdev && (r->x->st_dev.major != w->root_dev.major ||
			   r->x->st_dev.minor != w->root_dev.minor))
		return;
	n = calloc(1, sizeof(*n));
	if (n)
		n->path = strdup(r->path);
	if (!n || !n->path) {
		free(n);
		fail_dir(w, r->path, ENOMEM, "cannot enter %s");
		return;
	}
	n->refs = 1;
	n->parent = parent;
	n->depth = parent ? parent->depth + 1 : 0;
	n->quiet_notdir = type == DT_UNKNOWN;
	n->check = have(r, XSTAT_REQUEST_INO);
	n->want_ino = r->x->st_ino;
	n->want_dev = r->x->st_dev;
	push(w, n);
}

/* One entry of the directory @n, open as @d. */
static void do_entry(struct walk *w, struct node *n, struct xstat_dir *d,
		     const struct xstat_dirent *e)
{
	union xstat_buffer buf;
	struct file_result r = {
		.dfd = AT_FDCWD,
		.follow = !(w->o->flags & AT_SYMLINK_NOFOLLOW),
	};
	unsigned char type = e->d_type;
	char *path = join(n->path, e->d_name);

	if (!path) {
		fail(w, e->d_name, ENOMEM, "cannot stat %s");
		return;
	}
	r.name = r.path = path;
	if (e->d_error) {
		r.ret = -1;
		r.err = e->d_error;
	} else {
		r.ret = (ssize_t)e->d_xstat_len;
		r.x = e->d_xstat;
		r.buflen = e->d_xstat_len;
		type = type_of(&r, e->d_type);
	}
	/* -L: the stream never follows; a link is looked up again */
	if (r.follow && r.ret >= 0 && type == DT_LNK) {
		struct xstat_parameters params = { w->o->query };

		memset(&buf, 0, sizeof(buf));
		r.x = &buf.x;
		r.buflen = sizeof(buf);
		r.ret = xstat(xstat_dirfd(d), e->d_name, w->o->flags, &params,
			      &buf.x, sizeof(buf));
		if (r.ret < 0)
			r.err = errno;
		else if ((size_t)r.ret < r.buflen)
			r.buflen = (size_t)r.ret;
		type = type_of(&r, DT_UNKNOWN);
	}
	emit(w, &r, "cannot stat %s");
	maybe_enter(w, n, &r, type);
	free(path);
}

static void read_dir(struct walk *w, struct node *n)
{
	const struct xstat_dirent *e;
	struct xstat_dir *d = open_dir(w, n->path);
	unsigned long entries = 0;

	if (!d) {
		if (!(errno == ENOTDIR && n->quiet_notdir))
			fail_dir(w, n->path, errno,
				 "cannot open directory %s");
		return;
	}
	if (check_dir(w, n, d)) {
		for (;;) {
			if (atomic_load(&w->stop))
				break;
			errno = 0;
			e = xstat_readdir(d);
			if (!e) {
				if (errno)
					fail_dir(w, n->path, errno,
						 "cannot read directory %s");
				break;
			}
			do_entry(w, n, d, e);
			entries++;
		}
	}
	close_dir(w, d);
	progress_add(w->progress, entries, 1, 0);
	/* the children build their own paths: this one is done with */
	free(n->path);
	n->path = NULL;
}

static void *worker(void *arg)
{
	struct walk *w = arg;
	struct node *n;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->stack && w->busy && !atomic_load(&w->stop))
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->stack || atomic_load(&w->stop))
			break;
		n = w->stack;
		w->stack = n->next;
		w->busy++;
		pthread_mutex_unlock(&w->lock);

		read_dir(w, n);

		pthread_mutex_lock(&w->lock);
		w->busy--;
		put_node(n);
		if (!w->stack && !w->busy)
			pthread_cond_broadcast(&w->work);
	}
	/* the others may be waiting for a stack that will stay empty */
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void *worker_thread(void *arg)
{
	worker(arg);
	out_thread_end();
	return NULL;
}

/* Run the workers until the stack is empty and nobody is reading. */
static void run(struct walk *w)
{
	pthread_t tid[WALK_THREADS_MAX];
	unsigned i, started = 0, want = w->o->threads;

	if (want > WALK_THREADS_MAX)
		want = WALK_THREADS_MAX;
	for (i = 1; i < want; i++) {
		if (pthread_create(&tid[started], NULL, worker_thread, w) != 0)
			break;	/* fewer threads: slower, not wrong */
		started++;
	}
	worker(w);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	/* stopped early: what is left on the stack is never read */
	while (w->stack) {
		struct node *n = w->stack;

		w->stack = n->next;
		put_node(n);
	}
}

/*
 * Each directory stream allocates about a megabyte and frees it at
 * closedir: by default glibc maps and unmaps that for every directory
 * (and faults its pages in anew).  Keep freed memory for the next stream.
 * glibc's tunables; a C library without them (musl) is left as it is.
 */
static void keep_freed_memory(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

bool walk_tree(const char *root, const struct walk_opts *o)
{
	struct xstat_parameters params = { o->query };
	union xstat_buffer buf;
	struct file_result r = {
		.name = root, .dfd = AT_FDCWD, .path = root,
		.follow = !(o->flags & AT_SYMLINK_NOFOLLOW),
		.x = &buf.x, .buflen = sizeof(buf),
	};
	struct walk w = {
		.o = o,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.work = PTHREAD_COND_INITIALIZER,
		.closed = PTHREAD_COND_INITIALIZER,
	};

	keep_freed_memory();
	memset(&buf, 0, sizeof(buf));
	r.ret = xstat(AT_FDCWD, root, o->flags, &params, &buf.x, sizeof(buf));
	if (r.ret < 0)
		r.err = errno;
	else if ((size_t)r.ret < r.buflen)
		r.buflen = (size_t)r.ret;
	emit(&w, &r, "cannot stat %s");
	if (r.ret >= 0) {
		w.root_dev = buf.x.st_dev;
		if (o->progress)
			w.progress = progress_start();
		maybe_enter(&w, NULL, &r, type_of(&r, DT_UNKNOWN));
		run(&w);
		progress_stop(w.progress);
	}
	pthread_mutex_destroy(&w.lock);
	pthread_cond_destroy(&w.work);
	pthread_cond_destroy(&w.closed);
	return !atomic_load(&w.failed);
}
