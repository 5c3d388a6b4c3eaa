/*
 * kv.h - a key=value pair: a line of a meta file, a config directive,
 * a pair added to a meta.  The pair type alone, for the modules that
 * need no more of meta.h.
 */
#ifndef VB_KV_H
#define VB_KV_H

/* One "key=value" line of a meta file, or a config directive. */
struct vb_kv {
	char *key;
	char *val;
};

#endif
