# run_outcomes.py — the plot cell of run_outcomes.sql's notebook.
# A group of bars per mode, a bar per status, as high as the query's runs (the number of runs of
# that mode that ended so). The query repeats that count on the row of every failing run it lists;
# each of those rows is drawn by its status's bar. The failing runs are listed below the figure.
first = data.drop_duplicates(["status", "mode"])
fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(first) + 3), 4.5))
grouped_bars(ax, first, "mode", "runs", "by-mode", series="status",
             colours={"ok": "#59a14f", "check_failed": "#f28e2b", "error": "#e15759"})
drawn = {(PLOTTED[i]["row"]): PLOTTED[i]["drawn"] for i in range(len(PLOTTED))}
for index, row in data.iterrows():
    if index not in drawn:
        same = first[(first["status"] == row["status"]) & (first["mode"] == row["mode"])].index[0]
        record("by-mode", index, "runs", drawn[same])
log_scale_if_spread(ax, first["runs"])
ax.set_xlabel("mode")
ax.set_ylabel("runs")
ax.set_title("How the runs ended, per mode", fontsize="medium")
legend(ax)
finish(fig, "by-mode")
data[data["run_id"].notna()]
