/*
 * rload.h - reading result folders (rload.c): each folder's meta and
 * <bench>[@variant].res files, the union of their ids, and the queries
 * every other report module asks of them.  The bottom layer of the
 * report (docs/architecture-report.md): it includes nothing above it.
 *
 * The report only reads result folders; it never runs a benchmark and
 * never writes into a result folder.
 */
#ifndef VB_RLOAD_H
#define VB_RLOAD_H

#include <stddef.h>

#include "meta.h"
#include "res.h"
#include "util.h"

struct rl_kernel {
	char *dir;			/* as given on the command line */
	char *label;			/* meta's label, else folder name */
	int nmeta;
	struct vb_kv *meta;		/* src/lib/meta.h */
	int nres;
	char **ids;			/* "bench[@variant]", sorted */
	struct vb_res *res;
};

struct rl_set {
	int nk;
	struct rl_kernel *k;		/* k[0] is the baseline */
	int nids;
	char **ids;			/* all kernels' ids, sorted */
};

/* Load folder @dir; -1 with a one-line message in @err. */
int rl_load_kernel(const char *dir, struct rl_kernel *k, char *err,
    size_t errlen);
void rl_free_kernel(struct rl_kernel *k);
/* Build the union of ids after loading every kernel. */
void rl_index(struct rl_set *s);
void rl_free(struct rl_set *s);
/* Result @id of kernel @k, or NULL when that kernel lacks it. */
const struct vb_res *rl_find(const struct rl_kernel *k, const char *id);
const char *rl_meta(const struct rl_kernel *k, const char *key);
/*
 * Parameters of @id that differ between kernels: one line per
 * difference appended to @out; returns the number of differences.
 */
int rl_param_diffs(const struct rl_set *s, const char *id,
    struct vb_buf *out);

/* A meta key whose value is not the same in every folder. */
struct rl_mdiff {
	const char *key;
	const char **val;		/* per kernel; NULL: not recorded */
};
/*
 * The settings and machine facts (meta keys) that differ between the
 * folders, ab_setting first, then in the order the folders list them;
 * keys that differ by nature (label, status, start, end, workdir, the
 * memory limit's and swap file's run figures, ab_side, ab_pair) are
 * skipped, and config_cksum when config differs too.  Returns the count,
 * *@out allocated (rl_free_mdiffs()).
 */
int rl_meta_diffs(const struct rl_set *s, struct rl_mdiff **out);
void rl_free_mdiffs(struct rl_mdiff *d, int n);

#endif
