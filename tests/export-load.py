#!/usr/bin/env python3
"""Load report/vmreport's exports with the readers a user has, as
docs/report.md says, and check their shape (tests/check_export.c).

    export-load.py DIR KERNEL BENCH METRIC READER...

DIR holds metrics.csv, settings.csv and summary.csv (vmreport --format
csv [--what settings|summary]) and out.json (--format json).  The
readers, in one process (pandas, a second of CPU to import, imported
once): csv and pandas read the three tables with no reader options,
Python's csv.DictReader or pandas.read_csv; json reads out.json with
json.loads, refusing NaN, Infinity and duplicate keys.  Each checks the
columns (keys), that every table is rectangular and the metrics table
tidy (one row per kernel, benchmark and metric), then prints one line
for the test to compare with the text view:

    READER mean V geomean G LO HI

V the mean of METRIC of BENCH on KERNEL, G the summary's geometric mean
of KERNEL and LO, HI its interval.  A failed check, or the reader
itself failing, ends that reader alone: "READER failed: WHY"; pandas
without pandas: "pandas missing".  Each line is flushed when it is
printed, in the order the readers were named.  Exit status 0, or 2 on
bad arguments.
"""
import sys

METRICS = (
    "kernel,benchmark,metric,unit,direction,status,n,mean,sd,cov,min,"
    "median,max,ci_low,ci_high,change_pct,welch_p,welch_df,significant,"
    "significant_default,significant_detail,ratio,ratio_ci_low,ratio_ci_high,ratio_unbounded,noisy,scope,quiet,"
    "foreign_cpu,runs,boots,run_p,adjusted_p,family,family_size,verdict,"
    "same_bound_pct,tost_p,runs_needed,change_ci_low,change_ci_high,key,"
    "headline,mem_quiet,foreign_mem_pct,work_differs,verdict_reason,"
    "format_version").split(",")
SETTINGS = ["kernel", "setting", "value", "format_version"]
SUMMARY = ["kernel", "baseline", "metrics", "runs_baseline", "runs",
           "geomean_ratio", "geomean_ci_low", "geomean_ci_high"]
SUMMARY_CSV = SUMMARY + ["format_version"]
FORMAT_VERSION = 1
TOP = ["format_version", "baseline", "kernels", "noisy_cov", "min_change_pct",
       "quiet_threshold_pct", "mem_threshold_pct", "alpha", "useful_pct",
       "families", "settings_same", "settings_differ", "machines", "mixed_machines", "summary",
       "benchmarks"]
ENTRY = ["kernel", "status", "n", "mean", "sd", "cov", "min", "median",
         "max", "ci_low", "ci_high", "noisy", "change_pct", "welch_p",
         "welch_df", "significant", "runs", "boots", "run_p", "adjusted_p",
         "family", "family_size", "verdict", "same_bound_pct", "tost_p",
         "runs_needed", "change_ci_low", "change_ci_high", "ratio",
         "ratio_ci_low", "ratio_ci_high", "ratio_unbounded", "work_differs",
         "verdict_reason", "significant_default", "significant_detail"]
FAMILIES = ("holm-headline", "bh-secondary", "bh-detail", "none")


class Failed(Exception):
    """A check of the reader that runs failed."""


class Missing(Exception):
    """The reader is not installed."""


def fail(msg):
    raise Failed(msg)


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
        if fam in FAMILIES[:-1]:
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
        check(all(r["format_version"] == str(FORMAT_VERSION) for r in rows),
              "%s.csv: format_version not %d in every row" %
              (name, FORMAT_VERSION))
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
    load("settings", SETTINGS)
    s = [r for r in load("summary", SUMMARY_CSV) if r["kernel"] == kernel]
    check(len(s) == 1, "summary.csv: %d rows of %s" % (len(s), kernel))
    return [float(hit[0]["mean"])] + [float(s[0][c]) for c in SUMMARY[5:]]


def with_pandas(d, kernel, bench, metric):
    try:
        import pandas
    except ImportError:
        raise Missing()

    def load(name, header):
        t = pandas.read_csv("%s/%s.csv" % (d, name))
        check(list(t.columns) == header, "%s.csv: columns %r" %
              (name, list(t.columns)))
        check(len(t) > 0, "%s.csv: no rows" % name)
        check((t["format_version"] == FORMAT_VERSION).all(),
              "%s.csv: format_version not %d in every row" %
              (name, FORMAT_VERSION))
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
    load("settings", SETTINGS)
    s = load("summary", SUMMARY_CSV)
    s = s[s.kernel == kernel]
    check(len(s) == 1, "summary.csv: %d rows of %s" % (len(s), kernel))
    return ([float(hit["mean"].iloc[0])] +
            [float(s[c].iloc[0]) for c in SUMMARY[5:]])


def with_json(d, kernel, bench, metric):
    import json

    path = "%s/out.json" % d

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
    check(doc["format_version"] == FORMAT_VERSION,
          "format_version %r" % (doc["format_version"],))
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
    s = [r for r in doc["summary"] if r["kernel"] == kernel]
    check(len(s) == 1, "summary: %d entries of %s" % (len(s), kernel))
    check(list(s[0]) == SUMMARY, "summary: keys %r" % list(s[0]))
    return [float(hit[0]["mean"])] + [float(s[0][c]) for c in SUMMARY[5:]]


READERS = {"csv": with_csv, "pandas": with_pandas, "json": with_json}


def main():
    if len(sys.argv) < 6 or any(r not in READERS for r in sys.argv[5:]):
        print("usage: export-load.py DIR KERNEL BENCH METRIC "
              "csv|pandas|json...", file=sys.stderr)
        sys.exit(2)
    for r in sys.argv[5:]:
        try:
            figs = READERS[r](*sys.argv[1:5])
            print("%s mean %r geomean %r %r %r" % tuple([r] + figs))
        except Missing:
            print("%s missing" % r)
        except Failed as e:
            print("%s failed: %s" % (r, e))
        except Exception as e:
            # the reader itself: a parse error, a missing column
            print("%s failed: %s: %s" % (r, type(e).__name__, e))
        sys.stdout.flush()


main()
