// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Times, modes and file types in words.  Times are formatted here rather
 * than with strftime("%Y"), which wraps around for years past INT_MAX -
 * 1900 on glibc: a wrong date is worse than none.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "human.h"

void seconds_time(char *buf, const struct xstat_time *t)
{
	snprintf(buf, HUMAN_TIME_MAX, "%lld.%09llu", (long long)t->tv_sec,
		 (unsigned long long)t->tv_nsec);
}

/*
 * "YYYY-MM-DD HH:MM:SS" of @sec into @date and " +ZZZZ" into @zone;
 * false if the time cannot be broken down.
 */
static bool break_down(long long secs, char *date, size_t dlen, char *zone,
		       size_t zlen)
{
	time_t sec = (time_t)secs;
	long long year, off;
	struct tm tm;

	if ((long long)sec != secs || !localtime_r(&sec, &tm))
		return false;
	year = (long long)tm.tm_year + 1900;
	off = tm.tm_gmtoff;
	snprintf(zone, zlen, " %c%02lld%02lld", off < 0 ? '-' : '+',
		 (off < 0 ? -off : off) / 3600,
		 (off < 0 ? -off : off) / 60 % 60);
	/* stat pads the year to four characters, the sign included */
	snprintf(date, dlen,
		 year < 0 ? "-%03lld-%02d-%02d %02d:%02d:%02d" :
			    "%04lld-%02d-%02d %02d:%02d:%02d",
		 year < 0 ? -year : year, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec);
	return true;
}

/*
 * The last second broken down, per thread: a file's times, and the files
 * of one directory, often share their second, and localtime_r() takes a
 * lock of glibc's each time.  The same second gives the same words.
 */
static __thread struct {
	bool		valid;
	long long	sec;
	char		date[HUMAN_TIME_MAX], zone[40];
} last;

void human_time(char *buf, const struct xstat_time *t)
{
	unsigned long long ns = t->tv_nsec;
	char *p;
	int i;

	if (!last.valid || last.sec != t->tv_sec) {
		last.valid = break_down(t->tv_sec, last.date,
					sizeof(last.date), last.zone,
					sizeof(last.zone));
		if (!last.valid) {
			seconds_time(buf, t);
			return;
		}
		last.sec = t->tv_sec;
	}
	p = stpcpy(buf, last.date);
	*p++ = '.';
	for (i = 8; i >= 0; i--, ns /= 10)
		p[i] = (char)('0' + ns % 10);
	strcpy(p + 9, last.zone);
}

static char type_letter(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:	return '-';
	case S_IFDIR:	return 'd';
	case S_IFBLK:	return 'b';
	case S_IFCHR:	return 'c';
	case S_IFLNK:	return 'l';
	case S_IFIFO:	return 'p';
	case S_IFSOCK:	return 's';
	}
	return '?';
}

void human_mode(char buf[11], unsigned m)
{
	buf[0] = type_letter(m);
	buf[1] = m & S_IRUSR ? 'r' : '-';
	buf[2] = m & S_IWUSR ? 'w' : '-';
	buf[3] = m & S_ISUID ? (m & S_IXUSR ? 's' : 'S') :
			       (m & S_IXUSR ? 'x' : '-');
	buf[4] = m & S_IRGRP ? 'r' : '-';
	buf[5] = m & S_IWGRP ? 'w' : '-';
	buf[6] = m & S_ISGID ? (m & S_IXGRP ? 's' : 'S') :
			       (m & S_IXGRP ? 'x' : '-');
	buf[7] = m & S_IROTH ? 'r' : '-';
	buf[8] = m & S_IWOTH ? 'w' : '-';
	buf[9] = m & S_ISVTX ? (m & S_IXOTH ? 't' : 'T') :
			       (m & S_IXOTH ? 'x' : '-');
	buf[10] = '\0';
}

const char *human_type(unsigned mode, unsigned long long size, int size_known)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return size_known && size == 0 ? "regular empty file" :
						 "regular file";
	case S_IFDIR:	return "directory";
	case S_IFLNK:	return "symbolic link";
	case S_IFBLK:	return "block special file";
	case S_IFCHR:	return "character special file";
	case S_IFIFO:	return "fifo";
	case S_IFSOCK:	return "socket";
	}
	return "weird file";
}

/* One name per XSTAT_PROMISE_* bit, in bit order (xstat(1), JSON too). */
static const char *const promise_names[] = {
	"every_change", "tick", "monotonic", "persistent", "metadata",
	"atime", "wrap32", "clock_step", "lags", "names",
};

void human_promise(char *buf, size_t len, unsigned long long promise,
		   const char *sep)
{
	size_t i, n = sizeof(promise_names) / sizeof(promise_names[0]);
	size_t used = 0;
	int w;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++) {
		if (!(promise & (1ULL << i)))
			continue;
		w = snprintf(buf + used, len - used, "%s%s",
			     used ? sep : "", promise_names[i]);
		used += w > 0 ? (size_t)w : 0;
		promise &= ~(1ULL << i);
	}
	if (promise && used < len)
		snprintf(buf + used, len - used, "%s%#llx", used ? sep : "",
			 promise);
}

const char *human_token_source(unsigned int source)
{
	switch (source) {
	case XSTAT_TOKEN_FROM_DATA_VERSION:
		return "data_version";
	case XSTAT_TOKEN_FROM_CTIME:
		return "ctime";
	}
	return "unknown";
}

static unsigned int why_field(const struct xstat_why_missing *w, unsigned i,
			      const char **field)
{
	switch (i) {
	case 0:
		*field = "btime";
		return w->btime;
	case 1:
		*field = "gen";
		return w->gen;
	}
	*field = "data_version";
	return w->data_version;
}

int human_why_next(const struct xstat_why_missing *w, unsigned int *i,
		   const char **field, unsigned int *code)
{
	while (*i < HUMAN_WHY_FIELDS) {
		*code = why_field(w, (*i)++, field);
		if (*code != XSTAT_WHY_PRESENT &&
		    *code != XSTAT_WHY_NOT_REQUESTED)
			return 1;
	}
	return 0;
}

const char *human_why(unsigned int code)
{
	static const char *const names[] = {
		[XSTAT_WHY_PRESENT] = "present",
		[XSTAT_WHY_NOT_REQUESTED] = "not_requested",
		[XSTAT_WHY_UNKNOWN] = "unknown",
		[XSTAT_WHY_NO_SOURCE] = "no_source",
		[XSTAT_WHY_PRIVILEGE] = "privilege",
		[XSTAT_WHY_REFUSED] = "refused",
		[XSTAT_WHY_KERNEL] = "kernel",
		[XSTAT_WHY_NO_SYNC] = "no_sync",
		[XSTAT_WHY_UNVERIFIED] = "unverified",
		[XSTAT_WHY_NO_DEVICE] = "no_device",
	};

	if (code < sizeof(names) / sizeof(names[0]) && names[code])
		return names[code];
	return "unknown";
}
