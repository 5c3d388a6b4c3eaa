/*
 * clock.h - time in nanoseconds.
 *
 * Every elapsed time in vmbench comes from CLOCK_MONOTONIC: it never jumps
 * with NTP or settimeofday and, unlike CLOCK_MONOTONIC_RAW, it is what
 * clock_nanosleep(TIMER_ABSTIME) sleeps on, so the sampler's wake-ups and
 * its stamps share one clock.  Wall-clock time (CLOCK_REALTIME) is used
 * only for the human-readable start and end times in `meta`.
 */
#ifndef VB_CLOCK_H
#define VB_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#define VB_NSEC_PER_SEC 1000000000ULL

/* CLOCK_MONOTONIC now, in nanoseconds. */
uint64_t vb_now_ns(void);
/* Nanoseconds to seconds, as a double. */
double vb_ns_to_s(uint64_t ns);
/* Sleep until the CLOCK_MONOTONIC instant @deadline_ns (absolute). */
void vb_sleep_until(uint64_t deadline_ns);
/* Seconds from @start_ns to now. */
double vb_elapsed_s(uint64_t start_ns);
/* Current UTC time as ISO 8601 (2026-12-01T00:20:07Z) into @buf. */
char *vb_iso_time(char *buf, size_t len);
/*
 * @s seconds as tcsh prints elapsed time: "20:58.40", "1:02:03" above an
 * hour, "0:04.76" below a minute; "-" for a negative, NaN or infinite
 * time or one of 1e15 s or more.
 */
char *vb_fmt_hms(char *buf, size_t len, double s);
/*
 * The calling thread's time so far runnable but waiting for a CPU
 * (ns, the second field of /proc/thread-self/schedstat: other
 * programs' share of the CPUs), or -1 where the kernel has none.
 */
int64_t vb_run_delay_ns(void);

#endif
