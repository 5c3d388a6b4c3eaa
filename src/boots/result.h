/*
 * result.h - a boot's results home: the result disk made on the host
 * (ext4 with a journal, by mkfs.ext4 -d, without root), read back after
 * the guest stopped (e2fsck replays the journal of a guest that died,
 * debugfs rdump copies the files out, without root or a mount), and the
 * guest's result folder turned into a run of its label:
 *
 *	RESULTS/LABEL/run1/  meta, *.res, *.vmstat, *.log as vmrun wrote
 *	                     them in the guest, console.txt (the guest's
 *	                     console), and in meta the boot's keys (run=,
 *	                     boot_id=, accel=, ...: docs/boots.md)
 */
#ifndef BT_RESULT_H
#define BT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "kv.h"

/*
 * Set the pairs @kv in the meta file @path: lines with those keys
 * replaced, the others kept in order, the new ones at the end; a missing
 * file is created (vmbench_meta=1 first).  Written whole, then renamed.
 * 0, or -1 with the reason in @err.
 */
int bt_meta_set(const char *path, const struct vb_kv *kv, int n, char *err,
    size_t errlen);
/*
 * Make the result disk @img of @size bytes holding the folder @job
 * (mkfs.ext4 -d; inode tables and journal written now, so the guest
 * does no lazy initialisation while it measures).  0, or -1 with the
 * reason in @err; mkfs's output goes to @log.
 */
int bt_disk_make(const char *img, uint64_t size, const char *job,
    const char *log, char *err, size_t errlen);
/*
 * Copy the folders vmboots/ and results/ of the disk @img into @dest
 * (made), after e2fsck has replayed its journal and repaired it.  0, or
 * -1 with the reason in @err.
 */
int bt_disk_read(const char *img, const char *dest, const char *log,
    char *err, size_t errlen);
/*
 * Turn what came back in @got (bt_disk_read()'s folder) into the run
 * @dir/run@run of @label: the guest's folder got/results/LABEL (or its
 * run1/ when the guest's vmrun writes runs) renamed there, or an empty
 * run when nothing came back; its meta given the pairs @kv.  @status,
 * when not NULL, replaces meta's status (the guest's is "running" when
 * it died).  Only whole files are kept: a .res or meta the strict
 * readers refuse, and, when a QEMU guest did not flush its disk (no
 * got/vmboots/synced beside got/vmboots/guest), an empty .log or
 * .vmstat, are removed, each said in one line on stderr and listed in
 * meta's boot_lost.  0, or -1 with the reason in @err.
 */
int bt_collect(const char *got, const char *label, const char *dir, int run,
    const char *status, const struct vb_kv *kv, int n, char *err,
    size_t errlen);
/*
 * May side @side ('A' or 'B') of a plan that pairs @label with @pair
 * add runs to the label folder @dir?  Each boot's meta names the other
 * label of its plan (boot_pair); a run paired with another label was
 * made by another plan (make boots' default label of a side without a
 * command line is the bare release, which a second plan can share):
 * then -1 with the one line in @err.  0 when every run is this pairing's,
 * has no boot_pair (make run's), or there is no run.
 */
int bt_label_plan_check(const char *dir, const char *label, const char *pair,
    int side, char *err, size_t errlen);
/*
 * Value of @key in the small key=value file @path into @buf; NULL when
 * the file or the key is missing.
 */
char *bt_kv_get(const char *path, const char *key, char *buf, size_t len);

/* What bt_boot_pairs() points its pairs at. */
struct bt_boot_ids {
	char run[16], id[64], up[32], rel[80];
};
int bt_boot_pairs(struct vb_kv *kv, int n, struct bt_boot_ids *ids, int run,
    const char *status, const char *failure, const char *side,
    const char *guest);

#endif
