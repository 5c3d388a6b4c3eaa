/*
 * cpio.h - an initramfs written without root: the kernel's "newc" cpio
 * format (Documentation/driver-api/early-userspace/buffer-format.rst),
 * each entry's owner root, whatever the files on the host belong to, so
 * that the guest's init finds its programs as root's.
 *
 * The parent folders of every entry are written first, once each; the
 * kernel unpacks nothing into a folder it has not seen.
 */
#ifndef BT_CPIO_H
#define BT_CPIO_H

#include <stdio.h>
#include <stddef.h>

struct bt_cpio {
	FILE *f;
	unsigned ino;
	char **dirs;		/* folders written so far */
	int ndirs;
	int err;		/* errno of the first failure, 0 */
};

/* Start the archive @path (created, truncated).  0, or -1 (errno). */
int bt_cpio_open(struct bt_cpio *c, const char *path);
/* A folder @name ("bin", "lib/modules"; no leading slash). */
int bt_cpio_dir(struct bt_cpio *c, const char *name);
/* A file @name holding @len bytes of @data, with permissions @mode. */
int bt_cpio_data(struct bt_cpio *c, const char *name, unsigned mode,
    const void *data, size_t len);
/* A file @name holding the contents of the host's file @src. */
int bt_cpio_file(struct bt_cpio *c, const char *name, unsigned mode,
    const char *src);
/* A symbolic link @name pointing to @target. */
int bt_cpio_symlink(struct bt_cpio *c, const char *name,
    const char *target);
/* A character device @name (major, minor): /dev/console. */
int bt_cpio_chardev(struct bt_cpio *c, const char *name, unsigned maj,
    unsigned min);
/*
 * Write the trailer and close.  0, or -1 with errno of the first failure
 * of any call since bt_cpio_open() (the caller removes the file).
 */
int bt_cpio_close(struct bt_cpio *c);

#endif
