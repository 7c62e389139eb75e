// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * json-tree.h over simdjson's DOM parser: it validates the whole text
 * (UTF-8, escapes, control characters, numbers, depth) before any value
 * is read, at about ten times libjansson's speed on xstat's records.  It
 * keeps the last of two members of the same name silently; a snapshot
 * must not say two things, so every object is checked here.  No C++
 * exception leaves this file: running out of memory is an error like
 * any other.
 */
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>
#include <simdjson.h>
#include "json-tree.h"

using namespace simdjson;

struct jt_tree {
	dom::parser		parser;
	std::vector<jt_node>	nodes;
	std::vector<uint32_t>	slots;	/* duplicate check: node index + 1 */
	const char		*why;

	explicit jt_tree(size_t max_len) : parser(max_len), why(nullptr) {}
};

static uint32_t hash_key(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Is a member name of the object whose members are @first.. given twice? */
static bool has_duplicate(jt_tree *t, uint32_t first, uint32_t n)
{
	std::vector<jt_node> &v = t->nodes;
	size_t size = 16, mask;
	uint32_t i, j;

	if (n < 2)
		return false;
	if (n <= 8) {
		for (i = first; v[i].next; i += v[i].next)
			for (j = i + v[i].next;; j += v[j].next) {
				if (v[i].keylen == v[j].keylen &&
				    !memcmp(v[i].key, v[j].key, v[i].keylen))
					return true;
				if (!v[j].next)
					break;
			}
		return false;
	}
	while (size < 2 * (size_t)n)
		size *= 2;
	mask = size - 1;
	t->slots.assign(size, 0);
	for (i = first;; i += v[i].next) {
		size_t s = hash_key(v[i].key, v[i].keylen) & mask;

		for (; t->slots[s]; s = (s + 1) & mask) {
			const jt_node &o = v[t->slots[s] - 1];

			if (o.keylen == v[i].keylen &&
			    !memcmp(o.key, v[i].key, o.keylen))
				return true;
		}
		t->slots[s] = i + 1;
		if (!v[i].next)
			return false;
	}
}

static bool add(jt_tree *t, dom::element e, std::string_view key);

/* The children of the node at @at; false (t->why set) on a bad one. */
static bool add_children(jt_tree *t, size_t at, dom::element e)
{
	uint32_t n = 0, prev = 0, first = 0;

	if (t->nodes[at].type == JT_OBJECT) {
		dom::object o = e.get_object().value_unsafe();

		for (dom::key_value_pair m : o) {
			uint32_t i = (uint32_t)t->nodes.size();

			if (!add(t, m.value, m.key))
				return false;
			if (prev)
				t->nodes[prev].next = i - prev;
			else
				first = i;
			prev = i;
			n++;
		}
		if (has_duplicate(t, first, n)) {
			t->why = "a member name given twice";
			return false;
		}
	} else {
		dom::array a = e.get_array().value_unsafe();

		for (dom::element x : a) {
			uint32_t i = (uint32_t)t->nodes.size();

			if (!add(t, x, std::string_view()))
				return false;
			if (prev)
				t->nodes[prev].next = i - prev;
			prev = i;
			n++;
		}
	}
	t->nodes[at].len = n;
	return true;
}

static bool add(jt_tree *t, dom::element e, std::string_view key)
{
	jt_node n;
	std::string_view s;

	memset(&n, 0, sizeof(n));
	if (key.data()) {
		n.key = key.data();
		n.keylen = (uint32_t)key.size();
	}
	switch (e.type()) {
	case dom::element_type::OBJECT:
		n.type = JT_OBJECT;
		break;
	case dom::element_type::ARRAY:
		n.type = JT_ARRAY;
		break;
	/* the type is known: its value cannot be an error */
	case dom::element_type::INT64:
		n.type = JT_INT;
		n.v.i = e.get_int64().value_unsafe();
		break;
	case dom::element_type::UINT64:
		n.type = JT_UINT;
		n.v.u = e.get_uint64().value_unsafe();
		break;
	case dom::element_type::DOUBLE:
		n.type = JT_REAL;
		n.v.d = e.get_double().value_unsafe();
		break;
	case dom::element_type::STRING:
		s = e.get_string().value_unsafe();
		n.type = JT_STRING;
		n.str = s.data();
		n.len = (uint32_t)s.size();
		break;
	case dom::element_type::BOOL:
		n.type = e.get_bool().value_unsafe() ? JT_TRUE : JT_FALSE;
		break;
	default:
		n.type = JT_NULL;
		break;
	}
	t->nodes.push_back(n);
	if (n.type == JT_OBJECT || n.type == JT_ARRAY)
		return add_children(t, t->nodes.size() - 1, e);
	return true;
}

extern "C" struct jt_tree *jt_new(size_t max_len, unsigned int max_depth)
{
	jt_tree *t = new (std::nothrow) jt_tree(max_len);

	if (t && t->parser.allocate(max_len, max_depth) != SUCCESS) {
		delete t;
		t = nullptr;
	}
	return t;
}

extern "C" void jt_free(struct jt_tree *t)
{
	delete t;
}

extern "C" int jt_parse(struct jt_tree *t, const char *text, size_t len,
			const struct jt_node **nodes, char *err,
			size_t errlen)
{
	dom::element root;
	error_code ec;

	try {
		ec = t->parser.parse(text, len).get(root);
		if (ec) {
			snprintf(err, errlen, "%s", error_message(ec));
			return -1;
		}
		t->nodes.clear();
		t->why = nullptr;
		if (!add(t, root, std::string_view())) {
			snprintf(err, errlen, "%s", t->why);
			return -1;
		}
	} catch (...) {
		/* std::bad_alloc: the only exception these calls throw */
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*nodes = t->nodes.data();
	return 0;
}
