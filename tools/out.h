/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Records, messages and the checks on standard output: a write error (full
 * disk, closed descriptor, a reader gone with SIGPIPE ignored) is an error
 * of the command, reported once, exit status 1, like coreutils'
 * close_stdout.
 *
 * Each thread prints its records into a buffer of its own (out_fp()) and
 * hands them to stdout in large writes, whole records only, under one
 * lock: the walk's workers never wait for each other record by record.
 */
#ifndef XSTAT_TOOL_OUT_H
#define XSTAT_TOOL_OUT_H

#include <stdbool.h>
#include <stdio.h>

#define EXIT_USAGE	2

/* "xstat: MESSAGE[: strerror(errnum)]" on stderr; errnum 0 for none. */
void warn_msg(int errnum, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A command line error: the message, the hint, exit 2. */
void usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/*
 * Before anything else: give closed descriptors 0-2 a placeholder, so
 * nothing the program opens lands on them and writes to a closed stdout
 * fail (EBADF) instead of going to some other file.
 */
void out_init(void);

/* Standard input was closed when the program started. */
bool out_stdin_closed(void);

/*
 * Where the calling thread prints its records: a stream only this thread
 * uses, so the *_unlocked stdio calls are safe on it.
 */
FILE *out_fp(void);

/*
 * One record printed: with @zero (-0) its final newline becomes a NUL.
 * The thread's buffer goes to stdout once it is large, or at once when
 * stdout is a terminal.  False if stdout has failed.
 */
bool out_record_end(bool zero);

/*
 * The calling thread's record printed since its last out_record_end():
 * its bytes (*@len of them), valid until it prints again.
 */
const char *out_record_text(size_t *len);

/* The calling thread's records to stdout now; false if stdout failed. */
bool out_drain(void);

/*
 * Has a write of records to stdout failed (as out_drain() found)?  For a
 * test on every entry: no lock, where ferror(stdout) takes stdout's, which
 * the thread writing out its buffer holds.
 */
bool out_stdout_failed(void);

/*
 * Records go to @f instead of stdout from now on, until called with NULL
 * (xstat --save's snapshot: written through the same printers, in the
 * same large writes).  out_drain() then writes there; false if @f failed.
 */
void out_set_target(FILE *f);

/* A thread that printed is ending: its records out, its buffers freed. */
void out_thread_end(void);

/*
 * A status line on stderr (the walk's progress), replacing the one
 * before; NULL clears it.  Messages clear it before they are printed.
 */
void out_status(const char *line);

/* Flush stdout; on a write error report it and return false. */
bool out_flush(void);

/* At exit: flush and close stdout; status 1 if that fails. */
int out_finish(int status);

#endif
