// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * countfs - a passthrough FUSE filesystem that counts requests.
 *
 *   countfs -f --source=DIR --counters=FILE [--attr-timeout=SEC]
 *           [--entry-timeout=SEC] [--btime=SEC]
 *           [--xattr|--xattr-enodata] [--wide-ino] MOUNTPOINT
 *
 * Every request the kernel sends is counted by opcode in FILE (struct
 * cfs_counters, mmap'ed by the tests) before it is answered, so a caller
 * that sees its system call return also sees the count.  Attribute
 * replies carry --attr-timeout, so the kernel's attribute cache lasts
 * exactly that long.
 *
 * libfuse 3.14 has no statx operation and answers FUSE_STATX with ENOSYS,
 * after which the kernel never sends it again.  With --btime the server
 * answers FUSE_STATX itself, from its own loop, with the file's attributes
 * and the given creation time: that is how BTIME over FUSE is exercised.
 *
 * Single-threaded on purpose: requests are answered in order and the
 * inode table needs no lock.
 */
#define FUSE_USE_VERSION 34
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <fuse_lowlevel.h>
#include "countfs.h"

/* Wire format of the parts of the protocol libfuse 3.14 does not know. */
struct wire_in_header {
	uint32_t	len;
	uint32_t	opcode;
	uint64_t	unique;
	uint64_t	nodeid;
	uint32_t	uid, gid, pid;
	uint16_t	total_extlen;
	uint16_t	padding;
};

struct wire_out_header {
	uint32_t	len;
	int32_t		error;
	uint64_t	unique;
};

struct wire_sx_time {
	int64_t		tv_sec;
	uint32_t	tv_nsec;
	int32_t		reserved;
};

/* struct fuse_statx: the layout of struct statx, 256 bytes. */
struct wire_statx {
	uint32_t	mask;
	uint32_t	blksize;
	uint64_t	attributes;
	uint32_t	nlink, uid, gid;
	uint16_t	mode;
	uint16_t	spare0;
	uint64_t	ino, size, blocks, attributes_mask;
	struct wire_sx_time atime, btime, ctime, mtime;
	uint32_t	rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t	spare2[14];
};

struct wire_statx_out {
	uint64_t	attr_valid;
	uint32_t	attr_valid_nsec;
	uint32_t	flags;
	uint64_t	spare[2];
	struct wire_statx stat;
};

_Static_assert(sizeof(struct wire_in_header) == 40, "fuse_in_header");
_Static_assert(sizeof(struct wire_statx) == 256, "fuse_statx");
_Static_assert(sizeof(struct wire_statx_out) == 288, "fuse_statx_out");

#define WIRE_STATX_BASIC	0x7ffu
#define WIRE_STATX_BTIME	0x800u

struct node {
	int		fd;		/* O_PATH */
	dev_t		dev;
	ino_t		ino;
	uint64_t	nlookup;
	struct node	*next, *prev;
};

struct options {
	const char	*source;
	const char	*counters;
	double		attr_timeout;
	double		entry_timeout;
	long long	btime;		/* 0: no FUSE_STATX service */
	int		xattr;		/* serve getxattr: 1, and as ENODATA: 2 */
	int		wide_ino;	/* inode numbers that differ above bit 51 */
};

static struct options opt = { .attr_timeout = 1.0, .entry_timeout = 3600.0 };
static struct node root = { .fd = -1, .next = &root, .prev = &root };
static struct cfs_counters *counters;

static struct node *node_of(fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &root : (struct node *)(uintptr_t)ino;
}

static struct node *find_node(dev_t dev, ino_t ino)
{
	struct node *n;

	for (n = root.next; n != &root; n = n->next)
		if (n->dev == dev && n->ino == ino)
			return n;
	return NULL;
}

static void forget_one(fuse_ino_t ino, uint64_t nlookup)
{
	struct node *n = node_of(ino);

	if (n == &root)
		return;
	n->nlookup -= nlookup < n->nlookup ? nlookup : n->nlookup;
	if (n->nlookup)
		return;
	n->prev->next = n->next;
	n->next->prev = n->prev;
	close(n->fd);
	free(n);
}

/*
 * --wide-ino serves each inode number with its lowest bit copied into bit
 * 62, so that a directory's numbers differ above bit 51, where a stream's
 * window no longer fits them beside an index and sorts them by
 * comparison; sorted without bit 62, odd and even numbers would
 * alternate.  One to one: the low bits are kept.
 */
static ino_t served_ino(ino_t ino)
{
	return opt.wide_ino ? ino ^ (ino & 1) << 62 : ino;
}

static int node_stat(struct node *n, struct stat *sb)
{
	if (fstatat(n->fd, "", sb, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -1;
	sb->st_ino = served_ino(sb->st_ino);
	return 0;
}

/* An fd of the node good for I/O; O_PATH fds are reopened via /proc. */
static int reopen(struct node *n, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", n->fd);
	return open(path, flags & ~O_NOFOLLOW);
}

static void cfs_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* Counting needs every request in memory, never spliced. */
	conn->want &= ~(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_MOVE);
}

static int do_lookup(fuse_ino_t parent, const char *name,
		     struct fuse_entry_param *e)
{
	struct node *dir = node_of(parent), *n;
	struct stat sb;
	int fd;

	memset(e, 0, sizeof(*e));
	e->attr_timeout = opt.attr_timeout;
	e->entry_timeout = opt.entry_timeout;
	fd = openat(dir->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstatat(fd, "", &sb, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		int err = errno;

		close(fd);
		return err;
	}
	n = find_node(sb.st_dev, sb.st_ino);
	if (n) {
		close(fd);
	} else {
		n = calloc(1, sizeof(*n));
		if (!n) {
			close(fd);
			return ENOMEM;
		}
		n->fd = fd;
		n->dev = sb.st_dev;
		n->ino = sb.st_ino;
		n->next = root.next;
		n->prev = &root;
		root.next->prev = n;
		root.next = n;
	}
	n->nlookup++;
	e->ino = (uintptr_t)n;
	sb.st_ino = served_ino(sb.st_ino);
	e->attr = sb;
	return 0;
}

static void cfs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err = do_lookup(parent, name, &e);

	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void cfs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	forget_one(ino, nlookup);
	fuse_reply_none(req);
}

static void cfs_forget_multi(fuse_req_t req, size_t count,
			     struct fuse_forget_data *f)
{
	size_t i;

	for (i = 0; i < count; i++)
		forget_one(f[i].ino, f[i].nlookup);
	fuse_reply_none(req);
}

static void cfs_getattr(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	struct stat sb;

	(void)fi;
	if (node_stat(node_of(ino), &sb))
		fuse_reply_err(req, errno);
	else
		fuse_reply_attr(req, &sb, opt.attr_timeout);
}

static void cfs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			int to_set, struct fuse_file_info *fi)
{
	struct node *n = node_of(ino);
	char path[64];
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", n->fd);
	if ((to_set & FUSE_SET_ATTR_MODE) && chmod(path, attr->st_mode))
		goto fail;
	if ((to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) &&
	    lchown(path, (to_set & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1,
		   (to_set & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1))
		goto fail;
	if (to_set & FUSE_SET_ATTR_SIZE) {
		int ret = fi ? ftruncate((int)fi->fh, attr->st_size)
			     : truncate(path, attr->st_size);
		if (ret)
			goto fail;
	}
	if (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) {
		struct timespec tv[2] = {
			{ .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT }
		};

		if (to_set & FUSE_SET_ATTR_ATIME_NOW)
			tv[0].tv_nsec = UTIME_NOW;
		else if (to_set & FUSE_SET_ATTR_ATIME)
			tv[0] = attr->st_atim;
		if (to_set & FUSE_SET_ATTR_MTIME_NOW)
			tv[1].tv_nsec = UTIME_NOW;
		else if (to_set & FUSE_SET_ATTR_MTIME)
			tv[1] = attr->st_mtim;
		if (utimensat(AT_FDCWD, path, tv, 0))
			goto fail;
	}
	if (node_stat(n, &sb))
		goto fail;
	fuse_reply_attr(req, &sb, opt.attr_timeout);
	return;
fail:
	fuse_reply_err(req, errno);
}

static void cfs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX + 1];
	ssize_t len = readlinkat(node_of(ino)->fd, "", buf, sizeof(buf) - 1);

	if (len < 0)
		return (void)fuse_reply_err(req, errno);
	buf[len] = '\0';
	fuse_reply_readlink(req, buf);
}

static void cfs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	int fd = reopen(node_of(ino), fi->flags & ~O_CREAT);

	if (fd < 0)
		return (void)fuse_reply_err(req, errno);
	fi->fh = (uint64_t)fd;
	fuse_reply_open(req, fi);
}

static void cfs_release(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	(void)ino;
	close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void cfs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	char *buf = malloc(size ? size : 1);
	ssize_t n;

	(void)ino;
	if (!buf)
		return (void)fuse_reply_err(req, ENOMEM);
	n = pread((int)fi->fh, buf, size, off);
	if (n < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void cfs_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		      size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n = pwrite((int)fi->fh, buf, size, off);

	(void)ino;
	if (n < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_write(req, (size_t)n);
}

static void cfs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		       mode_t mode, struct fuse_file_info *fi)
{
	struct fuse_entry_param e;
	int fd, err;

	fd = openat(node_of(parent)->fd, name,
		    (fi->flags | O_CREAT) & ~O_NOFOLLOW, mode);
	if (fd < 0)
		return (void)fuse_reply_err(req, errno);
	err = do_lookup(parent, name, &e);
	if (err) {
		close(fd);
		return (void)fuse_reply_err(req, err);
	}
	fi->fh = (uint64_t)fd;
	fuse_reply_create(req, &e, fi);
}

static void cfs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode)
{
	struct fuse_entry_param e;
	int err;

	if (mkdirat(node_of(parent)->fd, name, mode))
		return (void)fuse_reply_err(req, errno);
	err = do_lookup(parent, name, &e);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void cfs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, unlinkat(node_of(parent)->fd, name, 0) ? errno : 0);
}

static void cfs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, unlinkat(node_of(parent)->fd, name, AT_REMOVEDIR)
			    ? errno : 0);
}

static void cfs_opendir(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	int fd = reopen(node_of(ino), O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0)
		return (void)fuse_reply_err(req, errno);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return (void)fuse_reply_err(req, errno);
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	fuse_reply_open(req, fi);
}

static void cfs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			off_t off, struct fuse_file_info *fi)
{
	DIR *d = (DIR *)(uintptr_t)fi->fh;
	char *buf = calloc(1, size ? size : 1);
	size_t used = 0;
	struct dirent *de;

	(void)ino;
	if (!buf)
		return (void)fuse_reply_err(req, ENOMEM);
	seekdir(d, off);
	while ((de = readdir(d))) {
		struct stat sb = { .st_ino = served_ino(de->d_ino),
				   .st_mode = (mode_t)de->d_type << 12 };
		size_t len = fuse_add_direntry(req, buf + used, size - used,
					       de->d_name, &sb,
					       telldir(d));
		if (len > size - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void cfs_releasedir(fuse_req_t req, fuse_ino_t ino,
			   struct fuse_file_info *fi)
{
	(void)ino;
	closedir((DIR *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void cfs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	if (fstatvfs(node_of(ino)->fd, &sv))
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &sv);
}

/*
 * With --xattr, extended attributes read from the source inode (through
 * its /proc/self/fd entry: the node's fd is O_PATH); without it ENOSYS, as
 * libfuse answers, so the other tests' request counts stay as they were.
 * A source without the attribute's namespace answers EOPNOTSUPP; with
 * --xattr-enodata that becomes ENODATA, as passthrough servers that merge
 * filesystems answer for a name one file lacks.
 */
static void cfs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			 size_t size)
{
	char path[64], buf[256];
	ssize_t n;

	if (!opt.xattr) {
		fuse_reply_err(req, ENOSYS);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", node_of(ino)->fd);
	n = getxattr(path, name, size ? buf : NULL,
		     size < sizeof(buf) ? size : sizeof(buf));
	if (n < 0 && errno == EOPNOTSUPP && opt.xattr == 2)
		errno = ENODATA;
	if (n < 0)
		fuse_reply_err(req, errno);
	else if (size)
		fuse_reply_buf(req, buf, (size_t)n);
	else
		fuse_reply_xattr(req, (size_t)n);
}

static const struct fuse_lowlevel_ops ops = {
	.init		= cfs_init,
	.lookup		= cfs_lookup,
	.forget		= cfs_forget,
	.forget_multi	= cfs_forget_multi,
	.getattr	= cfs_getattr,
	.setattr	= cfs_setattr,
	.readlink	= cfs_readlink,
	.open		= cfs_open,
	.release	= cfs_release,
	.read		= cfs_read,
	.write		= cfs_write,
	.create		= cfs_create,
	.mkdir		= cfs_mkdir,
	.unlink		= cfs_unlink,
	.rmdir		= cfs_rmdir,
	.opendir	= cfs_opendir,
	.readdir	= cfs_readdir,
	.releasedir	= cfs_releasedir,
	.statfs		= cfs_statfs,
	.getxattr	= cfs_getxattr,
};

static void fill_time(struct wire_sx_time *t, const struct timespec *ts)
{
	t->tv_sec = ts->tv_sec;
	t->tv_nsec = (uint32_t)ts->tv_nsec;
}

/* Answer FUSE_STATX (52) ourselves: the attributes plus our btime. */
static void reply_statx(int devfd, const struct wire_in_header *in)
{
	struct wire_out_header oh = { .unique = in->unique };
	struct wire_statx_out out;
	struct iovec iov[2] = {
		{ &oh, sizeof(oh) }, { &out, sizeof(out) }
	};
	struct wire_statx *sx = &out.stat;
	struct stat sb;
	int iovcnt = 2;

	memset(&out, 0, sizeof(out));
	if (node_stat(node_of(in->nodeid), &sb)) {
		oh.error = -errno;
		iovcnt = 1;
	} else {
		out.attr_valid = (uint64_t)opt.attr_timeout;
		out.attr_valid_nsec = (uint32_t)((opt.attr_timeout -
			(double)out.attr_valid) * 1e9);
		sx->mask = WIRE_STATX_BASIC | WIRE_STATX_BTIME;
		sx->blksize = (uint32_t)sb.st_blksize;
		sx->nlink = (uint32_t)sb.st_nlink;
		sx->uid = sb.st_uid;
		sx->gid = sb.st_gid;
		sx->mode = (uint16_t)sb.st_mode;
		sx->ino = sb.st_ino;
		sx->size = (uint64_t)sb.st_size;
		sx->blocks = (uint64_t)sb.st_blocks;
		fill_time(&sx->atime, &sb.st_atim);
		fill_time(&sx->mtime, &sb.st_mtim);
		fill_time(&sx->ctime, &sb.st_ctim);
		sx->btime.tv_sec = opt.btime;
		sx->rdev_major = major(sb.st_rdev);
		sx->rdev_minor = minor(sb.st_rdev);
	}
	oh.len = (uint32_t)(sizeof(oh) + (iovcnt == 2 ? sizeof(out) : 0));
	if (writev(devfd, iov, iovcnt) < 0)
		perror("countfs: statx reply");
}

static void count(const struct fuse_buf *buf)
{
	const struct wire_in_header *in = buf->mem;
	unsigned op;

	if (buf->size < sizeof(*in))
		return;
	op = in->opcode < CFS_NOPS ? in->opcode : 0;
	__atomic_add_fetch(&counters->op[op], 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&counters->total, 1, __ATOMIC_SEQ_CST);
}

static int serve(struct fuse_session *se)
{
	struct fuse_buf buf = { .mem = NULL };
	int ret;

	while (!fuse_session_exited(se)) {
		ret = fuse_session_receive_buf(se, &buf);
		if (ret == -EINTR)
			continue;
		if (ret <= 0)
			break;
		if (buf.flags & FUSE_BUF_IS_FD) {
			fprintf(stderr, "countfs: spliced request\n");
			break;
		}
		count(&buf);
		if (opt.btime && buf.size >= sizeof(struct wire_in_header) &&
		    ((const struct wire_in_header *)buf.mem)->opcode ==
		    CFS_STATX) {
			reply_statx(fuse_session_fd(se), buf.mem);
			continue;
		}
		fuse_session_process_buf(se, &buf);
	}
	free(buf.mem);
	return 0;
}

static int map_counters(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	void *p;

	if (fd < 0 || ftruncate(fd, sizeof(*counters))) {
		perror(path);
		return -1;
	}
	p = mmap(NULL, sizeof(*counters), PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror("countfs: mmap");
		return -1;
	}
	counters = p;
	counters->server_pid = (uint32_t)getpid();
	__atomic_store_n(&counters->magic, CFS_MAGIC, __ATOMIC_SEQ_CST);
	return 0;
}

#define OPT(t, p) { t, offsetof(struct options, p), 1 }
static const struct fuse_opt cfs_opts[] = {
	OPT("--source=%s", source),
	OPT("--counters=%s", counters),
	OPT("--attr-timeout=%lf", attr_timeout),
	OPT("--entry-timeout=%lf", entry_timeout),
	OPT("--btime=%lld", btime),
	{ "--xattr", offsetof(struct options, xattr), 1 },
	{ "--xattr-enodata", offsetof(struct options, xattr), 2 },
	{ "--wide-ino", offsetof(struct options, wide_ino), 1 },
	FUSE_OPT_END
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts cl;
	struct fuse_session *se;
	int ret = 1;

	if (fuse_opt_parse(&args, &opt, cfs_opts, NULL) ||
	    fuse_parse_cmdline(&args, &cl))
		return 1;
	if (!opt.source || !opt.counters || !cl.mountpoint) {
		fprintf(stderr, "usage: countfs -f --source=DIR "
			"--counters=FILE [--attr-timeout=SEC] "
			"[--entry-timeout=SEC] [--btime=SEC] "
			"[--xattr|--xattr-enodata] MOUNTPOINT\n");
		return 1;
	}
	root.fd = open(opt.source, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root.fd < 0) {
		perror(opt.source);
		return 1;
	}
	if (map_counters(opt.counters))
		return 1;

	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) == 0) {
		if (fuse_session_mount(se, cl.mountpoint) == 0) {
			if (fuse_daemonize(cl.foreground) == 0)
				ret = serve(se);
			fuse_session_unmount(se);
		}
		fuse_remove_signal_handlers(se);
	}
	fuse_session_destroy(se);
	free(cl.mountpoint);
	fuse_opt_free_args(&args);
	return ret;
}
