// The system's SQLite, for the PredicateQuerySQLite module.
#include <sqlite3.h>
