// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Writing a file atomically (save.h).  The temporary's name, while it
 * has one, is kept where the signal handler can reach it: removing it is
 * the handler's only work (unlinkat is async-signal-safe), then the
 * signal is raised again with its default action.  From linkat to rename
 * the signals wait, so a name is never left between the two.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "out.h"
#include "quote.h"
#include "save.h"

#ifndef O_TMPFILE
#define O_TMPFILE	(020000000 | O_DIRECTORY)
#endif

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

/* For the handler: the temporary's name in its directory, or "". */
static char tmp_name[NAME_MAX + 1];
static volatile sig_atomic_t tmp_dirfd = -1;

static void on_signal(int sig)
{
	int err = errno;

	if (tmp_dirfd >= 0 && tmp_name[0])
		unlinkat(tmp_dirfd, tmp_name, 0);
	signal(sig, SIG_DFL);
	raise(sig);
	errno = err;
}

/* Catch what is not ignored (a background job's SIGINT stays ignored). */
static void catch_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		if (sigaction(caught[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&set, caught[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* ".BASE.xstat-XXXXXX" with six random letters and digits. */
static int make_name(char *buf, size_t len, const char *base)
{
	static const char abc[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	uint64_t r;
	int i, n;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	r = (uint64_t)ts.tv_nsec * 6364136223846793005ULL ^
	    (uint64_t)getpid() << 32 ^ (uint64_t)rand();
	n = snprintf(buf, len, ".%s.xstat-XXXXXX", base);
	if (n < 0 || (size_t)n >= len)
		return -1;
	for (i = n - 6; i < n; i++) {
		buf[i] = abc[r % (sizeof(abc) - 1)];
		r /= sizeof(abc) - 1;
	}
	return 0;
}

/* NEW's directory, opened; *@base: NEW's last component. */
static int open_dir(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash) {
		*base = path;
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	*base = slash + 1;
	dir = strndup(path, (size_t)(slash - path) + (slash == path));
	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

int save_open(struct save *s, const char *path)
{
	const char *base;
	struct stat st;
	mode_t mode = 0600;
	int fd = -1, tries;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->dirfd = open_dir(path, &base);
	if (s->dirfd < 0) {
		warn_msg(errno, "--save: cannot open the directory of %s",
			 quoteaf(path));
		return -1;
	}
	if (!*base || strlen(base) + 14 > NAME_MAX) {
		warn_msg(0, "--save: %s is no file name to save to%s",
			 quoteaf(path), *base ? " (too long)" : "");
		goto fail;
	}
	if (fstatat(s->dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		/* never a device, a FIFO or a symlink's target */
		if (!S_ISREG(st.st_mode)) {
			warn_msg(0, "--save: %s is not a regular file",
				 quoteaf(path));
			goto fail;
		}
		mode = st.st_mode & 07777;
	} else if (errno != ENOENT) {
		warn_msg(errno, "--save: cannot stat %s", quoteaf(path));
		goto fail;
	}
	catch_signals();
	fd = openat(s->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	s->unnamed = fd >= 0;
	for (tries = 0; fd < 0 && tries < 100; tries++) {
		char name[NAME_MAX + 1];
		sigset_t old;

		if (make_name(name, sizeof(name), base))
			break;
		block_signals(&old);
		fd = openat(s->dirfd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			memcpy(tmp_name, name, sizeof(name));
			tmp_dirfd = s->dirfd;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		warn_msg(errno, "--save: cannot create a file beside %s",
			 quoteaf(path));
		goto fail;
	}
	if (fchmod(fd, mode) < 0 || !(s->fp = fdopen(fd, "w"))) {
		warn_msg(errno, "--save: cannot write %s", quoteaf(path));
		close(fd);
		save_abort(s);
		return -1;
	}
	return 0;
fail:
	close(s->dirfd);
	s->dirfd = -1;
	return -1;
}

/* The unnamed file's name: linkat through /proc where AT_EMPTY_PATH is
   refused (it needs CAP_DAC_READ_SEARCH on older kernels). */
static int give_name(struct save *s, const char *base)
{
	char name[NAME_MAX + 1], proc[64];
	int fd = fileno(s->fp), tries, ret = -1;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (tries = 0; tries < 100; tries++) {
		if (make_name(name, sizeof(name), base))
			break;
		ret = linkat(fd, "", s->dirfd, name, AT_EMPTY_PATH);
		if (ret < 0 && errno != EEXIST)
			ret = linkat(AT_FDCWD, proc, s->dirfd, name,
				     AT_SYMLINK_FOLLOW);
		if (ret == 0) {
			memcpy(tmp_name, name, sizeof(name));
			tmp_dirfd = s->dirfd;
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	return -1;
}

int save_commit(struct save *s)
{
	const char *base = strrchr(s->path, '/');
	sigset_t old;
	int err = 0;

	base = base ? base + 1 : s->path;
	if (fflush(s->fp) != 0 || ferror(s->fp))
		err = errno ? errno : EIO;
	else if (fsync(fileno(s->fp)) < 0)
		err = errno;
	if (err) {
		warn_msg(err, "--save: cannot write %s", quoteaf(s->path));
		save_abort(s);
		return -1;
	}
	block_signals(&old);
	if (s->unnamed && give_name(s, base) < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		warn_msg(err, "--save: cannot link %s", quoteaf(s->path));
		save_abort(s);
		return -1;
	}
	if (renameat(s->dirfd, tmp_name, s->dirfd, base) < 0) {
		err = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		warn_msg(err, "--save: cannot rename over %s",
			 quoteaf(s->path));
		save_abort(s);
		return -1;
	}
	tmp_name[0] = '\0';
	tmp_dirfd = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fclose(s->fp) != 0)
		err = errno;
	s->fp = NULL;
	/* the rename itself lasts once the directory is on disk */
	if (!err && fsync(s->dirfd) < 0)
		err = errno;
	close(s->dirfd);
	s->dirfd = -1;
	if (err) {
		warn_msg(err, "--save: %s renamed, but not synced",
			 quoteaf(s->path));
		return -1;
	}
	return 0;
}

void save_abort(struct save *s)
{
	sigset_t old;

	block_signals(&old);
	if (tmp_name[0] && s->dirfd >= 0)
		unlinkat(s->dirfd, tmp_name, 0);
	tmp_name[0] = '\0';
	tmp_dirfd = -1;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (s->fp)
		fclose(s->fp);
	s->fp = NULL;
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
}
