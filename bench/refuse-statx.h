/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/refuse-statx.h - the bench programs' sandbox: a seccomp filter
 * under which this ABI's statx answers an errno and every other call,
 * and every call of another ABI, runs.  The filter, not the library,
 * decides, as in a container runtime's profile.
 */
#ifndef LIBXSTAT_BENCH_REFUSE_STATX_H
#define LIBXSTAT_BENCH_REFUSE_STATX_H

#include <errno.h>
#include <stddef.h>
#include <linux/filter.h>
#include <sys/prctl.h>
#include "../tests/seccomp-arch.h"

/*
 * Refuse statx with @err in this thread and the threads it starts: 0, or
 * -1 with errno set (ENOSYS where seccomp-arch.h has no table for this
 * ABI).
 */
static inline int bench_refuse_statx(int err)
{
#if defined(SA_AUDIT_ARCH) && defined(SA_NR_STATX)
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SA_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SA_NR_STATX, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO |
			 ((unsigned)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
#else
	(void)err;
	errno = ENOSYS;
	return -1;
#endif
}

#endif
