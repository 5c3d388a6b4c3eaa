/*
 * meta.c - the meta file: what a run records about the machine and its
 * settings, written and read (see meta.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fsinfo.h"
#include "msg.h"
#include "meta.h"
#include "settings.h"
#include "res.h"
#include "safedir.h"
#include "util.h"
#include "version.h"

/* First line of a small file, without the newline; "unknown" if none. */
static char *
read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return buf;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		snprintf(buf, len, "unknown");
	fclose(f);
	return buf;
}

/* "always [madvise] never" -> "madvise" (src/lib/util.h); "unknown". */
static char *
bracketed(const char *path, char *buf, size_t len)
{
	if (vb_read_setting(path, buf, len) < 0 || !buf[0])
		snprintf(buf, len, "unknown");
	return buf;
}

/* Value of "key : value" or "Key: value" in @path (cpuinfo, meminfo). */
static char *
field(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t n = strlen(key);

	snprintf(buf, len, "unknown");
	if (!f)
		return buf;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, n) != 0 || !strchr(" \t:", line[n]))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
	return buf;
}

char *
vb_fstype(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX], dev[256], mnt[PATH_MAX], type[64];
	size_t best = 0;
	FILE *f;

	if (!realpath(path, real))
		return NULL;
	f = fopen("/proc/self/mounts", "r");
	if (!f)
		return NULL;
	buf[0] = '\0';
	/* the longest mount point that is a prefix of the path wins */
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, mnt, type) == 3) {
		size_t n = strlen(mnt);

		if (strncmp(real, mnt, n) != 0 ||
		    (real[n] != '/' && real[n] != '\0' && n != 1))
			continue;
		if (n >= best) {
			best = n;
			snprintf(buf, len, "%s", type);
		}
	}
	fclose(f);
	return buf[0] ? buf : NULL;
}

/*
 * Has the work folder @dir, on a file system of @type (vb_fstype(), NULL
 * when unknown), a journal: "yes", "no", "-" (not ext4), "unknown".  Without one, ext4's inode allocation passes over recent
 * deletes (fsinfo.h), and fileload's and tio's creates spread by tens
 * of % from run to run (docs/benchmarks.md): a reader of two labels'
 * figures needs to know which each ran on.
 */
static const char *
workdir_journal(const char *dir, const char *type)
{
	if (!type)
		return "unknown";
	if (strcmp(type, "ext4") != 0)
		return "-";
	switch (vb_fs_nojournal(dir, NULL, 0)) {
	case 0:
		return "yes";
	case 1:
		return "no";
	}
	return "unknown";
}

/* POSIX cksum: CRC-32 (polynomial 0x04C11DB7, MSB first) with length. */
int
vb_cksum_file(const char *path, uint32_t *crc_out, uint64_t *len_out)
{
	unsigned char buf[65536];
	uint32_t crc = 0;
	uint64_t len = 0, l;
	size_t n, i;
	FILE *f = fopen(path, "rb");
	int bit;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (i = 0; i < n; i++) {
			crc ^= (uint32_t)buf[i] << 24;
			for (bit = 0; bit < 8; bit++)
				crc = crc & 0x80000000u ?
				    (crc << 1) ^ 0x04C11DB7u : crc << 1;
		}
		len += n;
	}
	fclose(f);
	for (l = len; l; l >>= 8) {
		crc ^= (uint32_t)(l & 0xff) << 24;
		for (bit = 0; bit < 8; bit++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u :
			    crc << 1;
	}
	*crc_out = ~crc;
	*len_out = len;
	return 0;
}

/* Numeric order of "hugepages-16kB" names (by size). */
static int
by_size(const struct dirent **a, const struct dirent **b)
{
	long x = atol((*a)->d_name + 10), y = atol((*b)->d_name + 10);

	return x < y ? -1 : x > y;
}

static int
is_mthp(const struct dirent *e)
{
	return strncmp(e->d_name, "hugepages-", 10) == 0;
}

/*
 * Multi-size THP: each size's own switch (thp_16kB_enabled=always ...),
 * which can give huge folios even where thp_enabled says never.
 */
static void
mthp(FILE *f)
{
	static const char dir[] = "/sys/kernel/mm/transparent_hugepage";
	struct dirent **list;
	char p[512], buf[256];
	int n, i;

	n = scandir(dir, &list, is_mthp, by_size);
	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%.200s/enabled", dir,
		    list[i]->d_name);
		fprintf(f, "thp_%.40s_enabled=%s\n", list[i]->d_name + 10,
		    bracketed(p, buf, sizeof(buf)));
		free(list[i]);
	}
	if (n > 0)
		free(list);
}

/*
 * The memory-management settings a comparison depends on, as key=value
 * lines; a file this kernel lacks reads "unknown".
 */
static void
settings(FILE *f)
{
	char buf[1024];
	const struct vb_setting *st;

	/* the table's order: sysfs switches, then vm sysctls */
	for (st = vb_settings; st->key; st++)
		fprintf(f, "%s=%s\n", st->key, strncmp(st->path, "/proc/sys/",
		    10) == 0 ? read_line(st->path, buf, sizeof(buf)) :
		    bracketed(st->path, buf, sizeof(buf)));
	mthp(f);
}

char *
vb_meta_settings(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die("out of memory");
	settings(f);
	if (fclose(f) != 0)
		die("out of memory");
	return text;
}

int
vb_meta_write(const char *path, const struct vb_meta_in *in)
{
	static long mem_kb = -1, swap_kb = -1;
	char buf[1024], host[256], *text = NULL;
	const char *fstype;
	size_t len = 0;
	struct utsname u;
	FILE *f;
	int i, e, rc;

	/* formatted in memory, then written in one go (vb_file_replace()) */
	if (!(f = open_memstream(&text, &len)))
		return -1;
	fprintf(f, "vmbench_meta=1\nlabel=%s\nstatus=%s\nstart=%s\nend=%s\n",
	    in->label, in->status, in->start, in->end ? in->end : "-");
	if (uname(&u) == 0)
		fprintf(f, "uname_r=%s\nuname_v=%s\nuname_m=%s\n", u.release,
		    u.version, u.machine);
	if (gethostname(host, sizeof(host)) == 0)
		fprintf(f, "hostname=%s\n", host);
	fprintf(f, "cmdline=%s\n", read_line("/proc/cmdline", buf,
	    sizeof(buf)));
	fprintf(f, "cpu_model=%s\n", field("/proc/cpuinfo", "model name", buf,
	    sizeof(buf)));
	fprintf(f, "cpu_count=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	/*
	 * Memory and swap as the run found them: read at the first write
	 * (the runner writes once its swap file is on) and kept, so the
	 * final write after swapoff does not record the machine without it.
	 */
	if (mem_kb < 0) {
		mem_kb = atol(field("/proc/meminfo", "MemTotal", buf,
		    sizeof(buf)));
		swap_kb = atol(field("/proc/meminfo", "SwapTotal", buf,
		    sizeof(buf)));
	}
	fprintf(f, "mem_total_kb=%ld\nswap_total_kb=%ld\n", mem_kb, swap_kb);
	if (in->settings)
		fputs(in->settings, f);
	else
		settings(f);
	fprintf(f, "workdir=%s\n", in->workdir);
	fstype = vb_fstype(in->workdir, buf, sizeof(buf));
	fprintf(f, "workdir_fstype=%s\n", fstype ? fstype : "unknown");
	fprintf(f, "workdir_journal=%s\n", workdir_journal(in->workdir,
	    fstype));
	fprintf(f, "vmbench_version=%s\n", VB_VERSION);
	fprintf(f, "config=%s\n", in->config);
	fprintf(f, "config_cksum=%s\n", vb_meta_cksum(in->config, buf,
	    sizeof(buf)));
	fprintf(f, "iterations=%s\n", in->iterations ? in->iterations : "-");
	if (in->run > 0)
		fprintf(f, "run=%d\n", in->run);
	if (in->unit)
		fprintf(f, "unit=%s\n", in->unit);
	if (in->boot_id)
		fprintf(f, "boot_id=%s\n", in->boot_id);
	if (in->uptime_start)
		fprintf(f, "uptime_start=%s\n", in->uptime_start);
	for (i = 0; i < in->nextra; i++)
		fprintf(f, "%s=%s\n", in->extra[i].key, in->extra[i].val);
	e = ferror(f);
	if (fclose(f) != 0 || e) {
		free(text);
		errno = ENOMEM;
		return -1;
	}
	rc = vb_file_replace(path, text, len);
	e = errno;
	free(text);
	errno = e;
	return rc;
}

char *
vb_meta_cksum(const char *path, char *buf, size_t len)
{
	uint32_t crc;
	uint64_t clen;

	if (vb_cksum_file(path, &crc, &clen) == 0)
		snprintf(buf, len, "%lu %llu", (unsigned long)crc,
		    (unsigned long long)clen);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

char *
vb_boot_id(char *buf, size_t len)
{
	read_line("/proc/sys/kernel/random/boot_id", buf, len);
	if (!buf[0])
		snprintf(buf, len, "unknown");
	return buf;
}

char *
vb_uptime(char *buf, size_t len)
{
	char line[128];
	double up;

	if (sscanf(read_line("/proc/uptime", line, sizeof(line)), "%lf",
	    &up) == 1 && up >= 0)
		snprintf(buf, len, "%.2f", up);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

int
vb_meta_machine_diff(const struct vb_kv *a, int na, const struct vb_kv *b,
    int nb, const char *bname, char *out, size_t len)
{
	static const char *const key[3] = {
		"cpu_model", "mem_total_kb", "uname_m",
	};
	char now[3][1024];
	struct utsname u;
	size_t used = 0;
	int i, nd = 0;

	if (!b) {
		field("/proc/cpuinfo", "model name", now[0], sizeof(now[0]));
		snprintf(now[1], sizeof(now[1]), "%ld", atol(field(
		    "/proc/meminfo", "MemTotal", now[1], sizeof(now[1]))));
		snprintf(now[2], sizeof(now[2]), "%s", uname(&u) == 0 ?
		    u.machine : "unknown");
	}
	out[0] = '\0';
	for (i = 0; i < 3; i++) {
		const char *x = vb_meta_get(a, na, key[i]);
		const char *y = b ? vb_meta_get(b, nb, key[i]) : now[i];
		double dx, dy;
		int w;

		if (!x || !y || strcmp(x, y) == 0)
			continue;
		/* MemTotal moves by some kB from one kernel build to another */
		if (i == 1 && (dx = atof(x)) > 0 && (dy = atof(y)) > 0 &&
		    fabs(dx - dy) <= 0.01 * (dx > dy ? dx : dy))
			continue;
		w = snprintf(out + used, len - used, "%s%s '%s' (%s '%s')",
		    nd ? ", " : "", key[i], x, bname, y);
		if (w > 0)
			used += (size_t)w < len - used ? (size_t)w :
			    len - used - 1;
		nd++;
	}
	return nd;
}

int
vb_meta_read(const char *path, struct vb_kv **kv, int *n, char *err,
    size_t errlen)
{
	/* a regular file of bounded size only: a FIFO or /dev/zero is refused */
	FILE *f = vb_fopen_read(path, VB_MAX_META, err, errlen);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0;

	*kv = NULL;
	*n = 0;
	if (!f)
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *eq;

		lineno++;
		if (*n >= VB_META_MAX_KEYS) {
			snprintf(err, errlen, "%s:%d: more than %d keys: not "
			    "a meta file of vmbench", path, lineno,
			    VB_META_MAX_KEYS);
			goto fail;
		}
		/* LF or CRLF line ends, as the .res and config readers */
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			snprintf(err, errlen, "%s:%d: NUL byte in line", path,
			    lineno);
			goto fail;
		}
		if (!line[0] || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			snprintf(err, errlen, "%s:%d: expected key=value",
			    path, lineno);
			goto fail;
		}
		*kv = vb_xrealloc(*kv, (size_t)(*n + 1) * sizeof(**kv));
		(*kv)[*n].key = vb_xstrndup(line, (size_t)(eq - line));
		(*kv)[*n].val = vb_xstrdup(eq + 1);
		(*n)++;
	}
	free(line);
	fclose(f);
	if (!vb_meta_get(*kv, *n, "vmbench_meta")) {
		snprintf(err, errlen, "%s:1: not a vmbench meta file", path);
		vb_meta_free(*kv, *n);
		*kv = NULL;
		*n = 0;
		return -1;
	}
	return 0;
fail:
	free(line);
	fclose(f);
	vb_meta_free(*kv, *n);
	*kv = NULL;
	*n = 0;
	return -1;
}

void
vb_meta_free(struct vb_kv *kv, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].val);
	}
	free(kv);
}

const char *
vb_meta_get(const struct vb_kv *kv, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].val;
	return NULL;
}
