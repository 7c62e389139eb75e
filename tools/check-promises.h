/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xstat --check-promises DIR: make every kind of change to files of each
 * type in a scratch directory under DIR, right after asking for a change
 * token, and tell whether the token moved wherever its promise says it
 * must.
 */
#ifndef XSTAT_TOOL_CHECK_PROMISES_H
#define XSTAT_TOOL_CHECK_PROMISES_H
#include <stdbool.h>

/* --check-promises is among the options (before any "--"). */
bool check_promises_asked(int argc, char **argv);

/*
 * The whole command: 0 all promises kept, 1 one broken, 2 an error, 3 a
 * cell measured in fewer rounds than asked and none broken.
 */
int check_promises_main(int argc, char **argv);

#endif
