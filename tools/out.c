// SPDX-License-Identifier: LGPL-2.1-or-later
/* Checked standard output, record buffers and the messages of the tool. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "out.h"
#include "quote.h"

/* A thread's records go to stdout when this many bytes are waiting. */
#define DRAIN_AT	65536

struct record_buf {
	FILE	*fp;		/* open_memstream(), or NULL */
	char	*buf;
	size_t	len;
	size_t	done;		/* bytes of whole records in buf */
};

static __thread struct record_buf rec;
/* stdout; and stderr with the status line, apart: a progress line is
   drawn while a worker waits for a slow reader of stdout */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;
static bool stdin_closed;
static bool write_failed;
/* stdout's error flag as out_drain() last saw it: read with no lock */
static bool stdout_failed;
static int write_errno;		/* of the first failed write to stdout */
static size_t drain_at = DRAIN_AT;
static size_t status_len;	/* a status line is on stderr (err_lock) */
static FILE *target;		/* records go there, not to stdout */
static char stdout_buf[DRAIN_AT];

static void clear_status_locked(void)
{
	if (status_len) {
		fprintf(stderr, "\r%*s\r", (int)status_len, "");
		status_len = 0;
	}
}

void warn_msg(int errnum, const char *fmt, ...)
{
	va_list ap;

	out_drain();
	pthread_mutex_lock(&out_lock);
	fflush(stdout);		/* keep stdout and stderr in order */
	pthread_mutex_unlock(&out_lock);
	pthread_mutex_lock(&err_lock);
	clear_status_locked();
	fputs("xstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	pthread_mutex_unlock(&err_lock);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("xstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'xstat --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

void out_init(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int p;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* opened for the other direction: any use of it fails */
		p = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (p < 0)
			exit(EXIT_USAGE);
		if (p != fd) {	/* cannot happen: the lowest is free */
			close(p);
			exit(EXIT_USAGE);
		}
		if (fd == 0)
			stdin_closed = true;
	}
	/* someone is watching: each record as soon as it is made */
	if (isatty(1))
		drain_at = 0;
	else
		/*
		 * One buffer for every C library: musl's 1 KiB one is
		 * written out inside printf (--help), whose errno the write
		 * error's message would lose; here the first write is
		 * out_drain()'s or out_flush()'s, which keep it.
		 */
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
}

bool out_stdin_closed(void)
{
	return stdin_closed;
}

FILE *out_fp(void)
{
	if (!rec.fp) {
		rec.fp = open_memstream(&rec.buf, &rec.len);
		if (!rec.fp) {
			/* as quote.c's buffers: no output would make sense */
			fputs("xstat: memory exhausted\n", stderr);
			exit(1);
		}
		/* only this thread uses it: no lock per call */
		__fsetlocking(rec.fp, FSETLOCKING_BYCALLER);
	}
	return rec.fp;
}

bool out_record_end(bool zero)
{
	if (!rec.fp)
		return !ferror(stdout);
	fflush(rec.fp);
	if (zero && rec.len && rec.buf[rec.len - 1] == '\n') {
		fseeko(rec.fp, -1, SEEK_CUR);
		putc('\0', rec.fp);
		fflush(rec.fp);
	}
	rec.done = rec.len;
	if (rec.len >= (target ? DRAIN_AT : drain_at))
		return out_drain();
	return true;
}

const char *out_record_text(size_t *len)
{
	fflush(out_fp());
	*len = rec.len - rec.done;
	return rec.buf + rec.done;
}

void out_set_target(FILE *f)
{
	pthread_mutex_lock(&out_lock);
	target = f;
	pthread_mutex_unlock(&out_lock);
}

bool out_drain(void)
{
	bool ok;

	if (rec.fp)
		fflush(rec.fp);
	pthread_mutex_lock(&out_lock);
	if (rec.fp && rec.len && target) {
		fwrite(rec.buf, 1, rec.len, target);
		fseeko(rec.fp, 0, SEEK_SET);
		rec.len = 0;
		rec.done = 0;
	} else if (rec.fp && rec.len) {
		errno = 0;
		if ((fwrite(rec.buf, 1, rec.len, stdout) != rec.len ||
		     (!drain_at && fflush(stdout) != 0)) && !write_errno)
			write_errno = errno;
		fseeko(rec.fp, 0, SEEK_SET);
		rec.len = 0;
		rec.done = 0;
	}
	ok = !ferror(target ? target : stdout);
	if (!ok && !target)
		__atomic_store_n(&stdout_failed, true, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&out_lock);
	return ok;
}

bool out_stdout_failed(void)
{
	return __atomic_load_n(&stdout_failed, __ATOMIC_RELAXED);
}

void out_thread_end(void)
{
	out_drain();
	if (rec.fp) {
		fclose(rec.fp);
		free(rec.buf);
		rec = (struct record_buf){ 0 };
	}
	quote_release();
}

void out_status(const char *line)
{
	size_t n = line ? strlen(line) : 0;

	pthread_mutex_lock(&err_lock);
	if (line) {
		/* pad over the end of a longer line before */
		fprintf(stderr, "\r%s%*s", line,
			status_len > n ? (int)(status_len - n) : 0, "");
		status_len = n;
	} else {
		clear_status_locked();
	}
	pthread_mutex_unlock(&err_lock);
}

static void report_write_error(int err)
{
	if (write_failed)
		return;
	write_failed = true;
	fputs("xstat: write error", stderr);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

bool out_flush(void)
{
	if (write_failed)
		return false;
	out_drain();
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	report_write_error(write_errno ? write_errno : errno);
	return false;
}

int out_finish(int status)
{
	bool ok;

	out_thread_end();
	ok = out_flush();
	errno = 0;
	if (fclose(stdout) != 0 && ok) {
		report_write_error(errno);
		ok = false;
	}
	if (!ok)
		return 1;
	return status;
}
