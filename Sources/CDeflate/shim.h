// libdeflate: DEFLATE, zlib streams and CRC-32, faster than zlib at the same ratio; and zlib,
// whose deflate can end a part of a stream with a flush (PNGFile's ZlibStream).
#include <libdeflate.h>
#include <zlib.h>
