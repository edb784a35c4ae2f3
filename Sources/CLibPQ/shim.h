// The system's libpq (PostgreSQL's client library), for the PredicateQueryPostgres module.
#include <libpq-fe.h>
