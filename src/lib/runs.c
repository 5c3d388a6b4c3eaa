/*
 * runs.c - the runs of a label: RESULTS/LABEL/runN/ (see runs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runs.h"
#include "util.h"

int
vb_run_index(const char *name)
{
	const char *p;

	if (strncmp(name, "run", 3) != 0 || name[3] < '1' || name[3] > '9' ||
	    strlen(name) > 9)
		return 0;
	for (p = name + 3; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return atoi(name + 3);
}

char *
vb_run_name(char *buf, size_t len, int n)
{
	snprintf(buf, len, "run%d", n);
	return buf;
}

char *
vb_run_path(char *buf, size_t len, const char *dir, int n)
{
	snprintf(buf, len, "%s/run%d", dir, n);
	return buf;
}

int
vb_run_flat_entry(const char *name)
{
	return strcmp(name, "meta") == 0;
}

/* Does @name end in @suffix (and has something before it)? */
static int
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && strcmp(name + n - s, suffix) == 0;
}

int
vb_runs_scan(const char *dir, struct vb_runs *r)
{
	char path[4096 + 256];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int n;

	memset(r, 0, sizeof(*r));
	if (!(d = opendir(dir)))
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = vb_run_index(de->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (n > r->top)
			r->top = n;
		if (vb_run_flat_entry(de->d_name))
			r->flat = 1;
		else if (n > 0 && lstat(path, &st) == 0 &&
		    S_ISDIR(st.st_mode) && vb_dir_empty(path))
			r->empty = n > r->empty ? n : r->empty;
		else if (n > 0 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			r->last = n > r->last ? n : r->last;
		else {
			r->loose |= ends_with(de->d_name, ".res");
			if (!r->other[0])
				snprintf(r->other, sizeof(r->other), "%s",
				    de->d_name);
		}
	}
	closedir(d);
	return 0;
}

int
vb_runs_next(const char *dir, int *next, char *err, size_t errlen)
{
	struct vb_runs r;

	*next = 1;
	if (vb_runs_scan(dir, &r) < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", dir,
		    strerror(errno));
		return -1;
	}
	if (r.flat || r.loose) {
		snprintf(err, errlen, "%s holds a single run (make run wrote "
		    "it), not runs: choose another label", dir);
		return -1;
	}
	*next = r.top + 1;
	return 0;
}
