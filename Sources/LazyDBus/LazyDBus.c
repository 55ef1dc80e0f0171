// The functions of libdbus-1 that the Portal module calls, each standing in for the library's
// own, which is opened at the first call (CLazy.h). Declared by the header CDBus's shim includes
// (its paths from CDBus's pkg-config), so the compiler holds each line to the library's own
// prototype. The library is still named at link time, through CDBus's pkg-config: `make
// installed` drops it from the program it installs (patchelf), as LazyText.c says.
#include <dbus/dbus.h>
#include "CLazy.h"

static struct qs_lazy_library dbus = QS_LAZY_LIBRARY("libdbus-1.so.3");

QS_LAZY(&dbus, DBusConnection *, dbus_connection_open_private, (const char *address, DBusError *error), (address, error))
QS_LAZY(&dbus, DBusMessage *, dbus_connection_pop_message, (DBusConnection *connection), (connection))
QS_LAZY(&dbus, DBusMessage *, dbus_connection_send_with_reply_and_block,
        (DBusConnection *connection, DBusMessage *message, int timeout, DBusError *error), (connection, message, timeout, error))
QS_LAZY(&dbus, DBusMessage *, dbus_message_new_method_call, (const char *bus, const char *path, const char *iface, const char *method),
        (bus, path, iface, method))
QS_LAZY(&dbus, char *, dbus_message_iter_get_signature, (DBusMessageIter *iter), (iter))
QS_LAZY(&dbus, const char *, dbus_bus_get_unique_name, (DBusConnection *connection), (connection))
QS_LAZY(&dbus, const char *, dbus_message_get_interface, (DBusMessage *message), (message))
QS_LAZY(&dbus, const char *, dbus_message_get_member, (DBusMessage *message), (message))
QS_LAZY(&dbus, const char *, dbus_message_get_path, (DBusMessage *message), (message))
QS_LAZY(&dbus, dbus_bool_t, dbus_bus_register, (DBusConnection *connection, DBusError *error), (connection, error))
QS_LAZY(&dbus, dbus_bool_t, dbus_connection_read_write, (DBusConnection *connection, int timeout), (connection, timeout))
QS_LAZY(&dbus, dbus_bool_t, dbus_error_is_set, (const DBusError *error), (error))
QS_LAZY(&dbus, dbus_bool_t, dbus_message_iter_append_basic, (DBusMessageIter *iter, int type, const void *value), (iter, type, value))
QS_LAZY(&dbus, dbus_bool_t, dbus_message_iter_close_container, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))
QS_LAZY(&dbus, dbus_bool_t, dbus_message_iter_init, (DBusMessage *message, DBusMessageIter *iter), (message, iter))
QS_LAZY(&dbus, dbus_bool_t, dbus_message_iter_next, (DBusMessageIter *iter), (iter))
QS_LAZY(&dbus, dbus_bool_t, dbus_message_iter_open_container, (DBusMessageIter *iter, int type, const char *signature, DBusMessageIter *sub),
        (iter, type, signature, sub))
QS_LAZY(&dbus, int, dbus_message_get_type, (DBusMessage *message), (message))
QS_LAZY(&dbus, int, dbus_message_iter_get_arg_type, (DBusMessageIter *iter), (iter))
QS_LAZY_VOID(&dbus, dbus_bus_add_match, (DBusConnection *connection, const char *rule, DBusError *error), (connection, rule, error))
QS_LAZY_VOID(&dbus, dbus_connection_close, (DBusConnection *connection), (connection))
QS_LAZY_VOID(&dbus, dbus_connection_set_exit_on_disconnect, (DBusConnection *connection, dbus_bool_t exit), (connection, exit))
QS_LAZY_VOID(&dbus, dbus_connection_unref, (DBusConnection *connection), (connection))
QS_LAZY_VOID(&dbus, dbus_error_free, (DBusError *error), (error))
QS_LAZY_VOID(&dbus, dbus_error_init, (DBusError *error), (error))
QS_LAZY_VOID(&dbus, dbus_free, (void *memory), (memory))
QS_LAZY_VOID(&dbus, dbus_message_iter_abandon_container, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))
QS_LAZY_VOID(&dbus, dbus_message_iter_get_basic, (DBusMessageIter *iter, void *value), (iter, value))
QS_LAZY_VOID(&dbus, dbus_message_iter_init_append, (DBusMessage *message, DBusMessageIter *iter), (message, iter))
QS_LAZY_VOID(&dbus, dbus_message_iter_recurse, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))
QS_LAZY_VOID(&dbus, dbus_message_unref, (DBusMessage *message), (message))
