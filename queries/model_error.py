# model_error.py — the plot cell of model_error.sql's notebook.
# One figure per system, three panels, a bar group per row (mechanism, with its fit when fitted
# to one workload and its workload under --param per=workload): the mean and the maximum absolute
# error of the model's predicted cycles against held-out detailed runs (targets 5 % and 15 %),
# the mean (target 0.05) and largest stall-fraction error, and the mean R^2 of the fits.
data = data.assign(model=[
    m + ("" if f == "suite" else " (" + f + " fit)") + ("" if w == "*" else ": " + w)
    for m, f, w in zip(data["mechanism"], data["fit"], data["workload"])])
for system, frame in data.groupby("system", sort=False):
    name = system
    fig, axes = plt.subplots(1, 3, figsize=(max(12, 1.2 * len(frame) + 9), 4.5))
    grouped_bars(axes[0], frame, "model", ["mean_abs_error_pct", "max_abs_error_pct"], name)
    axes[0].axhline(5, color="C0", linestyle="--", linewidth=1, label="target for the mean (5 %)")
    axes[0].axhline(15, color="C1", linestyle="--", linewidth=1, label="target for the maximum (15 %)")
    axes[0].set_ylabel("|predicted - detailed| / detailed cycles (%)")
    axes[0].set_title("cycle error", fontsize="medium")
    axes[0].legend(fontsize="small")
    grouped_bars(axes[1], frame, "model", ["mean_stall_fraction_error", "max_stall_fraction_error"], name)
    axes[1].axhline(0.05, color="C0", linestyle="--", linewidth=1, label="target for the mean (0.05)")
    axes[1].set_ylabel("stall-fraction error (fraction of cycles)")
    axes[1].set_title("stall-fraction error", fontsize="medium")
    axes[1].legend(fontsize="small")
    grouped_bars(axes[2], frame, "model", ["mean_r2"], name)
    axes[2].set_ylabel("mean R² of the calibration fits")
    axes[2].set_title("fit quality", fontsize="medium")
    for ax in axes:
        ax.set_xlabel("mechanism (fit, workload)")
    fig.suptitle("Analytical model against the detailed simulator on %s (held-out validations)" % system)
    finish(fig, name)
