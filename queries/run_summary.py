# run_summary.py — the plot cell of run_summary.sql's notebook.
# One figure per mode: a bar per (system, mechanism), stacked from the query's ok, check_failed
# and error counts, so that its height is the query's runs.
for mode, frame in data.groupby("mode", sort=False):
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(frame) + 3), 4.5))
    stacked_bars(ax, frame.assign(bar=frame["system"] + " / " + frame["mechanism"]), "bar",
                 ["ok", "check_failed", "error"], mode,
                 colours={"ok": "#59a14f", "check_failed": "#f28e2b", "error": "#e15759"})
    ax.set_xlabel("system / mechanism")
    ax.set_ylabel("runs")
    ax.set_title("Runs stored (%s mode) by outcome" % mode, fontsize="medium")
    legend(ax)
    finish(fig, mode)
