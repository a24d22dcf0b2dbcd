/* calibrated_region.h — the region of design space a calibration covered: the configurations of
 * the points its samples were taken at (the "point" of each entry of its residuals: the keys that
 * differed from the system preset), so that a sweep can tell a point inside it from one the
 * model extrapolates to. On a numeric key the region is the range [min, max] of its samples'
 * values; on a word key (enum, string, bool), the words its samples used; a key no sample varied
 * is covered at the preset's value only. */
#ifndef SYNCSCOPE_MODEL_CALIBRATED_REGION_H
#define SYNCSCOPE_MODEL_CALIBRATED_REGION_H

#include <stdbool.h>

#include "base/error.h"
#include "config/config.h"
#include "config/schema.h"

typedef struct model_region {
    sc_config **points;           /* each sample's configuration: the preset with its point's keys set */
    int count;
} model_region;

/* The region of a calibration of `system` from its residuals JSON (calibration_study.c writes
 * it: an array of objects whose "point" is a JSON object of key: value). A point whose key or
 * value the configuration rejects fails naming it. */
int model_region_from_residuals(const char *system, const char *residuals_json, model_region *region, sc_error *error);

/* The region's extent on numeric key `key`: *low and *high over its points (false when the
 * region is empty). */
bool model_region_extent(const model_region *region, const char *key, double *low, double *high);

/* Whether `config`'s value of `key` (of schema type `type`) lies in the region: within its
 * extent for a numeric key, equal to one of its points' values for a word key. */
bool model_region_covers(const model_region *region, const sc_config *config, const char *key, sc_key_type type);

void model_region_free(model_region *region);

#endif
