-- model_error: how accurate is each mechanism's calibrated analytical model against the detailed simulator?
-- Summarises the held-out validations of every calibration: mean and maximum absolute relative
-- error of predicted cycles (targets: mean <= 5 %, max <= 15 %) and the largest stall-fraction
-- error (target <= 0.05). Calibrations without validations are left out; mean_r2 is the mean of
-- the calibrations' fits, each calibration counted once however many validations it has.
WITH per_calibration AS (
    SELECT c.id, c.mechanism, c.system, c.r2, count(v.id) AS validations,
           sum(abs(v.relative_error)) AS abs_error_sum, count(v.relative_error) AS errors,
           max(abs(v.relative_error)) AS max_abs_error, max(v.stall_fraction_error) AS max_stall_fraction_error
    FROM calibrations c
    JOIN validations v ON v.calibration_id = c.id
    GROUP BY c.id
)
SELECT mechanism, system, count(*) AS calibrations, sum(validations) AS validations,
       round(100 * sum(abs_error_sum) / sum(errors), 2) AS mean_abs_error_pct,
       round(100 * max(max_abs_error), 2) AS max_abs_error_pct,
       round(max(max_stall_fraction_error), 4) AS max_stall_fraction_error,
       round(avg(r2), 4) AS mean_r2
FROM per_calibration
GROUP BY mechanism, system
ORDER BY mean_abs_error_pct DESC;
