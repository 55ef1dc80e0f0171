// CLazy: shared libraries opened at the first call of one of their functions (dlopen), not at
// every start. A C target that stands in for a library (CZip for libzip, CX11 for Xlib and its
// extensions, LazyText for fontconfig, FreeType and HarfBuzz, LazyDBus for libdbus) defines each
// function the program calls with `QS_LAZY`, forwarding to the library's own, looked up at its
// first call; the executable is not linked against the library (the last two are, as SwiftPM
// passes their pkg-config flags, until `make installed` drops them), these definitions take its
// place at link time. So a process that never calls it (a `render`, which draws no window or text
// and opens no zip) never loads it: each library linked cost every start a few tenths of a
// millisecond, with what it brings in turn. A process whose library cannot be opened stops with a
// message: the build installs every one (the Makefile's deps), as it did when they were linked.
#ifndef QUICKSILVER_CLAZY_H
#define QUICKSILVER_CLAZY_H

/// A library: the names to open it by (its sonames, the first that opens wins), and its handle
/// once open.
struct qs_lazy_library {
    const char *const *names;
    int count;
    void *handle;
};

/// `library`, to be opened by any of the names that follow.
#define QS_LAZY_LIBRARY(...) \
    {(const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *), 0}

/// The function `name` of `library`, which is opened first if it is not open yet; stops the
/// process with a message if either cannot be found.
void *qs_lazy_symbol(struct qs_lazy_library *library, const char *name);

/// In the body of the stand-in for `name` of type `ret (*) params`: `f`, the library's own,
/// looked up once (two threads racing both store the same pointer).
#define QS_LAZY_REAL(library, ret, name, params)                                  \
    static ret(*real) params;                                                     \
    ret(*f) params = __atomic_load_n(&real, __ATOMIC_ACQUIRE);                    \
    if (!f) {                                                                     \
        f = (ret(*) params)qs_lazy_symbol(library, #name);                        \
        __atomic_store_n(&real, f, __ATOMIC_RELEASE);                             \
    }

/// The stand-in for `ret name params` of `library`, which calls the library's with `args`.
#define QS_LAZY(library, ret, name, params, args) ret name params { QS_LAZY_REAL(library, ret, name, params) return f args; }
/// The same for a function that returns nothing.
#define QS_LAZY_VOID(library, name, params, args) void name params { QS_LAZY_REAL(library, void, name, params) f args; }

#endif
