#!/usr/bin/env python3
"""Load report/vmreport's exports with the readers a user has, as
docs/report.md says, and check their shape (tests/check_rexport.c).

    export-load.py csv|pandas DIR KERNEL BENCH METRIC
    export-load.py json FILE KERNEL BENCH METRIC

csv and pandas read DIR/metrics.csv, DIR/settings.csv and
DIR/summary.csv (vmreport --format csv [--what settings|summary]) with
no reader options: Python's csv.DictReader, or pandas.read_csv.  json
reads FILE with json.loads, refusing NaN, Infinity and duplicate keys.
Each checks the columns (keys), that every table is rectangular and
the metrics table tidy (one row per kernel, benchmark and metric), then
prints for the test to compare with the text view:

    mean V          the mean of METRIC of BENCH on KERNEL
    geomean G LO HI the summary's geometric mean of KERNEL, its interval

Any failed check: a line on stderr and exit status 1; pandas without
pandas: a line and exit status 77.
"""
import sys

METRICS = (
    "kernel,benchmark,metric,unit,direction,status,n,mean,sd,cov,min,"
    "median,max,ci_low,ci_high,change_pct,welch_p,welch_df,significant,"
    "ratio,ratio_ci_low,ratio_ci_high,ratio_unbounded,noisy,scope,quiet,"
    "foreign_cpu,runs,boots,run_p,adjusted_p,family,family_size,verdict,"
    "same_bound_pct,tost_p,runs_needed,change_ci_low,change_ci_high,key,"
    "headline,mem_quiet,foreign_mem_pct,work_differs").split(",")
SETTINGS = ["kernel", "setting", "value"]
SUMMARY = ["kernel", "baseline", "metrics", "runs_baseline", "runs",
           "geomean_ratio", "geomean_ci_low", "geomean_ci_high"]
TOP = ["baseline", "kernels", "noisy_cov", "min_change_pct",
       "quiet_threshold_pct", "mem_threshold_pct", "alpha", "families", "settings_same",
       "settings_differ", "machines", "mixed_machines", "summary",
       "benchmarks"]
ENTRY = ["kernel", "status", "n", "mean", "sd", "cov", "min", "median",
         "max", "ci_low", "ci_high", "noisy", "change_pct", "welch_p",
         "welch_df", "significant", "runs", "boots", "run_p", "adjusted_p",
         "family", "family_size", "verdict", "same_bound_pct", "tost_p",
         "runs_needed", "change_ci_low", "change_ci_high", "ratio",
         "ratio_ci_low", "ratio_ci_high", "ratio_unbounded", "work_differs"]
FAMILIES = ("holm-key", "bh-detail", "none")


def fail(msg):
    print("export-load: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def num(s):
    """A CSV field as a float; empty: None."""
    return float(s) if s != "" else None


def pvalues(rows):
    """raw p, adjusted p and the family: carried, adjusted >= raw."""
    tested = 0
    for fam, p, adj in rows:
        check(fam in FAMILIES + (None,), "family %r" % (fam,))
        if fam in ("holm-key", "bh-detail"):
            check(p is not None and adj is not None and adj >= p - 1e-12,
                  "%s: adjusted p %r below raw p %r" % (fam, adj, p))
            tested += 1
    check(tested > 0, "no metric tested in a family")


def with_csv(d, kernel, bench, metric):
    import csv

    def load(name, header):
        with open("%s/%s.csv" % (d, name), newline="") as f:
            r = csv.DictReader(f)
            check(r.fieldnames == header, "%s.csv: columns %r" %
                  (name, r.fieldnames))
            rows = list(r)
        for row in rows:
            # a longer row: key None; a shorter one: values None
            check(None not in row and None not in row.values(),
                  "%s.csv: a row of another width: %r" % (name, row))
        check(rows, "%s.csv: no rows" % name)
        return rows

    rows = load("metrics", METRICS)
    keys = [(r["kernel"], r["benchmark"], r["metric"]) for r in rows]
    check(len(set(keys)) == len(keys), "metrics.csv: a repeated row")
    pvalues([(r["family"] or None, num(r["run_p"]), num(r["adjusted_p"]))
             for r in rows])
    hit = [r for r in rows if (r["kernel"], r["benchmark"], r["metric"]) ==
           (kernel, bench, metric)]
    check(len(hit) == 1, "metrics.csv: %d rows of %s %s %s" %
          (len(hit), kernel, bench, metric))
    print("mean %r" % float(hit[0]["mean"]))
    load("settings", SETTINGS)
    s = [r for r in load("summary", SUMMARY) if r["kernel"] == kernel]
    check(len(s) == 1, "summary.csv: %d rows of %s" % (len(s), kernel))
    print("geomean %r %r %r" % (float(s[0]["geomean_ratio"]),
                                float(s[0]["geomean_ci_low"]),
                                float(s[0]["geomean_ci_high"])))


def with_pandas(d, kernel, bench, metric):
    try:
        import pandas
    except ImportError:
        print("export-load: no pandas", file=sys.stderr)
        sys.exit(77)

    def load(name, header):
        t = pandas.read_csv("%s/%s.csv" % (d, name))
        check(list(t.columns) == header, "%s.csv: columns %r" %
              (name, list(t.columns)))
        check(len(t) > 0, "%s.csv: no rows" % name)
        return t

    t = load("metrics", METRICS)
    for c in ("n", "mean", "sd", "run_p", "adjusted_p", "ratio"):
        check(pandas.api.types.is_numeric_dtype(t[c]),
              "metrics.csv: column %s is %s, not numbers" % (c, t[c].dtype))
    check(not t.duplicated(["kernel", "benchmark", "metric"]).any(),
          "metrics.csv: a repeated row")
    pvalues([(None if pandas.isna(f) else f,
              None if pandas.isna(p) else p,
              None if pandas.isna(a) else a)
             for f, p, a in zip(t["family"], t["run_p"], t["adjusted_p"])])
    hit = t[(t.kernel == kernel) & (t.benchmark == bench) &
            (t.metric == metric)]
    check(len(hit) == 1, "metrics.csv: %d rows of %s %s %s" %
          (len(hit), kernel, bench, metric))
    print("mean %r" % float(hit["mean"].iloc[0]))
    load("settings", SETTINGS)
    s = load("summary", SUMMARY)
    s = s[s.kernel == kernel]
    check(len(s) == 1, "summary.csv: %d rows of %s" % (len(s), kernel))
    print("geomean %r %r %r" % tuple(float(s[c].iloc[0]) for c in
                                     SUMMARY[5:]))


def with_json(path, kernel, bench, metric):
    import json

    def constant(name):
        fail("%s: %s is not JSON" % (path, name))

    def pairs(kv):
        keys = [k for k, _ in kv]
        check(len(set(keys)) == len(keys), "%s: a repeated key in %r" %
              (path, keys))
        return dict(kv)

    with open(path, encoding="utf-8") as f:
        doc = json.loads(f.read(), parse_constant=constant,
                         object_pairs_hook=pairs)
    check(list(doc) == TOP, "top-level keys %r" % list(doc))
    fams = []
    hit = []
    for b in doc["benchmarks"]:
        for m in b["metrics"]:
            for e in m["kernels"]:
                check(list(e) == ENTRY, "%s %s: keys %r" %
                      (b["id"], m["name"], list(e)))
                fams.append((e["family"], e["run_p"], e["adjusted_p"]))
                if (e["kernel"], b["id"], m["name"]) == (kernel, bench,
                                                           metric):
                    hit.append(e)
    pvalues(fams)
    check(len(hit) == 1, "%d entries of %s %s %s" %
          (len(hit), kernel, bench, metric))
    print("mean %r" % float(hit[0]["mean"]))
    s = [r for r in doc["summary"] if r["kernel"] == kernel]
    check(len(s) == 1, "summary: %d entries of %s" % (len(s), kernel))
    check(list(s[0]) == SUMMARY, "summary: keys %r" % list(s[0]))
    print("geomean %r %r %r" % tuple(float(s[0][c]) for c in SUMMARY[5:]))


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("csv", "pandas", "json"):
        fail("usage: export-load.py csv|pandas|json DIR|FILE KERNEL BENCH "
             "METRIC")
    {"csv": with_csv, "pandas": with_pandas,
     "json": with_json}[sys.argv[1]](*sys.argv[2:])


main()
