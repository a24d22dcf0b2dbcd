# best_configs.py — the plot cell of best_configs.sql's notebook.
# One panel per workload: a bar per ranked configuration (rank: mechanism, mode, configuration
# hash), as high as the query's value, the mean of :metric over the configuration's runs (lower
# is better); the cache budget in each label is the configuration's total cache bytes.
metric = PARAMS["metric"]
workloads = list(dict.fromkeys(data["workload"]))
columns = min(2, len(workloads))
lines = (len(workloads) + columns - 1) // columns
fig, axes = plt.subplots(lines, columns, figsize=(7 * columns, 4.2 * lines), squeeze=False)
for ax, workload in zip(axes.ravel(), workloads):
    frame = data[data["workload"] == workload]
    labels = (frame["rank"].astype(str) + ": " + frame["mechanism"] + " " + frame["mode"] + " "
              + frame["config_hash"].str[:8] + " (" + (frame["cache_bytes"] / 1024).map("{:g} KiB".format) + ")")
    grouped_bars(ax, frame.assign(label=labels), "label", ["value"], "by-workload")
    log_scale_if_spread(ax, frame["value"])
    ax.set_title(workload, fontsize="medium")
    ax.set_xlabel("rank: mechanism, mode, configuration (total cache)", fontsize="small")
    ax.set_ylabel("mean %s (lower is better)" % metric, fontsize="small")
for ax in axes.ravel()[len(workloads):]:
    ax.set_visible(False)
fig.suptitle("Best configurations per workload by %s" % metric)
finish(fig, "by-workload")
