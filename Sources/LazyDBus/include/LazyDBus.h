// LazyDBus: libdbus-1 opened at the first call of one of its functions (LazyDBus.c; CLazy.h says
// how). The Portal module calls it through CDBus; this module only stands in for it.
#ifndef QUICKSILVER_LAZYDBUS_H
#define QUICKSILVER_LAZYDBUS_H
#endif
