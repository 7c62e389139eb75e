// SPDX-License-Identifier: LGPL-2.1-or-later
/* Checked standard output and the messages of the xstat tool. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "out.h"

static bool stdin_closed;
static bool write_failed;

void warn_msg(int errnum, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);		/* keep stdout and stderr in order */
	fputs("xstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
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
}

bool out_stdin_closed(void)
{
	return stdin_closed;
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
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return true;
	report_write_error(errno);
	return false;
}

int out_finish(int status)
{
	bool ok = out_flush();

	errno = 0;
	if (fclose(stdout) != 0 && ok) {
		report_write_error(errno);
		ok = false;
	}
	if (!ok)
		return 1;
	return status;
}
