// zlib for OTLP/HTTP's gzip bodies. Debian's zlib1g-dev puts zlib.h on the default include path.
#include <zlib.h>
