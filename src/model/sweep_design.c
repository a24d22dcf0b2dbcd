/* sweep_design.c — enumerating the points of grid, random, Latin-hypercube, one-at-a-time and
 * Morris designs (see sweep_design.h). */
#include "model/sweep_design.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/random.h"

#define SWEEP_MAX_POINTS 100000000LL
/* A Latin hypercube keeps one 4-byte stratum per point and parameter: at most this many (1 GiB). */
#define SWEEP_MAX_LHS_STRATA (1LL << 28)

/* A stream private to (seed, salt, index), so a point's draws do not depend on other points. */
static uint64_t stream(uint64_t seed, uint64_t salt, int64_t index)
{
    uint64_t state = seed ^ (salt * 0xd1b54a32d192ed03ull);
    state ^= sc_splitmix64(&state) + (uint64_t)index;
    sc_splitmix64(&state);
    return state;
}

static int64_t point_count(const sweep_spec *spec)
{
    int64_t count = 1;
    switch (spec->design) {
    case SWEEP_GRID:
        for (int a = 0; a < spec->axis_count; a++) {
            count *= spec->axes[a].count;
            if (count > SWEEP_MAX_POINTS)
                return count;
        }
        return count;
    case SWEEP_OAT:
        for (int a = 0; a < spec->axis_count; a++)
            count += spec->axes[a].count;
        return count;
    case SWEEP_MORRIS:
        return (int64_t)spec->trajectories * (spec->axis_count + 1);
    default:
        return spec->points;
    }
}

static int prepare_morris(sweep_design *design, const sweep_spec *spec)
{
    size_t cells = (size_t)spec->trajectories * (size_t)spec->axis_count;
    design->permutations = malloc(cells * sizeof *design->permutations);
    design->morris_start = malloc(cells * sizeof *design->morris_start);
    design->morris_direction = malloc(cells * sizeof *design->morris_direction);
    if (!design->permutations || !design->morris_start || !design->morris_direction)
        return -1;
    int half = spec->levels / 2;
    for (int t = 0; t < spec->trajectories; t++) {
        uint64_t state = stream(spec->seed, 3, t);
        sc_random_permutation(design->permutations + (size_t)t * spec->axis_count, spec->axis_count, &state);
        for (int a = 0; a < spec->axis_count; a++) {
            int start = (int)(sc_splitmix64(&state) % (uint64_t)spec->levels);
            design->morris_start[(size_t)t * spec->axis_count + a] = start;
            design->morris_direction[(size_t)t * spec->axis_count + a] = start < half ? 1 : -1;
        }
    }
    return 0;
}

int sweep_design_init(sweep_design *design, const sweep_spec *spec, sc_error *error)
{
    memset(design, 0, sizeof *design);
    design->spec = spec;
    design->count = point_count(spec);
    if (design->count < 1 || design->count > SWEEP_MAX_POINTS)
        return sc_fail(error, "sweep %s: the design has %lld points; at most %lld are allowed", spec->name,
                       (long long)design->count, SWEEP_MAX_POINTS);
    if (spec->design == SWEEP_LHS && design->count * spec->axis_count > SWEEP_MAX_LHS_STRATA)
        return sc_fail(error, "sweep %s: a Latin hypercube of %lld points over %d parameters keeps %lld strata; at most "
                       "%lld fit (fewer points, or {\"random\": N} which keeps none)", spec->name,
                       (long long)design->count, spec->axis_count, (long long)(design->count * spec->axis_count),
                       SWEEP_MAX_LHS_STRATA);
    int status = 0;
    if (spec->design == SWEEP_LHS) {
        design->permutations = malloc((size_t)spec->axis_count * (size_t)design->count * sizeof *design->permutations);
        if (!design->permutations)
            status = -1;
        for (int a = 0; status == 0 && a < spec->axis_count; a++) {
            uint64_t state = stream(spec->seed, 2, a);
            sc_random_permutation(design->permutations + (size_t)a * (size_t)design->count, design->count, &state);
        }
    } else if (spec->design == SWEEP_MORRIS) {
        status = prepare_morris(design, spec);
    }
    if (status < 0) {
        int64_t count = design->count;
        sweep_design_free(design);
        return sc_fail(error, "sweep %s: out of memory for the design of %lld points", spec->name, (long long)count);
    }
    return 0;
}

void sweep_design_free(sweep_design *design)
{
    free(design->permutations);
    free(design->morris_start);
    free(design->morris_direction);
    memset(design, 0, sizeof *design);
}

void sweep_design_morris_step(const sweep_design *design, int64_t index, int *trajectory, int *step, int *axis)
{
    int k = design->spec->axis_count;
    *trajectory = (int)(index / (k + 1));
    *step = (int)(index % (k + 1));
    *axis = *step == 0 ? -1 : design->permutations[(size_t)*trajectory * k + (size_t)(*step - 1)];
}

double sweep_design_morris_delta(const sweep_design *design, int trajectory, int axis)
{
    const sweep_spec *spec = design->spec;
    int direction = design->morris_direction[(size_t)trajectory * spec->axis_count + axis];
    return direction * (double)(spec->levels / 2) / (spec->levels - 1);
}

static void morris_point(const sweep_design *design, int64_t index, double *values)
{
    const sweep_spec *spec = design->spec;
    int trajectory, step, moved;
    sweep_design_morris_step(design, index, &trajectory, &step, &moved);
    const int32_t *order = design->permutations + (size_t)trajectory * spec->axis_count;
    for (int a = 0; a < spec->axis_count; a++) {
        int level = design->morris_start[(size_t)trajectory * spec->axis_count + a];
        for (int s = 0; s < step; s++)
            if (order[s] == a)
                level += design->morris_direction[(size_t)trajectory * spec->axis_count + a] * (spec->levels / 2);
        values[a] = sweep_axis_at(&spec->axes[a], (double)level / (spec->levels - 1));
    }
}

void sweep_design_point(const sweep_design *design, int64_t index, double *values)
{
    const sweep_spec *spec = design->spec;
    switch (spec->design) {
    case SWEEP_GRID:
        for (int a = spec->axis_count - 1; a >= 0; a--) {
            values[a] = sweep_axis_level(&spec->axes[a], (int)(index % spec->axes[a].count));
            index /= spec->axes[a].count;
        }
        return;
    case SWEEP_OAT:
        for (int a = 0; a < spec->axis_count; a++)
            values[a] = NAN;
        for (int a = 0, first = 1; a < spec->axis_count; first += spec->axes[a].count, a++)
            if (index >= first && index < first + spec->axes[a].count)
                values[a] = sweep_axis_level(&spec->axes[a], (int)(index - first));
        return;
    case SWEEP_MORRIS:
        morris_point(design, index, values);
        return;
    case SWEEP_RANDOM:
    case SWEEP_LHS: {
        uint64_t state = stream(spec->seed, 1, index);
        for (int a = 0; a < spec->axis_count; a++) {
            double u = sc_random_unit(&state);
            if (spec->design == SWEEP_LHS)
                u = (design->permutations[(size_t)a * (size_t)design->count + (size_t)index] + u) / (double)design->count;
            values[a] = sweep_axis_at(&spec->axes[a], u);
        }
        return;
    }
    }
}

int sweep_design_params_json(const sweep_design *design, const double *values, char *out, unsigned size)
{
    const sweep_spec *spec = design->spec;
    unsigned used = 0;
    int written = snprintf(out, size, "{");
    for (int a = 0; written >= 0 && a < spec->axis_count; a++) {
        used += (unsigned)written;
        if (used >= size)
            return -1;
        if (isnan(values[a])) {
            written = 0;
            continue;
        }
        char text[128];
        sweep_axis_format(&spec->axes[a], values[a], text, sizeof text);
        bool word = spec->axes[a].kind == SWEEP_AXIS_LIST && spec->axes[a].words[0];
        written = snprintf(out + used, size - used, "%s\"%s\": %s%s%s", used > 1 ? ", " : "", spec->axes[a].key,
                           word ? "\"" : "", text, word ? "\"" : "");
    }
    if (written < 0)
        return -1;
    used += (unsigned)written;
    if (used + 2 > size)
        return -1;
    out[used++] = '}';
    out[used] = '\0';
    return (int)used;
}

int sweep_parse_shard(const char *text, int64_t *remainder, int64_t *shards)
{
    long long k = 0, n = 0;
    char tail;
    if (sscanf(text, "%lld/%lld%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n)
        return -1;
    *remainder = k - 1;
    *shards = n;
    return 0;
}
