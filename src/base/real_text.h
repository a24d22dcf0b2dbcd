/* real_text.h — the one text form of a real number that every table syncscope prints or exports
 * uses (query, show, list runs, export's CSV and JSON, notebooks' CSV). */
#ifndef SYNCSCOPE_BASE_REAL_TEXT_H
#define SYNCSCOPE_BASE_REAL_TEXT_H

/* Writes the shortest "%.15g".."%.17g" text that reads back as exactly `value`, with ".0" added
 * when that text is a whole number ("2.0", "1e+20" stays as it is), so that a real never reads
 * as an integer. Infinities and NaN become "inf", "-inf" and "nan". At most 26 characters. */
void sc_real_text(double value, char out[32]);

#endif
