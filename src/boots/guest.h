/*
 * guest.h - what the guest boots into: an initramfs of the suite's own
 * programs (bench/), the shared libraries and the loader they need
 * (found with ldd), the configs, a static busybox for the shell and the
 * mounts, the init script (init.sh), and the kernel's modules that give
 * it its disk (virtio_pci, virtio_blk and what they depend on), taken
 * from the image's package.  Built without root: cpio.c writes every
 * entry as root's.
 */
#ifndef BT_GUEST_H
#define BT_GUEST_H

#include <stddef.h>

struct bt_guest {
	const char *bindir;	/* the suite's programs: bench/ */
	const char *root;	/* the tree: configs/ is under it */
	const char *config;	/* the config to run (host path) */
	const char *config_in;	/* its path in the guest, under /vmbench */
	const char *busybox;	/* a static busybox */
	const char *moddir;	/* lib/modules/RELEASE, or NULL: none */
	int with_vmboots;	/* bench/vmboots too: the kexec plans */
};

/* The modules the guest needs for its disk (the rest follow). */
extern const char *const bt_guest_modules[];
/* The init script (init.sh, linked in by guest.c). */
extern const char bt_init_sh[];

/*
 * The "depends=" of the kernel module @path (its .modinfo section) into
 * @out: "virtio,virtio_ring", "" for none.  0, or -1 with the reason in
 * @err.
 */
int bt_modinfo_depends(const char *path, char *out, size_t len, char *err,
    size_t errlen);
/*
 * The modules @want and everything they depend on, found under @moddir
 * (its kernel/ tree; those listed in its modules.builtin skipped), in an
 * order that loads each after its dependencies: *@paths (allocated, *@n
 * of them; free with bt_free_list()).  A module found nowhere and not
 * built in is an error.  0, or -1 with the reason in @err.
 */
int bt_modules_closure(const char *moddir, const char *const *want,
    char ***paths, int *n, char *err, size_t errlen);
void bt_free_list(char **list, int n);
/*
 * The shared libraries and loader @prog needs, by `ldd`: appended to
 * *@libs (*@n, no duplicates).  A static program adds none.  0, or -1
 * with the reason in @err.
 */
int bt_ldd(const char *prog, char ***libs, int *n, char *err, size_t errlen);
/*
 * Write the initramfs @out for @g.  0, or -1 with the reason in @err
 * (the file is removed).
 */
int bt_build_initramfs(const struct bt_guest *g, const char *out, char *err,
    size_t errlen);

#endif
