/*
 * kexec.h - make boots by kexec: the machine runs the config in the
 * kernel it is in, then loads the plan's next kernel with
 * kexec_file_load(2) and jumps into it (reboot(LINUX_REBOOT_CMD_KEXEC)),
 * and something started at boot (a systemd unit on a real machine, the
 * guest's init in a QEMU guest) calls bt_kexec_continue() again, until
 * the plan is done.
 *
 * The plan is a key=value file, rewritten (and synced) before every
 * jump:
 *
 *	vmboots_plan=1
 *	order=ABBAAB		the steps, a side each
 *	booted=2		the step whose kernel was jumped into (-1 none)
 *	next=2			the step to boot next
 *	final=poweroff		or "original": back to orig_image at the end
 *	root=/vmbench		the suite's tree (vmrun runs there)
 *	config=configs/test.conf
 *	results=/mnt/results	the label folders
 *	workdir=/mnt/work
 *	a_label= a_image= a_initrd= a_cmdline= a_own=  and b_...
 *	orig_image= orig_initrd= orig_cmdline=
 *	unit=			the unit file to remove at the end ("" none)
 *	meta_KEY=VALUE		more keys for every run's meta (accel=, ...)
 *
 * The kernel of step i is started with "vmbench.boot=i" on its command
 * line: the next call knows whether the kernel it runs in is the one
 * the plan jumped into, or one the machine came back to after a failed
 * jump (then the step is recorded as failed).
 */
#ifndef BT_KEXEC_H
#define BT_KEXEC_H

#include <stddef.h>

#include "kv.h"

struct bt_kplan {
	struct vb_kv *kv;
	int n;
	char path[8192];
};

/* Read the plan @path.  0, or -1 with the reason in @err. */
int bt_kplan_read(struct bt_kplan *p, const char *path, char *err,
    size_t errlen);
/* Value of @key ("" when absent). */
const char *bt_kplan_get(const struct bt_kplan *p, const char *key);
/* Set @key to @val (added when new). */
void bt_kplan_set(struct bt_kplan *p, const char *key, const char *val);
/* Write the plan back, then sync.  0, or -1 (errno). */
int bt_kplan_write(const struct bt_kplan *p);
void bt_kplan_free(struct bt_kplan *p);
/*
 * The step this kernel was started for: N of "vmbench.boot=N" in the
 * command line @cmdline, or -1.
 */
int bt_kexec_step(const char *cmdline);
/*
 * Load @image (with @initrd when not empty) and @cmdline for the next
 * jump: kexec_file_load(2).  0, or -1 with the reason in @err.
 */
int bt_kexec_load(const char *image, const char *initrd, const char *cmdline,
    char *err, size_t errlen);
/*
 * Jump into the loaded kernel: through `systemctl kexec` when
 * @systemd (services stopped, file systems unmounted), else (or when
 * that fails) at once after a sync.  Returns only on error.
 */
int bt_kexec_jump(int systemd);
/*
 * One call per boot: record the step this kernel runs for (run the
 * config with vmrun in @p's root, its folder a run of the step's label),
 * then jump into the next step's kernel.  Returns when the plan is done
 * (final=poweroff: the caller powers off), or -1 when a jump could not
 * even be tried (the reason printed).
 */
int bt_kexec_continue(const char *plan);

#endif
