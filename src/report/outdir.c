/*
 * outdir.c - the folder a view writes into (outdir.h): --plot's charts,
 * --html's page.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outdir.h"

/*
 * The absolute path @dir would have once made: the real path of its
 * deepest existing ancestor, then the rest of @dir with "." and ".."
 * applied by name (nothing below that ancestor exists to be a link).
 * -1 when @dir is too long or no ancestor resolves.
 */
static int
future_path(const char *dir, char *out)
{
	char buf[PATH_MAX], rest[PATH_MAX], *p, *tok, *save;
	size_t cut;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return -1;
	cut = strlen(buf);
	for (;;) {
		if (realpath(cut ? buf : ".", out))
			break;
		if (errno != ENOENT || cut == 0)
			return -1;
		/* drop the last component (and the slashes before it) */
		while (cut > 0 && buf[cut - 1] != '/')
			cut--;
		while (cut > 1 && buf[cut - 1] == '/')
			cut--;
		if (cut == 1 && buf[0] == '/')
			buf[1] = '\0';
		else
			buf[cut] = '\0';
	}
	snprintf(rest, sizeof(rest), "%s", dir + strlen(buf));
	for (tok = strtok_r(rest, "/", &save); tok;
	    tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if ((p = strrchr(out, '/')) && p != out)
				*p = '\0';
			else
				out[1] = '\0';
			continue;
		}
		if (strlen(out) + 1 + strlen(tok) >= PATH_MAX)
			return -1;
		if (strcmp(out, "/"))
			strcat(out, "/");
		strcat(out, tok);
	}
	return 0;
}

int
outdir_inside(const struct rl_set *s, const char *dir)
{
	char rd[PATH_MAX], kd[PATH_MAX];
	int k;
	size_t n;

	if (future_path(dir, rd) != 0)
		return 0;
	for (k = 0; k < s->nk; k++) {
		if (!realpath(s->k[k].dir, kd))
			continue;
		n = strlen(kd);
		if (strncmp(rd, kd, n) == 0 && (rd[n] == '\0' || rd[n] == '/'))
			return 1;
	}
	return 0;
}
