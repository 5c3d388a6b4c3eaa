/*
 * acct.h - the interactivity probe's deadline loop and accounting,
 * apart from the program so that tests can drive them on a fake clock.
 *
 * Period k starts at its deadline d(k) = t0 + k * period: the probe
 * sleeps until d(k), wakes (latency = wake - d(k)), does its work, and
 * the period is "played" when the work is done by d(k + 1), the moment
 * the next buffer of sound is due.  A probe that comes back too late
 * for some periods skips them, as a player drops what it can no longer
 * play in time: it next runs the first period whose own deadline has
 * not passed yet (running it at once when its start is already past).
 * Skipped periods are not played.
 *
 * The run's periods are those that end by the end of the run: total =
 * floor((end - t0) / period); "played X of Y seconds" is played * period
 * of total * period.
 */
#ifndef PROBE_ACCT_H
#define PROBE_ACCT_H

#include <stddef.h>
#include <stdint.h>

/* One period whose work ran. */
struct probe_rec {
	uint64_t k;		/* period index */
	uint64_t lat_ns;	/* wake - d(k); 0 when early */
	uint64_t cpu_ns;	/* CPU time of its work */
	int played;		/* done by d(k + 1) */
};

struct probe_acct {
	uint64_t period_ns;
	uint64_t t0;
	uint64_t end;		/* set by probe_acct_finish() */
	struct probe_rec *rec;
	size_t n, cap;
};

/* The figures of one run (times in ms; NAN when there is no data). */
struct probe_figures {
	double lat_mean, lat_sd, lat_p50, lat_p99, lat_max;
	double stall_max;	/* longest run of unplayed periods */
	double desired_cpu_pct;	/* work CPU got / wanted */
	double deadlines_met_pct; /* played / total periods */
	double played_s, total_s;
	uint64_t periods, played, ran;
};

void probe_acct_init(struct probe_acct *a, uint64_t period_ns, uint64_t t0);
void probe_acct_free(struct probe_acct *a);
/* d(k) */
uint64_t probe_acct_deadline(const struct probe_acct *a, uint64_t k);
/*
 * Period @k ran: woke at @wake, finished at @done, its work used @cpu_ns.
 * Returns 1 when it was played.  -1 when out of memory.
 */
int probe_acct_period(struct probe_acct *a, uint64_t k, uint64_t wake,
    uint64_t done, uint64_t cpu_ns);
/* The period to run after @k, which ended at @now (see above). */
uint64_t probe_acct_next(const struct probe_acct *a, uint64_t k,
    uint64_t now);
/*
 * Close the run at @end and compute the figures; @slice_cpu_ns is the
 * CPU work each period should get (for % desired CPU; 0: NAN).
 */
void probe_acct_finish(struct probe_acct *a, uint64_t end,
    uint64_t slice_cpu_ns, struct probe_figures *f);

/* What the loop needs from the world; tests give a fake clock. */
struct probe_ops {
	uint64_t (*now)(void *ctx);
	/* sleep until the instant (absolute); may return early on stop */
	void (*sleep_until)(void *ctx, uint64_t t);
	/* one period's work; returns the CPU time it used (ns) */
	uint64_t (*work)(void *ctx);
	/* non-zero: end the run now */
	int (*stop)(void *ctx);
};

/*
 * Run periods of @period_ns from now until @ops->stop() says so or, when
 * @duration_ns is not 0, for that long (then the run ends exactly at
 * t0 + duration).  Fills @a (initialised here); returns the end
 * instant, or 0 when out of memory.
 */
uint64_t probe_loop(struct probe_acct *a, const struct probe_ops *ops,
    void *ctx, uint64_t period_ns, uint64_t duration_ns);

#endif
