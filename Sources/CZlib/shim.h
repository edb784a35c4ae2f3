// The system's zlib, for the PredicateQueryModels module (a store's model cache is raw DEFLATE).
#include <zlib.h>
