// The text libraries the Text module calls: fontconfig (which font), FreeType (its glyphs'
// pixels) and HarfBuzz (where they go).
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
