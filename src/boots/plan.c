/*
 * plan.c - make boots' plan (see plan.h).
 *
 * The order is the one make ab uses for iterations (docs/ab.md), here
 * for whole boots: ABBA by default, so that a drift of the host over the
 * plan (a neighbour, a warming disk cache) adds as much to A as to B.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "size.h"

int
bt_image_version(const char *path, char *version, size_t vlen,
    char *release, size_t rlen, char *err, size_t errlen)
{
	unsigned char h[0x230];
	char buf[256];
	struct stat st;
	uint64_t sys, need;
	unsigned off;
	ssize_t n;
	size_t i;
	int fd;

	version[0] = release[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	n = pread(fd, h, sizeof(h), 0);
	if (n < 0) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	/* the boot protocol's header: 0x55AA at 0x1fe, "HdrS" at 0x202 */
	if ((size_t)n < sizeof(h) || h[0x1fe] != 0x55 || h[0x1ff] != 0xaa ||
	    memcmp(h + 0x202, "HdrS", 4) != 0) {
		snprintf(err, errlen, "not a Linux kernel image (no bzImage "
		    "header; an x86 vmlinuz is needed)");
		close(fd);
		return -1;
	}
	/*
	 * Its size: the setup sectors (setup_sects at 0x1f1, 0 meaning 4)
	 * after the boot sector, then the protected-mode kernel (syssize
	 * at 0x1f4, in 16-byte units); a signature may follow
	 */
	sys = (uint64_t)h[0x1f4] | (uint64_t)h[0x1f5] << 8 |
	    (uint64_t)h[0x1f6] << 16 | (uint64_t)h[0x1f7] << 24;
	need = (uint64_t)((h[0x1f1] ? h[0x1f1] : 4) + 1) * 512 + 16 * sys;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size < need) {
		snprintf(err, errlen, "truncated: %lld bytes, where its "
		    "bzImage header says %llu (setup sectors and syssize)",
		    (long long)st.st_size, (unsigned long long)need);
		close(fd);
		return -1;
	}
	/* kernel_version: an offset from 0x200, protocol 2.00 and later */
	off = (unsigned)(h[0x20e] | h[0x20f] << 8);
	n = off ? pread(fd, buf, sizeof(buf) - 1, (off_t)off + 0x200) : 0;
	close(fd);
	if (n <= 0) {
		snprintf(err, errlen, "not a Linux kernel image (no version "
		    "string)");
		return -1;
	}
	buf[n] = '\0';
	for (i = 0; buf[i]; i++)
		if (!isprint((unsigned char)buf[i]))
			break;
	buf[i] = '\0';
	if (!buf[0]) {
		snprintf(err, errlen, "not a Linux kernel image (empty "
		    "version string)");
		return -1;
	}
	snprintf(version, vlen, "%s", buf);
	i = strcspn(buf, " ");
	snprintf(release, rlen, "%.*s", (int)i, buf);
	return 0;
}

/* Is the word @w (@n bytes) one of the blank-separated words of @line? */
static int
has_word(const char *line, const char *w, size_t n)
{
	const char *p = line;

	while (*p) {
		size_t k;

		p += strspn(p, " \t");
		k = strcspn(p, " \t");
		if (k == n && strncmp(p, w, n) == 0)
			return 1;
		p += k;
	}
	return 0;
}

/* Append @s (@n bytes) to @out as label characters ('-' for others). */
static void
put_label(char *out, size_t len, const char *s, size_t n)
{
	size_t o = strlen(out), i;

	for (i = 0; i < n && o + 1 < len; i++)
		out[o++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
		    "RSTUVWXYZ0123456789._+-~", s[i]) && s[i] ? s[i] : '-';
	out[o] = '\0';
}

/* @s's label from its release and what tells it from @o. */
static void
make_label(const struct bt_side *s, const struct bt_side *o, char *out,
    size_t len)
{
	const char *p = s->cmdline ? s->cmdline : "";
	char size[32];

	out[0] = '\0';
	put_label(out, len, s->release[0] ? s->release : "kernel",
	    strlen(s->release[0] ? s->release : "kernel"));
	while (*p) {
		size_t k;

		p += strspn(p, " \t");
		k = strcspn(p, " \t");
		if (k && !has_word(o->cmdline ? o->cmdline : "", p, k)) {
			put_label(out, len, "-", 1);
			put_label(out, len, p, k);
		}
		p += k;
	}
	if (s->mem != o->mem) {
		vb_fmt_size(size, sizeof(size), s->mem);
		put_label(out, len, "-mem", 4);
		put_label(out, len, size, strlen(size));
	}
}

int
bt_default_labels(struct bt_side *a, struct bt_side *b, char *err,
    size_t errlen)
{
	char la[2 * BT_LABEL_MAX], lb[2 * BT_LABEL_MAX];
	int ga = !a->label[0], gb = !b->label[0];

	make_label(a, b, la, sizeof(la));
	make_label(b, a, lb, sizeof(lb));
	if (ga && gb && strcmp(la, lb) == 0) {
		/* nothing tells them apart: an A/A comparison */
		put_label(la, sizeof(la), "-A", 2);
		put_label(lb, sizeof(lb), "-B", 2);
	}
	if (ga)
		snprintf(a->label, sizeof(a->label), "%.*s", BT_LABEL_MAX, la);
	if (gb)
		snprintf(b->label, sizeof(b->label), "%.*s", BT_LABEL_MAX, lb);
	if ((ga && strlen(la) > BT_LABEL_MAX) ||
	    (gb && strlen(lb) > BT_LABEL_MAX)) {
		snprintf(err, errlen, "the default labels would be longer "
		    "than %d characters: give A_LABEL= and B_LABEL=",
		    BT_LABEL_MAX);
		return -1;
	}
	if (!vb_label_ok(a->label) || !vb_label_ok(b->label)) {
		snprintf(err, errlen, "bad label '%.140s': " VB_LABEL_RULE,
		    vb_label_ok(a->label) ? b->label : a->label);
		return -1;
	}
	if (strcmp(a->label, b->label) == 0) {
		snprintf(err, errlen, "both sides are labelled '%s'",
		    a->label);
		return -1;
	}
	return 0;
}

double
bt_timeout(double fixed, int tcg, int iterations, double slowest)
{
	double start = tcg ? 300 : 60, per = tcg ? 600 : 120;

	if (fixed > 0)
		return fixed;
	if (slowest > 0)
		return 3 * slowest + start;
	return start + per * (iterations > 0 ? iterations : 1);
}
