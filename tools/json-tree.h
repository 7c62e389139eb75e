/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One JSON text parsed whole by simdjson (tools/json-tree.cc), for C: the
 * text is validated entirely (structure, UTF-8, control characters,
 * depth, numbers), every object is checked for a member name given
 * twice, and the values are laid out as an array of nodes in document
 * order.  A node's children follow it: the first right after it, each
 * next one .next nodes after the one before.  The nodes and their strings stay valid until the next
 * parse with the same tree.
 */
#ifndef XSTAT_TOOL_JSON_TREE_H
#define XSTAT_TOOL_JSON_TREE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum jt_type {
	JT_NULL,
	JT_FALSE,
	JT_TRUE,
	JT_INT,		/* an integer within int64_t: .v.i */
	JT_UINT,	/* an integer above INT64_MAX, within uint64_t: .v.u */
	JT_REAL,	/* any other number, fraction or exponent: .v.d */
	JT_STRING,	/* .str, .len bytes (may hold NUL), NUL after them */
	JT_ARRAY,	/* .len elements */
	JT_OBJECT,	/* .len members */
};

struct jt_node {
	const char	*key;	/* the member's name, NUL after it; else NULL */
	const char	*str;
	uint32_t	keylen;
	uint32_t	len;
	uint32_t	type;
	uint32_t	next;	/* nodes on to the next sibling; 0: the last */
	union {
		int64_t		i;
		uint64_t	u;
		double		d;
	} v;
};

struct jt_tree;

/* A tree for texts of at most @max_len bytes nested @max_depth deep. */
struct jt_tree *jt_new(size_t max_len, unsigned int max_depth);
void jt_free(struct jt_tree *t);

/*
 * Parse @text (@len bytes; need not end in NUL).  Its nodes in *@nodes,
 * the root first: 0, or -1 with the reason in @err.
 */
int jt_parse(struct jt_tree *t, const char *text, size_t len,
	     const struct jt_node **nodes, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
