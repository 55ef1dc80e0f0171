// libmypaint 1.6, the brush engine the Brushes module drives (its brush dynamics; Quicksilver
// lays the dabs), and the one struct the bridge needs: a MyPaintSurface2 first, so that
// libmypaint's pointer to it is a pointer to the whole, then the Swift object it belongs to.
#include <mypaint-brush.h>
#include <mypaint-surface.h>
#include <mypaint-brush-settings.h>

typedef struct QSMyPaintSurface {
    MyPaintSurface2 surface;
    void *owner;
} QSMyPaintSurface;
