/*
 * fmt.c - numbers and text fitted to a width, for every view (fmt.h).
 */
#include <math.h>
#include <string.h>

#include "fmt.h"

char *
fmt_value(char *buf, size_t len, double v, int dec)
{
	int p, n;

	if (!isfinite(v) || v == 0) {	/* 0 in one form in every view */
		snprintf(buf, len, "%s", v == 0 ? "0" : "-");
		return buf;
	}
	/* at most 9 characters: the table columns count on it */
	n = snprintf(buf, len, "%.*f", dec, v);
	while (dec > 0 && n > 9)
		n = snprintf(buf, len, "%.*f", --dec, v);
	if (n > 9)
		for (p = 3; p >= 0; p--)
			if (snprintf(buf, len, "%.*e", p, v) <= 9)
				break;
	return buf;
}

char *
fmt_pct(char *buf, size_t len, double p)
{
	/*
	 * At most 8 characters (the tables' column): two decimals below
	 * 1000%, one up to 9999.9%; the bounds are where the rounding
	 * would give a wider number.
	 */
	if (isnan(p))
		snprintf(buf, len, "n/a");
	else if (fabs(p) >= 9999.95)
		snprintf(buf, len, "%s", p < 0 ? "<-9999%" : ">+9999%");
	else if (fabs(p) >= 999.995)
		snprintf(buf, len, "%+.1f%%", p);
	else
		snprintf(buf, len, "%+.2f%%", p);
	return buf;
}

char *
fmt_num(char *buf, size_t len, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e15)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

char *
fmt_short(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == 0)	/* as the tables print it */
		snprintf(buf, len, "0");
	else if (a < 10)
		snprintf(buf, len, "%.2f", v);
	else if (a < 100)
		snprintf(buf, len, "%.1f", v);
	else if (a < 10000)
		snprintf(buf, len, "%.0f", v);
	else if (a < 1e6)
		snprintf(buf, len, "%.1fK", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (a < 1e15)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else
		snprintf(buf, len, "%.2e", v);
	return buf;
}

void
fmt_cell(FILE *f, const char *s, int w, int left)
{
	fprintf(f, left ? "%-*.*s" : "%*.*s", w, w, s);
}

void
fmt_wrap(FILE *f, const char *text, int width, int ind)
{
	const char *p = text;
	int col = 0, first = 1;

	while (*p) {
		const char *e;
		int n;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		e = p + strcspn(p, " ");
		n = (int)(e - p);
		if (!first && col + 1 + n > width) {
			fprintf(f, "\n%*s", ind, "");
			col = ind;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, (size_t)n, f);
		col += n;
		first = 0;
		p = e;
	}
	fputc('\n', f);
}

int
fmt_label_width(const struct rl_set *s, int min)
{
	int k, w = min;

	for (k = 0; k < s->nk; k++)
		if ((int)strlen(s->k[k].label) + 2 > w)
			w = (int)strlen(s->k[k].label) + 2;
	return w > 24 ? 24 : w;
}
