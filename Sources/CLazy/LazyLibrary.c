// Opening a library and finding its functions for the stand-ins CLazy.h defines.
#include "CLazy.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void *qs_lazy_symbol(struct qs_lazy_library *library, const char *name) {
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    if (!handle) {
        for (int i = 0; !handle && i < library->count; i++) handle = dlopen(library->names[i], RTLD_LAZY | RTLD_LOCAL);
        if (!handle) {
            fprintf(stderr, "quicksilver: cannot load %s: %s\n", library->names[0], dlerror());
            abort();
        }
        __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
    }
    void *symbol = dlsym(handle, name);
    if (!symbol) {
        fprintf(stderr, "quicksilver: %s has no %s\n", library->names[0], name);
        abort();
    }
    return symbol;
}
