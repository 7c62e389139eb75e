// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target over what --changes trusts least: the snapshot reader
 * (tools/snapshot.c, simdjson underneath) and xstat_compare() on the
 * results it rebuilds.  The input is a snapshot file of the tree "/t".
 * Every entry read must be found again by its name and its inode number,
 * and every pair of the first entries must get a verdict 0-4 or -1 with
 * EINVAL: anything else aborts.  The deferred reading (--changes --save)
 * must come to the same: refused where the whole reading is, else the
 * same entries, field for field, once snapshot_finish() has read them.
 * The whole reading is of a stream (fmemopen), the deferred one of a
 * regular file (a memfd), which the reader takes whole into memory: the
 * two ways of reading must agree too.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "xstat.h"
#include "snapshot.h"

#define PAIRS	16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_entries(const struct snapshot *s)
{
	unsigned long long why;
	size_t i, j, n = s->n < PAIRS ? s->n : PAIRS;
	struct snap_ent *e;
	int v;

	for (i = 0; i < s->n; i++) {
		if (snapshot_find(s, s->ents[i]->path) != s->ents[i])
			abort();
		if (s->ents[i]->flags & SNAP_FAILED)
			continue;
		e = snapshot_first_ino(s, s->ents[i]->res->x.st_ino);
		while (e && e != s->ents[i])
			e = snapshot_next_ino(s, e);
		if (!e)
			abort();
	}
	for (i = 0; i < n; i++) {
		const struct snap_ent *a = s->ents[i];

		if (a->flags & SNAP_FAILED)
			continue;
		for (j = 0; j < n; j++) {
			const struct snap_ent *b = s->ents[j];

			if (b->flags & SNAP_FAILED)
				continue;
			errno = 0;
			v = xstat_compare(&a->res->x, a->res->len,
					  &b->res->x, b->res->len,
					  a->flags & SNAP_TAKEN ? &a->taken : NULL,
					  &why);
			if (v < -1 || v > XSTAT_OTHER_FILE ||
			    (v == -1 && errno != EINVAL) ||
			    (i == j && v == XSTAT_OTHER_FILE))
				abort();
		}
	}
}

/* The deferred reading of @data against the whole one, @s (@ok). */
static void check_deferred(const uint8_t *data, size_t size,
			   const struct snapshot *s, bool ok)
{
	struct snapshot d;
	char err[512];
	bool dok;
	size_t i;
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	FILE *f;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return;
	}
	dok = snapshot_load_deferred(f, "fuzz", &d, err, sizeof(err)) == 0;
	if (!dok && !err[0])
		abort();
	if (dok) {
		dok = snapshot_finish(&d, err, sizeof(err)) == 0;
		if (!dok && !err[0])
			abort();
	}
	if (dok != ok)
		abort();
	for (i = 0; ok && i < s->n; i++) {
		const struct snap_ent *a = s->ents[i], *b = d.ents[i];

		if (d.n != s->n || strcmp(a->path, b->path) ||
		    a->flags != b->flags || !a->res != !b->res ||
		    (a->res && memcmp(a->res, b->res, sizeof(*a->res))) ||
		    a->taken.tv_sec != b->taken.tv_sec ||
		    a->taken.tv_nsec != b->taken.tv_nsec ||
		    a->line_len != b->line_len)
			abort();
	}
	if (ok && d.have_taken != s->have_taken)
		abort();
	snapshot_free(&d);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s;
	char err[512];
	bool ok;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	ok = snapshot_load(f, "fuzz", &s, err, sizeof(err)) == 0;
	if (ok) {
		snapshot_set_root(&s);
		check_entries(&s);
	} else if (!err[0]) {
		abort();	/* an error always says what */
	}
	check_deferred(data, size, &s, ok);
	snapshot_free(&s);
	fclose(f);
	return 0;
}
