/* detailed_identity.c — the build's detailed identity (see detailed_identity.h). */
#include "base/detailed_identity.h"

#include "detailed_identity_value.h"   /* generated at build time: SC_DETAILED_IDENTITY */

const char *sc_detailed_identity(void)
{
    return SC_DETAILED_IDENTITY;
}
