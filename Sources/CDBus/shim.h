// CDBus: libdbus-1, the reference D-Bus client library, for the Portal module (the desktop's
// file chooser). Only Portal's `BusConnection` calls it.
#ifndef QUICKSILVER_CDBUS_SHIM_H
#define QUICKSILVER_CDBUS_SHIM_H

#include <dbus/dbus.h>

#endif
