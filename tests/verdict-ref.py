#!/usr/bin/env python3
# Reference values for tests/check_verdict.c (its verdicts, the
# moderated t and the load beside the runs: each run's other processes'
# CPU, the loud runs of each label, the different-loads rule) and the
# Holm, Benjamini-Hochberg and run-level geometric-mean tests of
# tests/check_rstats.c,
# computed from the textbook definitions, independently of the C code
# and of GSL: the t distribution from mpmath's regularised incomplete
# beta, P(T > t) = I_{df/(df+t^2)}(df/2, 1/2) / 2, its quantiles by
# mpmath.findroot; normal quantiles from Python's statistics.NormalDist.
# No scipy.  Run: python3 tests/verdict-ref.py  (prints the table the
# tests' comments quote).
import itertools
import math
from statistics import NormalDist

import mpmath as mp

mp.mp.dps = 30


def tq(t, df):
    """P(T > t), T Student with df degrees of freedom."""
    t = mp.mpf(t)
    x = df / (df + t * t)
    half = 0.5 * mp.betainc(df / 2, 0.5, 0, x, regularized=True)
    return half if t >= 0 else 1 - half


def tinv(p, df):
    """t with P(T > t) = p."""
    return mp.findroot(lambda t: tq(t, df) - p, 2)


def desc(v):
    n = len(v)
    m = mp.fsum(v) / n
    s2 = mp.fsum((x - m) ** 2 for x in v) / (n - 1) if n > 1 else None
    return n, m, s2


def welch(a, b):
    na, ma, sa2 = desc(a)
    nb, mb, sb2 = desc(b)
    va, vb = sa2 / na, sb2 / nb
    t = (mb - ma) / mp.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    return t, df, 2 * tq(abs(t), df)


def fieller(a, b, df):
    na, ma, sa2 = desc(a)
    nb, mb, sb2 = desc(b)
    va, vb = sa2 / na, sb2 / nb
    t = tinv(0.025, df)
    den = ma * ma - t * t * va
    h = t * mp.sqrt(ma * ma * vb + mb * mb * va - t * t * va * vb)
    return (ma * mb - h) / den, (ma * mb + h) / den


def tost(a, b, x):
    """Two one-sided tests of |(mb - ma) / |ma|| < x on the ratio, each
    H0 mb - theta ma = 0 against one side, theta = 1 -+ x sign(ma),
    Satterthwaite df of vb + theta^2 va."""
    na, ma, sa2 = desc(a)
    nb, mb, sb2 = desc(b)
    va, vb = sa2 / na, sb2 / nb
    sg = 1 if ma > 0 else -1
    out = []
    for th, upper in ((1 - x * sg, True), (1 + x * sg, False)):
        v = vb + th * th * va
        df = v * v / (vb ** 2 / (nb - 1) + th ** 4 * va ** 2 / (na - 1))
        t = (mb - th * ma) / mp.sqrt(v)
        out.append((t, df, tq(t, df) if upper else tq(-t, df)))
    return out


def runs_z(cov, delta, alpha=0.05, power=0.8):
    """The normal approximation (a lower bound of runs_needed)."""
    z = NormalDist().inv_cdf
    chg = 2 * (z(1 - alpha / 2) + z(power)) ** 2 * (cov / delta) ** 2
    eqv = 2 * (z(1 - alpha) + z(1 - (1 - power) / 2)) ** 2 * \
        (cov / delta) ** 2
    return chg, eqv


def runs_t(p1, p2, r):
    """Fewest n >= 2 with 2 (t_{1-p1} + t_{1-p2})^2 r <= n, df 2n - 2
    (t_{1-p}: the t with P(T > t) = p), counted up from the normal
    formula's n (z < t, so no smaller n holds)."""
    z = NormalDist().inv_cdf
    n = max(2, math.ceil(2 * (z(1 - p1) + z(1 - p2)) ** 2 * r) - 1)
    while True:
        t = tinv(p1, 2 * n - 2) + tinv(p2, 2 * n - 2)
        if 2 * t * t * r <= n:
            return n
        n += 1


def runs_needed(cov, delta, alpha=0.05, power=0.8, same=True):
    """Runs a side: detect a change of delta (t(1-alpha/2) + t(power)),
    and with same the two one-sided tests at delta (t(1-alpha) +
    t(1-(1-power)/2)): the larger."""
    r = (cov / delta) ** 2
    n = runs_t(alpha / 2, 1 - power, r)
    if same:
        n = max(n, runs_t(alpha, (1 - power) / 2, r))
    return n


def runs_to_decide(cov, change, bound, alpha=0.05, family=0):
    """Observed |change| above the bound: detect it; else the bound;
    at alpha / family when family > 1."""
    a = alpha / family if family > 1 else alpha
    if abs(change) > bound:
        return runs_needed(cov, abs(change), a, same=False)
    return runs_needed(cov, bound, a)


def holm(p):
    idx = sorted((i for i in range(len(p)) if p[i] is not None),
                 key=lambda i: p[i])
    m = len(idx)
    out = [None] * len(p)
    for r, i in enumerate(idx):
        # max over j <= r of min(1, (m - j) p_(j))
        out[i] = max(min(1, (m - j) * p[idx[j]]) for j in range(r + 1))
    return out


def bh(p):
    idx = sorted((i for i in range(len(p)) if p[i] is not None),
                 key=lambda i: p[i])
    m = len(idx)
    out = [None] * len(p)
    for r, i in enumerate(idx):
        # min over j >= r of min(1, m p_(j) / (j + 1))
        out[i] = min(min(1, m * p[idx[j]] / (j + 1)) for j in range(r, m))
    return out


def perm_p(na, nb):
    """Brute force: every way to share na x's and nb y's (x != y)."""
    vals = [1] * na + [0] * nb
    obs = abs(sum(vals[:na]) / na - sum(vals[na:]) / nb)
    hits = tot = 0
    for c in itertools.combinations(range(na + nb), na):
        s = set(c)
        ma = sum(vals[i] for i in s) / na
        mb = sum(vals[i] for i in range(na + nb) if i not in s) / nb
        tot += 1
        hits += abs(mb - ma) >= obs - 1e-12
    return hits, tot


def show(name, *v):
    print(name, " ".join(mp.nstr(x, 15) if not isinstance(x, str) else x
                         for x in v))


RA = [101.3, 98.7, 100.4, 99.1]
RB = [104.2, 106.0, 103.1]
SA = [100.2, 99.1, 100.8, 99.6, 100.3]
SB = [100.5, 99.8, 100.1, 100.4]
CA = [100.0, 90.0, 110.0]
CB = [105.0, 95.0]

print("== changed: RA", RA, "RB", RB)
t, df, p = welch(RA, RB)
show("welch t df p", t, df, p)
lo, hi = fieller(RA, RB, df)
show("fieller", lo, hi)
na, ma, sa2 = desc(RA)
nb, mb, sb2 = desc(RB)
show("means", ma, mb, "change% lower", (ma - mb) / abs(ma) * 100)
show("better% interval (lower)", -(hi - 1) * 100, -(lo - 1) * 100)
for x in (0.01, 0.05):
    for t1, d1, p1 in tost(RA, RB, x):
        show("tost x", x, "t", t1, "df", d1, "p", p1)
show("cov a b", mp.sqrt(sa2) / ma, mp.sqrt(sb2) / mb)

print("== same: SA", SA, "SB", SB)
t, df, p = welch(SA, SB)
show("welch t df p", t, df, p)
lo, hi = fieller(SA, SB, df)
show("fieller", lo, hi)
na, ma, sa2 = desc(SA)
nb, mb, sb2 = desc(SB)
show("change% higher", (mb - ma) / abs(ma) * 100)
for x in (0.01, 0.02):
    for t1, d1, p1 in tost(SA, SB, x):
        show("tost x", x, "t", t1, "df", d1, "p", p1)
cov = max(mp.sqrt(sa2) / ma, mp.sqrt(sb2) / mb)
show("larger cov", cov)
chg = float((mb - ma) / abs(ma))
for x in (0.01, 0.02):
    show("runs needed x", x, runs_needed(float(cov), x),
         "to decide the change", runs_to_decide(float(cov), chg, x))

print("== can't tell: CA", CA, "CB", CB)
t, df, p = welch(CA, CB)
show("welch t df p", t, df, p)
lo, hi = fieller(CA, CB, df)
show("fieller", lo, hi)
for t1, d1, p1 in tost(CA, CB, 0.05):
    show("tost x 0.05 t", t1, "df", d1, "p", p1)
na, ma, sa2 = desc(CA)
nb, mb, sb2 = desc(CB)
cov = max(mp.sqrt(sa2) / ma, mp.sqrt(sb2) / mb)
show("larger cov", cov)
show("runs needed x 0.05", runs_needed(float(cov), 0.05),
     "to decide the change", runs_to_decide(float(cov),
                                            float((ma - mb) / abs(ma)), 0.05))

print("== one run: RA against 108.0; prediction interval from RA")
na, ma, sa2 = desc(RA)
h = tinv(0.025, na - 1) * mp.sqrt(sa2) * mp.sqrt(1 + mp.mpf(1) / na)
show("PI", ma - h, ma + h, "t", tinv(0.025, na - 1))
show("cov", mp.sqrt(sa2) / ma)
show("runs needed x 0.01", runs_needed(float(mp.sqrt(sa2) / ma), 0.01),
     "to decide the change", runs_to_decide(float(mp.sqrt(sa2) / ma),
                                            float((ma - 108) / abs(ma)), 0.01))
show("runs needed x 0.05", runs_needed(float(mp.sqrt(sa2) / ma), 0.05))
print("== one run a side, default CoV 0.10")
show("runs needed x 0.05", runs_needed(0.10, 0.05))
show("runs needed x 0.01", runs_needed(0.10, 0.01))
print("== runs needed, alpha 0.01 power 0.8, cov 0.03 x 0.02")
show("", runs_needed(0.03, 0.02, 0.01, 0.8))
print("== runs needed at cov 0.10 x 0.01; cov 0.001 x 0.5; z lower bounds")
show("", runs_needed(0.10, 0.01), runs_needed(0.001, 0.5), *runs_z(0.10, 0.01))
print("== to decide: cov 0.36, change -0.51, bound 0.01, family 6")
show("", runs_to_decide(0.36, -0.51, 0.01, 0.05, 6))

print("== permutation p, brute force")
for na, nb in ((2, 2), (3, 3), (3, 2), (4, 4), (5, 5), (6, 6), (4, 3)):
    h, n = perm_p(na, nb)
    print(na, nb, "%d/%d" % (h, n))

print("== Holm and BH (None = untested)")
P = [0.01, 0.04, 0.03, 0.005, None, 0.2, 0.04]
print("p   ", P)
print("holm", [None if x is None else round(x, 15) for x in holm(P)])
print("bh  ", [None if x is None else round(x, 15) for x in bh(P)])
Q = [0.5, 0.6, 0.9]
print("p   ", Q)
print("holm", holm(Q))
print("bh  ", bh(Q))

print("== geometric mean over runs")
# two metrics (rows), runs as columns: A 3 runs, B 2 runs
GA = [[2.0, 2.2, 2.1], [10.0, 11.0, 10.5]]
GB = [[1.9, 2.0], [10.2, 10.8]]
la = [mp.fsum(mp.log(GA[m][i]) for m in range(2)) / 2 for i in range(3)]
lb = [mp.fsum(mp.log(GB[m][i]) for m in range(2)) / 2 for i in range(2)]
t, df, p = welch(la, lb)
_, ma, sa2 = desc(la)
_, mb, sb2 = desc(lb)
se = mp.sqrt(sa2 / 3 + sb2 / 2)
tt = tinv(0.025, df)
show("g lo hi df", mp.exp(mb - ma), mp.exp(mb - ma - tt * se),
     mp.exp(mb - ma + tt * se), df)

print("== worked example: forkbomb forks_per_s (higher is better),")
print("   results/examples/example-a,b,c against example-d,e")


def res_column(path, name):
    cols, vals = [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == "metric":
            cols.append(w[1])
        elif w and w[0] == "iter":
            x = w[2 + cols.index(name)]
            if x != "-":
                vals.append(float(x))
    return vals


EXD = "results/examples/example-"
it = {r: res_column(EXD + r + "/forkbomb.res", "forks_per_s")
      for r in "abcde"}
for r in "abcde":
    print(r, it[r], "run mean", mp.nstr(mp.fsum(it[r]) / len(it[r]), 15))
WA = [mp.fsum(it[r]) / len(it[r]) for r in "abc"]
WB = [mp.fsum(it[r]) / len(it[r]) for r in "de"]
na, ma, sa2 = desc(WA)
nb, mb, sb2 = desc(WB)
show("run means: A mean", ma, "sd", mp.sqrt(sa2), "cov", mp.sqrt(sa2) / ma)
show("           B mean", mb, "sd", mp.sqrt(sb2), "cov", mp.sqrt(sb2) / mb)
t, df, p = welch(WA, WB)
show("welch on run means t df p", t, df, p)
lo, hi = fieller(WA, WB, df)
show("change% (higher)", (mb - ma) / abs(ma) * 100, "CI",
     (lo - 1) * 100, (hi - 1) * 100)
for x in (0.01, 0.05, 0.10):
    r = tost(WA, WB, x)
    show("tost x", x, "p_low", r[0][2], "p_high", r[1][2])
cov = max(mp.sqrt(sa2) / ma, mp.sqrt(sb2) / mb)
chg = float((mb - ma) / abs(ma))
for x in (0.01, 0.05, 0.10):
    show("runs needed x", x, runs_needed(float(cov), x),
         "to decide the change", runs_to_decide(float(cov), chg, x))
PA = it["a"] + it["b"] + it["c"]
PB = it["d"] + it["e"]
t, df, p = welch(PA, PB)
na, ma, _ = desc(PA)
nb, mb, _ = desc(PB)
show("old model, iterations pooled: n", na, nb, "change%",
     (mb - ma) / abs(ma) * 100, "t df p", t, df, p)
t, df, p = welch(it["a"], it["d"])
show("old model, a against d: t df p", t, df, p)
na, ma, sa2 = desc(WA)
h = tinv(0.025, na - 1) * mp.sqrt(sa2) * mp.sqrt(1 + mp.mpf(1) / na)
show("one run of d against runs a,b,c: prediction interval", ma - h, ma + h,
     "d's run mean", WB[0])


# ---- the moderated t (Smyth 2004), for check_verdict.c's "moderated"
# The prior by moments of e_i = log s2_i - digamma(d_i/2) + log(d_i/2):
# trigamma(d0/2) = var(e) - mean(trigamma(d_i/2)), solved by findroot
# (not the Newton iteration of verdict.c), s0^2 = exp(mean(e) +
# digamma(d0/2) - log(d0/2)); the pooled variance on the log scale.


def fit_prior(s2, d):
    e = [mp.log(s) - mp.digamma(mp.mpf(k) / 2) + mp.log(mp.mpf(k) / 2)
         for s, k in zip(s2, d)]
    n = len(e)
    mean = mp.fsum(e) / n
    var = mp.fsum((x - mean) ** 2 for x in e) / (n - 1) - \
        mp.fsum(mp.psi(1, mp.mpf(k) / 2) for k in d) / n
    if var <= 0:
        return mp.exp(mean), mp.inf
    half = mp.findroot(lambda y: mp.psi(1, y) - var, 1 / var)
    d0 = 2 * half
    return mp.exp(mean + mp.digamma(d0 / 2) - mp.log(d0 / 2)), d0


def pooled_log(a, b):
    la = [mp.log(x) for x in a]
    lb = [mp.log(x) for x in b]
    na, ma, sa2 = desc(la)
    nb, mb, sb2 = desc(lb)
    d = na + nb - 2
    return mb - ma, ((na - 1) * sa2 + (nb - 1) * sb2) / d, d, na, nb


def moderated(a, b, s0sq, d0):
    diff, s2, d, na, nb = pooled_log(a, b)
    s2m = s0sq if d0 == mp.inf else (d0 * s0sq + d * s2) / (d0 + d)
    t = diff / mp.sqrt(s2m * (mp.mpf(1) / na + mp.mpf(1) / nb))
    return t, d0 + d, 2 * tq(abs(t), d0 + d)


MODA = [[100, 103, 98], [10.0, 10.4, 10.1], [5.0, 5.6, 4.4],
        [200, 190, 205], [1.000, 1.001, 0.999]]
MODB = [[110, 112, 109], [10.2, 10.1, 10.3], [5.2, 4.5, 5.5],
        [198, 202, 195], [1.001, 0.999, 1.000]]
print("== moderated: prior over MODA[i] against MODB[i] (log scale)")
S2 = [pooled_log(x, y)[1] for x, y in zip(MODA, MODB)]
show("s2", *S2)
S0, D0 = fit_prior(S2, [4] * 5)
show("s0sq d0", S0, D0)
show("figure 0: t df p", *moderated(MODA[0], MODB[0], S0, D0))
show("figure 3: t df p", *moderated(MODA[3], MODB[3], S0, D0))


# ---- the load beside the runs, for check_verdict.c's "loads"
# Other processes' CPU (foreign_cpu, % of a CPU) at each iteration of
# two benchmarks in three runs of three labels, aa1 the baseline.  A
# benchmark run's load is the mean over its iterations; a label's run's
# load (the header's loud runs) the mean over all the iterations of
# every benchmark in it; loud: above the quiet threshold, 5%.  A side's
# load for a benchmark is the mean of its runs' loads; the sides of a
# benchmark ran under different loads when some run of either side is
# loud and the side loads differ by more than the threshold and by more
# than a quarter of the larger (docs/report.md, "Sides under different
# loads").
LOADS = {
    "aa1": {"forkbomb": [[150, 146, 142], [160, 158, 162], [170, 175, 177]],
            "forkbomb@b": [[140, 148, 150], [161, 159, 160],
                           [172, 174, 176]]},
    "aa2": {"forkbomb": [[140, 150, 145], [150, 152, 148], [130, 128, 132]],
            "forkbomb@b": [[1, 2, 1.5], [0.5, 0.4, 0.6], [2, 1, 1.2]]},
    "aa3": {"forkbomb": [[3, 4, 2], [1, 2, 3], [90, 100, 95]],
            "forkbomb@b": [[2, 3, 4], [2, 2, 2], [95, 96, 94]]},
}
QUIET = 5


def mean(v):
    return mp.fsum(v) / len(v)


def side(runs):
    """n, loud, mean, lowest, highest of the runs' loads."""
    m = [mean(r) for r in runs]
    return len(m), sum(1 for x in m if x > QUIET), mean(m), min(m), max(m)


def differ(a, b):
    if not (a[1] + b[1]):
        return False
    d = abs(b[2] - a[2])
    return d > QUIET and d > mp.mpf(1) / 4 * max(a[2], b[2])


print("== loads: foreign_cpu by iteration, threshold", QUIET)
for lab in sorted(LOADS):
    runs = [mean(sum((LOADS[lab][i][r] for i in sorted(LOADS[lab])), []))
            for r in range(3)]
    loud = [x for x in runs if x > QUIET]
    show(lab, "run loads", *runs, "loud", str(len(loud)), "of",
         str(len(runs)), "range", min(loud), max(loud))
for bid in ("forkbomb", "forkbomb@b"):
    base = side(LOADS["aa1"][bid])
    show(bid, "aa1 n loud mean lo hi", *[mp.mpf(x) for x in base])
    for lab in ("aa2", "aa3"):
        s = side(LOADS[lab][bid])
        show(bid, lab, "n loud mean lo hi", *[mp.mpf(x) for x in s],
             "differs" if differ(base, s) else "same load")
