// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The seccomp filters of the test helpers, checked without installing
 * them (qemu-user cannot), so that this runs on every architecture: each
 * program th_block_syscall() and th_trap_syscall() make is run by a small
 * classic-BPF interpreter over seccomp_data images filled by plain C
 * assignment, the compiler's own idea of the ABI's byte order.  An
 * argument whose low word matches is caught, one whose high word alone
 * matches (what a big-endian machine holds at args + 8 * n) is not;
 * another call or another ABI passes.  The audit arch is held against
 * this program's own ELF header (/proc/self/exe).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ucontext.h>
#include <linux/filter.h>
#include <cmocka.h>
#include "xstat.h"
#include "testhelp.h"
#include "seccomp-arch.h"

#define MAX_INSNS	64

static struct sock_filter prog[MAX_INSNS];
static unsigned short prog_len;

static int capture(const struct sock_fprog *p)
{
	if (p->len > MAX_INSNS)
		return -1;
	memcpy(prog, p->filter, p->len * sizeof(*prog));
	prog_len = p->len;
	return 0;
}

/* 32-bit load of seccomp_data at @off, as the kernel does: in place. */
static uint32_t load_word(const struct seccomp_data *d, uint32_t off)
{
	uint32_t w;

	assert_true(off % 4 == 0 && off + 4 <= sizeof(*d));
	memcpy(&w, (const unsigned char *)d + off, 4);
	return w;
}

/* What the captured program answers for @d (the subset filters use). */
static uint32_t run(const struct seccomp_data *d)
{
	uint32_t a = 0;
	unsigned pc = 0, steps;

	for (steps = 0; steps < MAX_INSNS && pc < prog_len; steps++) {
		const struct sock_filter *i = &prog[pc++];

		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			a = load_word(d, i->k);
			break;
		case BPF_LD | BPF_IMM:
			a = i->k;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= i->k;
			break;
		case BPF_ALU | BPF_OR | BPF_K:
			a |= i->k;
			break;
		case BPF_ALU | BPF_RSH | BPF_K:
			a >>= i->k;
			break;
		case BPF_JMP | BPF_JA:
			pc += i->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= i->k ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & i->k) ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return i->k;
		case BPF_RET | BPF_A:
			return a;
		default:
			fail_msg("instruction %u: code %#x unknown here", pc - 1,
				 (unsigned)i->code);
		}
	}
	fail_msg("the program ran off its end");
	return 0;
}

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	(void)ctx;
}

#if defined(SA_AUDIT_ARCH) && defined(SA_NR_STATX)
static int setup(void **state)
{
	(void)state;
	th_seccomp_inspect = capture;
	prog_len = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	th_seccomp_inspect = NULL;
	return 0;
}

static struct seccomp_data call(int nr)
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.arch = SA_AUDIT_ARCH;
	d.nr = nr;
	return d;
}

/* The audit arch this program's ELF header says: machine, class, order. */
static uint32_t elf_audit_arch(void)
{
	unsigned char id[EI_NIDENT + 4];
	uint16_t machine;
	uint32_t arch;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, id, sizeof(id)) != (ssize_t)sizeof(id))
		fail_msg("/proc/self/exe: %s", strerror(errno));
	close(fd);
	/* e_machine follows e_type, in the file's own byte order */
	machine = id[EI_DATA] == ELFDATA2LSB ?
		  (uint16_t)(id[18] | id[19] << 8) :
		  (uint16_t)(id[18] << 8 | id[19]);
	arch = machine;
	if (id[EI_CLASS] == ELFCLASS64)
		arch |= __AUDIT_ARCH_64BIT;
	if (id[EI_DATA] == ELFDATA2LSB)
		arch |= __AUDIT_ARCH_LE;
	return arch;
}

static void test_audit_arch(void **state)
{
	(void)state;
	assert_int_equal(SA_AUDIT_ARCH, elf_audit_arch());
}

static void test_block(void **state)
{
	const uint32_t refuse = SECCOMP_RET_ERRNO | EPERM;
	struct seccomp_data d;

	(void)state;
	assert_int_equal(th_block_syscall(SA_NR_STATX, EPERM), 0);
	d = call(SA_NR_STATX);
	assert_int_equal(run(&d), refuse);
	d = call(SA_NR_STATX + 1);
	assert_int_equal(run(&d), SECCOMP_RET_ALLOW);
	d = call(SA_NR_STATX);
	d.arch ^= __AUDIT_ARCH_64BIT;	/* the same number of another ABI */
	assert_int_equal(run(&d), SECCOMP_RET_ALLOW);
}

/*
 * Argument @n of @d holding @low in its low word, @high in its high
 * word (a 32-bit ABI's argument is zero-extended; the high word of a
 * 64-bit value that nothing should read).
 */
static void set_arg(struct seccomp_data *d, int n, uint32_t low,
		    uint32_t high)
{
	d->args[n] = (uint64_t)high << 32 | low;
}

static void test_trap_argument(void **state)
{
	const uint32_t mask = 0x800, value = 0x800;
	struct seccomp_data d;
	int n, other;

	(void)state;
	for (n = 0; n < 6; n++) {
		assert_int_equal(th_trap_syscall(SA_NR_STATX, n, mask, value,
						 on_sigsys), 0);
		d = call(SA_NR_STATX);
		set_arg(&d, n, 0xfff, 0);
		assert_int_equal(run(&d), SECCOMP_RET_TRAP);
		set_arg(&d, n, 0x800, 0x12345678);
		assert_int_equal(run(&d), SECCOMP_RET_TRAP);
		/* the value in the high word only: not this argument */
		set_arg(&d, n, 0x7ff, 0x800);
		if (run(&d) != SECCOMP_RET_ALLOW)
			fail_msg("argument %d: the filter read its high word "
				 "(load at offset %u)", n, prog[6].k);
		/* the value in every other argument: not this one */
		d = call(SA_NR_STATX);
		for (other = 0; other < 6; other++)
			if (other != n)
				set_arg(&d, other, value, value);
		assert_int_equal(run(&d), SECCOMP_RET_ALLOW);
		d = call(SA_NR_STATX + 1);
		set_arg(&d, n, value, 0);
		assert_int_equal(run(&d), SECCOMP_RET_ALLOW);
	}
}

static void test_trap_always(void **state)
{
	struct seccomp_data d;

	(void)state;
	assert_int_equal(th_trap_syscall(SA_NR_STATX, -1, 0, 0, on_sigsys), 0);
	d = call(SA_NR_STATX);
	set_arg(&d, 3, 0x12345678, 0x9abcdef0);
	assert_int_equal(run(&d), SECCOMP_RET_TRAP);
	d = call(SA_NR_STATX - 1);
	assert_int_equal(run(&d), SECCOMP_RET_ALLOW);
}

#define ARCH_TEST(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)
#else
static void test_no_table(void **state)
{
	(void)state;
	th_skip("no seccomp table for this ABI in tests/seccomp-arch.h");
}
#endif

int main(void)
{
	static const struct CMUnitTest tests[] = {
#if defined(SA_AUDIT_ARCH) && defined(SA_NR_STATX)
		ARCH_TEST(test_audit_arch),
		ARCH_TEST(test_block),
		ARCH_TEST(test_trap_argument),
		ARCH_TEST(test_trap_always),
#else
		cmocka_unit_test(test_no_table),
#endif
	};

	return th_run_tests(tests);
}
