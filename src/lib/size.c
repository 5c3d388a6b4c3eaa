/*
 * size.c - sizes and percentages from the command line (see size.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "size.h"

/* Multiplier for a size suffix, 0 when unknown. */
static uint64_t
suffix_mult(const char *sfx)
{
	static const struct {
		char c;
		uint64_t mult;
	} tab[] = {
		{ 'K', 1ULL << 10 }, { 'M', 1ULL << 20 },
		{ 'G', 1ULL << 30 }, { 'T', 1ULL << 40 },
	};
	size_t i;

	if (*sfx == '\0' || strcasecmp(sfx, "B") == 0)
		return 1;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (toupper((unsigned char)sfx[0]) != tab[i].c)
			continue;
		if (sfx[1] == '\0' || strcasecmp(sfx + 1, "B") == 0 ||
		    strcasecmp(sfx + 1, "iB") == 0)
			return tab[i].mult;
	}
	return 0;
}

static int
range_err(char *err, const char *what, const char *s, uint64_t min,
    uint64_t max, int sizes)
{
	char a[32], b[32];

	if (sizes) {
		vb_fmt_size(a, sizeof(a), min);
		vb_fmt_size(b, sizeof(b), max);
	} else {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)min);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)max);
	}
	snprintf(err, VB_ERRLEN, "%s '%s' out of range (%s to %s)", what, s,
	    a, b);
	return -1;
}

int
vb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err)
{
	const char *p = s ? s : "";
	size_t ndig, nfrac = 0;
	uint64_t mult;
	double v;

	/* Plain decimals only: no sign, hex, exponent, nan or inf. */
	ndig = strspn(p, "0123456789");
	if (p[ndig] == '.')
		nfrac = strspn(p + ndig + 1, "0123456789") + 1;
	if (ndig == 0 || nfrac == 1) {
		snprintf(err, VB_ERRLEN, "bad size '%s': expected a number "
		    "with an optional K, M, G or T suffix", p);
		return -1;
	}
	mult = suffix_mult(p + ndig + nfrac);
	if (mult == 0) {
		snprintf(err, VB_ERRLEN, "bad size '%s': unknown suffix '%s' "
		    "(use K, M, G or T)", p, p + ndig + nfrac);
		return -1;
	}
	if (nfrac == 0) {
		/* exact integer arithmetic with overflow checks */
		uint64_t n = 0;
		size_t i;

		for (i = 0; i < ndig; i++) {
			if (n > (UINT64_MAX - 9) / 10)
				return range_err(err, "size", p, min, max, 1);
			n = n * 10 + (uint64_t)(p[i] - '0');
		}
		if (n > UINT64_MAX / mult)
			return range_err(err, "size", p, min, max, 1);
		*out = n * mult;
	} else {
		v = strtod(p, NULL) * (double)mult;
		if (mult == 1) {
			snprintf(err, VB_ERRLEN, "bad size '%s': a byte count "
			    "must be whole", p);
			return -1;
		}
		if (v >= 18446744073709551616.0)
			return range_err(err, "size", p, min, max, 1);
		*out = (uint64_t)v;
	}
	if (*out < min || *out > max)
		return range_err(err, "size", p, min, max, 1);
	return 0;
}

int
vb_parse_sizepct(const char *s, uint64_t min, uint64_t max,
    struct vb_sizepct *out, char *err)
{
	size_t n = s ? strlen(s) : 0;

	memset(out, 0, sizeof(*out));
	if (n > 1 && s[n - 1] == '%') {
		char num[64];

		if (n >= sizeof(num)) {
			snprintf(err, VB_ERRLEN, "bad percentage '%s'", s);
			return -1;
		}
		memcpy(num, s, n - 1);
		num[n - 1] = '\0';
		if (vb_parse_double(num, 0, 100, &out->pct, err) < 0 ||
		    out->pct <= 0) {
			snprintf(err, VB_ERRLEN, "bad percentage '%s': expected "
			    "more than 0%% and at most 100%%", s);
			return -1;
		}
		out->is_pct = 1;
		return 0;
	}
	return vb_parse_size(s, min, max, &out->bytes, err);
}

int
vb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!s || !isdigit((unsigned char)*s)) {
		snprintf(err, VB_ERRLEN, "bad number '%s': expected a whole "
		    "number", s ? s : "");
		return -1;
	}
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return range_err(err, "number", s, min, max, 0);
	if (*end == 'e' || *end == 'E') {
		/* 1e6: allowed for counts such as --forks 1e6 */
		char *e2;
		long ex = strtol(end + 1, &e2, 10);

		if (e2 == end + 1 || *e2 || ex < 0 || ex > 19)
			goto bad;
		while (ex-- > 0) {
			if (v > UINT64_MAX / 10)
				return range_err(err, "number", s, min, max, 0);
			v *= 10;
		}
		end = e2;
	}
	if (*end)
		goto bad;
	if (v < min || v > max)
		return range_err(err, "number", s, min, max, 0);
	*out = v;
	return 0;
bad:
	snprintf(err, VB_ERRLEN, "bad number '%s': expected a whole number", s);
	return -1;
}

int
vb_parse_double(const char *s, double min, double max, double *out,
    char *err)
{
	char *end;
	double v;

	errno = 0;
	if (!s || !*s || isspace((unsigned char)*s)) {
		snprintf(err, VB_ERRLEN, "bad number '%s'", s ? s : "");
		return -1;
	}
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || errno == ERANGE) {
		snprintf(err, VB_ERRLEN, "bad number '%s'", s);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(err, VB_ERRLEN, "number '%s' out of range (%g to %g)",
		    s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

char *
vb_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char sfx[] = "KMGT";
	int i;

	for (i = 3; i >= 0; i--) {
		uint64_t unit = 1ULL << (10 * (i + 1));

		if (bytes < unit)
			continue;
		if (bytes % unit == 0)
			snprintf(buf, len, "%llu%c",
			    (unsigned long long)(bytes / unit), sfx[i]);
		else if (bytes >= unit)
			snprintf(buf, len, "%.1f%c", (double)bytes /
			    (double)unit, sfx[i]);
		return buf;
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}
