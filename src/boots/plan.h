/*
 * plan.h - make boots' plan: two sides (a kernel image, its command
 * line, its memory, its label), booted alternately in a pattern (ABBA),
 * BOOTS times each; and the facts the plan is made from: the version an
 * image carries, the labels that follow from it, the boot timeout.
 *
 * Pure functions (no QEMU, no files but the image read by
 * bt_image_version()), so that tests/check_boots.c checks them alone.
 */
#ifndef BT_PLAN_H
#define BT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "label.h"

#define BT_LABEL_MAX VB_LABEL_MAX

#define BT_BOOTS_MAX 100
#define BT_CMDLINE_MAX 1024

struct bt_side {
	const char *image;	/* the kernel image's path, as given */
	char version[256];	/* the version string the image carries */
	char release[65];	/* its first word: 6.1.0-57-cloud-amd64 */
	const char *cmdline;	/* the side's own command line ("" none) */
	uint64_t mem;		/* the VM's memory, bytes */
	char label[BT_LABEL_MAX + 1];
};

/*
 * Read the version string of the x86 kernel image @path (a bzImage: the
 * "HdrS" header and its kernel_version field) into @version, its first
 * word into @release.  0, or -1 with "cannot open: ...", "not a Linux
 * kernel image (...)" or, for a file shorter than its header's setup
 * sectors and syssize, "truncated: ..." in @err.
 */
int bt_image_version(const char *path, char *version, size_t vlen,
    char *release, size_t rlen, char *err, size_t errlen);
/*
 * Labels for the sides that have none (label[0] == '\0'), from their
 * releases and what differs: two releases give the releases; one release
 * with two command lines gives the release and the words of each side's
 * line that the other lacks (6.1.0-57-cloud-amd64-transparent_hugepage-
 * never); two memory sizes add -mem192M; nothing that tells them apart
 * gives -A and -B.  0, or -1 with the reason in @err when the labels
 * are bad or the same.
 */
int bt_default_labels(struct bt_side *a, struct bt_side *b, char *err,
    size_t errlen);
/*
 * The seconds a boot may take before it is given up: @fixed when not 0;
 * else, before any boot has ended well (@slowest 0), a start-up allowance
 * plus an allowance per iteration, both larger under TCG (@tcg); after,
 * three times the slowest good boot plus the start-up allowance.
 */
double bt_timeout(double fixed, int tcg, int iterations, double slowest);

#endif
