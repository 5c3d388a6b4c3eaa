/*
 * guest.c - the guest's initramfs (see guest.h).
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "guest.h"
#include "proc.h"
#include "util.h"

/* init.sh, as it is in the tree, NUL-terminated */
__asm__(".section .rodata\n"
    ".global bt_init_sh\n"
    ".type bt_init_sh, @object\n"
    "bt_init_sh:\n"
    ".incbin \"src/boots/init.sh\"\n"
    ".byte 0\n"
    ".previous\n");

const char *const bt_guest_modules[] = { "virtio_pci", "virtio_blk", NULL };

/* The whole of @path, allocated; NULL (errno) when unreadable. */
static char *
slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size > (256 << 20)) {
		close(fd);
		errno = errno ? errno : EFBIG;
		return NULL;
	}
	buf = vb_xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size && (n = read(fd, buf + got,
	    (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

int
bt_modinfo_depends(const char *path, char *out, size_t len, char *err,
    size_t errlen)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *names, *p, *end;
	size_t size, i;
	char *img = slurp(path, &size);

	out[0] = '\0';
	if (!img) {
		snprintf(err, errlen, "%s: cannot read: %s", path,
		    strerror(errno));
		return -1;
	}
	eh = (const Elf64_Ehdr *)img;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff >= size ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >=
	    eh->e_shnum || (size - eh->e_shoff) / sizeof(Elf64_Shdr) <
	    eh->e_shnum) {
		snprintf(err, errlen, "%s: not a 64-bit ELF kernel module "
		    "(compressed modules are not read: unpack them)", path);
		free(img);
		return -1;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	if (sh[eh->e_shstrndx].sh_offset >= size) {
		snprintf(err, errlen, "%s: bad section names", path);
		free(img);
		return -1;
	}
	names = img + sh[eh->e_shstrndx].sh_offset;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= size - sh[eh->e_shstrndx].sh_offset ||
		    strncmp(names + sh[i].sh_name, ".modinfo", 9) != 0)
			continue;
		if (sh[i].sh_offset > size || sh[i].sh_size > size -
		    sh[i].sh_offset)
			break;
		/* NUL-separated key=value strings */
		p = img + sh[i].sh_offset;
		end = p + sh[i].sh_size;
		while (p < end) {
			size_t n = strnlen(p, (size_t)(end - p));

			if (n > 8 && strncmp(p, "depends=", 8) == 0) {
				snprintf(out, len, "%.*s", (int)(n - 8),
				    p + 8);
				break;
			}
			p += n + 1;
		}
		free(img);
		return 0;
	}
	snprintf(err, errlen, "%s: no .modinfo section: not a kernel "
	    "module", path);
	free(img);
	return -1;
}

/* A module's name from its file name: "virtio-pci.ko" -> "virtio_pci". */
static char *
mod_name(const char *file)
{
	const char *b = strrchr(file, '/');
	char *n = vb_xstrdup(b ? b + 1 : file), *p;

	if ((p = strstr(n, ".ko")))
		*p = '\0';
	for (p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

struct modtab {
	char **name, **path;
	int n;
};

/* Every *.ko under @dir into @t. */
static void
scan(const char *dir, struct modtab *t, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d || depth > 12) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		size_t n = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			scan(p, t, depth + 1);
		} else if (S_ISREG(st.st_mode) && n > 3 &&
		    strcmp(e->d_name + n - 3, ".ko") == 0) {
			t->name = vb_xrealloc(t->name, (size_t)(t->n + 1) *
			    sizeof(char *));
			t->path = vb_xrealloc(t->path, (size_t)(t->n + 1) *
			    sizeof(char *));
			t->name[t->n] = mod_name(e->d_name);
			t->path[t->n++] = vb_xstrdup(p);
		}
	}
	closedir(d);
}

/* Is @name in @moddir/modules.builtin (kernel/.../name.ko lines)? */
static int
builtin(const char *moddir, const char *name)
{
	char p[PATH_MAX], line[PATH_MAX];
	FILE *f;
	int found = 0;

	snprintf(p, sizeof(p), "%s/modules.builtin", moddir);
	if (!(f = fopen(p, "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *n;

		line[strcspn(line, "\n")] = '\0';
		n = mod_name(line);
		found = strcmp(n, name) == 0;
		free(n);
	}
	fclose(f);
	return found;
}

/*
 * Add @name and, before it, what it depends on, to @out (each once);
 * @depth bounds a cycle.
 */
static int
add_mod(const char *moddir, struct modtab *t, const char *name,
    char ***out, int *n, int depth, char *err, size_t errlen)
{
	char deps[1024], *p, *tok;
	int i, k;

	if (depth > 32) {
		snprintf(err, errlen, "%s: modules depend on each other in a "
		    "cycle", name);
		return -1;
	}
	for (i = 0; i < t->n && strcmp(t->name[i], name); i++)
		;
	if (i == t->n) {
		if (builtin(moddir, name))
			return 0;
		snprintf(err, errlen, "%s: no module %s.ko and it is not "
		    "built in", moddir, name);
		return -1;
	}
	for (k = 0; k < *n; k++)
		if (strcmp((*out)[k], t->path[i]) == 0)
			return 0;
	if (bt_modinfo_depends(t->path[i], deps, sizeof(deps), err,
	    errlen) < 0)
		return -1;
	for (p = deps; (tok = strsep(&p, ","));)
		if (*tok && add_mod(moddir, t, tok, out, n, depth + 1, err,
		    errlen) < 0)
			return -1;
	for (k = 0; k < *n; k++)	/* a dependency may have added it */
		if (strcmp((*out)[k], t->path[i]) == 0)
			return 0;
	*out = vb_xrealloc(*out, (size_t)(*n + 1) * sizeof(char *));
	(*out)[(*n)++] = vb_xstrdup(t->path[i]);
	return 0;
}

int
bt_modules_closure(const char *moddir, const char *const *want,
    char ***paths, int *n, char *err, size_t errlen)
{
	struct modtab t = { NULL, NULL, 0 };
	char p[PATH_MAX];
	int i, rc = 0;

	*paths = NULL;
	*n = 0;
	snprintf(p, sizeof(p), "%s/kernel", moddir);
	if (access(p, R_OK | X_OK) < 0) {
		snprintf(err, errlen, "%s: not a modules folder (no kernel/ "
		    "in it)", moddir);
		return -1;
	}
	scan(p, &t, 0);
	for (i = 0; want[i] && rc == 0; i++)
		rc = add_mod(moddir, &t, want[i], paths, n, 0, err, errlen);
	bt_free_list(t.name, t.n);
	bt_free_list(t.path, t.n);
	if (rc < 0) {
		bt_free_list(*paths, *n);
		*paths = NULL;
		*n = 0;
	}
	return rc;
}

void
bt_free_list(char **list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* Add @path to @list unless there. */
static void
add_unique(char ***list, int *n, const char *path)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*list)[i], path) == 0)
			return;
	*list = vb_xrealloc(*list, (size_t)(*n + 1) * sizeof(char *));
	(*list)[(*n)++] = vb_xstrdup(path);
}

int
bt_ldd(const char *prog, char ***libs, int *n, char *err, size_t errlen)
{
	char *argv[] = { "ldd", (char *)prog, NULL }, *out, *line, *p;
	int rc = vb_run(argv, NULL, NULL, &out);

	/* ldd says "not a dynamic executable" (exit 1) for static ones */
	if (rc != 0) {
		free(out);
		if (rc == 127) {
			snprintf(err, errlen, "cannot run ldd (libc-bin)");
			return -1;
		}
		return 0;
	}
	/* "libm.so.6 => /lib/.../libm.so.6 (0x...)", "/lib64/ld-... (0x)" */
	for (p = out; (line = strsep(&p, "\n"));) {
		char *path = strstr(line, "=> ");

		path = path ? path + 3 : line + strspn(line, " \t");
		if (*path != '/') {
			if (strstr(line, "not found")) {
				snprintf(err, errlen, "%s: a library is not "
				    "found:%.100s", prog, line);
				free(out);
				return -1;
			}
			continue;
		}
		path[strcspn(path, " \t")] = '\0';
		add_unique(libs, n, path);
	}
	free(out);
	return 0;
}

/* "path/name" -> "name". */
static const char *
base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The suite's programs in @bindir (executables; vmboots if @all). */
static int
programs(const char *bindir, char ***list, int *n, int all)
{
	DIR *d = opendir(bindir);
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' || (!all && strcmp(e->d_name,
		    "vmboots") == 0))
			continue;
		snprintf(p, sizeof(p), "%s/%s", bindir, e->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111))
			add_unique(list, n, p);
	}
	closedir(d);
	return 0;
}

/* configs/ of the tree: every regular file, as it is. */
static void
configs(struct bt_cpio *c, const char *root)
{
	char dir[PATH_MAX], p[PATH_MAX + 256], name[PATH_MAX + 256];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/configs", root);
	if (!(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(name, sizeof(name), "vmbench/configs/%s", e->d_name);
		bt_cpio_file(c, name, st.st_mode & 0777, p);
	}
	closedir(d);
}

int
bt_build_initramfs(const struct bt_guest *g, const char *out, char *err,
    size_t errlen)
{
	char **progs = NULL, **libs = NULL, **mods = NULL, name[PATH_MAX];
	int nprogs = 0, nlibs = 0, nmods = 0, i, rc = -1;
	struct bt_cpio c;

	if (programs(g->bindir, &progs, &nprogs, g->with_vmboots) < 0 ||
	    nprogs == 0) {
		snprintf(err, errlen, "%s: no programs (make first)",
		    g->bindir);
		goto out;
	}
	for (i = 0; i < nprogs; i++)
		if (bt_ldd(progs[i], &libs, &nlibs, err, errlen) < 0)
			goto out;
	/* a busybox that is not static brings its libraries */
	if (bt_ldd(g->busybox, &libs, &nlibs, err, errlen) < 0)
		goto out;
	if (g->moddir && bt_modules_closure(g->moddir, bt_guest_modules,
	    &mods, &nmods, err, errlen) < 0)
		goto out;
	if (bt_cpio_open(&c, out) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", out,
		    strerror(errno));
		goto out;
	}
	bt_cpio_dir(&c, "dev");
	bt_cpio_chardev(&c, "dev/console", 5, 1);
	bt_cpio_dir(&c, "root");
	bt_cpio_data(&c, "init", 0755, bt_init_sh, strlen(bt_init_sh));
	bt_cpio_file(&c, "bin/busybox", 0755, g->busybox);
	bt_cpio_symlink(&c, "bin/sh", "busybox");
	for (i = 0; i < nprogs; i++) {
		snprintf(name, sizeof(name), "vmbench/bench/%s",
		    base(progs[i]));
		bt_cpio_file(&c, name, 0755, progs[i]);
	}
	/* at the path the programs name (the loader's too), as files */
	for (i = 0; i < nlibs; i++)
		bt_cpio_file(&c, libs[i] + 1, 0755, libs[i]);
	/* loaded in this order by init.sh: 00-virtio_ring.ko, ... */
	for (i = 0; i < nmods; i++) {
		snprintf(name, sizeof(name), "vmbench/modules/%02d-%s", i,
		    base(mods[i]));
		bt_cpio_file(&c, name, 0644, mods[i]);
	}
	configs(&c, g->root);
	bt_cpio_file(&c, g->config_in, 0644, g->config);
	if (bt_cpio_close(&c) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", out,
		    strerror(errno));
		unlink(out);
		goto out;
	}
	rc = 0;
out:
	bt_free_list(progs, nprogs);
	bt_free_list(libs, nlibs);
	bt_free_list(mods, nmods);
	return rc;
}
