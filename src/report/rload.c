/*
 * rload.c - reading result folders: meta (key=value lines) and every
 * <bench>[@variant].res through the strict reader of src/lib/res.h; a
 * label of runs (DIR/runN/, docs/results.md) is read run by run and
 * pooled.  Nothing is ever written here.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "msg.h"
#include "meta.h"
#include "rload.h"
#include "runs.h"
#include "util.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder's last path component, without trailing slashes. */
static char *
base_name(const char *dir)
{
	size_t n = strlen(dir), e;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	e = n;
	while (n > 0 && dir[n - 1] != '/')
		n--;
	return vb_xstrndup(dir + n, e - n);
}

/*
 * Load the one-run folder @dir (meta at its top, or only .res files).
 * With @skip (a run of a label, @who "runN"), a .res the reader refuses
 * is left out of the run and said in @skip ("runN's ID left out:
 * FILE:LINE: what"), not a failure.
 */
static int
load_one(const char *dir, struct rl_kernel *k, char *err, size_t errlen,
    struct vb_buf *skip, const char *who)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	char path[PATH_MAX], **names = NULL;
	int nnames = 0, nentries = 0, has_meta = 0, i;

	memset(k, 0, sizeof(*k));
	if (stat(dir, &st) != 0) {
		snprintf(err, errlen, "%s: %s", dir, errno == ENOENT ?
		    "no such result folder" : strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder", dir);
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot open: %s", dir,
		    strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		nentries++;
		if (strcmp(de->d_name, "meta") == 0)
			has_meta = 1;
		if (n > 4 && strcmp(de->d_name + n - 4, ".res") == 0) {
			names = vb_xrealloc(names, (size_t)(nnames + 1) *
			    sizeof(char *));
			names[nnames++] = vb_xstrndup(de->d_name, n - 4);
		}
	}
	closedir(d);
	if (nentries == 0) {
		snprintf(err, errlen, "%s: empty folder, not a result folder "
		    "(make run KERNEL=label writes one)", dir);
		return -1;
	}
	/* the longest path read below: DIR/ID.res (DIR/meta is shorter) */
	for (i = 0; i < nnames; i++)
		if (strlen(dir) + strlen(names[i]) + 6 > sizeof(path))
			break;
	if (i < nnames || strlen(dir) + 6 > sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		for (i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
		return -1;
	}
	if (!has_meta && nnames == 0) {
		snprintf(err, errlen, "%s: not a result folder (no meta, no "
		    ".res files)", dir);
		return -1;
	}
	if (nnames > 0)
		qsort(names, (size_t)nnames, sizeof(char *), cmp_str);
	k->dir = vb_xstrdup(dir);
	if (has_meta) {
		snprintf(path, sizeof(path), "%s/meta", dir);
		if (vb_meta_read(path, &k->meta, &k->nmeta, err, errlen))
			goto fail;
	}
	k->label = rl_meta(k, "label") && *rl_meta(k, "label") ?
	    vb_xstrdup(rl_meta(k, "label")) : base_name(dir);
	k->res = vb_xmalloc((size_t)(nnames ? nnames : 1) * sizeof(*k->res));
	k->ids = names;
	names = NULL;
	k->nres = 0;
	for (i = 0; i < nnames; i++) {
		snprintf(path, sizeof(path), "%s/%s.res", dir, k->ids[i]);
		if (vb_res_read(path, &k->res[k->nres], err, errlen) == 0) {
			k->ids[k->nres++] = k->ids[i];
			continue;
		}
		if (!skip) {
			while (i < nnames)
				free(k->ids[i++]);
			goto fail;
		}
		vb_buf_printf(skip, "%s%s's %s left out: %s", skip->len ?
		    "; " : "", who, k->ids[i], err);
		free(k->ids[i]);
	}
	return 0;
fail:
	if (names) {
		for (i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
	}
	rl_free_kernel(k);
	return -1;
}

/* ---- a label of runs: DIR/runN/ (docs/results.md) ---- */

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The indices of @dir's runN/ folders, sorted (allocated), when @dir is
 * a label of runs: no meta at its top and at least one runN/.  0 when
 * it is a one-run folder (or cannot be read: load_one() says why).
 */
static int
run_folders(const char *dir, int **idx)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int n = 0, meta = 0;
	DIR *d;

	*idx = NULL;
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		int i = vb_run_index(de->d_name);

		if (strcmp(de->d_name, "meta") == 0)
			meta = 1;
		if (i <= 0 || (size_t)snprintf(path, sizeof(path), "%s/%s",
		    dir, de->d_name) >= sizeof(path) || stat(path, &st) != 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		*idx = vb_xrealloc(*idx, (size_t)(n + 1) * sizeof(int));
		(*idx)[n++] = i;
	}
	closedir(d);
	if (meta || n == 0) {
		free(*idx);
		*idx = NULL;
		return 0;
	}
	qsort(*idx, (size_t)n, sizeof(int), cmp_int);
	return n;
}

/* A deep copy of @src into @dst. */
static void
res_copy(struct vb_res *dst, const struct vb_res *src)
{
	size_t nv = (size_t)src->niter * (size_t)src->nmetrics;
	int i;

	*dst = *src;
	dst->cmdline = src->cmdline ? vb_xstrdup(src->cmdline) : NULL;
	dst->note = src->note ? vb_xstrdup(src->note) : NULL;
	dst->params = vb_xmalloc((size_t)(src->nparams ? src->nparams : 1) *
	    sizeof(*dst->params));
	for (i = 0; i < src->nparams; i++) {
		dst->params[i].key = vb_xstrdup(src->params[i].key);
		dst->params[i].val = vb_xstrdup(src->params[i].val);
	}
	dst->metrics = vb_xmalloc((size_t)(src->nmetrics ? src->nmetrics :
	    1) * sizeof(*dst->metrics));
	memcpy(dst->metrics, src->metrics, (size_t)src->nmetrics *
	    sizeof(*dst->metrics));
	dst->metrics_room = src->nmetrics;
	dst->vals = vb_xmalloc((nv ? nv : 1) * sizeof(double));
	memcpy(dst->vals, src->vals, nv * sizeof(double));
}

static void
run_free(struct rl_run *r)
{
	int i;

	if (r->meta)
		vb_meta_free(r->meta, r->nmeta);
	for (i = 0; i < r->nres; i++) {
		vb_res_free(&r->res[i]);
		free(r->ids[i]);
	}
	free(r->res);
	free(r->ids);
	free(r->dir);
	free(r->boot_id);
	memset(r, 0, sizeof(*r));
}

/* Move the one-run folder loaded into @k into run @r (index @index). */
static void
run_take(struct rl_run *r, struct rl_kernel *k, int index)
{
	const char *b = rl_meta(k, "boot_id");

	memset(r, 0, sizeof(*r));
	r->dir = k->dir;
	r->index = index;
	r->boot_id = b && *b && strcmp(b, "unknown") ? vb_xstrdup(b) : NULL;
	r->nmeta = k->nmeta;
	r->meta = k->meta;
	r->nres = k->nres;
	r->ids = k->ids;
	r->res = k->res;
	free(k->label);
	memset(k, 0, sizeof(*k));
}

/* Does run @r hold at least one complete iteration of anything? */
static int
run_has_iter(const struct rl_run *r)
{
	int i;

	for (i = 0; i < r->nres; i++)
		if (r->res[i].niter > 0)
			return 1;
	return 0;
}

/* Result @id of run @r, or NULL. */
static struct vb_res *
run_find(const struct rl_run *r, const char *id)
{
	int i;

	for (i = 0; i < r->nres; i++)
		if (strcmp(r->ids[i], id) == 0)
			return &r->res[i];
	return NULL;
}

/* Drop result @id from run @r (left out of the pool). */
static void
run_drop(struct rl_run *r, const char *id)
{
	int i;

	for (i = 0; i < r->nres; i++)
		if (strcmp(r->ids[i], id) == 0)
			break;
	if (i == r->nres)
		return;
	vb_res_free(&r->res[i]);
	free(r->ids[i]);
	memmove(r->res + i, r->res + i + 1, (size_t)(r->nres - i - 1) *
	    sizeof(*r->res));
	memmove(r->ids + i, r->ids + i + 1, (size_t)(r->nres - i - 1) *
	    sizeof(*r->ids));
	r->nres--;
}

/*
 * What run @r did differently from the reference run @ref, as vmrun
 * refuses it (src/runner/runs.c): the iterations, --cpus, --mem,
 * --swap, "iterations 1 (run1: 3)" into @why; 0 when nothing.  A meta
 * without a setting had none (all CPUs, no limit); one without
 * iterations is not asked them.
 */
static int
settings_diff(const struct rl_run *ref, const struct rl_run *r, char *why,
    size_t len)
{
	static const struct {
		const char *key, *what, *none;
	} set[] = {
		{ "iterations", "iterations", NULL },
		{ "cpus", "cpus", "all" },
		{ "mem_limit", "mem limit", "none" },
		{ "swap_file", "swap file", "none" },
	};
	size_t i, l = 0;
	const char *a, *b;

	why[0] = '\0';
	for (i = 0; i < sizeof(set) / sizeof(set[0]) && l < len; i++) {
		a = vb_meta_get(ref->meta, ref->nmeta, set[i].key);
		b = vb_meta_get(r->meta, r->nmeta, set[i].key);
		if (!set[i].none && (!a || !b || !strcmp(a, "-") ||
		    !strcmp(b, "-")))
			continue;
		a = a ? a : set[i].none;
		b = b ? b : set[i].none;
		/* swap_file: "PATH SIZE", the size is the setting */
		if (!strcmp(set[i].key, "swap_file")) {
			a = strrchr(a, ' ') ? strrchr(a, ' ') + 1 : a;
			b = strrchr(b, ' ') ? strrchr(b, ' ') + 1 : b;
		}
		if (!strcmp(a, b))
			continue;
		snprintf(why + l, len - l, "%s%s %s (run%d: %s)", l ? ", " :
		    "", set[i].what, b, ref->index, a);
		l = strlen(why);
	}
	return why[0] != '\0';
}

/*
 * Why run @r cannot be pooled with the reference run @ref (the first
 * with meta and an iteration; NULL: there is none), into @why; 0 when
 * it can.
 */
static int
run_mismatch(const struct rl_run *ref, const struct rl_run *r, char *why,
    size_t len)
{
	char diff[2048], name[32];
	const char *a, *b;

	if (!r->meta) {
		snprintf(why, len, "no meta");
		return 1;
	}
	if (!run_has_iter(r)) {
		a = vb_meta_get(r->meta, r->nmeta, "status");
		snprintf(why, len, "no complete iteration (%s)", a ? a :
		    "no status");
		return 1;
	}
	if (!ref || r == ref)
		return 0;
	a = vb_meta_get(ref->meta, ref->nmeta, "config_cksum");
	b = vb_meta_get(r->meta, r->nmeta, "config_cksum");
	if (a && b && strcmp(a, b)) {
		const char *ca = vb_meta_get(ref->meta, ref->nmeta, "config");
		const char *cb = vb_meta_get(r->meta, r->nmeta, "config");

		snprintf(why, len, "another config (%s, cksum %s; run%d: %s, "
		    "cksum %s)", cb ? cb : "?", b, ref->index, ca ? ca : "?",
		    a);
		return 1;
	}
	if (settings_diff(ref, r, diff, sizeof(diff))) {
		snprintf(why, len, "other settings (%s)", diff);
		return 1;
	}
	vb_run_name(name, sizeof(name), ref->index);
	if (vb_meta_machine_diff(r->meta, r->nmeta, ref->meta, ref->nmeta,
	    name, diff, sizeof(diff)) > 0) {
		snprintf(why, len, "another machine (%s)", diff);
		return 1;
	}
	return 0;
}

/* A copy of @kv with room for @extra more pairs. */
static struct vb_kv *
kv_copy(const struct vb_kv *kv, int n, int extra)
{
	struct vb_kv *c = vb_xmalloc((size_t)(n + extra) * sizeof(*c));
	int i;

	for (i = 0; i < n; i++) {
		c[i].key = vb_xstrdup(kv[i].key);
		c[i].val = vb_xstrdup(kv[i].val);
	}
	return c;
}

/* Set @key of @k's meta (its room made by kv_copy()) to @val. */
static void
kv_set(struct rl_kernel *k, const char *key, const char *val)
{
	int i;

	for (i = 0; i < k->nmeta; i++)
		if (strcmp(k->meta[i].key, key) == 0) {
			free(k->meta[i].val);
			k->meta[i].val = vb_xstrdup(val);
			return;
		}
	k->meta[k->nmeta].key = vb_xstrdup(key);
	k->meta[k->nmeta++].val = vb_xstrdup(val);
}

/*
 * Pool the runs of @k into its ids and res: every id of any run, each
 * result the first run's with the later runs' iterations appended.  A
 * run's result that cannot be appended (another command line or other
 * figures) is dropped from that run and said in @note.
 */
static void
pool(struct rl_kernel *k, struct vb_buf *note)
{
	int i, j, n = 0, cap = 0;
	char **all;

	for (i = 0; i < k->nruns; i++)
		cap += k->runs[i].nres;
	all = vb_xmalloc((size_t)(cap ? cap : 1) * sizeof(char *));
	/* copies: run_drop() below frees a run's own */
	for (i = 0; i < k->nruns; i++)
		for (j = 0; j < k->runs[i].nres; j++)
			all[n++] = vb_xstrdup(k->runs[i].ids[j]);
	qsort(all, (size_t)n, sizeof(char *), cmp_str);
	k->ids = vb_xmalloc((size_t)(n ? n : 1) * sizeof(char *));
	k->res = vb_xmalloc((size_t)(n ? n : 1) * sizeof(*k->res));
	k->nres = 0;
	for (i = 0; i < n; i++) {
		struct vb_res *p = NULL;
		const char *id = all[i], *first = NULL;

		if (i > 0 && strcmp(all[i], all[i - 1]) == 0)
			continue;
		for (j = 0; j < k->nruns; j++) {
			struct vb_res *r = run_find(&k->runs[j], id);
			char *keep;
			size_t l;

			if (!r)
				continue;
			if (!p) {
				p = &k->res[k->nres];
				res_copy(p, r);
				first = r->note;	/* the pool's own note */
				k->ids[k->nres++] = vb_xstrdup(id);
				continue;
			}
			/* the pool's note is its own (vb_res_append() would
			   merge r's in unmarked); r's is added below */
			keep = p->note ? vb_xstrdup(p->note) : NULL;
			if (vb_res_append(p, r) < 0) {
				free(keep);
				vb_buf_printf(note, "%srun%d's %s left out: "
				    "another command line or other figures "
				    "than run%d's", note->len ? "; " : "",
				    k->runs[j].index, id, k->runs[0].index);
				run_drop(&k->runs[j], id);
				continue;
			}
			free(p->note);
			p->note = keep;
			/* the pool is as complete as its least complete run */
			if (strcmp(r->status, "complete") && !strcmp(p->status,
			    "complete"))
				memcpy(p->status, r->status, sizeof(p->status));
			memcpy(p->ended, r->ended, sizeof(p->ended));
			/* a later run's note: said with its run, unless it
			   is the first run's, which the pool says already */
			if (r->note && !(first && !strcmp(first, r->note))) {
				l = p->note ? strlen(p->note) : 0;
				p->note = vb_xrealloc(p->note, l +
				    strlen(r->note) + 32);
				snprintf(p->note + l, strlen(r->note) + 32,
				    "%srun%d: %s", l ? "; " : "",
				    k->runs[j].index, r->note);
			}
		}
	}
	for (i = 0; i < n; i++)
		free(all[i]);
	free(all);
}

/*
 * Distinct boot ids of @k's runs: at least 1 (a run without one may
 * share a boot with any other).
 */
static int
count_boots(const struct rl_kernel *k)
{
	int i, j, n = 0;

	for (i = 0; i < k->nruns; i++) {
		if (!k->runs[i].boot_id)
			continue;
		for (j = 0; j < i; j++)
			if (k->runs[j].boot_id && !strcmp(k->runs[j].boot_id,
			    k->runs[i].boot_id))
				break;
		n += j == i;
	}
	return n ? n : 1;
}

/* Make the pooled meta: run 1's, runs=, boots=, status, start, end. */
static void
pool_meta(struct rl_kernel *k)
{
	const struct rl_run *first = &k->runs[0];
	const struct rl_run *last = &k->runs[k->nruns - 1];
	const char *status = "complete", *v;
	char buf[32];
	int i;

	k->nmeta = first->nmeta;
	k->meta = kv_copy(first->meta, first->nmeta, 3);
	for (i = 0; i < k->nruns; i++) {
		v = vb_meta_get(k->runs[i].meta, k->runs[i].nmeta, "status");
		if (!v || strcmp(v, "complete")) {
			status = v ? v : "unknown";
			break;
		}
	}
	kv_set(k, "status", status);
	if ((v = vb_meta_get(last->meta, last->nmeta, "end")))
		kv_set(k, "end", v);
	snprintf(buf, sizeof(buf), "%d", k->nruns);
	kv_set(k, "runs", buf);
	snprintf(buf, sizeof(buf), "%d", k->nboots);
	kv_set(k, "boots", buf);
}

/*
 * Load the label of runs @dir (runN/ folders @idx[0..n-1]) into @k:
 * each run, then those that match the first with meta and an
 * iteration pooled.  What is left out or incomplete goes into k->note
 * in run order, and in one line on stderr.
 */
static int
load_runs(const char *dir, const int *idx, int n, struct rl_kernel *k,
    char *err, size_t errlen)
{
	struct vb_buf note = VB_BUF_INIT;
	struct rl_kernel one;
	struct rl_run *runs, *ref = NULL;
	char path[PATH_MAX], why[4096], who[32], **said;
	struct vb_buf *skip;
	const char *st;
	int i, j, nr = 0, *keep;

	runs = vb_xcalloc((size_t)n, sizeof(*runs));
	said = vb_xcalloc((size_t)n, sizeof(*said));
	keep = vb_xcalloc((size_t)n, sizeof(*keep));
	skip = vb_xcalloc((size_t)n, sizeof(*skip));
	for (i = 0; i < n; i++) {
		vb_run_path(path, sizeof(path), dir, idx[i]);
		vb_run_name(who, sizeof(who), idx[i]);
		if (load_one(path, &one, why, sizeof(why), &skip[i],
		    who) == 0) {
			run_take(&runs[i], &one, idx[i]);
			if (!ref && runs[i].meta && run_has_iter(&runs[i]))
				ref = &runs[i];
			keep[i] = 1;
			continue;
		}
		/*
		 * A run that cannot be read (an empty one: made, nothing
		 * written; a meta cut short) is left out, never the label
		 */
		if (vb_dir_empty(path)) {
			said[i] = vb_xstrdup("left out: empty");
			continue;
		}
		vb_buf_printf(&note, "left out: %s", why);
		said[i] = vb_xstrdup(vb_buf_str(&note));
		vb_buf_free(&note);
	}
	/* keep what matches the reference run */
	for (i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		/* what make boots did not keep: not whole when it stopped */
		st = vb_meta_get(runs[i].meta, runs[i].nmeta, "boot_lost");
		if (st && *st)
			vb_buf_printf(&skip[i], "%srun%d's %s not kept (not "
			    "whole when its boot ended)", skip[i].len ? "; " :
			    "", idx[i], st);
		/* without a reference, every run has a reason of its own */
		if (run_mismatch(ref, &runs[i], why, sizeof(why))) {
			struct vb_buf b = VB_BUF_INIT;

			vb_buf_printf(&b, "left out: %s", why);
			said[i] = vb_xstrdup(vb_buf_str(&b));
			vb_buf_free(&b);
			keep[i] = 0;
			continue;
		}
		st = vb_meta_get(runs[i].meta, runs[i].nmeta, "status");
		if (st && strcmp(st, "complete")) {
			snprintf(why, sizeof(why), "%s: only its complete "
			    "iterations count", st);
			said[i] = vb_xstrdup(why);
		}
		/* a benchmark of the run with none (stopped in its first) */
		for (j = 0; j < runs[i].nres; j++) {
			const struct vb_res *r = &runs[i].res[j];

			if (r->niter > 0)
				continue;
			vb_buf_printf(&skip[i], "%srun%d's %s left out: no "
			    "complete iteration (%s)", skip[i].len ? "; " : "",
			    idx[i], runs[i].ids[j], r->status);
			run_drop(&runs[i], runs[i].ids[j]);
			j--;
		}
	}
	for (i = 0; i < n; i++) {
		if (said[i])
			vb_buf_printf(&note, "%srun%d %s", note.len ? "; " : "",
			    idx[i], said[i]);
		if (skip[i].len)
			vb_buf_printf(&note, "%s%s", note.len ? "; " : "",
			    vb_buf_str(&skip[i]));
		free(said[i]);
		vb_buf_free(&skip[i]);
	}
	free(skip);
	/* ref is no longer used: the kept runs move to the front */
	for (i = 0; i < n; i++) {
		if (!keep[i]) {
			run_free(&runs[i]);
			continue;
		}
		if (i != nr)
			runs[nr] = runs[i];
		nr++;
	}
	free(said);
	free(keep);
	if (nr == 0) {
		snprintf(err, errlen, "%s: no run to compare: %s", dir,
		    vb_buf_str(&note));
		free(runs);
		vb_buf_free(&note);
		return -1;
	}
	k->dir = vb_xstrdup(dir);
	k->runs = runs;
	k->nruns = nr;
	k->grouped = 1;
	k->nboots = count_boots(k);
	pool(k, &note);
	pool_meta(k);
	k->label = rl_meta(k, "label") && *rl_meta(k, "label") ?
	    vb_xstrdup(rl_meta(k, "label")) : base_name(dir);
	if (note.len) {
		k->note = vb_xstrdup(vb_buf_str(&note));
		vb_warn("%s: %s", dir, k->note);
	}
	vb_buf_free(&note);
	return 0;
}

int
rl_load_kernel(const char *dir, struct rl_kernel *k, char *err,
    size_t errlen)
{
	const char *v;
	int *idx, n, rc;

	memset(k, 0, sizeof(*k));
	if ((n = run_folders(dir, &idx)) > 0) {
		rc = load_runs(dir, idx, n, k, err, errlen);
		free(idx);
		return rc;
	}
	if (load_one(dir, k, err, errlen, NULL, NULL) < 0)
		return -1;
	/* one run: runs[0] shares the kernel's meta and results */
	k->runs = vb_xcalloc(1, sizeof(*k->runs));
	k->nruns = 1;
	k->nboots = 1;
	k->runs[0].dir = k->dir;
	k->runs[0].index = 1;
	v = rl_meta(k, "boot_id");
	k->runs[0].boot_id = v && *v && strcmp(v, "unknown") ?
	    vb_xstrdup(v) : NULL;
	k->runs[0].nmeta = k->nmeta;
	k->runs[0].meta = k->meta;
	k->runs[0].nres = k->nres;
	k->runs[0].ids = k->ids;
	k->runs[0].res = k->res;
	v = rl_meta(k, "unit");
	k->iter_is_run = (v && !strcmp(v, "run-per-iteration")) ||
	    rl_meta(k, "ab_side");
	return 0;
}

void
rl_free_kernel(struct rl_kernel *k)
{
	int i;

	if (k->meta)
		vb_meta_free(k->meta, k->nmeta);
	for (i = 0; i < k->nres; i++) {
		vb_res_free(&k->res[i]);
		free(k->ids[i]);
	}
	for (i = 0; i < k->nruns; i++) {
		if (k->grouped) {
			run_free(&k->runs[i]);
			continue;
		}
		free(k->runs[i].boot_id);	/* the rest is the kernel's */
	}
	free(k->runs);
	free(k->note);
	free(k->res);
	free(k->ids);
	free(k->dir);
	free(k->label);
	memset(k, 0, sizeof(*k));
}

/*
 * Result @id among the @n results @res whose ids @ids are sorted (a
 * folder's, a run's), or NULL.
 */
static const struct vb_res *
find_sorted(char *const *ids, const struct vb_res *res, int n, const char *id)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(id, ids[mid]);

		if (c == 0)
			return &res[mid];
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

int
rl_run_means(const struct rl_kernel *k, const char *id, const char *metric,
    double *out)
{
	return rl_run_means_col(k, id, metric, -1, out);
}

/*
 * A power of two near the largest finite |value| of column @m of @res
 * (1 when there is none): the run's sum is taken over values divided by
 * it (exact), so that iterations near DBL_MAX (1.5e308 + 1.7e308) do
 * not sum to inf, while ordinary figures come out bit for bit as
 * without it.
 */
static double
iter_scale(const struct vb_res *res, int m)
{
	double big = 0, sc;
	int i, e;

	for (i = 0; i < res->niter; i++) {
		double v = vb_res_get(res, i, m);

		if (isfinite(v))
			big = fmax(big, fabs(v));
	}
	if (big == 0)
		return 1;
	frexp(big, &e);
	sc = ldexp(1, e - 1);
	return sc > 0 && isfinite(sc) ? sc : 1;
}

int
rl_run_means_col(const struct rl_kernel *k, const char *id,
    const char *metric, int col, double *out)
{
	int r, i, n = 0;

	for (r = 0; r < k->nruns; r++) {
		const struct rl_run *run = &k->runs[r];
		const struct vb_res *res;
		double sum = 0, sc;
		int m = col, c = 0;

		/* a run's ids are sorted (load_one(); run_drop() keeps
		   their order) and each names one file */
		res = find_sorted(run->ids, run->res, run->nres, id);
		if (!res)
			continue;
		/* the pool's column, the run's too but for a drop */
		if (m < 0 || m >= res->nmetrics ||
		    strcmp(res->metrics[m].name, metric))
			m = vb_res_metric_index(res, metric);
		if (m < 0)
			continue;
		sc = iter_scale(res, m);
		for (i = 0; i < res->niter; i++) {
			double v = vb_res_get(res, i, m);

			if (!isnan(v)) {
				sum += v / sc;
				c++;
			}
		}
		if (c)
			out[n++] = sum / c * sc;
	}
	return n;
}

int
rl_iter_origin(const struct rl_kernel *k, const char *id, int i, int *run,
    int *iter)
{
	int r;

	for (r = 0; r < k->nruns && i >= 0; r++) {
		const struct rl_run *rn = &k->runs[r];
		const struct vb_res *res = find_sorted(rn->ids, rn->res,
		    rn->nres, id);

		if (!res)
			continue;
		if (i < res->niter) {
			*run = rn->index;
			*iter = i + 1;
			return 0;
		}
		i -= res->niter;
	}
	return -1;
}

/* Print @text at @indent after the first line, wrapped at @width. */
static void
put_wrapped(FILE *f, const char *text, int width, int indent)
{
	int col = 0, first = 1;
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (!first && col + 1 + (int)w > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += (int)w;
		first = 0;
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

void
rl_runs_header(FILE *f, const struct rl_set *s, int width)
{
	int i;

	for (i = 0; i < s->nk && !s->k[i].grouped; i++)
		;
	if (i == s->nk)
		return;
	for (i = 0; i < s->nk; i++) {
		const struct rl_kernel *k = &s->k[i];
		struct vb_buf b = VB_BUF_INIT;

		if (k->iter_is_run)
			vb_buf_printf(&b, "%s: 1 folder of make ab: each of its "
			    "iterations a separate run", k->label);
		else
			vb_buf_printf(&b, "%s: %d run%s on %d boot%s", k->label,
			    k->nruns, k->nruns == 1 ? "" : "s", k->nboots,
			    k->nboots == 1 ? "" : "s");
		if (!k->iter_is_run && k->nruns > 1)
			vb_buf_printf(&b, k->nboots > 1 ? " (boot-to-boot "
			    "variance included)" : " (one boot: boot-to-boot "
			    "variance not measured)");
		if (k->note)
			vb_buf_printf(&b, "; %s", k->note);
		put_wrapped(f, vb_buf_str(&b), width, 4);
		vb_buf_free(&b);
	}
}

void
rl_index(struct rl_set *s)
{
	int i, j, n = 0, cap = 0;
	char **all = NULL;

	for (i = 0; i < s->nk; i++)
		cap += s->k[i].nres;
	all = vb_xmalloc((size_t)(cap ? cap : 1) * sizeof(char *));
	for (i = 0; i < s->nk; i++)
		for (j = 0; j < s->k[i].nres; j++)
			all[n++] = s->k[i].ids[j];
	qsort(all, (size_t)n, sizeof(char *), cmp_str);
	s->nids = 0;
	for (i = 0; i < n; i++)
		if (i == 0 || strcmp(all[i], all[i - 1]) != 0)
			all[s->nids++] = all[i];
	s->ids = all;
}

void
rl_free(struct rl_set *s)
{
	int i;

	for (i = 0; i < s->nk; i++)
		rl_free_kernel(&s->k[i]);
	free(s->k);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}

const struct vb_res *
rl_find(const struct rl_kernel *k, const char *id)
{
	return find_sorted(k->ids, k->res, k->nres, id);
}

const char *
rl_meta(const struct rl_kernel *k, const char *key)
{
	return k->meta ? vb_meta_get(k->meta, k->nmeta, key) : NULL;
}

/*
 * Compare every kernel's parameters of @id with the first kernel that
 * has it.  A parameter missing on one side counts as a difference.
 */
int
rl_param_diffs(const struct rl_set *s, const char *id, struct vb_buf *out)
{
	const struct vb_res *a = NULL, *b;
	const char *ka = NULL;
	int i, j, nd = 0;

	for (i = 0; i < s->nk; i++) {
		if (!(b = rl_find(&s->k[i], id)))
			continue;
		if (!a) {
			a = b;
			ka = s->k[i].label;
			continue;
		}
		for (j = 0; j < a->nparams; j++) {
			const char *vb = vb_res_param(b, a->params[j].key);

			if (vb && strcmp(vb, a->params[j].val) == 0)
				continue;
			nd++;
			vb_buf_printf(out, "%s: parameter %s is %s in %s but "
			    "%s in %s\n", id, a->params[j].key,
			    a->params[j].val, ka, vb ? vb : "absent",
			    s->k[i].label);
		}
		for (j = 0; j < b->nparams; j++) {
			if (vb_res_param(a, b->params[j].key))
				continue;
			nd++;
			vb_buf_printf(out, "%s: parameter %s is absent in %s "
			    "but %s in %s\n", id, b->params[j].key, ka,
			    b->params[j].val, s->k[i].label);
		}
	}
	return nd;
}

/* Meta keys that differ by nature from folder to folder (see rload.h). */
static int
per_run_key(const char *key)
{
	static const char *const skip[] = {
		"label", "status", "start", "end", "workdir",
		"mem_limit_peak_kb", "mem_limit_hits", "mem_limit_cgroup",
		"swap_file", "ab_side", "ab_pair", "run", "runs", "boots",
		"boot_id", "uptime_start", "unit",
		/* vmboots' timings of a boot: figures, not settings */
		"boot_to_suite_s", "suite_s", "shutdown_s", NULL,
	};
	int i;

	for (i = 0; skip[i]; i++)
		if (!strcmp(key, skip[i]))
			return 1;
	return 0;
}

/* Is @key's value (or its absence) the same in every folder? */
static int
meta_same(const struct rl_set *s, const char *key)
{
	const char *v0 = rl_meta(&s->k[0], key), *v;
	int k;

	for (k = 1; k < s->nk; k++) {
		v = rl_meta(&s->k[k], key);
		if ((v == NULL) != (v0 == NULL) || (v && strcmp(v, v0)))
			return 0;
	}
	return 1;
}

static int
mdiff_has(const struct rl_mdiff *d, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(d[i].key, key))
			return 1;
	return 0;
}

int
rl_meta_diffs(const struct rl_set *s, struct rl_mdiff **out)
{
	struct rl_mdiff *d = NULL;
	int n = 0, k, j, pass, cfg_same = meta_same(s, "config");

	/* pass 0: ab_setting first, the setting an A/B run is about */
	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < s->nk; k++)
			for (j = 0; j < s->k[k].nmeta; j++) {
				const char *key = s->k[k].meta[j].key;
				int i;

				/*
				 * The previous folder's key at this place was
				 * looked at already: folders of one config list
				 * the same keys in the same order, and each
				 * meta_same() reads every folder.
				 */
				if (k > 0 && j < s->k[k - 1].nmeta &&
				    !strcmp(s->k[k - 1].meta[j].key, key))
					continue;
				if ((pass == 0) != !strcmp(key, "ab_setting") ||
				    per_run_key(key) || (!cfg_same &&
				    !strcmp(key, "config_cksum")) ||
				    mdiff_has(d, n, key) || meta_same(s, key))
					continue;
				d = vb_xrealloc(d, (size_t)(n + 1) *
				    sizeof(*d));
				d[n].key = key;
				d[n].val = vb_xcalloc((size_t)s->nk,
				    sizeof(char *));
				for (i = 0; i < s->nk; i++)
					d[n].val[i] = rl_meta(&s->k[i], key);
				n++;
			}
	*out = d;
	return n;
}

void
rl_free_mdiffs(struct rl_mdiff *d, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(d[i].val);
	free(d);
}
