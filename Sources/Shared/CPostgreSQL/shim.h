#ifndef SNAPSHARE_CPOSTGRESQL_SHIM_H
#define SNAPSHARE_CPOSTGRESQL_SHIM_H
// libpq from Debian's libpq-dev (its headers live in /usr/include/postgresql, which pkg-config
// names). Nothing here needs a macro wrapped yet.
#include <libpq-fe.h>
#endif
