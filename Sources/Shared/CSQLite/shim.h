#ifndef SNAPSHARE_CSQLITE_SHIM_H
#define SNAPSHARE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type snapshare_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// sqlite3_db_config is variadic; this wraps the integer-flag form.
static inline int snapshare_sqlite_db_config_flag(sqlite3 *db, int op, int value) {
    int out = 0;
    return sqlite3_db_config(db, op, value, &out);
}
#endif
