// libdeflate: DEFLATE, zlib streams and CRC-32, faster than zlib at the same ratio.
#include <libdeflate.h>
