/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The build's own system call ABI as a seccomp filter and a SIGSYS
 * handler see it, for the tests that install filters:
 *
 *   SA_AUDIT_ARCH       seccomp_data.arch of this ABI's calls
 *   SA_NR_STATX         statx's number in this ABI
 *   SA_ARG_LO(n)        offset in seccomp_data of the 32-bit half of
 *                       argument @n that holds its low word (the second
 *                       half on a big-endian machine)
 *   SA_SIGSYS_ARG(uc, n)     argument @n of the trapped call, in the
 *                            handler's ucontext_t
 *   SA_SIGSYS_RET(uc, ret)   make the trapped call return @ret (a value,
 *                            or -errno)
 *   SA_SIGSYS_ARG0_LOST      defined where the kernel has overwritten the
 *                            first argument's register by the time the
 *                            trap's signal is delivered (it keeps it in
 *                            orig_gpr2 / orig_a0, which no signal frame
 *                            carries): the handler cannot repeat the call
 *
 * SA_AUDIT_ARCH undefined: an ABI without a table here (x32, 32-bit
 * PowerPC, big-endian ARM); the helpers then say seccomp is unavailable
 * and the tests skip.
 */
#ifndef LIBXSTAT_TESTS_SECCOMP_ARCH_H
#define LIBXSTAT_TESTS_SECCOMP_ARCH_H

#include <stddef.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/seccomp.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define SA_AUDIT_ARCH		AUDIT_ARCH_X86_64
#define SA_GREG(uc, r)		((uc)->uc_mcontext.gregs[r])
#define SA_SIGSYS_ARG(uc, n)	SA_GREG(uc, ((const int[]){ REG_RDI, \
		REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9 })[n])
#define SA_SIGSYS_RET(uc, ret)	(SA_GREG(uc, REG_RAX) = (ret))

#elif defined(__i386__)
#define SA_AUDIT_ARCH		AUDIT_ARCH_I386
#define SA_GREG(uc, r)		((uc)->uc_mcontext.gregs[r])
#define SA_SIGSYS_ARG(uc, n)	((unsigned long)SA_GREG(uc, ((const int[]){ \
		REG_EBX, REG_ECX, REG_EDX, REG_ESI, REG_EDI, REG_EBP })[n]))
#define SA_SIGSYS_RET(uc, ret)	(SA_GREG(uc, REG_EAX) = (ret))

#elif defined(__aarch64__) && defined(__AARCH64EL__)
#define SA_AUDIT_ARCH		AUDIT_ARCH_AARCH64
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.regs[n])
#define SA_SIGSYS_RET(uc, ret)	((uc)->uc_mcontext.regs[0] = (ret))

#elif defined(__arm__) && defined(__ARMEL__) && defined(__ARM_EABI__)
#define SA_AUDIT_ARCH		AUDIT_ARCH_ARM
#define SA_SIGSYS_ARG(uc, n)	(((const unsigned long[]){ \
		(uc)->uc_mcontext.arm_r0, (uc)->uc_mcontext.arm_r1, \
		(uc)->uc_mcontext.arm_r2, (uc)->uc_mcontext.arm_r3, \
		(uc)->uc_mcontext.arm_r4, (uc)->uc_mcontext.arm_r5 })[n])
#define SA_SIGSYS_RET(uc, ret)	((uc)->uc_mcontext.arm_r0 = (ret))

#elif defined(__s390x__)
#define SA_AUDIT_ARCH		AUDIT_ARCH_S390X
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.gregs[2 + (n)])
#define SA_SIGSYS_RET(uc, ret)	((uc)->uc_mcontext.gregs[2] = (ret))
#define SA_SIGSYS_ARG0_LOST	1

#elif defined(__powerpc64__)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SA_AUDIT_ARCH		AUDIT_ARCH_PPC64LE
#else
#define SA_AUDIT_ARCH		AUDIT_ARCH_PPC64
#endif
/*
 * gp_regs holds the whole pt_regs: the trap number (PT_TRAP, 40) tells
 * "scv" (0x3000: -errno in r3) from "sc" (0xc00: the errno in r3 and the
 * summary-overflow bit of CR0 (PT_CCR, 38) set).
 */
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.gp_regs[3 + (n)])
#define SA_SIGSYS_RET(uc, ret)	sa_ppc_ret((uc), (long)(ret))
static inline void sa_ppc_ret(ucontext_t *uc, long ret)
{
	unsigned long *r = uc->uc_mcontext.gp_regs;

	if ((r[40] & ~0xfUL) == 0x3000 || ret >= 0) {
		r[3] = (unsigned long)ret;
		r[38] &= ~0x10000000UL;
	} else {
		r[3] = (unsigned long)-ret;
		r[38] |= 0x10000000UL;
	}
}

#elif defined(__riscv) && __riscv_xlen == 64
#define SA_AUDIT_ARCH		AUDIT_ARCH_RISCV64
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.__gregs[10 + (n)])
#define SA_SIGSYS_RET(uc, ret)	((uc)->uc_mcontext.__gregs[10] = (ret))

#elif defined(__mips__) && defined(_ABI64) && _MIPS_SIM == _ABI64
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SA_AUDIT_ARCH		AUDIT_ARCH_MIPSEL64
#else
#define SA_AUDIT_ARCH		AUDIT_ARCH_MIPS64
#endif
/* v0 (2) holds the value or the errno, a3 (7) says which. */
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.gregs[4 + (n)])
#define SA_SIGSYS_RET(uc, ret)	sa_mips_ret((uc), (long)(ret))
static inline void sa_mips_ret(ucontext_t *uc, long ret)
{
	uc->uc_mcontext.gregs[2] = ret < 0 ? -ret : ret;
	uc->uc_mcontext.gregs[7] = ret < 0;
}

#elif defined(__loongarch__) && __loongarch_grlen == 64
#define SA_AUDIT_ARCH		AUDIT_ARCH_LOONGARCH64
#define SA_SIGSYS_ARG(uc, n)	((uc)->uc_mcontext.__gregs[4 + (n)])
#define SA_SIGSYS_RET(uc, ret)	((uc)->uc_mcontext.__gregs[4] = (ret))
#define SA_SIGSYS_ARG0_LOST	1
#endif

#ifdef SA_AUDIT_ARCH
#if defined(SYS_statx)
#define SA_NR_STATX		SYS_statx
#elif defined(__NR_statx)
#define SA_NR_STATX		__NR_statx
#endif

/* seccomp_data.args[] are 64-bit on every ABI, in its byte order. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SA_ARG_LO(n)	(offsetof(struct seccomp_data, args) + 8 * (n) + 4)
#else
#define SA_ARG_LO(n)	(offsetof(struct seccomp_data, args) + 8 * (n))
#endif
#endif

#endif
