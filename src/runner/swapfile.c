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

int
vb_swapfile_create(struct vb_swapfile *s, const char *dir, uint64_t size,
    char *err, size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct statvfs sv;
	char a[32], b[32];
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
	fd = open(s->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create swap file %s: %s",
		    s->path, strerror(errno));
		return -1;
	}
	s->created = 1;
	if (fallocate(fd, 0, 0, (off_t)size) < 0 &&
	    (errno != EOPNOTSUPP || fill_zeroes(fd, size) < 0)) {
		e = errno;
		close(fd);
		snprintf(err, errlen, "cannot allocate %s for swap file %s: %s",
		    vb_fmt_size(a, sizeof(a), size), s->path, strerror(e));
		goto fail;
	}
	if (vb_swapfile_header(fd, size, page) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		snprintf(err, errlen, "cannot write swap file %s: %s",
		    s->path, strerror(e));
		goto fail;
	}
	close(fd);
	if (swapon(s->path, 0) < 0) {
		e = errno;
		snprintf(err, errlen, "the %s filesystem of %s cannot hold swap "
		    "(swapon: %s); set WORKDIR= to a folder on another "
		    "filesystem", fs_name(dir), dir, strerror(e));
		goto fail;
	}
	s->active = 1;
	return 0;
fail:
	unlink(s->path);
	s->created = 0;
	return -1;
}

int
vb_swapfile_remove(struct vb_swapfile *s, char *err, size_t errlen)
{
	if (s->active) {
		/* brings swapped pages back in: may take a while */
		if (swapoff(s->path) < 0) {
			snprintf(err, errlen, "cannot switch off swap file %s: "
			    "%s (it stays in use; run swapoff %s)", s->path,
			    strerror(errno), s->path);
			return -1;
		}
		s->active = 0;
	}
	if (s->created) {
		if (unlink(s->path) < 0 && errno != ENOENT) {
			snprintf(err, errlen, "cannot remove swap file %s: %s",
			    s->path, strerror(errno));
			return -1;
		}
		s->created = 0;
	}
	return 0;
}
