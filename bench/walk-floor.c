// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The floor of a tree walk: getdents64(2) and one statx(2) per entry, no
 * library, no output, nothing else.  bench/walk-run.sh times xstat -r,
 * find and bfs beside it over the same tree.
 *
 *   walk-floor [-t THREADS] [-m MASK] DIR
 *
 * MASK is statx's (default 0x7ff, the basic stats; 0xfff adds the birth
 * time).  Prints the number of entries stat'ed, so a run can be checked
 * against find's count.  Threads share one stack of directories.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct dirent64_ {
	unsigned long long	d_ino;
	long long		d_off;
	unsigned short		d_reclen;
	unsigned char		d_type;
	char			d_name[];
};

struct job {
	struct job	*next;
	char		*path;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static struct job *stack;
static unsigned busy;
static unsigned mask = 0x7ff;
static atomic_ulong entries;

static void push(char *path)
{
	struct job *j = malloc(sizeof(*j));

	if (!j)
		abort();
	j->path = path;
	pthread_mutex_lock(&lock);
	j->next = stack;
	stack = j;
	pthread_cond_signal(&work);
	pthread_mutex_unlock(&lock);
}

static void read_dir(const char *path)
{
	char buf[32768];
	struct statx stx;
	unsigned long n = 0;
	size_t plen = strlen(path);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long got, off;

	if (fd < 0)
		return;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < got;) {
			struct dirent64_ *d = (void *)(buf + off);
			const char *name = d->d_name;

			off += d->d_reclen;
			if (name[0] == '.' && (!name[1] ||
					       (name[1] == '.' && !name[2])))
				continue;
			if (statx(fd, name, AT_SYMLINK_NOFOLLOW |
				  AT_NO_AUTOMOUNT, mask, &stx) < 0)
				continue;
			n++;
			if (S_ISDIR(stx.stx_mode) || (!(stx.stx_mask & 1) &&
						      d->d_type == DT_DIR)) {
				size_t nlen = strlen(name);
				char *p = malloc(plen + nlen + 2);

				if (!p)
					abort();
				memcpy(p, path, plen);
				p[plen] = '/';
				memcpy(p + plen + 1, name, nlen + 1);
				push(p);
			}
		}
	}
	close(fd);
	atomic_fetch_add(&entries, n);
}

static void *worker(void *arg)
{
	struct job *j;

	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!stack && busy)
			pthread_cond_wait(&work, &lock);
		if (!stack)
			break;
		j = stack;
		stack = j->next;
		busy++;
		pthread_mutex_unlock(&lock);
		read_dir(j->path);
		free(j->path);
		free(j);
		pthread_mutex_lock(&lock);
		if (--busy == 0 && !stack)
			pthread_cond_broadcast(&work);
	}
	pthread_cond_broadcast(&work);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	unsigned threads = 1, i;
	int c;

	while ((c = getopt(argc, argv, "t:m:")) != -1) {
		if (c == 't')
			threads = (unsigned)strtoul(optarg, NULL, 0);
		else if (c == 'm')
			mask = (unsigned)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind != argc - 1 || threads < 1 || threads > 64) {
		fprintf(stderr,
			"usage: walk-floor [-t THREADS] [-m MASK] DIR\n");
		return 2;
	}
	push(strdup(argv[optind]));
	for (i = 1; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	worker(NULL);
	for (i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	/* the root itself, as find and xstat -r print it */
	printf("%lu\n", atomic_load(&entries) + 1);
	return 0;
}
