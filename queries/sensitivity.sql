-- sensitivity: how sensitive is runtime to each parameter of each sweep matching :sweep?
-- For every varied key of a sweep's points, the mean cycles at each of its values (over all
-- other keys, mechanisms and workloads of that sweep); relative_range = (max - min) / mean of
-- those means. A larger relative_range means runtime depends more on that parameter. :sweep is
-- a sweep name or a GLOB pattern; the default (*) reports every sweep, each on its own rows.
-- Points are grouped by (name, spec, point_index), the order their indexes are read in, so the
-- runs stream without a sort.
-- :sweep  sweep name or GLOB pattern (default: *)
WITH point AS (
    SELECT s.name AS sweep, s.id AS sweep_id, p.params, avg(r.cycles) AS cycles, count(*) AS runs
    FROM sweeps s
    JOIN sweep_points p ON p.sweep_id = s.id
    JOIN runs r ON r.sweep_point_id = p.id
    WHERE s.name GLOB :sweep AND r.status = 'ok' AND r.cycles > 0
    GROUP BY s.name, s.spec, p.point_index
),
by_value AS (
    SELECT point.sweep, point.sweep_id, j.key AS parameter, j.value AS value,
           sum(point.cycles * point.runs) / sum(point.runs) AS cycles, sum(point.runs) AS runs
    FROM point, json_each(point.params) j
    GROUP BY point.sweep_id, j.key, j.value
)
SELECT sweep, parameter, count(*) AS values_tried, sum(runs) AS runs,
       round(min(cycles), 1) AS min_mean_cycles, round(max(cycles), 1) AS max_mean_cycles,
       round((max(cycles) - min(cycles)) / avg(cycles), 4) AS relative_range
FROM by_value
GROUP BY sweep_id, parameter
ORDER BY sweep, sweep_id, relative_range DESC;
