/*
 * forms.c - the registry of the benchmarks' own forms (form.h): the one
 * place that lists them, in the order the views show them.
 */
#include <limits.h>
#include <string.h>

#include "form.h"

const struct form *const forms[] = {
	&form_contest,
	&form_tworead,
	&form_probe,
	&form_lmbench,
	&form_tiobench,
	NULL,
};

/* Is @bench the benchmark of @id (all of it, or what precedes its '@')? */
static int
bench_is(const char *id, const char *bench)
{
	size_t n = strlen(bench);

	return !strncmp(id, bench, n) && (id[n] == '\0' || id[n] == '@');
}

const struct form *
form_of(const char *id, int flags)
{
	int i;

	for (i = 0; forms[i]; i++)
		if ((forms[i]->flags & flags) == flags &&
		    bench_is(id, forms[i]->bench))
			return forms[i];
	return NULL;
}

int
form_rides(const struct rl_set *s, const char *id)
{
	const char *at = strchr(id, '@');
	int k;

	if (!at || !form_of(id, FORM_BESIDE))
		return 0;
	for (k = 0; k < s->nk; k++)
		if (rl_find(&s->k[k], at + 1))
			return 1;
	return 0;
}

int
form_beside(FILE *f, const struct rl_set *s, const char *id)
{
	/* ids are file names: NAME_MAX bytes at most */
	char bid[2 * NAME_MAX + 2];
	int i, any = 0;

	for (i = 0; forms[i]; i++) {
		if (!(forms[i]->flags & FORM_BESIDE))
			continue;
		snprintf(bid, sizeof(bid), "%s@%s", forms[i]->bench, id);
		any |= forms[i]->lines(f, s, bid);
	}
	return any;
}
