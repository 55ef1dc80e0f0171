// CZip: libzip, zip archives read and written in memory (OpenRaster files are zips), for the
// OpenRaster module's ZipCalls, the one file that calls it. The library is loaded the first
// time one of its functions is called (LazyZip.c), not at every start: with the OpenSSL it
// brings, linking it cost every process, a `render` too, more than a millisecond.
#ifndef QUICKSILVER_CZIP_H
#define QUICKSILVER_CZIP_H

#include <zip.h>

#endif
