/*
 * result.c - the result disk and the runs it becomes (see result.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "meta.h"
#include "proc.h"
#include "res.h"
#include "result.h"
#include "runs.h"
#include "util.h"

/* A label, as boot_pair holds it, and room to say it is too long. */
#define BT_PAIR_MAX	300

/* Is @key one of @kv's keys? */
static int
has_key(const struct vb_kv *kv, int n, const char *key, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (strlen(kv[i].key) == len && strncmp(kv[i].key, key,
		    len) == 0)
			return 1;
	return 0;
}

int
bt_meta_set(const char *path, const struct vb_kv *kv, int n, char *err,
    size_t errlen)
{
	struct vb_buf b = VB_BUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f = fopen(path, "re");
	int i, rc;

	if (!f && errno != ENOENT) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return -1;
	}
	if (!f)
		vb_buf_printf(&b, "vmbench_meta=1\n");
	while (f && (len = getline(&line, &cap, f)) >= 0) {
		size_t k = strcspn(line, "=\n");

		if (line[k] == '=' && has_key(kv, n, line, k))
			continue;
		vb_buf_printf(&b, "%s%s", line, len > 0 && line[len - 1] ==
		    '\n' ? "" : "\n");
	}
	free(line);
	if (f)
		fclose(f);
	for (i = 0; i < n; i++) {
		char v[1024];

		/* one line each: a newline in a value would start a key */
		snprintf(v, sizeof(v), "%s", kv[i].val);
		v[strcspn(v, "\n")] = '\0';
		vb_buf_printf(&b, "%s=%s\n", kv[i].key, v);
	}
	rc = vb_file_replace(path, vb_buf_str(&b), b.len);
	if (rc < 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(errno));
	vb_buf_free(&b);
	return rc;
}

/* ": " and the last line @log holds (a tool's error), or "". */
static const char *
log_tail(const char *log, char *buf, size_t len)
{
	char line[300];

	buf[0] = '\0';
	if (log && vb_last_line(log, line, sizeof(line)))
		snprintf(buf, len, ": %s", line);
	return buf;
}

int
bt_disk_make(const char *img, uint64_t size, const char *job,
    const char *log, char *err, size_t errlen)
{
	char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", "vmboots", "-E",
	    "lazy_itable_init=0,lazy_journal_init=0", "-d", (char *)job,
	    (char *)img, NULL };
	char tail[320];
	int fd, rc;

	fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		snprintf(err, errlen, "cannot make %s: %s", img,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	rc = vb_run(argv, NULL, log, NULL);
	if (rc != 0) {
		if (rc == 127)
			snprintf(err, errlen, "cannot run mkfs.ext4 "
			    "(e2fsprogs)");
		else
			snprintf(err, errlen, "mkfs.ext4 failed (exit %d) "
			    "making %s%s", rc, img, log_tail(log, tail,
			    sizeof(tail)));
		return -1;
	}
	return 0;
}

int
bt_disk_read(const char *img, const char *dest, const char *log,
    char *err, size_t errlen)
{
	char *fsck[] = { "e2fsck", "-f", "-y", (char *)img, NULL };
	/* run in @dest: no host path inside debugfs's command string */
	char *dump[] = { "debugfs", "-R", "rdump /vmboots /results .",
	    (char *)img, NULL };
	int rc;

	if (mkdir(dest, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dest,
		    strerror(errno));
		return -1;
	}
	/* 0: clean, 1: repaired (a journal replayed); 4 and up: not */
	rc = vb_run(fsck, NULL, log, NULL);
	if (rc == 127) {
		snprintf(err, errlen, "cannot run e2fsck (e2fsprogs)");
		return -1;
	}
	if (rc >= 4)
		fprintf(stderr, "vmboots: e2fsck could not repair the result "
		    "disk (exit %d); reading what it holds\n", rc);
	rc = vb_run(dump, dest, log, NULL);
	if (rc != 0) {
		snprintf(err, errlen, rc == 127 ? "cannot run debugfs "
		    "(e2fsprogs)" : "debugfs failed (exit %d) reading %s",
		    rc, img);
		return -1;
	}
	return 0;
}

char *
bt_kv_get(const char *path, const char *key, char *buf, size_t len)
{
	char want[128], line[1024];

	snprintf(want, sizeof(want), "%s=", key);
	if (!vb_grep_file(path, want, VB_GREP_LAST | VB_GREP_START, line,
	    sizeof(line)))
		return NULL;
	snprintf(buf, len, "%s", line + strlen(want));
	return buf;
}

/* Does @name end with @suffix? */
static int
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && strcmp(name + n - k, suffix) == 0;
}

/*
 * Keep only the files of the run folder @run that are whole: a .res the
 * strict reader refuses (empty, cut short: a guest that stopped before
 * its page cache reached the disk) is removed, and so are empty .log
 * and .vmstat files when the guest did not flush its disk (@synced 0);
 * a meta the reader refuses is removed (a new one is written).  Each
 * file removed is said in one line and listed in @lost.  The number of
 * files removed.
 */
static int
keep_whole(const char *run, int synced, struct vb_buf *lost)
{
	char p[PATH_MAX + 300], err[PATH_MAX + 340];
	struct dirent *e;
	struct vb_res r;
	struct vb_kv *kv;
	struct stat st;
	DIR *d = opendir(run);
	int n = 0, bad, nkv;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", run, e->d_name);
		if (lstat(p, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		bad = 0;
		if (ends_with(e->d_name, ".res")) {
			if (vb_res_read(p, &r, err, sizeof(err)) < 0)
				bad = 1;
			else
				vb_res_free(&r);
		} else if (strcmp(e->d_name, "meta") == 0) {
			if (vb_meta_read(p, &kv, &nkv, err, sizeof(err)) < 0)
				bad = 1;
			else
				vb_meta_free(kv, nkv);
		} else if (!synced && st.st_size == 0 &&
		    (ends_with(e->d_name, ".log") ||
		    ends_with(e->d_name, ".vmstat"))) {
			snprintf(err, sizeof(err), "%s: empty file", p);
			bad = 1;
		}
		if (!bad || unlink(p) < 0)
			continue;
		fprintf(stderr, "vmboots: %s: not kept (the guest did not "
		    "write it whole)\n", err);
		vb_buf_printf(lost, "%s%s", lost->len ? " " : "", e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

int
bt_collect(const char *got, const char *label, const char *dir, int run,
    const char *status, const struct vb_kv *kv, int n, char *err,
    size_t errlen)
{
	char src[PATH_MAX], dst[PATH_MAX], p[PATH_MAX + 16];
	struct vb_buf lost = VB_BUF_INIT;
	struct vb_kv *all;
	struct stat st;
	int rc, synced, fresh;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	vb_run_path(dst, sizeof(dst), dir, run);
	if (lstat(dst, &st) == 0) {
		snprintf(err, errlen, "%s already exists", dst);
		return -1;
	}
	/* vmrun writes LABEL/ (one run) or LABEL/run1/ (runs) */
	snprintf(src, sizeof(src), "%s/results/%s/run1", got, label);
	if (stat(src, &st) < 0 || !S_ISDIR(st.st_mode))
		snprintf(src, sizeof(src), "%s/results/%s", got, label);
	if (stat(src, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (rename(src, dst) < 0) {
			snprintf(err, errlen, "cannot move %s to %s: %s", src,
			    dst, strerror(errno));
			return -1;
		}
	} else if (mkdir(dst, 0755) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", dst,
		    strerror(errno));
		return -1;
	}
	/* a QEMU guest's init says when it flushed its disk */
	snprintf(p, sizeof(p), "%s/vmboots/guest", got);
	synced = 1;
	if (access(p, F_OK) == 0) {
		snprintf(p, sizeof(p), "%s/vmboots/synced", got);
		synced = access(p, F_OK) == 0;
	}
	keep_whole(dst, synced, &lost);
	snprintf(p, sizeof(p), "%s/meta", dst);
	fresh = access(p, F_OK) != 0;
	all = vb_xcalloc((size_t)n + 4, sizeof(*all));
	all[0].key = "label";
	all[0].val = (char *)label;
	memcpy(all + 1, kv, (size_t)n * sizeof(*kv));
	n++;
	/* a meta not kept was not an ok boot's */
	if (!status && fresh && lost.len)
		status = "failed";
	if (status) {
		all[n].key = "status";
		all[n].val = (char *)status;
		n++;
	}
	if (lost.len) {
		all[n].key = "boot_lost";
		all[n].val = (char *)vb_buf_str(&lost);
		n++;
	}
	/* label= kept where the guest wrote it: only a new meta gets it */
	rc = bt_meta_set(p, fresh ? all : all + 1, fresh ? n : n - 1, err,
	    errlen);
	free(all);
	vb_buf_free(&lost);
	return rc;
}

/*
 * The pairs every boot's meta starts with, added to @kv from @n: run,
 * method, boot_status, boot_failure (when @failure), boot_side (when
 * @side: else the caller's, later) and the guest's own boot_id,
 * uptime_start and boot_release from its record @guest, kept in @ids.
 * The new count.
 */
int
bt_boot_pairs(struct vb_kv *kv, int n, struct bt_boot_ids *ids, int run,
    const char *status, const char *failure, const char *side,
    const char *guest)
{
#define KV(k_, v_) do { kv[n].key = (k_); kv[n].val = (char *)(v_); n++; \
	} while (0)
	snprintf(ids->run, sizeof(ids->run), "%d", run);
	KV("run", ids->run);
	KV("method", "qemu");
	KV("boot_status", status);
	if (failure)
		KV("boot_failure", failure);
	if (side)
		KV("boot_side", side);
	if (bt_kv_get(guest, "boot_id", ids->id, sizeof(ids->id)))
		KV("boot_id", ids->id);
	if (bt_kv_get(guest, "uptime_start", ids->up, sizeof(ids->up)))
		KV("uptime_start", ids->up);
	if (bt_kv_get(guest, "guest_release", ids->rel, sizeof(ids->rel)))
		KV("boot_release", ids->rel);
#undef KV
	return n;
}

/* A label folder whose runs another plan made (result.h). */
int
bt_label_plan_check(const char *dir, const char *label, const char *pair,
    int side, char *err, size_t errlen)
{
	char p[PATH_MAX], e[256], other[BT_PAIR_MAX] = "", run[NAME_MAX + 1];
	struct vb_kv *kv;
	struct dirent *d;
	const char *v;
	DIR *dp;
	int n, i, first = 0;

	if (!(dp = opendir(dir)))
		return 0;
	while ((d = readdir(dp))) {
		if ((i = vb_run_index(d->d_name)) <= 0 ||
		    (size_t)snprintf(p, sizeof(p), "%s/%s/meta", dir,
		    d->d_name) >= sizeof(p) || vb_meta_read(p, &kv, &n, e,
		    sizeof(e)) < 0)
			continue;
		v = vb_meta_get(kv, n, "boot_pair");
		/* the lowest run paired elsewhere, to name it */
		if (v && strcmp(v, pair) && (!first || i < first)) {
			first = i;
			snprintf(other, sizeof(other), "%s", v);
			snprintf(run, sizeof(run), "%s", d->d_name);
		}
		vb_meta_free(kv, n);
	}
	closedir(dp);
	if (!first)
		return 0;
	snprintf(err, errlen, "%s holds runs of another plan (%s: %s "
	    "against %s, not %s): give %c_LABEL= a label of its own, or "
	    "remove %s", dir, run, label, other, pair, side, dir);
	return -1;
}
