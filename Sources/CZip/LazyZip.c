// The libzip functions Quicksilver calls, each standing in for the library's own, which is
// opened at the first call (CLazy.h).
#include "CZip.h"
#include "CLazy.h"

/// libzip's shared object: Debian's libzip4 (the soname of libzip 1.x).
static struct qs_lazy_library zip = QS_LAZY_LIBRARY("libzip.so.4", "libzip.so");

#define QS_ZIP(ret, name, params, args) QS_LAZY(&zip, ret, name, params, args)
#define QS_ZIP_VOID(name, params, args) QS_LAZY_VOID(&zip, name, params, args)

QS_ZIP(const char *, zip_error_strerror, (zip_error_t *e), (e))
QS_ZIP(const char *, zip_file_strerror, (zip_file_t *file), (file))
QS_ZIP(const char *, zip_strerror, (zip_t *archive), (archive))
QS_ZIP(const char *, zip_get_name, (zip_t *archive, zip_uint64_t index, zip_flags_t flags), (archive, index, flags))
QS_ZIP(int, zip_close, (zip_t *archive), (archive))
QS_ZIP(int, zip_error_code_zip, (const zip_error_t *e), (e))
QS_ZIP(int, zip_fclose, (zip_file_t *file), (file))
QS_ZIP(int, zip_file_set_mtime, (zip_t *archive, zip_uint64_t index, time_t mtime, zip_flags_t flags), (archive, index, mtime, flags))
QS_ZIP(int, zip_set_file_compression, (zip_t *archive, zip_uint64_t index, zip_int32_t method, zip_uint32_t level),
       (archive, index, method, level))
QS_ZIP(int, zip_source_close, (zip_source_t *source), (source))
QS_ZIP(int, zip_source_open, (zip_source_t *source), (source))
QS_ZIP(int, zip_source_seek, (zip_source_t *source, zip_int64_t offset, int whence), (source, offset, whence))
QS_ZIP(int, zip_stat_index, (zip_t *archive, zip_uint64_t index, zip_flags_t flags, zip_stat_t *stat), (archive, index, flags, stat))
QS_ZIP_VOID(zip_discard, (zip_t *archive), (archive))
QS_ZIP_VOID(zip_error_fini, (zip_error_t *e), (e))
QS_ZIP_VOID(zip_error_init, (zip_error_t *e), (e))
QS_ZIP_VOID(zip_source_free, (zip_source_t *source), (source))
QS_ZIP_VOID(zip_source_keep, (zip_source_t *source), (source))
QS_ZIP_VOID(zip_stat_init, (zip_stat_t *stat), (stat))
QS_ZIP(zip_error_t *, zip_source_error, (zip_source_t *source), (source))
QS_ZIP(zip_file_t *, zip_fopen_index, (zip_t *archive, zip_uint64_t index, zip_flags_t flags), (archive, index, flags))
QS_ZIP(zip_int64_t, zip_file_add, (zip_t *archive, const char *name, zip_source_t *source, zip_flags_t flags),
       (archive, name, source, flags))
QS_ZIP(zip_int64_t, zip_fread, (zip_file_t *file, void *buffer, zip_uint64_t count), (file, buffer, count))
QS_ZIP(zip_int64_t, zip_get_num_entries, (zip_t *archive, zip_flags_t flags), (archive, flags))
QS_ZIP(zip_int64_t, zip_source_read, (zip_source_t *source, void *buffer, zip_uint64_t count), (source, buffer, count))
QS_ZIP(zip_int64_t, zip_source_tell, (zip_source_t *source), (source))
QS_ZIP(zip_source_t *, zip_source_buffer, (zip_t *archive, const void *data, zip_uint64_t length, int freep), (archive, data, length, freep))
QS_ZIP(zip_source_t *, zip_source_buffer_create, (const void *data, zip_uint64_t length, int freep, zip_error_t *error),
       (data, length, freep, error))
QS_ZIP(zip_t *, zip_open_from_source, (zip_source_t *source, int flags, zip_error_t *error), (source, flags, error))
