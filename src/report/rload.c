/*
 * rload.c - reading result folders: meta (key=value lines) and every
 * <bench>[@variant].res through the strict reader of src/lib/res.h.  Nothing
 * is ever written here.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "msg.h"
#include "meta.h"
#include "report.h"
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

int
rl_load_kernel(const char *dir, struct rl_kernel *k, char *err,
    size_t errlen)
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
	for (i = 0; i < nnames; i++) {
		snprintf(path, sizeof(path), "%s/%s.res", dir, k->ids[i]);
		if (vb_res_read(path, &k->res[i], err, errlen) != 0) {
			k->nres = i;
			while (i < nnames)
				free(k->ids[i++]);
			goto fail;
		}
	}
	k->nres = nnames;
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
	free(k->res);
	free(k->ids);
	free(k->dir);
	free(k->label);
	memset(k, 0, sizeof(*k));
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
	s->rows = vb_xmalloc((size_t)(s->nids ? s->nids : 1) * sizeof(*s->rows));
	s->nrows = vb_xmalloc((size_t)(s->nids ? s->nids : 1) * sizeof(int));
	memset(s->rows, 0, (size_t)(s->nids ? s->nids : 1) * sizeof(*s->rows));
	memset(s->nrows, 0, (size_t)(s->nids ? s->nids : 1) * sizeof(int));
}

void
rl_free(struct rl_set *s)
{
	int i;

	rt_free_cache(s);
	for (i = 0; i < s->nk; i++)
		rl_free_kernel(&s->k[i]);
	free(s->k);
	free(s->ids);
	memset(s, 0, sizeof(*s));
}

const struct vb_res *
rl_find(const struct rl_kernel *k, const char *id)
{
	int lo = 0, hi = k->nres - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(id, k->ids[mid]);

		if (c == 0)
			return &k->res[mid];
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
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

/* Meta keys that differ by nature from folder to folder (see report.h). */
static int
per_run_key(const char *key)
{
	static const char *const skip[] = {
		"label", "status", "start", "end", "workdir",
		"mem_limit_peak_kb", "mem_limit_hits", "mem_limit_cgroup",
		"swap_file", "ab_side", "ab_pair", NULL,
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
