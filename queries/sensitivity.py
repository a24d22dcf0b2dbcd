# sensitivity.py — the plot cell of sensitivity.sql's notebook.
# One figure per sweep: a bar per varied parameter, as high as the query's relative_range (the
# spread of mean cycles over that parameter's values, (max - min) / mean: how much runtime
# depends on it), in the query's order.
for sweep, frame in data.groupby("sweep", sort=False):
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(frame) + 3), 4.5))
    grouped_bars(ax, frame, "parameter", ["relative_range"], sweep)
    ax.set_xlabel("parameter varied by the sweep")
    ax.set_ylabel("relative range of mean cycles\n(max - min) / mean")
    ax.set_title("Sensitivity of runtime to each parameter of sweep %s" % sweep, fontsize="medium")
    finish(fig, sweep)
