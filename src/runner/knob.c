/*
 * knob.c - kernel settings for make ab (see knob.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knob.h"
#include "settings.h"
#include "util.h"

/*
 * Short names: those of the settings table (settings.h: thp, zswap,
 * ...), other names for them, then prefixes that take the rest as a
 * file.
 */
static const struct {
	const char *name;
	const char *path;
} aliases[] = {
	{ "mglru", "/sys/kernel/mm/lru_gen/enabled" },
	{ NULL, NULL },
}, prefixes[] = {
	{ "thp.", "/sys/kernel/mm/transparent_hugepage/" },
	{ "khugepaged.", "/sys/kernel/mm/transparent_hugepage/khugepaged/" },
	{ "zswap.", "/sys/module/zswap/parameters/" },
	{ "ksm.", "/sys/kernel/mm/ksm/" },
	{ "lru_gen.", "/sys/kernel/mm/lru_gen/" },
	{ NULL, NULL },
};

/* Where a path given as is may point. */
static const char *const path_roots[] = {
	"/proc/sys/", "/sys/kernel/mm/", "/sys/module/", NULL,
};

static int
name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
	    c == '/';
}

/*
 * Is @name a setting's name or path, in the alphabet and under one of
 * path_roots[] when it is a path?  0, or -1 with a line in @err.
 */
static int
name_ok(const char *name, char *err, size_t errlen)
{
	const char *p;
	int i;

	for (p = name; *p; p++)
		if (!name_char((unsigned char)*p))
			break;
	if (!*name || *p || strstr(name, "..") || strstr(name, "//")) {
		snprintf(err, errlen, "'%s': not a setting name (letters, "
		    "digits, _ . - / only)", name);
		return -1;
	}
	if (name[0] != '/')
		return 0;
	for (i = 0; path_roots[i]; i++)
		if (strncmp(name, path_roots[i], strlen(path_roots[i])) == 0 &&
		    name[strlen(path_roots[i])])
			return 0;
	snprintf(err, errlen, "'%s': only files under /proc/sys/, "
	    "/sys/kernel/mm/ and /sys/module/ can be set", name);
	return -1;
}

int
vb_knob_allowed(const char *root, const char *path, char *err,
    size_t errlen)
{
	size_t n = root ? strlen(root) : 0;

	if (n && strncmp(path, root, n) != 0) {
		snprintf(err, errlen, "'%s': not under %s", path, root);
		return -1;
	}
	if (path[n] != '/') {
		snprintf(err, errlen, "'%s': only files under /proc/sys/, "
		    "/sys/kernel/mm/ and /sys/module/ can be set", path);
		return -1;
	}
	return name_ok(path + n, err, errlen);
}

/*
 * The file (without the root) that @name means, into @out; -1 with a
 * line in @err for a name that cannot be a setting.
 */
static int
resolve(const char *name, char *out, size_t len, char *err, size_t errlen)
{
	int i;

	if (name_ok(name, err, errlen) < 0)
		return -1;
	if (name[0] == '/') {
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (strchr(name, '/')) {
		snprintf(err, errlen, "'%s': a path must start with /proc/sys/ "
		    "or /sys/", name);
		return -1;
	}
	for (i = 0; vb_settings[i].key; i++)
		if (vb_settings[i].knob && strcmp(name, vb_settings[i].knob) ==
		    0) {
			snprintf(out, len, "%s", vb_settings[i].path);
			return 0;
		}
	for (i = 0; aliases[i].name; i++)
		if (strcmp(name, aliases[i].name) == 0) {
			snprintf(out, len, "%s", aliases[i].path);
			return 0;
		}
	/* thp.16kB: the per-size switch of multi-size THP */
	if (strncmp(name, "thp.", 4) == 0 && name[4] >= '0' &&
	    name[4] <= '9' && strspn(name + 4, "0123456789") ==
	    strlen(name + 4) - 2 && strcmp(name + strlen(name) - 2,
	    "kB") == 0) {
		snprintf(out, len, "/sys/kernel/mm/transparent_hugepage/"
		    "hugepages-%s/enabled", name + 4);
		return 0;
	}
	for (i = 0; prefixes[i].name; i++) {
		size_t n = strlen(prefixes[i].name);

		if (strncmp(name, prefixes[i].name, n) == 0 && name[n]) {
			if (strchr(name + n, '.'))
				break;
			snprintf(out, len, "%s%s", prefixes[i].path, name + n);
			return 0;
		}
	}
	if (strchr(name, '.')) {
		char *q;
		int w;

		/* a sysctl name: vm.swappiness is /proc/sys/vm/swappiness */
		w = snprintf(out, len, "/proc/sys/%s", name);
		if (w < 0 || (size_t)w >= len)
			goto bad;
		for (q = out + 10; *q; q++)
			if (*q == '.')
				*q = '/';
		return 0;
	}
	snprintf(out, len, "/proc/sys/vm/%s", name);
	return 0;
bad:
	snprintf(err, errlen, "'%s': name too long", name);
	return -1;
}

int
vb_knob_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	/*
	 * O_TRUNC as the shell's ">": ignored by /proc and /sys;
	 * O_NOFOLLOW: no setting file is a symlink
	 */
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	e = errno;
	if (close(fd) < 0 && n == (ssize_t)len)
		return -1;
	errno = e;
	if (n != (ssize_t)len) {
		if (n >= 0)
			errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * The choices of a bracketed file ("always [madvise] never"), space-
 * separated, into @out; 0 when the file is not of that kind.
 */
static int
choices(const char *path, char *out, size_t len)
{
	char buf[4096], *p;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (!strchr(buf, '[') || !strchr(buf, ']'))
		return 0;
	/* " always madvise never ": one blank before and after each */
	snprintf(out, len, " ");
	for (p = buf; *p; ) {
		size_t n, used = strlen(out);

		p += strspn(p, "[] \t\n");
		n = strcspn(p, "[] \t\n");
		if (!n)
			break;
		snprintf(out + used, len - used, "%.*s ", (int)n, p);
		p += n;
	}
	return 1;
}

static int
good_value(const char *v)
{
	const unsigned char *p;

	if (!*v || strlen(v) >= VB_KNOB_VALLEN)
		return 0;
	for (p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

static struct vb_knob *
find(struct vb_knobs *ks, const char *path)
{
	int i;

	for (i = 0; i < ks->n; i++)
		if (strcmp(ks->k[i].path, path) == 0)
			return &ks->k[i];
	return NULL;
}

int
vb_knobs_parse(struct vb_knobs *ks, int side, const char *list, char *err,
    size_t errlen)
{
	char *copy, *item, *save = NULL, rel[PATH_MAX], full[PATH_MAX + 256];
	const char *sn = side ? "B" : "A";
	int count = 0;

	copy = vb_xstrdup(list);
	for (item = strtok_r(copy, ",", &save); item;
	    item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *name = item, *val;
		struct vb_knob *k;

		while (*name == ' ')
			name++;
		if (!eq) {
			snprintf(err, errlen, "%s=\"%s\": '%s' is not "
			    "name=value", sn, list, name);
			goto fail;
		}
		*eq = '\0';
		val = eq + 1;
		if (resolve(name, rel, sizeof(rel), err, errlen) < 0)
			goto fail;
		if (!good_value(val)) {
			snprintf(err, errlen, "%s: %s=%s: the value must be "
			    "1 to %d printable characters", sn, name, val,
			    VB_KNOB_VALLEN - 1);
			goto fail;
		}
		snprintf(full, sizeof(full), "%s%s", ks->root ? ks->root : "",
		    rel);
		k = find(ks, full);
		if (!k) {
			ks->k = vb_xrealloc(ks->k, (size_t)(ks->n + 1) *
			    sizeof(*ks->k));
			k = &ks->k[ks->n++];
			memset(k, 0, sizeof(*k));
			k->name = vb_xstrdup(name);
			k->path = vb_xstrdup(full);
		} else if (k->val[side][0]) {
			snprintf(err, errlen, "%s: %s is set twice", sn, name);
			goto fail;
		}
		snprintf(k->val[side], sizeof(k->val[side]), "%s", val);
		count++;
	}
	free(copy);
	if (!count) {
		snprintf(err, errlen, "%s: no setting given (name=value,...)",
		    sn);
		return -1;
	}
	return 0;
fail:
	free(copy);
	return -1;
}

int
vb_knobs_save(struct vb_knobs *ks, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < ks->n; i++) {
		struct vb_knob *k = &ks->k[i];
		struct stat st;

		if (k->saved)
			continue;
		if (stat(k->path, &st) < 0) {
			snprintf(err, errlen, "%s: no such setting on this "
			    "kernel (%s: %s)%s", k->name, k->path,
			    strerror(errno), strpbrk(k->name, "./") ? "" :
			    "; short names: thp, thp_defrag, zswap, ksm, "
			    "lru_gen, mglru, or a vm sysctl");
			return -1;
		}
		if (!S_ISREG(st.st_mode) || !(st.st_mode & 0222) ||
		    access(k->path, W_OK) < 0) {
			snprintf(err, errlen, "%s: %s cannot be written%s",
			    k->name, k->path, geteuid() ? " (not root)" : "");
			return -1;
		}
		if (vb_read_setting(k->path, k->orig, sizeof(k->orig)) < 0) {
			snprintf(err, errlen, "%s: cannot read %s: %s",
			    k->name, k->path, strerror(errno));
			return -1;
		}
		k->saved = 1;
	}
	return 0;
}

int
vb_knobs_check(struct vb_knobs *ks, char *err, size_t errlen)
{
	int i, s;

	if (vb_knobs_save(ks, err, errlen) < 0)
		return -1;
	for (i = 0; i < ks->n; i++) {
		struct vb_knob *k = &ks->k[i];
		char opts[4200];

		if (choices(k->path, opts, sizeof(opts))) {
			for (s = 0; s < 2; s++) {
				char w[VB_KNOB_VALLEN + 2];

				if (!k->val[s][0])
					continue;
				snprintf(w, sizeof(w), " %s ", k->val[s]);
				if (!strstr(opts, w)) {
					snprintf(err, errlen, "%s=%s: not one "
					    "of the choices (%.*s)", k->name,
					    k->val[s], (int)strlen(opts) - 2,
					    opts + 1);
					return -1;
				}
			}
			continue;
		}
		/* let the kernel judge: write each value, then the original */
		for (s = 0; s < 2; s++) {
			int e;

			if (!k->val[s][0])
				continue;
			k->changed = 1;
			if (vb_knob_write(k->path, k->val[s]) < 0) {
				e = errno;
				vb_knobs_restore(ks);
				snprintf(err, errlen, "%s=%s: refused by the "
				    "kernel (%s)", k->name, k->val[s],
				    strerror(e));
				return -1;
			}
		}
		if (vb_knobs_restore(ks)) {
			snprintf(err, errlen, "%s: cannot write back %s to %s",
			    k->name, k->orig, k->path);
			return -1;
		}
	}
	return 0;
}

int
vb_knobs_apply(struct vb_knobs *ks, int side, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < ks->n; i++) {
		struct vb_knob *k = &ks->k[i];
		const char *v = k->val[side][0] ? k->val[side] : k->orig;

		if (!k->saved)
			continue;
		k->changed = 1;
		if (vb_knob_write(k->path, v) < 0) {
			snprintf(err, errlen, "cannot set %s=%s (%s): %s",
			    k->name, v, k->path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int
vb_knobs_restore(struct vb_knobs *ks)
{
	int i, bad = 0;

	for (i = 0; i < ks->n; i++) {
		struct vb_knob *k = &ks->k[i];

		if (!k->saved || !k->changed)
			continue;
		if (vb_knob_write(k->path, k->orig) < 0)
			bad++;
		else
			k->changed = 0;
	}
	return bad;
}

char *
vb_knobs_describe(const struct vb_knobs *ks, int side, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < ks->n && used < len; i++) {
		const struct vb_knob *k = &ks->k[i];
		int w;

		if (!k->val[side][0])
			continue;
		w = snprintf(buf + used, len - used, "%s%s=%s",
		    used ? "," : "", k->name, k->val[side]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

void
vb_knobs_free(struct vb_knobs *ks)
{
	int i;

	for (i = 0; i < ks->n; i++) {
		free(ks->k[i].name);
		free(ks->k[i].path);
	}
	free(ks->k);
	ks->k = NULL;
	ks->n = 0;
}
