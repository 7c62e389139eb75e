/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The extra results (class 4), each described once.  Everything else
 * that lists them is made from these two X-macro lists: the header's
 * sums and masks are checked against them (copyout.c), the payload
 * writer and xstat_extra()'s map (copyout.c), the statx mapping
 * (mask.h), the tool's %{directives}, default layout and JSON record
 * (tools/format-named.c, tools/layout.c, tools/json-record.c, which the
 * Python binding compiles too) and the binding's attributes and
 * constants (python/_libxstat.c).  A list, not a file of rows included
 * again and again, so that a mask or a sum over the rows is one
 * expression a #define or a _Static_assert can hold.  How to add a
 * field: docs/ARCHITECTURE.md, "Adding an extra result".
 *
 * struct xstat's own bits (0-13) are not here: that struct is closed.
 *
 * XS_EXTRA_RESULTS(X): one row per extra result, in ascending bit order
 * (the order of the payloads in a result and of the JSON members):
 *
 *	X(NAME, name, bit, size, stx, json, layout, fill...)
 *
 *	NAME	its request bit is XSTAT_REQUEST_<NAME>
 *	name	its payload is struct xstat_<name>, read with
 *		xstat_extra_<name>(); the JSON record's member "<name>"
 *	bit	the request bit's value (the header's must equal it)
 *	size	sizeof(struct xstat_<name>), a multiple of 8
 *	stx	the statx(2) STATX_* bit it mirrors one to one, or 0 (a
 *		library bit, or one mask.h maps by hand: MNT_ID)
 *	json	how the record shows it: NUM (its one member, a number),
 *		OBJ (an object of its members' keys), OWN (a writer of its
 *		own in tools/json-record.c), NONE (not in the record)
 *	layout	its line in xstat's default layout (a format), or 0
 *	fill	the payload, made from struct xs_stat *st (copyout.c;
 *		@request is the call's request)
 */
#ifndef LIBXSTAT_FIELDS_H
#define LIBXSTAT_FIELDS_H

#define XS_EXTRA_RESULTS(X)						\
	X(MNT_ID, mnt_id, 0x4000ULL, 16, 0, OBJ,			\
	  "Mount ID: %{mnt_id}",					\
	  { st->mnt_id, st->mnt_id_unique, 0 })				\
	X(ATTRIBUTES, attributes, 0x8000ULL, 16, 0, OBJ,		\
	  "Attributes: %#{attributes} (known: %#{attributes_mask})\n",	\
	  { st->attributes, st->attributes_mask })			\
	X(DIOALIGN, dioalign, 0x10000ULL, 8, 0x2000U, OBJ,		\
	  "DIO align: memory %{dio_mem_align}, "			\
	  "offset %{dio_offset_align}\n",				\
	  { st->dio_mem_align, st->dio_offset_align })			\
	X(SUBVOL, subvol, 0x20000ULL, 8, 0x8000U, NUM,			\
	  "Subvolume: %{subvol}\n",					\
	  { st->subvol })						\
	X(WRITE_ATOMIC, write_atomic, 0x40000ULL, 16, 0x10000U, OBJ,	\
	  "Atomic write: unit min %{atomic_unit_min}, "			\
	  "max %{atomic_unit_max}, max opt %{atomic_unit_max_opt}, "	\
	  "segments %{atomic_segments_max}\n",				\
	  { st->awu_min, st->awu_max, st->aw_segments_max,		\
	    st->awu_max_opt })						\
	X(DIO_READ_ALIGN, dio_read_align, 0x80000ULL, 8, 0x20000U, NUM,	\
	  "DIO read align: offset %{dio_read_offset_align}\n",		\
	  { st->dio_read_offset_align, 0 })				\
	X(WHY_MISSING, why_missing, 0x100000000ULL, 8, 0, NONE, 0,	\
	  { why(st, request, XSTAT_REQUEST_BTIME, st->why_btime),	\
	    why(st, request, XSTAT_REQUEST_GEN, st->why_gen),		\
	    why(st, request, XSTAT_REQUEST_DATA_VERSION, st->why_dv),	\
	    { 0 } })							\
	X(CHANGE_TOKEN, change_token, 0x200000000ULL, 24, 0, OWN,	\
	  "Change token: %#{change_token}",				\
	  token_payload(st))						\
	X(DV_PROMISE, dv_promise, 0x400000000ULL, 8, 0, OWN,		\
	  "Data version promise:",					\
	  { st->dv_promise })						\
	X(FS_ID, fs_id, 0x800000000ULL, 24, 0, OWN, 0,			\
	  fs_id_payload(st))						\
	X(MNT_ID_REUSABLE, mnt_id_reusable, 0x1000000000ULL, 8, 0, NUM, 0, \
	  { st->mnt_id_reusable })

/*
 * XS_EXTRA_MEMBERS(M): the members of the payloads that a program reads,
 * grouped by extra result in the order above, each in the order the
 * tool's JSON object and the binding show them:
 *
 *	M(NAME, name, member, kind, directive, base, key, py, doc)
 *
 *	NAME, name	the extra result's, as above
 *	member		struct xstat_<name>'s member
 *	kind		its type: U8, U32, U64, BOOL32 (an unsigned int flag),
 *			PROMISE (XSTAT_PROMISE_* bits), BYTES16 (16 bytes)
 *	directive	the tool's %{directive} that prints it, or 0
 *	base		DEC or HEX: how the directive prints it
 *	key		its key in the JSON object (json OBJ), or 0
 *	py		the binding's attribute of libxstat.xstat_result
 *	doc		that attribute's docstring
 */
#define XS_EXTRA_MEMBERS(M)						\
	M(MNT_ID, mnt_id, mnt_id, U64, "mnt_id", DEC, "id",		\
	  "st_mnt_id", "Mount ID (Request.MNT_ID).")			\
	M(MNT_ID, mnt_id, unique, BOOL32, "mnt_id_unique", DEC, "unique", \
	  "st_mnt_id_unique",						\
	  "True: st_mnt_id is the never-reused 64-bit ID; False: the "	\
	  "reusable ID of /proc/self/mountinfo.")			\
	M(ATTRIBUTES, attributes, attributes, U64, "attributes", HEX,	\
	  "set", "st_attributes",					\
	  "Attr bits set on the file (Request.ATTRIBUTES).")		\
	M(ATTRIBUTES, attributes, attributes_mask, U64,			\
	  "attributes_mask", HEX, "known", "st_attributes_mask",	\
	  "Attr bits the filesystem supports (Request.ATTRIBUTES).")	\
	M(DIOALIGN, dioalign, mem_align, U32, "dio_mem_align", DEC,	\
	  "mem", "st_dio_mem_align",					\
	  "O_DIRECT memory alignment; 0 = no O_DIRECT "			\
	  "(Request.DIOALIGN).")					\
	M(DIOALIGN, dioalign, offset_align, U32, "dio_offset_align", DEC, \
	  "offset", "st_dio_offset_align",				\
	  "O_DIRECT file offset alignment (Request.DIOALIGN).")		\
	M(SUBVOL, subvol, subvol, U64, "subvol", DEC, 0, "st_subvol",	\
	  "Subvolume ID (Request.SUBVOL).")				\
	M(WRITE_ATOMIC, write_atomic, unit_min, U32, "atomic_unit_min",	\
	  DEC, "unit_min", "st_atomic_write_unit_min",			\
	  "Smallest untorn write, in bytes (Request.WRITE_ATOMIC).")	\
	M(WRITE_ATOMIC, write_atomic, unit_max, U32, "atomic_unit_max",	\
	  DEC, "unit_max", "st_atomic_write_unit_max",			\
	  "Largest untorn write, in bytes (Request.WRITE_ATOMIC).")	\
	M(WRITE_ATOMIC, write_atomic, unit_max_opt, U32,		\
	  "atomic_unit_max_opt", DEC, "unit_max_opt",			\
	  "st_atomic_write_unit_max_opt",				\
	  "Largest fast untorn write, in bytes (Request.WRITE_ATOMIC).") \
	M(WRITE_ATOMIC, write_atomic, segments_max, U32,		\
	  "atomic_segments_max", DEC, "segments_max",			\
	  "st_atomic_write_segments_max",				\
	  "Most segments in one untorn write (Request.WRITE_ATOMIC).")	\
	M(DIO_READ_ALIGN, dio_read_align, offset_align, U32,		\
	  "dio_read_offset_align", DEC, 0, "st_dio_read_offset_align",	\
	  "O_DIRECT read offset alignment (Request.DIO_READ_ALIGN).")	\
	M(WHY_MISSING, why_missing, btime, U8, 0, DEC, 0,		\
	  "st_why_missing_btime",					\
	  "Why st_birthtime is missing: a libxstat.Why code "		\
	  "(Request.WHY_MISSING).")					\
	M(WHY_MISSING, why_missing, gen, U8, 0, DEC, 0,			\
	  "st_why_missing_gen",						\
	  "Why st_gen is missing: a libxstat.Why code "			\
	  "(Request.WHY_MISSING).")					\
	M(WHY_MISSING, why_missing, data_version, U8, 0, DEC, 0,	\
	  "st_why_missing_data_version",				\
	  "Why st_data_version is missing: a libxstat.Why code "	\
	  "(Request.WHY_MISSING).")					\
	M(CHANGE_TOKEN, change_token, token, U64, "change_token", HEX, 0, \
	  "st_change_token",						\
	  "Change token (Request.CHANGE_TOKEN): an opaque int that "	\
	  "changes when the file changes, for every caller.  Compare "	\
	  "two of one file (same st_dev and st_ino) for equality only; " \
	  "st_change_token_promise says which changes move it.")	\
	M(CHANGE_TOKEN, change_token, promise, PROMISE, "token_promise",	\
	  HEX, 0, "st_change_token_promise",				\
	  "What st_change_token promises: a libxstat.Promise "		\
	  "(Request.CHANGE_TOKEN).")					\
	M(CHANGE_TOKEN, change_token, source, U32, "token_source", DEC, 0, \
	  "st_change_token_source",					\
	  "What st_change_token is made from: a libxstat.TokenSource "	\
	  "code (Request.CHANGE_TOKEN).")				\
	M(DV_PROMISE, dv_promise, promise, PROMISE, "dv_promise", HEX, 0, \
	  "st_dv_promise",						\
	  "What st_data_version promises: a libxstat.Promise "		\
	  "(Request.DV_PROMISE).")					\
	M(FS_ID, fs_id, id, BYTES16, 0, DEC, 0, "st_fs_id",		\
	  "The filesystem's identity, 16 bytes that outlive the mount "	\
	  "(Request.FS_ID): its UUID, or statfs's f_fsid.")		\
	M(FS_ID, fs_id, source, U32, 0, DEC, 0, "st_fs_id_source",	\
	  "Where st_fs_id comes from: 1 the UUID, 2 f_fsid "		\
	  "(XSTAT_FS_ID_FROM_*).")					\
	M(MNT_ID_REUSABLE, mnt_id_reusable, mnt_id, U64,		\
	  "mnt_id_reusable", DEC, 0, "st_mnt_id_reusable",		\
	  "Mount ID of /proc/self/mountinfo, which a later mount may "	\
	  "take again (Request.MNT_ID_REUSABLE).")

/* Sums over the rows, for #defines and asserts. */
#define XS_ROW_BIT(NAME, name, bit, ...)	| (bit)
#define XS_ROW_SIZE(NAME, name, bit, size, ...)	+ (size)
/* The bits of the extra results, and the bytes of all their payloads. */
#define XS_EXTRA_BITS	(0ULL XS_EXTRA_RESULTS(XS_ROW_BIT))
#define XS_EXTRA_BYTES	(0 XS_EXTRA_RESULTS(XS_ROW_SIZE))

#endif /* LIBXSTAT_FIELDS_H */
