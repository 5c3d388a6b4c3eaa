/*
 * fsinfo.c - the work folder's filesystem (see fsinfo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsinfo.h"
#include "util.h"

/* statfs()'s f_type of ext2, ext3 and ext4 */
#define VB_EXT4_MAGIC 0xEF53

/* The first line of @path, without its newline, into @buf; 0 or -1. */
static int
read_line(const char *path, char *buf, size_t len)
{
	if (vb_read_small(path, buf, len) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The kernel's name of block device @d (the last part of the
 * /sys/dev/block/MAJOR:MINOR link: "vda", "vda1" for a partition,
 * "dm-0"), which is also the name ext4 gives its /sys/fs/ext4 folder.
 */
static int
dev_name(dev_t d, char *name, size_t len)
{
	char path[64], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(d),
	    minor(d));
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!*base || strcmp(base, "..") == 0 || strlen(base) >= len)
		return -1;
	memcpy(name, base, strlen(base) + 1);
	return 0;
}

int
vb_fs_nojournal(const char *dir, char *dev, size_t devlen)
{
	char name[NAME_MAX + 1], path[PATH_MAX], line[64];
	struct statfs sf;
	struct stat st;

	if (devlen)
		dev[0] = '\0';
	if (statfs(dir, &sf) < 0 || stat(dir, &st) < 0)
		return -1;
	if (sf.f_type != VB_EXT4_MAGIC)
		return 0;
	if (dev_name(st.st_dev, name, sizeof(name)) < 0)
		return -1;
	if (devlen)
		snprintf(dev, devlen, "%s", name);
	/* "<none>", or the pid of the jbd2 thread */
	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/journal_task", name);
	if (read_line(path, line, sizeof(line)) == 0)
		return strcmp(line, "<none>") == 0;
	/* kernels before journal_task: jbd2's entry of the inode 8 journal */
	snprintf(path, sizeof(path), "/proc/fs/jbd2/%s-8", name);
	if (access(path, F_OK) == 0)
		return 0;
	/* mounted by the ext2 or ext3 driver, not ext4's allocator */
	snprintf(path, sizeof(path), "/sys/fs/ext4/%s", name);
	if (access(path, F_OK) < 0 && errno == ENOENT &&
	    access("/sys/fs/ext4/features", F_OK) == 0)
		return 0;
	return -1;
}

int
vb_fs_create_note(const char *dir, char *buf, size_t len)
{
	char dev[NAME_MAX + 1];

	if (vb_fs_nojournal(dir, dev, sizeof(dev)) != 1)
		return 0;
	snprintf(buf, len, "the work folder is on ext4 without a journal "
	    "(%s): its file creates pass over the inodes deleted in the last "
	    "1 to 6 min, so the create figures depend on what ran before",
	    dev);
	return 1;
}

int
vb_fs_set_topdir(const char *dir)
{
	int fd, flags, rc = -1, e;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags |= FS_TOPDIR_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0 &&
		    ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
			rc = flags & FS_TOPDIR_FL ? 0 : -1;
			if (rc < 0)
				errno = EOPNOTSUPP;
		}
	}
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

void
vb_fs_own_group(const char *dir, const char *what, char *buf, size_t len)
{
	if (vb_fs_set_topdir(dir) == 0)
		snprintf(buf, len, "--own-group: %s in a block group ext4 "
		    "picks anew (FS_TOPDIR_FL on the work folder), not among "
		    "what the programs before deleted", what);
	else
		snprintf(buf, len, "--own-group: the file system does not take "
		    "FS_TOPDIR_FL (%s); %s where it puts them", strerror(errno),
		    what);
}
