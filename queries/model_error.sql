-- model_error: how accurate is each mechanism's calibrated analytical model against the detailed simulator?
-- Summarises the held-out validations of every calibration: mean and maximum absolute relative
-- error of predicted cycles (targets: mean <= 5 %, max <= 15 %), and the stall-fraction error
-- (each validation stores its largest |model - detailed| fraction over the GSI categories; the
-- mean of those is held to the target 0.05, the largest is shown beside it). fit says what the
-- calibrations were fitted to: `suite` (the built-in workloads' samples) or `workload` (one
-- workload's own samples or sample windows, `calibrate --workload`). With --param per=workload
-- each validated workload gets its own rows; the default (per=mechanism) sums them (workload *).
-- Calibrations without validations are left out; mean_r2 is the mean of the calibrations' fits,
-- each calibration counted once however many validations it has.
-- :workload  validated workload name or GLOB pattern (default: *)
-- :per       rows per mechanism, system and fit, or also per validated workload (one of: mechanism, workload) (default: mechanism)
WITH per_calibration AS (
    SELECT c.id, c.mechanism, c.system, CASE WHEN c.workload IS NULL THEN 'suite' ELSE 'workload' END AS fit,
           CASE WHEN :per = 'workload' THEN v.workload ELSE '*' END AS workload, c.r2,
           count(v.id) AS validations, sum(abs(v.relative_error)) AS abs_error_sum, count(v.relative_error) AS errors,
           max(abs(v.relative_error)) AS max_abs_error, sum(v.stall_fraction_error) AS stall_error_sum,
           count(v.stall_fraction_error) AS stall_errors, max(v.stall_fraction_error) AS max_stall_fraction_error
    FROM calibrations c
    JOIN validations v ON v.calibration_id = c.id
    WHERE v.workload GLOB :workload
    GROUP BY c.id, 5
)
SELECT mechanism, system, fit, workload, count(*) AS calibrations, sum(validations) AS validations,
       round(100 * sum(abs_error_sum) / sum(errors), 2) AS mean_abs_error_pct,
       round(100 * max(max_abs_error), 2) AS max_abs_error_pct,
       round(sum(stall_error_sum) / sum(stall_errors), 4) AS mean_stall_fraction_error,
       round(max(max_stall_fraction_error), 4) AS max_stall_fraction_error,
       round(avg(r2), 4) AS mean_r2
FROM per_calibration
GROUP BY mechanism, system, fit, workload
ORDER BY mean_abs_error_pct DESC, mechanism, system, fit, workload;
