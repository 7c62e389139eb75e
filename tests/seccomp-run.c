// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seccomp-run - run a command with chosen system calls failing, the way
 * container seccomp profiles block statx(2).  Raw BPF, no libseccomp: the
 * ABI's audit arch and call numbers come from seccomp-arch.h.  Where it
 * has no table for the ABI, or the filter cannot be installed (a kernel
 * without seccomp, qemu-user), it exits 77 and says why.
 *
 *   seccomp-run [-e ENOSYS|EPERM|errno] [-s statx|name_to_handle_at|NR]...
 *               [--] COMMAND [ARG]...
 *
 * Defaults: -e ENOSYS -s statx.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ucontext.h>
#include <linux/filter.h>
#include "seccomp-arch.h"

#if defined(SA_AUDIT_ARCH) && defined(SA_NR_STATX) && \
	defined(SYS_name_to_handle_at)
#define ARCH		SA_AUDIT_ARCH
#define NR_STATX	SA_NR_STATX
#define NR_N2H		SYS_name_to_handle_at
#endif

#define MAX_BLOCK	8

static int parse_errno(const char *s)
{
	if (!strcmp(s, "ENOSYS"))
		return ENOSYS;
	if (!strcmp(s, "EPERM"))
		return EPERM;
	if (!strcmp(s, "EACCES"))
		return EACCES;
	if (!strcmp(s, "EINVAL"))
		return EINVAL;
	if (!strcmp(s, "EOPNOTSUPP"))
		return EOPNOTSUPP;
	return atoi(s);
}

static int parse_nr(const char *s)
{
	if (!strcmp(s, "statx"))
		return NR_STATX;
	if (!strcmp(s, "name_to_handle_at"))
		return NR_N2H;
	return atoi(s);
}

#ifdef ARCH
int main(int argc, char **argv)
{
	struct sock_filter f[4 + 2 * MAX_BLOCK + 1];
	struct sock_fprog prog;
	int nrs[MAX_BLOCK], n = 0, err = ENOSYS, i, k = 0, c;

	while ((c = getopt(argc, argv, "+e:s:")) != -1) {
		if (c == 'e')
			err = parse_errno(optarg);
		else if (c == 's' && n < MAX_BLOCK)
			nrs[n++] = parse_nr(optarg);
		else {
			fprintf(stderr, "usage: seccomp-run [-e ERR] [-s CALL]... "
				"-- COMMAND...\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "seccomp-run: no command\n");
		return 2;
	}
	if (!n)
		nrs[n++] = NR_STATX;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH,
		1, 0);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ALLOW);
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, nr));
	for (i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			(unsigned)nrs[i], 0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
			SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA));
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
		SECCOMP_RET_ALLOW);

	prog.len = (unsigned short)k;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "SKIP: seccomp-run: cannot install a seccomp "
			"filter: %s\n", strerror(errno));
		return 77;
	}
	execvp(argv[optind], argv + optind);
	perror("seccomp-run: exec");
	return 127;
}
#else
int main(void)
{
	fprintf(stderr, "SKIP: seccomp-run: no seccomp table for this ABI "
		"(tests/seccomp-arch.h)\n");
	return 77;
}
#endif
