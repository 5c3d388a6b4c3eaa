/*
 * swapfile.c - a swap file for SWAP= (see swapfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <unistd.h>

#include "size.h"
#include "swapfile.h"

/*
 * The version-1 header in the first page: at byte 1024 the version (1),
 * the last usable page and the count of bad pages (0), as 32-bit words
 * in the machine's byte order; "SWAPSPACE2" in the page's last 10 bytes.
 */
int
vb_swapfile_header(int fd, uint64_t size, size_t page)
{
	unsigned char *h = calloc(1, page);
	uint32_t w[3] = { 1, (uint32_t)(size / page - 1), 0 };
	ssize_t n;

	if (!h)
		return -1;
	memcpy(h + 1024, w, sizeof(w));
	memcpy(h + page - 10, "SWAPSPACE2", 10);
	n = pwrite(fd, h, page, 0);
	free(h);
	if (n != (ssize_t)page) {
		if (n >= 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Zeroes, for filesystems without fallocate(). */
static int
fill_zeroes(int fd, uint64_t size)
{
	static char zero[1 << 20];
	uint64_t off = 0;

	while (off < size) {
		size_t len = size - off < sizeof(zero) ? (size_t)(size - off) :
		    sizeof(zero);
		ssize_t n = pwrite(fd, zero, len, (off_t)off);

		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		off += (uint64_t)n;
	}
	return 0;
}

/* "ext4", "tmpfs", ... for messages; "unknown" else. */
static const char *
fs_name(const char *dir)
{
	static const struct {
		long magic;
		const char *name;
	} t[] = {
		{ 0xEF53, "ext4" }, { 0x01021994, "tmpfs" },
		{ 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
		{ 0x6969, "nfs" }, { 0x794c7630, "overlayfs" },
		{ 0x2011BAB0, "exfat" }, { 0x4d44, "vfat" },
		{ 0x65735546, "fuse" }, { 0x858458f6, "ramfs" },
	};
	struct statfs sf;
	size_t i;

	if (statfs(dir, &sf) < 0)
		return "unknown";
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if ((long)sf.f_type == t[i].magic)
			return t[i].name;
	return "unknown";
}

/*
 * The name swapon() and swapoff() are given for the open file @fd:
 * /proc/self/fd/N (the file itself, whatever its name now points to).
 */
static const char *
by_fd(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
	return buf;
}

/* Unlink @path if it is still the file @dev:@ino (not what replaced it). */
static int
unlink_ours(const char *path, unsigned long long dev, unsigned long long ino)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if ((unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino)
		return 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

int
vb_swapfile_create(struct vb_swapfile *s, const char *dir, uint64_t size,
    char *err, size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct statvfs sv;
	struct stat st;
	char a[32], b[32], fdp[64];
	int fd, e;

	memset(s, 0, sizeof(*s));
	size -= size % page;
	s->size = size;
	if (geteuid() != 0) {
		snprintf(err, errlen, "a swap file needs root (swapon): run as "
		    "root, or without SWAP=");
		return -1;
	}
	if (size < 40 * (uint64_t)page || size / page > 0xffffffffULL) {
		snprintf(err, errlen, "swap size %s: out of range (%s to 16T)",
		    vb_fmt_size(a, sizeof(a), size),
		    vb_fmt_size(b, sizeof(b), 40 * (uint64_t)page));
		return -1;
	}
	if (statvfs(dir, &sv) < 0) {
		snprintf(err, errlen, "cannot use %s for a swap file: %s", dir,
		    strerror(errno));
		return -1;
	}
	if ((uint64_t)sv.f_bavail * sv.f_frsize < size + (64ULL << 20)) {
		snprintf(err, errlen, "%s has %s free: not enough for a %s "
		    "swap file", dir, vb_fmt_size(a, sizeof(a),
		    (uint64_t)sv.f_bavail * sv.f_frsize),
		    vb_fmt_size(b, sizeof(b), size));
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s/vmbench-swap.%ld", dir,
	    (long)getpid());
	fd = open(s->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create swap file %s: %s",
		    s->path, strerror(errno));
		return -1;
	}
	s->created = 1;
	s->fd = fd;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot stat swap file %s: %s", s->path,
		    strerror(errno));
		goto fail;
	}
	s->dev = (unsigned long long)st.st_dev;
	s->ino = (unsigned long long)st.st_ino;
	if (fallocate(fd, 0, 0, (off_t)size) < 0 &&
	    (errno != EOPNOTSUPP || fill_zeroes(fd, size) < 0)) {
		e = errno;
		snprintf(err, errlen, "cannot allocate %s for swap file %s: %s",
		    vb_fmt_size(a, sizeof(a), size), s->path, strerror(e));
		goto fail;
	}
	if (vb_swapfile_header(fd, size, page) < 0 || fsync(fd) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot write swap file %s: %s",
		    s->path, strerror(e));
		goto fail;
	}
	if (swapon(by_fd(fd, fdp, sizeof(fdp)), 0) < 0) {
		e = errno;
		snprintf(err, errlen, "the %s filesystem of %s cannot hold swap "
		    "(swapon: %s); set WORKDIR= to a folder on another "
		    "filesystem", fs_name(dir), dir, strerror(e));
		goto fail;
	}
	s->active = 1;
	return 0;
fail:
	unlink_ours(s->path, s->dev, s->ino);
	close(fd);
	s->created = 0;
	return -1;
}

int
vb_swapfile_remove(struct vb_swapfile *s, char *err, size_t errlen)
{
	char fdp[64];

	if (s->active) {
		/* brings swapped pages back in: may take a while */
		if (swapoff(by_fd(s->fd, fdp, sizeof(fdp))) < 0) {
			snprintf(err, errlen, "cannot switch off swap file %s: "
			    "%s (it stays in use; run swapoff %s)", s->path,
			    strerror(errno), s->path);
			return -1;
		}
		s->active = 0;
	}
	if (s->created) {
		if (unlink_ours(s->path, s->dev, s->ino) < 0) {
			snprintf(err, errlen, "cannot remove swap file %s: %s",
			    s->path, strerror(errno));
			return -1;
		}
		close(s->fd);
		s->created = 0;
	}
	return 0;
}

int
vb_swapfile_reclaim(const char *path, long pid, unsigned long long dev,
    unsigned long long ino, uint64_t size, char *err, size_t errlen)
{
	char name[64], dir[4096], fdp[64];
	const char *base = strrchr(path, '/');
	struct stat st;
	int dfd, fd, rc = -1;

	snprintf(name, sizeof(name), "vmbench-swap.%ld", pid);
	if (path[0] != '/' || !base || strcmp(base + 1, name) != 0 ||
	    (size_t)(base - path) >= sizeof(dir)) {
		snprintf(err, errlen, "'%s': not a swap file vmrun makes (%s "
		    "in the work folder)", path, name);
		return -1;
	}
	if (!dev && !ino) {
		snprintf(err, errlen, "%s: no device and inode recorded, so "
		    "not known to be vmrun's: swapoff %s; rm %s by hand", path,
		    path, path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - path), path);
	if ((dfd = open(base == path ? "/" : dir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			rc = 0;
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(dfd);
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino ||
	    (uint64_t)st.st_size != size) {
		snprintf(err, errlen, "%s: not the swap file the run made (its "
		    "owner, links, device, inode or size differ)", path);
	} else if (swapoff(by_fd(fd, fdp, sizeof(fdp))) < 0 &&
	    errno != EINVAL) {
		snprintf(err, errlen, "cannot switch off swap file %s: %s",
		    path, strerror(errno));
	} else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (unsigned long long)st.st_ino == ino &&
	    unlinkat(dfd, name, 0) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove swap file %s: %s", path,
		    strerror(errno));
	} else {
		rc = 1;
	}
	close(fd);
	close(dfd);
	return rc;
}
