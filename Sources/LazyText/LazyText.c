// The functions of fontconfig, FreeType and HarfBuzz that the Text module calls, each standing
// in for the library's own, which is opened at the first call (CLazy.h). Declared by the headers
// CText's shim includes (their paths from CText's pkg-config), so the compiler holds each line
// to the library's own prototype. The libraries are still named at link time, through CText's
// pkg-config, which SwiftPM always passes: `make installed` drops them from the program it
// installs (patchelf), these definitions standing in; other builds load them at start.
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
#include "CLazy.h"

static struct qs_lazy_library fontconfig = QS_LAZY_LIBRARY("libfontconfig.so.1");
static struct qs_lazy_library freetype = QS_LAZY_LIBRARY("libfreetype.so.6");
static struct qs_lazy_library harfbuzz = QS_LAZY_LIBRARY("libharfbuzz.so.0");

// fontconfig.
QS_LAZY(&fontconfig, FcBool, FcCharSetHasChar, (const FcCharSet *set, FcChar32 c), (set, c))
QS_LAZY(&fontconfig, FcBool, FcConfigSubstitute, (FcConfig *config, FcPattern *p, FcMatchKind kind), (config, p, kind))
QS_LAZY(&fontconfig, FcBool, FcInit, (void), ())
QS_LAZY(&fontconfig, FcConfig *, FcConfigReference, (FcConfig *config), (config))
QS_LAZY(&fontconfig, FcFontSet *, FcFontSort, (FcConfig *config, FcPattern *p, FcBool trim, FcCharSet **csp, FcResult *result),
        (config, p, trim, csp, result))
QS_LAZY(&fontconfig, FcPattern *, FcNameParse, (const FcChar8 *name), (name))
QS_LAZY(&fontconfig, FcResult, FcPatternGetBool, (const FcPattern *p, const char *object, int n, FcBool *b), (p, object, n, b))
QS_LAZY(&fontconfig, FcResult, FcPatternGetCharSet, (const FcPattern *p, const char *object, int n, FcCharSet **c), (p, object, n, c))
QS_LAZY(&fontconfig, FcResult, FcPatternGetInteger, (const FcPattern *p, const char *object, int n, int *i), (p, object, n, i))
QS_LAZY(&fontconfig, FcResult, FcPatternGetString, (const FcPattern *p, const char *object, int n, FcChar8 **s), (p, object, n, s))
QS_LAZY_VOID(&fontconfig, FcConfigDestroy, (FcConfig *config), (config))
QS_LAZY_VOID(&fontconfig, FcDefaultSubstitute, (FcPattern *pattern), (pattern))
QS_LAZY_VOID(&fontconfig, FcFontSetDestroy, (FcFontSet *set), (set))
QS_LAZY_VOID(&fontconfig, FcPatternDestroy, (FcPattern *p), (p))

// FreeType.
QS_LAZY(&freetype, FT_Error, FT_Done_Face, (FT_Face face), (face))
QS_LAZY(&freetype, FT_Error, FT_Done_FreeType, (FT_Library library), (library))
QS_LAZY(&freetype, FT_Error, FT_Init_FreeType, (FT_Library *library), (library))
QS_LAZY(&freetype, FT_Error, FT_Load_Glyph, (FT_Face face, FT_UInt glyph, FT_Int32 flags), (face, glyph, flags))
QS_LAZY(&freetype, FT_Error, FT_New_Face, (FT_Library library, const char *path, FT_Long index, FT_Face *face),
        (library, path, index, face))
QS_LAZY(&freetype, FT_Error, FT_Render_Glyph, (FT_GlyphSlot slot, FT_Render_Mode mode), (slot, mode))
QS_LAZY(&freetype, FT_Error, FT_Set_Char_Size, (FT_Face face, FT_F26Dot6 width, FT_F26Dot6 height, FT_UInt x_dpi, FT_UInt y_dpi),
        (face, width, height, x_dpi, y_dpi))

// HarfBuzz.
QS_LAZY(&harfbuzz, hb_buffer_t *, hb_buffer_create, (void), ())
QS_LAZY(&harfbuzz, hb_direction_t, hb_script_get_horizontal_direction, (hb_script_t script), (script))
QS_LAZY(&harfbuzz, hb_font_t *, hb_ft_font_create_referenced, (FT_Face face), (face))
QS_LAZY(&harfbuzz, hb_glyph_info_t *, hb_buffer_get_glyph_infos, (hb_buffer_t *buffer, unsigned int *length), (buffer, length))
QS_LAZY(&harfbuzz, hb_glyph_position_t *, hb_buffer_get_glyph_positions, (hb_buffer_t *buffer, unsigned int *length), (buffer, length))
QS_LAZY(&harfbuzz, hb_language_t, hb_language_get_default, (void), ())
QS_LAZY(&harfbuzz, hb_script_t, hb_unicode_script, (hb_unicode_funcs_t *funcs, hb_codepoint_t c), (funcs, c))
QS_LAZY(&harfbuzz, hb_unicode_funcs_t *, hb_unicode_funcs_get_default, (void), ())
QS_LAZY_VOID(&harfbuzz, hb_buffer_add_utf8, (hb_buffer_t *buffer, const char *text, int length, unsigned int offset, int item_length),
             (buffer, text, length, offset, item_length))
QS_LAZY_VOID(&harfbuzz, hb_buffer_clear_contents, (hb_buffer_t *buffer), (buffer))
QS_LAZY_VOID(&harfbuzz, hb_buffer_destroy, (hb_buffer_t *buffer), (buffer))
QS_LAZY_VOID(&harfbuzz, hb_buffer_set_direction, (hb_buffer_t *buffer, hb_direction_t direction), (buffer, direction))
QS_LAZY_VOID(&harfbuzz, hb_buffer_set_language, (hb_buffer_t *buffer, hb_language_t language), (buffer, language))
QS_LAZY_VOID(&harfbuzz, hb_buffer_set_script, (hb_buffer_t *buffer, hb_script_t script), (buffer, script))
QS_LAZY_VOID(&harfbuzz, hb_font_destroy, (hb_font_t *font), (font))
QS_LAZY_VOID(&harfbuzz, hb_ft_font_set_load_flags, (hb_font_t *font, int flags), (font, flags))
QS_LAZY_VOID(&harfbuzz, hb_shape, (hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned int count),
             (font, buffer, features, count))
