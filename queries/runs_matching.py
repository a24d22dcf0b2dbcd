# runs_matching.py — the plot cell of runs_matching.sql's notebook.
# A bar per run the query lists (newest first: id, mechanism, workload, mode), as high as its
# cycles and coloured by mechanism; the value of :key each run's configuration has is in the
# table below the figure. A failed run without cycles draws no bar.
labels = data["id"].astype(str) + " " + data["mechanism"] + " " + data["workload"] + " " + data["mode"]
fig, ax = plt.subplots(figsize=(min(40, max(6, 0.3 * len(data) + 3)), 4.5))
grouped_bars(ax, data.assign(label=labels), "label", ["cycles"], "cycles")
mechanisms = list(dict.fromkeys(data["mechanism"]))
for patch, mechanism in zip(ax.patches, data["mechanism"]):
    patch.set_color("C%d" % (mechanisms.index(mechanism) % 10))
log_scale_if_spread(ax, data["cycles"])
ax.set_xlabel("run: id, mechanism, workload, mode")
ax.set_ylabel("cycles")
ax.set_title("Runs whose %s matches %s" % (PARAMS["key"], PARAMS["value"]), fontsize="medium")
finish(fig, "cycles")
data[["id", "system", "mechanism", "workload", "mode", "status", "cycles", "key_value"]]
