/*
 * boots.h - what vmboots' modules share: its options (struct opts), a
 * boot of the plan (struct boot) and the context of the run (struct
 * boots_ctx), made by main and passed as a pointer to every function
 * that reads or changes it.
 *
 *	vmboots.c  main: options, checks, the plan, the summary
 *	vm.c       one boot in QEMU
 *	steps.c    the boots by kexec (in QEMU, or on this machine)
 *	stale.c    the state file, the locks, what a killed run left
 */
#ifndef BT_BOOTS_H
#define BT_BOOTS_H

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "label.h"
#include "quiet.h"
#include "plan.h"

struct opts {
	const char *kernel[2], *label[2], *cmdline[2], *mem[2], *modules[2];
	const char *vm_mem, *config, *results, *workdir, *order, *accel;
	const char *method, *qemu, *busybox, *disk, *initrd[2], *cont;
	const char *quiet, *quiet_wait;
	uint64_t cpus, boots;
	double timeout;
	int clean_stale, no_report, help;
};

/* one boot of the plan, as it ended */
struct boot {
	int side, run;
	const char *status;	/* ok, failed, interrupted */
	char cause[256];
	double boot_s, suite_s, down_s, total_s;	/* < 0: not seen */
};

/* Everything a run of vmboots holds, from main to its end. */
struct boots_ctx {
	struct opts o;
	struct bt_side sd[2];
	char moddir[2][2 * PATH_MAX + 64];
	char labeldir[2][PATH_MAX];
	struct vb_label_lock lk[2];	/* RESULTS/.LABEL.lock (label.h) */
	char bindir[PATH_MAX], root[PATH_MAX];
	char workdir[PATH_MAX];
	char tmp[PATH_MAX + 32];	/* WORKDIR/vmboots.XXXXXX; "" none */
	char staging[PATH_MAX];	/* LABELDIR/.boot-PID while reading */
	char results_abs[PATH_MAX];	/* RESULTS, absolute */
	int cur_side, cur_boot;	/* the boot under way (cur_boot 0: none) */
	char initrd[2][PATH_MAX + 64];
	char toollog[PATH_MAX + 64];	/* mkfs, e2fsck, debugfs say */
	char config_in[PATH_MAX];
	char host_kernel[300], qemu_version[128];
	int tcg;
	int kexec;		/* 1: qemu-kexec, 2: this machine */
	int iterations;
	pid_t qemu;
	struct boot *boots;
	int nboots;
	char order[2 * BT_BOOTS_MAX + 1];
	/* --quiet: the wait before each boot, and its meta's values */
	double quiet_pct, quiet_max_s;	/* quiet_pct 0: no wait */
	struct vb_quiet_text quiet;	/* the wait's meta values */
};

#define BOOTS_CTX_INIT { .lk = { { .fd = -1 }, { .fd = -1 } } }

/* Set by the signal handler (vmboots.c). */
extern volatile sig_atomic_t stop_signal, nsignals;

/* vmboots.c */
void bt_check_path(const char *what, const char *p);

/* stale.c */
void bt_save_state(struct boots_ctx *ctx);
void bt_end_process(pid_t pid, double grace, int child);
void bt_cleanup(struct boots_ctx *ctx);
int bt_clean_stale(const char *workdir);
void bt_own_dir(const char *dir);
void bt_own_results(struct boots_ctx *ctx);
void bt_lock_label(struct boots_ctx *ctx, int k);
void bt_die_hook(struct boots_ctx *ctx);

/* vm.c */
void bt_find_modules(struct boots_ctx *ctx, int k);
char *bt_fmt_time(char *buf, size_t len, double s);
int bt_copy_file(const char *src, const char *dst);
int bt_run_vm(struct boots_ctx *ctx, int k, const char *disk,
    const char *console, const char *qlog, int kvm, double limit, double t[2],
    double *total);
void bt_find_cause(struct boots_ctx *ctx, int vmrc, const char *got,
    const char *console, const char *qlog, double limit, char *cause,
    size_t len);
int bt_probe_kvm(struct boots_ctx *ctx);
void bt_boot_one(struct boots_ctx *ctx, int i, int k, struct boot *b,
    double limit);

/* steps.c */
void bt_kexec_in_qemu(struct boots_ctx *ctx);
void bt_kexec_here(struct boots_ctx *ctx);

#endif
