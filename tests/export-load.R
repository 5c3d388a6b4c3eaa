# Load report/vmreport's CSV tables with R's read.csv and no options, as
# docs/report.md says (tests/check_export.c, csv_r):
#     Rscript --default-packages=utils tests/export-load.R DIR KERNEL \
#         BENCH METRIC
# (it needs no package but utils, read.csv's; R starts in half the time
# without the others).
# Checks the columns of DIR/metrics.csv, DIR/settings.csv and
# DIR/summary.csv and one row per kernel, benchmark and metric, then
# prints "mean V" and "geomean G LO HI" as tests/export-load.py does.
a <- commandArgs(trailingOnly = TRUE)
fail <- function(msg) {
	message("export-load.R: ", msg)
	quit(status = 1)
}
load <- function(name, header) {
	t <- read.csv(file.path(a[1], paste0(name, ".csv")))
	if (!identical(names(t), header))
		fail(paste0(name, ".csv: columns ", paste(names(t), collapse = ",")))
	if (nrow(t) == 0)
		fail(paste0(name, ".csv: no rows"))
	if (!all(t$format_version == 1))
		fail(paste0(name, ".csv: format_version not 1 in every row"))
	t
}
m <- load("metrics", strsplit(paste0("kernel,benchmark,metric,unit,",
    "direction,status,n,mean,sd,cov,min,median,max,ci_low,ci_high,",
    "change_pct,welch_p,welch_df,significant,significant_default,",
    "significant_detail,ratio,ratio_ci_low,",
    "ratio_ci_high,ratio_unbounded,noisy,scope,quiet,foreign_cpu,runs,",
    "boots,run_p,adjusted_p,family,family_size,verdict,same_bound_pct,",
    "tost_p,runs_needed,change_ci_low,change_ci_high,key,headline,",
    "mem_quiet,foreign_mem_pct,work_differs,verdict_reason,",
    "format_version"),
    ",")[[1]])
if (anyDuplicated(m[, c("kernel", "benchmark", "metric")]))
	fail("metrics.csv: a repeated row")
if (!is.numeric(m$mean) || !is.numeric(m$adjusted_p))
	fail("metrics.csv: mean or adjusted_p not numbers")
hit <- m[m$kernel == a[2] & m$benchmark == a[3] & m$metric == a[4], ]
if (nrow(hit) != 1)
	fail(paste("metrics.csv:", nrow(hit), "rows of", a[2], a[3], a[4]))
invisible(load("settings", c("kernel", "setting", "value",
    "format_version")))
g <- load("summary", c("kernel", "baseline", "metrics", "runs_baseline",
    "runs", "geomean_ratio", "geomean_ci_low", "geomean_ci_high",
    "format_version"))
g <- g[g$kernel == a[2], ]
if (nrow(g) != 1)
	fail(paste("summary.csv:", nrow(g), "rows of", a[2]))
cat(sprintf("mean %.10g\ngeomean %.10g %.10g %.10g\n", hit$mean,
    g$geomean_ratio, g$geomean_ci_low, g$geomean_ci_high))
