/*
 * clock.c - the clocks (see clock.h).
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "clock.h"

uint64_t
vb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * VB_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

double
vb_ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

double
vb_elapsed_s(uint64_t start_ns)
{
	return vb_ns_to_s(vb_now_ns() - start_ns);
}

void
vb_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / VB_NSEC_PER_SEC),
		.tv_nsec = (long)(deadline_ns % VB_NSEC_PER_SEC),
	};

	/* Absolute wake-up: a late wake-up does not shift later ones. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		;
}

char *
vb_iso_time(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

char *
vb_fmt_hms(char *buf, size_t len, double s)
{
	long cs, h, m;
	double sec;

	/* a time that is not one, or whose centiseconds overflow a long */
	if (!(s >= 0 && s < 1e15)) {
		snprintf(buf, len, "-");
		return buf;
	}
	cs = (long)(s * 100.0 + 0.5);	/* centiseconds */
	h = cs / 360000;
	m = cs / 6000 % 60;
	sec = (double)(cs % 6000) / 100.0;

	if (h > 0)
		snprintf(buf, len, "%ld:%02ld:%02ld", h, m, cs / 100 % 60);
	else
		snprintf(buf, len, "%ld:%05.2f", m, sec);
	return buf;
}

int64_t
vb_run_delay_ns(void)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (int64_t)wait : -1;
}
