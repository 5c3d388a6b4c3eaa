/*
 * size.h - parsing of sizes, percentages and plain numbers from the
 * command line and configs, and printing sizes back.
 *
 * Sizes: a decimal number with an optional binary suffix K, M, G, T
 * (powers of 1024; "k", "KB", "KiB" and friends are accepted too), e.g.
 * 512K, 64M, 2G, 1.5G; "80%" where a percentage is allowed.  Every parser
 * checks overflow and range and, on failure, returns -1 with a one-line
 * reason in @err (e.g. "bad size '12Q': unknown suffix 'Q'").
 */
#ifndef VB_SIZE_H
#define VB_SIZE_H

#include <stddef.h>
#include <stdint.h>

#define VB_ERRLEN 160

/* A size or a percentage, as given by the user. */
struct vb_sizepct {
	int is_pct;		/* 1: "80%" */
	double pct;		/* 0 < pct <= 100 when is_pct */
	uint64_t bytes;		/* when !is_pct */
};

/* "64M" -> 67108864.  Range [min, max] in bytes. */
int vb_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err);
/* A size, or a percentage in (0, 100] when it ends in '%'. */
int vb_parse_sizepct(const char *s, uint64_t min, uint64_t max,
    struct vb_sizepct *out, char *err);
/* A plain unsigned integer in [min, max] (decimal; "1e6" too). */
int vb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err);
/* A finite real number in [min, max]. */
int vb_parse_double(const char *s, double min, double max, double *out,
    char *err);
/* 67108864 -> "64M", 1000 -> "1000", 1610612736 -> "1.5G". */
char *vb_fmt_size(char *buf, size_t len, uint64_t bytes);

#endif
