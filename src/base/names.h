/* names.h — looking names up in the small fixed lists the CLI and the models pass around
 * (mechanisms, workloads, size classes, configuration JSON texts), and splitting a comma list
 * into one. */
#ifndef SYNCSCOPE_BASE_NAMES_H
#define SYNCSCOPE_BASE_NAMES_H

/* Position of `name` among names[0 .. count-1], or -1. */
int sc_name_index(const char *const *names, int count, const char *name);

/* Length of a NULL-terminated list. */
int sc_name_count(const char *const *names);

/* Splits a comma list into at most `capacity` names (pointing into `text`, which is modified);
 * returns their count, or -1 when the list has more than `capacity`. */
int sc_name_split(char *text, const char **names, int capacity);

#endif
