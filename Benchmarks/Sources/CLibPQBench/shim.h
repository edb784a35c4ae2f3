// The system's libpq, for the hand-written PostgreSQL baseline.
#include <libpq-fe.h>
