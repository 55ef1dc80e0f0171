// LazyText: fontconfig, FreeType and HarfBuzz opened at the first call of one of their functions
// (LazyText.c; CLazy.h says how). The Text module calls them through CText; this module only
// stands in for them.
#ifndef QUICKSILVER_LAZYTEXT_H
#define QUICKSILVER_LAZYTEXT_H
#endif
