/*
 * fmt.c - numbers and text fitted to a width, for every view (fmt.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

/*
 * snprintf(@buf, @len, "%.*f", @dec, @v), most values without its cost:
 * for 0 <= @dec <= 6 and 1e-300 < |@v| < 1e12 the digits are @v 10^dec
 * rounded to an integer, from the exact @v = m 2^ex in 128-bit integers
 * (at most 2^73 before the shift); printf itself for a tie, the rest,
 * and a @buf too short.  Returns the length, as snprintf().
 */
static int
fixed(char *buf, size_t len, int dec, double v)
{
	static const unsigned p10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000,
	};
	unsigned __int128 num, q, r, half;
	unsigned long long m, ip, fp;
	double a = fabs(v);
	char t[48], *p = t + sizeof(t);
	int ex, i, n;

	if (dec < 0 || dec > 6 || !(a > 1e-300 && a < 1e12))
		return snprintf(buf, len, "%.*f", dec, v);
	memcpy(&m, &a, sizeof(m));
	ex = (int)(m >> 52) - 1075;
	m = (m & ((1ULL << 52) - 1)) | 1ULL << 52;
	num = (unsigned __int128)m * p10[dec];
	if (ex >= 0) {
		q = num << ex;
		r = 0;
		half = 1;		/* no remainder: never a tie */
	} else if (ex > -120) {
		q = num >> -ex;
		r = num - (q << -ex);
		half = (unsigned __int128)1 << (-ex - 1);
		if (r == half)
			return snprintf(buf, len, "%.*f", dec, v);
		q += r > half;
	} else {
		q = 0;			/* below 2^-47: rounds to 0 */
	}
	ip = (unsigned long long)(q / p10[dec]);
	fp = (unsigned long long)(q % p10[dec]);
	*--p = '\0';
	for (i = 0; i < dec; i++, fp /= 10)
		*--p = (char)('0' + fp % 10);
	if (dec)
		*--p = '.';
	do
		*--p = (char)('0' + ip % 10);
	while (ip /= 10);
	if (v < 0)
		*--p = '-';
	n = (int)(t + sizeof(t) - 1 - p);
	if ((size_t)n >= len)
		return snprintf(buf, len, "%.*f", dec, v);
	memcpy(buf, p, (size_t)n + 1);
	return n;
}

/* fmt_value() and fmt_fixed(); @tiny: a non-zero never shown as 0 */
static char *
value(char *buf, size_t len, double v, int dec, int tiny)
{
	int p, n;

	if (!isfinite(v) || v == 0) {	/* 0 in one form in every view */
		snprintf(buf, len, "%s", v == 0 ? "0" : "-");
		return buf;
	}
	/* at most 9 characters: the table columns count on it */
	n = fixed(buf, len, dec, v);
	while (dec > 0 && n > 9)
		n = fixed(buf, len, --dec, v);
	/* not 0, so never shown as 0 ("0.0000" for 1e-300) */
	if (n > 9 || (tiny && !buf[strcspn(buf, "123456789")]))
		for (p = 3; p >= 0; p--)
			if (snprintf(buf, len, "%.*e", p, v) <= 9)
				break;
	return buf;
}

char *
fmt_value(char *buf, size_t len, double v, int dec)
{
	return value(buf, len, v, dec, 1);
}

char *
fmt_fixed(char *buf, size_t len, double v, int dec)
{
	return value(buf, len, v, dec, 0);
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

/*
 * The ten significant digits "%.10g" rounds @a (1e-5 <= @a < 1e15) to,
 * as an integer *@n in [1e9, 1e10), and the exponent of the first, *@x:
 * @a = m 2^e exactly, and m 2^e 10^(9 - x) is rounded as a fraction of
 * 128-bit integers (at most 2^100 over 2^86 in that range).  -1 when
 * it lies halfway between two integers (printf's tie rule is left to
 * printf).
 */
static int
g10_digits(double a, unsigned long long *n, int *x)
{
	static const unsigned long long p10[] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL,
	};
	unsigned __int128 num, den, q, r;
	unsigned long long m;
	int ex, k, tries;

	/* @a = m 2^ex, 2^52 <= m < 2^53 (normal, positive: 1e-5 up) */
	memcpy(&m, &a, sizeof(m));
	ex = (int)(m >> 52) - 1075;
	m = (m & ((1ULL << 52) - 1)) | 1ULL << 52;
	/*
	 * 2^(ex + 52) <= @a: its exponent of ten, or one less (1233 / 4096
	 * is log10(2) to 1e-5; an estimate off by one more costs a try)
	 */
	*x = ((ex + 52) * 1233) >> 12;
	for (tries = 0; tries < 4; tries++) {
		k = 9 - *x;
		if (k > 15 || k < -15)
			return -1;
		num = m;
		den = 1;
		if (ex >= 0)
			num <<= ex;
		else
			den <<= -ex;
		if (k >= 0)
			num *= p10[k];
		else
			den *= p10[-k];
		if (k >= 0) {
			/* den a power of two: a shift */
			q = ex < 0 ? num >> -ex : num;
			r = num - q * den;
		} else {
			q = num / den;
			r = num % den;
		}
		if (2 * r == den)
			return -1;
		q += 2 * r > den;
		if (q >= p10[10])
			(*x)++;	/* carried, or the estimate was low */
		else if (q < p10[9])
			(*x)--;
		else {
			*n = (unsigned long long)q;
			return 0;
		}
	}
	return -1;
}

/* The five digits of @v (< 100000) at @d. */
static void
five(char *d, unsigned v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "62636465666768697071727374757677787980818283848586878889909192"
	    "93949596979899";
	unsigned t = v % 10000;

	d[0] = (char)('0' + v / 10000);
	memcpy(d + 1, pairs + 2 * (t / 100), 2);
	memcpy(d + 3, pairs + 2 * (t % 100), 2);
}

char *
fmt_g10(char *buf, double v)
{
	unsigned long long n;
	char d[16], *p = buf;
	int x, i, last;

	if (v == 0) {
		strcpy(buf, signbit(v) ? "-0" : "0");
		return buf;
	}
	if (!(fabs(v) >= 1e-5 && fabs(v) < 1e15) ||
	    g10_digits(fabs(v), &n, &x) < 0) {
		snprintf(buf, FMT_G10_LEN, "%.10g", v);
		return buf;
	}
	/* two halves of five digits, 32-bit, two digits a step */
	five(d, (unsigned)(n / 100000));
	five(d + 5, (unsigned)(n % 100000));
	/* the last digit kept: "%g" drops trailing zeros */
	for (last = 9; last > 0 && d[last] == '0'; last--)
		;
	if (v < 0)
		*p++ = '-';
	if (x >= 10 || x < -4) {
		/* d.ddde+XX */
		*p++ = d[0];
		if (last > 0) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)last);
			p += last;
		}
		/* e+XX: two digits, as x is from -5 to 14 */
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		*p++ = (char)('0' + abs(x) / 10);
		*p++ = (char)('0' + abs(x) % 10);
		*p = '\0';
		return buf;
	}
	if (x >= 0) {
		/* the x + 1 digits before the point, then the rest */
		memcpy(p, d, (size_t)x + 1);
		p += x + 1;
		if (last > x) {
			*p++ = '.';
			memcpy(p, d + x + 1, (size_t)(last - x));
			p += last - x;
		}
	} else {
		/* 0.000ddd */
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -x - 1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)last + 1);
		p += last + 1;
	}
	*p = '\0';
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
	char b[256];
	size_t n;

	if (w < 0 || (size_t)w > sizeof(b)) {
		fprintf(f, left ? "%-*.*s" : "%*.*s", w, w, s);
		return;
	}
	/* "%*.*s" by hand, in one write: cut to @w bytes, padded */
	n = strnlen(s, (size_t)w);
	memset(b, ' ', (size_t)w);
	memcpy(left ? b : b + w - n, s, n);
	fwrite(b, 1, (size_t)w, f);
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

/* @l in @w columns, keeping @tail characters of its end, into @out. */
static void
cut_at(char *out, size_t len, const char *l, int w, int tail)
{
	int n = (int)strlen(l), head = w - 2 - tail;

	if (n <= w || w < 4 || head < 0)
		snprintf(out, len, "%.*s", w < 0 ? 0 : w, l);
	else
		snprintf(out, len, "%.*s..%s", head, l, l + n - tail);
}

/* Whether cutting every label of @l at @tail keeps them all apart. */
static int
cuts_apart(const char *const *l, int n, int w, int tail)
{
	char a[256], b[256];
	int i, j;

	for (i = 0; i < n; i++) {
		cut_at(a, sizeof(a), l[i], w, tail);
		for (j = i + 1; j < n; j++) {
			if (!strcmp(l[i], l[j]))
				continue;
			cut_at(b, sizeof(b), l[j], w, tail);
			if (!strcmp(a, b))
				return 0;
		}
	}
	return 1;
}

const char *
fmt_cut(char *buf, size_t len, const char *const *labels, int n, int k,
    int w)
{
	int t0 = w > 4 ? (w - 2) / 2 : 0, t;

	if ((int)strlen(labels[k]) <= w || w < 4 || w > 255) {
		snprintf(buf, len, "%.*s", w < 0 ? 0 : w, labels[k]);
		return buf;
	}
	/* the end tells labels apart more often than the start */
	for (t = t0; t <= w - 2; t++)
		if (cuts_apart(labels, n, w, t))
			break;
	if (t > w - 2)
		for (t = t0 - 1; t >= 0; t--)
			if (cuts_apart(labels, n, w, t))
				break;
	if (t >= 0) {
		cut_at(buf, len, labels[k], w, t);
		return buf;
	}
	/* apart only in the middle: its start, and which label it is */
	snprintf(buf, len, "%.*s#%d", w - 2 - (k + 1 > 9) - (k + 1 > 99),
	    labels[k], k + 1);
	return buf;
}

const char *
fmt_label(char *buf, size_t len, const struct rl_set *s, int k, int w)
{
	const char *l[64];
	int i, n = s->nk < 64 ? s->nk : 64;

	if (k >= n) {
		snprintf(buf, len, "%.*s", w < 0 ? 0 : w, s->k[k].label);
		return buf;
	}
	for (i = 0; i < n; i++)
		l[i] = s->k[i].label;
	return fmt_cut(buf, len, l, n, k, w);
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
