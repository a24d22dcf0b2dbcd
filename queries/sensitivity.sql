-- sensitivity: how sensitive is runtime to each parameter swept in :sweep?
-- For every varied key of the sweep's points, the mean cycles at each of its values (over all
-- other keys, mechanisms and workloads); relative_range = (max - min) / mean of those means.
-- A larger relative_range means runtime depends more on that parameter. Points are grouped by
-- (spec, point_index), the order their indexes are read in (the sweep is found by name), so the
-- runs stream without a sort.
-- :sweep  sweep name
WITH point AS (
    SELECT p.params, avg(r.cycles) AS cycles, count(*) AS runs
    FROM sweeps s
    JOIN sweep_points p ON p.sweep_id = s.id
    JOIN runs r ON r.sweep_point_id = p.id
    WHERE s.name = :sweep AND r.status = 'ok' AND r.cycles > 0
    GROUP BY s.spec, p.point_index
),
by_value AS (
    SELECT j.key AS parameter, j.value AS value, sum(point.cycles * point.runs) / sum(point.runs) AS cycles,
           sum(point.runs) AS runs
    FROM point, json_each(point.params) j
    GROUP BY j.key, j.value
)
SELECT parameter, count(*) AS values_tried, sum(runs) AS runs,
       round(min(cycles), 1) AS min_mean_cycles, round(max(cycles), 1) AS max_mean_cycles,
       round((max(cycles) - min(cycles)) / avg(cycles), 4) AS relative_range
FROM by_value
GROUP BY parameter
ORDER BY relative_range DESC;
