// libzip: zip archives read and written in memory (OpenRaster files are zips).
#include <zip.h>
