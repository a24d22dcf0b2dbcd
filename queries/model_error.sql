-- model_error: how accurate is each mechanism's calibrated analytical model against the detailed simulator?
-- Summarises the held-out validations of every calibration: mean and maximum absolute relative
-- error of predicted cycles (targets: mean <= 5 %, max <= 15 %) and the largest stall-fraction
-- error (target <= 0.05).
SELECT c.mechanism, c.system, count(DISTINCT c.id) AS calibrations, count(v.id) AS validations,
       round(100 * avg(abs(v.relative_error)), 2) AS mean_abs_error_pct,
       round(100 * max(abs(v.relative_error)), 2) AS max_abs_error_pct,
       round(max(v.stall_fraction_error), 4) AS max_stall_fraction_error,
       round(avg(c.r2), 4) AS mean_r2
FROM calibrations c
JOIN validations v ON v.calibration_id = c.id
GROUP BY c.mechanism, c.system
ORDER BY mean_abs_error_pct DESC;
