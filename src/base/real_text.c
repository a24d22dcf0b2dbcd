/* real_text.c — shortest round-trip text of a real (see real_text.h). */
#include "base/real_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sc_real_text(double value, char out[32])
{
    if (isnan(value)) {
        snprintf(out, 32, "nan");
        return;
    }
    if (isinf(value)) {
        snprintf(out, 32, value > 0 ? "inf" : "-inf");
        return;
    }
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(out, 32, "%.*g", precision, value);
        if (strtod(out, NULL) == value)
            break;
    }
    if (!strpbrk(out, ".e"))
        strcat(out, ".0");
}
