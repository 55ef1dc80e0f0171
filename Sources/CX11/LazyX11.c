// The functions of Xlib and its extensions (MIT-SHM in libXext, XInput 2, Present) that
// Quicksilver calls, each standing in for the library's own, which is opened at the first call
// (CLazy.h). Declared by the headers CX11.h includes, so the compiler holds each line to the
// library's own prototype. A function the X11 layer starts to call must be added here: the link
// fails until it is.
#include "CX11.h"
#include "CLazy.h"

static struct qs_lazy_library x11 = QS_LAZY_LIBRARY("libX11.so.6");
static struct qs_lazy_library xext = QS_LAZY_LIBRARY("libXext.so.6");
static struct qs_lazy_library xi = QS_LAZY_LIBRARY("libXi.so.6");
static struct qs_lazy_library xpresent = QS_LAZY_LIBRARY("libXpresent.so.1");

// Xlib.
QS_LAZY(&x11, Atom, XInternAtom, (Display *d, const char *name, int only_if_exists), (d, name, only_if_exists))
QS_LAZY(&x11, Cursor, XCreateFontCursor, (Display *d, unsigned int shape), (d, shape))
QS_LAZY(&x11, Display *, XOpenDisplay, (const char *name), (name))
QS_LAZY(&x11, GC, XCreateGC, (Display *d, Drawable drawable, unsigned long mask, XGCValues *values), (d, drawable, mask, values))
QS_LAZY(&x11, KeySym, XLookupKeysym, (XKeyEvent *event, int index), (event, index))
QS_LAZY(&x11, Visual *, XDefaultVisual, (Display *d, int screen), (d, screen))
QS_LAZY(&x11, Window, XCreateSimpleWindow,
        (Display *d, Window parent, int x, int y, unsigned int width, unsigned int height, unsigned int border_width,
         unsigned long border, unsigned long background),
        (d, parent, x, y, width, height, border_width, border, background))
QS_LAZY(&x11, Window, XDefaultRootWindow, (Display *d), (d))
QS_LAZY(&x11, Window, XGetSelectionOwner, (Display *d, Atom selection), (d, selection))
QS_LAZY(&x11, Window, XRootWindow, (Display *d, int screen), (d, screen))
QS_LAZY(&x11, XErrorHandler, XSetErrorHandler, (XErrorHandler handler), (handler))
QS_LAZY(&x11, XIOErrorHandler, XSetIOErrorHandler, (XIOErrorHandler handler), (handler))
QS_LAZY(&x11, XImage *, XCreateImage,
        (Display *d, Visual *visual, unsigned int depth, int format, int offset, char *data, unsigned int width,
         unsigned int height, int bitmap_pad, int bytes_per_line),
        (d, visual, depth, format, offset, data, width, height, bitmap_pad, bytes_per_line))
QS_LAZY(&x11, char *, XDisplayName, (const char *name), (name))
QS_LAZY(&x11, char *, XResourceManagerString, (Display *d), (d))
QS_LAZY(&x11, int, XChangeProperty,
        (Display *d, Window w, Atom property, Atom type, int format, int mode, const unsigned char *data, int count),
        (d, w, property, type, format, mode, data, count))
QS_LAZY(&x11, int, XCloseDisplay, (Display *d), (d))
QS_LAZY(&x11, int, XConnectionNumber, (Display *d), (d))
QS_LAZY(&x11, int, XConvertSelection, (Display *d, Atom selection, Atom target, Atom property, Window requestor, Time time),
        (d, selection, target, property, requestor, time))
QS_LAZY(&x11, int, XDefaultDepth, (Display *d, int screen), (d, screen))
QS_LAZY(&x11, int, XDefaultScreen, (Display *d), (d))
QS_LAZY(&x11, int, XDefineCursor, (Display *d, Window w, Cursor cursor), (d, w, cursor))
QS_LAZY(&x11, int, XDeleteProperty, (Display *d, Window w, Atom property), (d, w, property))
QS_LAZY(&x11, int, XDestroyWindow, (Display *d, Window w), (d, w))
QS_LAZY(&x11, int, XDisplayHeight, (Display *d, int screen), (d, screen))
QS_LAZY(&x11, int, XDisplayWidth, (Display *d, int screen), (d, screen))
QS_LAZY(&x11, int, XEventsQueued, (Display *d, int mode), (d, mode))
QS_LAZY(&x11, int, XFlush, (Display *d), (d))
QS_LAZY(&x11, int, XFree, (void *data), (data))
QS_LAZY(&x11, int, XFreeCursor, (Display *d, Cursor cursor), (d, cursor))
QS_LAZY(&x11, int, XFreeGC, (Display *d, GC gc), (d, gc))
QS_LAZY(&x11, int, XGetErrorText, (Display *d, int code, char *buffer, int length), (d, code, buffer, length))
QS_LAZY(&x11, int, XGetEventData, (Display *d, XGenericEventCookie *cookie), (d, cookie))
QS_LAZY(&x11, int, XGetWindowProperty,
        (Display *d, Window w, Atom property, long offset, long length, int delete, Atom requested, Atom *type,
         int *format, unsigned long *count, unsigned long *after, unsigned char **data),
        (d, w, property, offset, length, delete, requested, type, format, count, after, data))
QS_LAZY(&x11, int, XImageByteOrder, (Display *d), (d))
QS_LAZY(&x11, int, XLookupString, (XKeyEvent *event, char *buffer, int length, KeySym *keysym, XComposeStatus *status),
        (event, buffer, length, keysym, status))
QS_LAZY(&x11, int, XMapWindow, (Display *d, Window w), (d, w))
QS_LAZY(&x11, int, XNextEvent, (Display *d, XEvent *event), (d, event))
QS_LAZY(&x11, int, XPending, (Display *d), (d))
QS_LAZY(&x11, int, XPutImage,
        (Display *d, Drawable drawable, GC gc, XImage *image, int src_x, int src_y, int dest_x, int dest_y,
         unsigned int width, unsigned int height),
        (d, drawable, gc, image, src_x, src_y, dest_x, dest_y, width, height))
QS_LAZY(&x11, int, XQueryExtension, (Display *d, const char *name, int *opcode, int *event, int *error),
        (d, name, opcode, event, error))
QS_LAZY(&x11, int, XSelectInput, (Display *d, Window w, long mask), (d, w, mask))
QS_LAZY(&x11, int, XSendEvent, (Display *d, Window w, int propagate, long mask, XEvent *event), (d, w, propagate, mask, event))
QS_LAZY(&x11, int, XSetClassHint, (Display *d, Window w, XClassHint *hint), (d, w, hint))
QS_LAZY(&x11, int, XSetGraphicsExposures, (Display *d, GC gc, int exposures), (d, gc, exposures))
QS_LAZY(&x11, int, XSetSelectionOwner, (Display *d, Atom selection, Window owner, Time time), (d, selection, owner, time))
QS_LAZY(&x11, int, XSetWMHints, (Display *d, Window w, XWMHints *hints), (d, w, hints))
QS_LAZY(&x11, int, XSetWMProtocols, (Display *d, Window w, Atom *protocols, int count), (d, w, protocols, count))
QS_LAZY(&x11, int, XSetWindowBackgroundPixmap, (Display *d, Window w, Pixmap pixmap), (d, w, pixmap))
QS_LAZY(&x11, int, XStoreName, (Display *d, Window w, const char *name), (d, w, name))
QS_LAZY(&x11, int, XSync, (Display *d, int discard), (d, discard))
QS_LAZY(&x11, int, XUndefineCursor, (Display *d, Window w), (d, w))
QS_LAZY(&x11, Bool, XkbSetDetectableAutoRepeat, (Display *d, Bool detectable, Bool *supported), (d, detectable, supported))
QS_LAZY(&x11, long, XMaxRequestSize, (Display *d), (d))
QS_LAZY(&x11, unsigned long, XBlackPixel, (Display *d, int screen), (d, screen))
QS_LAZY_VOID(&x11, XFreeEventData, (Display *d, XGenericEventCookie *cookie), (d, cookie))

// MIT-SHM, in libXext.
QS_LAZY(&xext, XImage *, XShmCreateImage,
        (Display *d, Visual *visual, unsigned int depth, int format, char *data, XShmSegmentInfo *segment,
         unsigned int width, unsigned int height),
        (d, visual, depth, format, data, segment, width, height))
QS_LAZY(&xext, Bool, XShmAttach, (Display *d, XShmSegmentInfo *segment), (d, segment))
QS_LAZY(&xext, Bool, XShmDetach, (Display *d, XShmSegmentInfo *segment), (d, segment))
QS_LAZY(&xext, int, XShmGetEventBase, (Display *d), (d))
QS_LAZY(&xext, Bool, XShmPutImage,
        (Display *d, Drawable drawable, GC gc, XImage *image, int src_x, int src_y, int dest_x, int dest_y,
         unsigned int width, unsigned int height, Bool send_event),
        (d, drawable, gc, image, src_x, src_y, dest_x, dest_y, width, height, send_event))
QS_LAZY(&xext, Bool, XShmQueryExtension, (Display *d), (d))

// XInput 2.
QS_LAZY(&xi, XIDeviceInfo *, XIQueryDevice, (Display *d, int device, int *count), (d, device, count))
QS_LAZY(&xi, int, XIGetProperty,
        (Display *d, int device, Atom property, long offset, long length, Bool delete, Atom requested, Atom *type,
         int *format, unsigned long *count, unsigned long *after, unsigned char **data),
        (d, device, property, offset, length, delete, requested, type, format, count, after, data))
QS_LAZY(&xi, Status, XIQueryVersion, (Display *d, int *major, int *minor), (d, major, minor))
QS_LAZY(&xi, int, XISelectEvents, (Display *d, Window w, XIEventMask *masks, int count), (d, w, masks, count))
QS_LAZY_VOID(&xi, XIFreeDeviceInfo, (XIDeviceInfo *info), (info))

// Present.
QS_LAZY(&xpresent, XID, XPresentSelectInput, (Display *d, Window w, unsigned mask), (d, w, mask))
QS_LAZY(&xpresent, Bool, XPresentQueryExtension, (Display *d, int *opcode, int *event, int *error), (d, opcode, event, error))
QS_LAZY(&xpresent, Status, XPresentQueryVersion, (Display *d, int *major, int *minor), (d, major, minor))
QS_LAZY_VOID(&xpresent, XPresentNotifyMSC,
             (Display *d, Window w, uint32_t serial, uint64_t target_msc, uint64_t divisor, uint64_t remainder),
             (d, w, serial, target_msc, divisor, remainder))
