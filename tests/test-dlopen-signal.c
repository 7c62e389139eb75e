// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * xstat() is async-signal-safe also in a copy of the library loaded with
 * dlopen() (as the Python extension loads it), where thread-local storage
 * of the general-dynamic model would be allocated with malloc on a
 * thread's first use.  The library's per-thread memory of a refused statx
 * must therefore be initial-exec: the loaded object is checked for
 * DF_STATIC_TLS in its dynamic section (the oracle: the ELF the linker
 * wrote), and xstat() is called from a signal handler in fresh threads,
 * with statx refused by a seccomp filter (the first touch of that memory
 * is then in the handler) and without, the answer held against lstat().
 *
 * This program is not linked with libxstat: it loads the build's
 * lib/.libs/libxstat.so.1 ($top_builddir), and skips (77) without one
 * (a static-only build).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"

typedef ssize_t (*xstat_fn)(int, const char *, unsigned,
			    const struct xstat_parameters *, struct xstat *,
			    size_t);

static void *lib;
static xstat_fn call;
static char path[300];

static int load(void)
{
	const char *top = getenv("top_builddir");
	char so[400];

	if (!top)
		top = ".";
	th_pathf(so, sizeof(so), "%s/lib/.libs/libxstat.so.1", top);
	if (access(so, R_OK))
		return -1;
	lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return -1;
	}
	call = (xstat_fn)(uintptr_t)dlsym(lib, "xstat");
	return call ? 0 : -1;
}

static int static_tls;

static int find_flags(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Dyn) *d;
	int i;

	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libxstat.so"))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
			continue;
		d = (const ElfW(Dyn) *)(info->dlpi_addr +
					info->dlpi_phdr[i].p_vaddr);
		for (; d->d_tag != DT_NULL; d++)
			if (d->d_tag == DT_FLAGS)
				static_tls = !!(d->d_un.d_val & DF_STATIC_TLS);
	}
	return 1;
}

static void test_static_tls(void **state)
{
	(void)state;
	assert_int_equal(dl_iterate_phdr(find_flags, NULL), 1);
	if (!static_tls)
		fprintf(stderr, "FAIL: libxstat.so.1 has thread-local storage "
			"of a dynamic model (no DF_STATIC_TLS)\n");
	assert_true(static_tls);
}

static volatile sig_atomic_t handled;
static ino_t seen_ino;
static int seen_ok;

static void on_usr1(int sig)
{
	struct xstat_parameters p = { XSTAT_REQUEST__BASIC_STATS |
				      XSTAT_REQUEST_BTIME };
	struct xstat x;
	int saved = errno;

	(void)sig;
	seen_ok = call(AT_FDCWD, path, 0, &p, &x, sizeof(x)) == 152 &&
		  call(AT_FDCWD, path, 0, &p, &x, sizeof(x)) == 152;
	seen_ino = (ino_t)x.st_ino;
	handled = 1;
	errno = saved;
}

static void *in_thread(void *arg)
{
	int block = *(int *)arg;

	if (block && th_block_statx(ENOSYS))
		return (void *)(intptr_t)TH_SKIP;
	handled = 0;
	pthread_kill(pthread_self(), SIGUSR1);
	return (void *)(intptr_t)!handled;
}

static int from_handler(void *arg)
{
	struct sigaction sa;
	struct stat sb;
	pthread_t th;
	void *ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL) || lstat(path, &sb) ||
	    pthread_create(&th, NULL, in_thread, arg) ||
	    pthread_join(th, &ret))
		return 1;
	if ((intptr_t)ret)
		return (int)(intptr_t)ret;
	if (!seen_ok || seen_ino != sb.st_ino) {
		fprintf(stderr, "FAIL: from the handler: %s, inode %llu, not "
			"%llu\n", seen_ok ? "answered" : "failed",
			(unsigned long long)seen_ino,
			(unsigned long long)sb.st_ino);
		return 1;
	}
	return 0;
}

static void test_handler_statx(void **state)
{
	int block = 0;

	(void)state;
	th_in_child(from_handler, &block, "(cannot happen)");
}

static void test_handler_refused(void **state)
{
	int block = 1;

	(void)state;
	th_in_child(from_handler, &block, "seccomp is unavailable here");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_tls),
		cmocka_unit_test(test_handler_statx),
		cmocka_unit_test(test_handler_refused),
	};
	int fd, ret;

	if (load()) {
		fprintf(stderr, "SKIP: no shared libxstat.so.1 in the build "
			"tree to load\n");
		return TH_SKIP;
	}
	if (!th_mkdtemp(path, sizeof(path)))
		return 1;
	strcat(path, "/f");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	ret = th_run_tests(tests);
	*strrchr(path, '/') = '\0';
	th_rmrf(path);
	return ret;
}
