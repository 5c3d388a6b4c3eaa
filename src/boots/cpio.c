/*
 * cpio.c - the newc cpio writer (see cpio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "util.h"

/* Zero bytes up to the next multiple of 4. */
static void
pad4(struct bt_cpio *c)
{
	static const char zero[4];
	long pos = ftell(c->f);

	if (pos < 0) {
		c->err = c->err ? c->err : errno;
		return;
	}
	if (pos % 4)
		fwrite(zero, 1, (size_t)(4 - pos % 4), c->f);
}

/* One entry's header and name; its data follows. */
static void
header(struct bt_cpio *c, const char *name, unsigned mode, size_t size,
    unsigned maj, unsigned min)
{
	size_t n = strlen(name) + 1;

	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X"
	    "%08zX%08X", ++c->ino, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u,
	    0u, size, 0u, 0u, maj, min, n, 0u);
	fwrite(name, 1, n, c->f);
	pad4(c);
}

int
bt_cpio_open(struct bt_cpio *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->f = fopen(path, "we");
	return c->f ? 0 : -1;
}

/* The parents of @name, each written once. */
static void
parents(struct bt_cpio *c, const char *name)
{
	const char *p = name;

	while ((p = strchr(p, '/'))) {
		char *d = vb_xstrndup(name, (size_t)(p - name));

		bt_cpio_dir(c, d);
		free(d);
		p++;
	}
}

int
bt_cpio_dir(struct bt_cpio *c, const char *name)
{
	int i;

	for (i = 0; i < c->ndirs; i++)
		if (strcmp(c->dirs[i], name) == 0)
			return 0;
	parents(c, name);
	c->dirs = vb_xrealloc(c->dirs, (size_t)(c->ndirs + 1) *
	    sizeof(*c->dirs));
	c->dirs[c->ndirs++] = vb_xstrdup(name);
	header(c, name, S_IFDIR | 0755, 0, 0, 0);
	return c->err ? -1 : 0;
}

int
bt_cpio_data(struct bt_cpio *c, const char *name, unsigned mode,
    const void *data, size_t len)
{
	parents(c, name);
	header(c, name, S_IFREG | (mode & 07777), len, 0, 0);
	if (len && fwrite(data, 1, len, c->f) != len)
		c->err = c->err ? c->err : errno ? errno : EIO;
	pad4(c);
	return c->err ? -1 : 0;
}

int
bt_cpio_file(struct bt_cpio *c, const char *name, unsigned mode,
    const char *src)
{
	char buf[65536];
	struct stat st;
	size_t left;
	ssize_t n;
	int fd = open(src, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		c->err = c->err ? c->err : errno;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	parents(c, name);
	header(c, name, S_IFREG | (mode & 07777), (size_t)st.st_size, 0, 0);
	/* exactly the size the header says, even if the file changes */
	for (left = (size_t)st.st_size; left > 0; left -= (size_t)n) {
		n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
		if (n <= 0) {
			c->err = c->err ? c->err : n < 0 ? errno : EIO;
			break;
		}
		if (fwrite(buf, 1, (size_t)n, c->f) != (size_t)n) {
			c->err = c->err ? c->err : errno ? errno : EIO;
			break;
		}
	}
	close(fd);
	pad4(c);
	return c->err ? -1 : 0;
}

int
bt_cpio_symlink(struct bt_cpio *c, const char *name, const char *target)
{
	size_t len = strlen(target);

	parents(c, name);
	header(c, name, S_IFLNK | 0777, len, 0, 0);
	fwrite(target, 1, len, c->f);
	pad4(c);
	return c->err ? -1 : 0;
}

int
bt_cpio_chardev(struct bt_cpio *c, const char *name, unsigned maj,
    unsigned min)
{
	parents(c, name);
	header(c, name, S_IFCHR | 0600, 0, maj, min);
	return c->err ? -1 : 0;
}

int
bt_cpio_close(struct bt_cpio *c)
{
	int i, e;

	header(c, "TRAILER!!!", 0, 0, 0, 0);
	if (ferror(c->f) && !c->err)
		c->err = errno ? errno : EIO;
	e = c->err;
	if (fclose(c->f) != 0 && !e)
		e = errno;
	for (i = 0; i < c->ndirs; i++)
		free(c->dirs[i]);
	free(c->dirs);
	c->dirs = NULL;
	c->ndirs = 0;
	c->f = NULL;
	errno = e;
	return e ? -1 : 0;
}
