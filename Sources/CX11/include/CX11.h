// CX11: Xlib, MIT-SHM and the Linux calls the X11 layer needs, plus small shims for what
// Swift cannot import directly (function-like macros, cast macros, non-union event types).
// Xlib and its extensions are opened at the first call of one of their functions (LazyX11.c),
// not at every start: a `render` draws no window.
#ifndef QUICKSILVER_CX11_SHIM_H
#define QUICKSILVER_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/Xpresent.h>
#include <X11/cursorfont.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <poll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/signalfd.h>

/// XDestroyImage is a macro over the image's function table. Set `data` to NULL first when the
/// pixels are not malloc'd by Xlib (shared memory, Swift-owned memory).
static inline int qs_XDestroyImage(XImage *image) { return XDestroyImage(image); }

/// IPC_PRIVATE is a cast macro, which Swift does not import.
static inline key_t qs_IPC_PRIVATE(void) { return IPC_PRIVATE; }
/// shmat's failure value, (void *)-1.
static inline int qs_shmatFailed(const void *address) { return address == (void *)-1; }

#endif
