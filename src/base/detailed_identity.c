/* detailed_identity.c — the build's detailed identity (see detailed_identity.h). */
#include "base/detailed_identity.h"

#include <pthread.h>
#include <stddef.h>

#include "base/files.h"
#include "detailed_identity_value.h"   /* generated at build time: SC_DETAILED_IDENTITY */

static pthread_once_t decided = PTHREAD_ONCE_INIT;
static const char *identity;

/* The identity covers the PTX and presets of the source tree it was computed over; a run that
 * reads them from elsewhere (SYNCSCOPE_SOURCE_DIR naming another tree, an installed copy) has none. */
static void decide(void)
{
    identity = sc_same_file(sc_data_dir(), SYNCSCOPE_SOURCE_DIR) ? SC_DETAILED_IDENTITY : NULL;
}

const char *sc_detailed_identity(void)
{
    pthread_once(&decided, decide);
    return identity;
}
