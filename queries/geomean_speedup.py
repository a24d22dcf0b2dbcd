# geomean_speedup.py — the plot cell of geomean_speedup.sql's notebook.
# One figure per system: a group of bars per mechanism, a bar per mode (measured and predicted
# side by side, never averaged together), each as high as the query's geomean_speedup over the
# baseline (1 = as fast as the baseline, higher is faster).
baseline = PARAMS["baseline"]
for system, frame in data.groupby("system", sort=False):
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(frame) + 3), 4.5))
    grouped_bars(ax, frame, "mechanism", "geomean_speedup", system, series="mode")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    log_scale_if_spread(ax, frame["geomean_speedup"])
    ax.set_xlabel("mechanism")
    ax.set_ylabel("geometric-mean speedup over %s (x)" % baseline)
    ax.set_title("Geometric-mean speedup over %s across workloads on %s" % (baseline, system), fontsize="medium")
    legend(ax)
    finish(fig, system)
