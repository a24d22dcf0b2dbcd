# traffic.py — the plot cell of traffic.sql's notebook.
# One figure per (system, mode, workload), one panel per traffic metric: a group of bars per
# design point (configuration hash), a bar per mechanism, each as high as the query's
# ratio_to_baseline (the mechanism's mean over the baseline's on the same point; 1 = as much
# traffic as the baseline). A point without a baseline run, or whose baseline moved nothing, has
# no ratio and draws no bar.
baseline = PARAMS["baseline"]
for (system, mode, workload), frame in data.groupby(["system", "mode", "workload"], sort=False):
    metrics = list(dict.fromkeys(frame["metric"]))
    points = frame["config_hash"].nunique()
    width = max(4, 0.3 * points * frame["mechanism"].nunique() + 2)
    columns = min(3 if width <= 8 else 1, len(metrics))   # wide panels one above the other
    lines = (len(metrics) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(min(40, columns * width), 3.2 * lines), squeeze=False)
    name = "%s-%s-%s" % (system, mode, workload)
    for ax, metric in zip(axes.ravel(), metrics):
        rows = frame[frame["metric"] == metric]
        grouped_bars(ax, rows.assign(point=rows["config_hash"].str[:8]), "point", "ratio_to_baseline", name,
                     series="mechanism")
        ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
        log_scale_if_spread(ax, rows["ratio_to_baseline"])
        ax.set_title(metric, fontsize="small")
        ax.set_xlabel("design point (configuration hash)", fontsize="small")
        ax.set_ylabel("traffic / %s's (x)" % baseline, fontsize="small")
    for ax in axes.ravel()[len(metrics):]:
        ax.set_visible(False)
    legend(axes.ravel()[columns - 1])
    fig.suptitle("Traffic of %s on %s (%s runs) relative to %s on the same design point" % (workload, system, mode, baseline))
    finish(fig, name)
