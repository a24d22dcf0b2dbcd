# stall_breakdown.py — the plot cell of stall_breakdown.sql's notebook.
# The query has already normalised every value to the baseline's total cycles on the same design
# point, so each segment below is drawn exactly as the query gives it and the baseline's bar
# reaches 1 (dashed line). One bar per (design point, mechanism); design points are never summed.
# One figure per (system, mode, workload) for the eight GSI categories (a category with no row of
# its own is drawn as its sub-category rows), then one per category with sub-categories.
baseline = PARAMS["baseline"]
rows = data.assign(category=data["category"].str.lower(), subcategory=data["subcategory"].str.lower())
point = ["system", "mode", "workload", "config_hash", "mechanism"]
whole = rows[rows["subcategory"].isna()]
parts = rows[rows["subcategory"].notna()]
has_own_row = set(map(tuple, whole[point + ["category"]].to_numpy().tolist()))
alone = parts[[tuple(r) not in has_own_row for r in parts[point + ["category"]].to_numpy().tolist()]]
overall = pd.concat([whole.assign(segment=whole["category"]),
                     alone.assign(segment=alone["category"] + "/" + alone["subcategory"])])
detail = parts.assign(segment=parts["category"] + "/" + parts["subcategory"])


def bar_labels(frame):
    """mechanism, with the design point's configuration hash when the workload has several."""
    if frame["config_hash"].nunique() == 1:
        return frame["mechanism"]
    return frame["config_hash"].str[:8] + " " + frame["mechanism"]


def breakdown(frame, title, name):
    bars = frame[point].drop_duplicates().shape[0]
    fig, ax = plt.subplots(figsize=(min(40, max(6, 0.35 * bars + 3)), 4.5))
    stacked_bars(ax, frame.assign(bar=bar_labels(frame)), "bar", "normalized_cycles", name,
                 segment="segment", colours=STALL_COLOURS, labels=STALL_LABELS)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    ax.set_xlabel("mechanism" if frame["config_hash"].nunique() == 1 else "design point (configuration hash) and mechanism")
    ax.set_ylabel("cycles / %s's total cycles\non the same design point" % baseline)
    ax.set_title(title, fontsize="medium")
    legend(ax)
    finish(fig, name)


for (system, mode, workload), frame in overall.groupby(["system", "mode", "workload"], sort=False):
    breakdown(frame, "GSI stall breakdown of %s on %s (%s), normalised to %s" % (workload, system, mode, baseline),
              "%s-%s-%s" % (system, mode, workload))
for (system, mode, workload, category), frame in detail.groupby(["system", "mode", "workload", "category"], sort=False):
    breakdown(frame, "%s stalls of %s on %s (%s), normalised to %s" % (STALL_LABELS.get(category, category), workload,
                                                                       system, mode, baseline),
              "%s-%s-%s-%s" % (system, mode, workload, category))
