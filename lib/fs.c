// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The filesystem table: every row libxstat has, and the facts read from
 * it that more than one layer needs.  A row is added in fs_rows.h, once.
 */
#include <sys/utsname.h>
#include "fs.h"
#include "decimal.h"

/* In fs_rows.h's order. */
static const struct xs_fs *const rows[] = {
#define XS_FS_ROW(name)	&xs_fs_##name,
#include "fs_rows.h"
#undef XS_FS_ROW
};

/*
 * Any other filesystem: statx's answer only, no promise beyond a tick, no
 * handle decoded (overlayfs among them: its handles wrap the layer's in
 * its own encoding).
 */
static const struct xs_fs fs_default = {
	.name = "other",
};

const struct xs_fs *xs_fs_of_known(uint32_t magic)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i]->magic == magic)
			return rows[i];
	return &fs_default;
}

/* Linux 6.13 or later (where FS_MGTIME exists): asked once. */
static int kernel_mgtime(void)
{
	static int known;	/* atomic: 0 unknown, 1 no, 2 yes */
	int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
	uint64_t major = 0, minor = 0;
	struct utsname u;
	const char *p;

	if (v)
		return v == 2;
	if (uname(&u) == 0 && (p = xs_get_u64(u.release, &major)) &&
	    *p == '.')
		xs_get_u64(p + 1, &minor);
	v = major > 6 || (major == 6 && minor >= 13) ? 2 : 1;
	__atomic_store_n(&known, v, __ATOMIC_RELAXED);
	return v == 2;
}

int xs_fs_type_mgtime(const struct xs_fs *fs, const char *type)
{
	return fs && fs->mgtime_type && type &&
	       strcmp(type, fs->mgtime_type) == 0 && kernel_mgtime();
}
