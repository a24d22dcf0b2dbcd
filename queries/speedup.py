# speedup.py — the plot cell of speedup.sql's notebook (syncscope export speedup --format ipynb).
# One figure per (system, mode), so that measured (detailed, sampled) and predicted (model)
# speedups are never drawn together: a group of bars per workload, a bar per mechanism, each as
# high as the query's mean_speedup (baseline cycles / mechanism cycles over the workload's design
# points: the baseline is 1, higher is faster), with min_speedup..max_speedup as its error bar.
baseline = PARAMS["baseline"]
for (system, mode), frame in data.groupby(["system", "mode"], sort=False):
    name = "%s-%s" % (system, mode)
    bars = frame["workload"].nunique() * frame["mechanism"].nunique()
    fig, ax = plt.subplots(figsize=(min(40, max(6, 0.3 * bars + 3)), 4.5))
    grouped_bars(ax, frame, "workload", "mean_speedup", name, series="mechanism")
    groups = list(dict.fromkeys(frame["workload"]))
    mechanisms = list(dict.fromkeys(frame["mechanism"]))
    width = 0.8 / len(mechanisms)
    for n, mechanism in enumerate(mechanisms):
        rows = frame[frame["mechanism"] == mechanism]
        positions = [groups.index(g) - 0.4 + width * (n + 0.5) for g in rows["workload"]]
        ax.errorbar(positions, rows["mean_speedup"],
                    yerr=[rows["mean_speedup"] - rows["min_speedup"], rows["max_speedup"] - rows["mean_speedup"]],
                    fmt="none", ecolor="black", elinewidth=0.8, capsize=2)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    log_scale_if_spread(ax, frame[["min_speedup", "max_speedup"]].to_numpy().ravel())
    ax.set_xlabel("workload")
    ax.set_ylabel("speedup over %s (x)\n%s cycles / mechanism cycles" % (baseline, baseline))
    ax.set_title("Speedup over %s on %s (%s runs; bars: mean over design points, whiskers: min..max)"
                 % (baseline, system, mode), fontsize="medium")
    legend(ax)
    finish(fig, name)
