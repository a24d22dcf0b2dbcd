# model_hits.py — the plot cell of model_hits.sql's notebook.
# One figure per (system, mechanism), two panels, a group of bars per workload: the mean
# absolute relative errors of the model's predicted cycles, L1 misses and L2 misses against the
# detailed runs (%), and the mean absolute error of the L1 hit ratio (percentage points). A
# workload whose detailed runs have no such count has no value and draws no bar.
for (system, mechanism), frame in data.groupby(["system", "mechanism"], sort=False):
    name = "%s-%s" % (system, mechanism)
    fig, axes = plt.subplots(1, 2, figsize=(max(12, 0.9 * len(frame) + 6), 4.5))
    grouped_bars(axes[0], frame, "workload", ["cycle_mean_abs_pct", "l1_miss_mean_abs_pct", "l2_miss_mean_abs_pct"], name)
    axes[0].set_ylabel("mean |model - detailed| / detailed (%)")
    axes[0].set_title("cycles, L1 misses and L2 misses", fontsize="medium")
    axes[0].legend(fontsize="small")
    grouped_bars(axes[1], frame, "workload", ["l1_hit_ratio_mean_abs_pp"], name)
    axes[1].set_ylabel("mean |model - detailed| L1 hit ratio\n(percentage points)")
    axes[1].set_title("L1 hit ratio", fontsize="medium")
    for ax in axes:
        ax.set_xlabel("workload")
    fig.suptitle("Model against detailed line counts: %s on %s" % (mechanism, system))
    finish(fig, name)
