/* names.c — name lookups in small lists (names.h). */
#include "base/names.h"

#include <string.h>

int sc_name_index(const char *const *names, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

int sc_name_count(const char *const *names)
{
    int count = 0;
    while (names[count])
        count++;
    return count;
}

int sc_name_split(char *text, const char **names, int capacity)
{
    int count = 0;
    char *rest = NULL;
    for (char *item = strtok_r(text, ",", &rest); item; item = strtok_r(NULL, ",", &rest)) {
        if (count == capacity)
            return -1;
        names[count++] = item;
    }
    return count;
}
