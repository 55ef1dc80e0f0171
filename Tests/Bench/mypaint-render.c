/* libmypaint painting a recording with a brush: the peer that Quicksilver's Brushes module is compared
 * with, for fidelity (PSNR) and for speed (whole process against whole process). `make bench` builds it.
 *
 * Usage: mypaint-render BRUSH.myb '#rrggbb' EVENTS OUT.png [--size WxH] [--under BRUSH2.myb '#rrggbb' DX DY]
 *                      [--legacy] [--null]
 *
 * It plays the recording as docs/brushes.md's playing protocol says: the brush is made anew
 * (mypaint_brush_new, mypaint_brush_from_defaults, then the .myb's JSON through
 * mypaint_brush_from_string), its colour set from #rrggbb through its HSV base values (color_h,
 * color_s, color_v); then each event ("t x y pressure [xtilt ytilt]" a line, pressure 0 = pen up) is
 * one mypaint_brush_stroke_to_2 in its own atomic section, with dtime = this t − the previous
 * event's t (10 s for the first), view zoom 1, view rotation 0, barrel rotation 0.
 *
 * The surface is libmypaint's own tiled surface (MyPaintTiledSurface2: its operation queue, dab
 * masks, blend modes and get_color, single-threaded as the fixed tiled surface runs it) over a
 * fixed grid of 15-bit premultiplied tiles, as mypaint_fixed_tiled_surface_new keeps them but
 * starting transparent and reaching 8 tiles beyond the picture on every side (a tile outside the
 * grid is the fixed surface's null tile: writes dropped, reads transparent). The fixed tiled
 * surface itself implements only the first MyPaintSurface interface, which
 * mypaint_brush_stroke_to drives with the legacy dynamics (another dab count, no pigment mode,
 * no posterize); --legacy paints that way, on mypaint_fixed_tiled_surface_new.
 *
 * --under BRUSH2.myb '#rrggbb' DX DY: the recording is first played with BRUSH2 (a brush of its
 * own, by the same protocol) shifted by (DX, DY), then with BRUSH: an eraser, a smudge or a
 * lock-alpha brush then has paint to work on.
 *
 * OUT.png: the picture (0, 0)–(W, H), default 1024x768, composited over white, 8-bit RGB.
 * --null: a surface that draws nothing and answers get_color with transparency, to time the
 * brush dynamics alone.
 *
 * mypaint-render --dabs DABS OUT.png [--size WxH]: no brush; each line of DABS is one
 * mypaint_surface2_draw_dab ("x y radius r g b opaque hardness alpha_eraser aspect_ratio angle
 * lock_alpha colorize posterize posterize_num paint"), each in its own atomic section, on the same
 * surface: the dab kernel's goldens (Tests/Fixtures/dabs). */
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <json.h>
#include <mypaint-brush.h>
#include <mypaint-fixed-tiled-surface.h>
#include <mypaint-tiled-surface.h>

#define TILE 64
#define MARGIN_TILES 8

typedef struct {
    MyPaintTiledSurface2 parent;
    uint16_t *tiles;      /* tiles_w * tiles_h tiles of TILE*TILE*4 values, row by row */
    uint16_t *null_tile;
    int tx0, ty0;         /* the grid's first tile */
    int tiles_w, tiles_h;
} GridSurface;

static uint16_t *grid_tile(GridSurface *s, int tx, int ty) {
    int gx = tx - s->tx0, gy = ty - s->ty0;
    if (gx < 0 || gy < 0 || gx >= s->tiles_w || gy >= s->tiles_h) return NULL;
    return s->tiles + ((size_t)gy * s->tiles_w + gx) * TILE * TILE * 4;
}

static void grid_request_start(MyPaintTiledSurface2 *self, MyPaintTileRequest *request) {
    GridSurface *s = (GridSurface *)self;
    uint16_t *t = grid_tile(s, request->tx, request->ty);
    request->buffer = t ? t : s->null_tile;
}

static void grid_request_end(MyPaintTiledSurface2 *self, MyPaintTileRequest *request) {
    GridSurface *s = (GridSurface *)self;
    if (!grid_tile(s, request->tx, request->ty)) memset(s->null_tile, 0, TILE * TILE * 4 * sizeof(uint16_t));
}

static GridSurface *grid_surface_new(int width, int height) {
    GridSurface *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    mypaint_tiled_surface2_init(&s->parent, grid_request_start, grid_request_end);
    s->tx0 = -MARGIN_TILES;
    s->ty0 = -MARGIN_TILES;
    s->tiles_w = (width + TILE - 1) / TILE + 2 * MARGIN_TILES;
    s->tiles_h = (height + TILE - 1) / TILE + 2 * MARGIN_TILES;
    s->tiles = calloc((size_t)s->tiles_w * s->tiles_h, TILE * TILE * 4 * sizeof(uint16_t));
    s->null_tile = calloc(TILE * TILE * 4, sizeof(uint16_t));
    if (!s->tiles || !s->null_tile) return NULL;
    return s;
}

/* The --null surface: nothing drawn, everything transparent. */
static int null_draw_dab(MyPaintSurface2 *self, float x, float y, float radius, float r, float g, float b, float opaque,
                         float hardness, float alpha_eraser, float aspect_ratio, float angle, float lock_alpha, float colorize,
                         float posterize, float posterize_num, float paint) {
    (void)self; (void)x; (void)y; (void)radius; (void)r; (void)g; (void)b; (void)opaque; (void)hardness; (void)alpha_eraser;
    (void)aspect_ratio; (void)angle; (void)lock_alpha; (void)colorize; (void)posterize; (void)posterize_num; (void)paint;
    return 1;
}
static void null_get_color(MyPaintSurface2 *self, float x, float y, float radius, float *r, float *g, float *b, float *a,
                           float paint) {
    (void)self; (void)x; (void)y; (void)radius; (void)paint;
    *r = 0; *g = 1; *b = 0; *a = 0;
}
static void null_begin(MyPaintSurface *self) { (void)self; }
static void null_end(MyPaintSurface2 *self, MyPaintRectangles *roi) { (void)self; (void)roi; }

static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *bigger = realloc(buf, cap + 1);
            if (!bigger) { free(buf); buf = NULL; }
            buf = bigger;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    if (length) *length = n;
    return buf;
}

typedef struct { double t, x, y, pressure, xtilt, ytilt; } Event;

static Event *read_events(const char *path, int *count) {
    char *text = read_file(path, NULL);
    if (!text) return NULL;
    int cap = 4096, n = 0, line = 0;
    Event *events = malloc(sizeof(Event) * cap);
    for (char *p = text, *next; p && *p; p = next) {
        next = strchr(p, '\n');
        if (next) *next++ = 0;
        line++;
        if (!*p) continue;
        Event e = {0};
        int k = sscanf(p, "%lf %lf %lf %lf %lf %lf", &e.t, &e.x, &e.y, &e.pressure, &e.xtilt, &e.ytilt);
        if (k != 4 && k != 6) {
            fprintf(stderr, "%s:%d: expected \"t x y pressure [xtilt ytilt]\"\n", path, line);
            exit(2);
        }
        if (n == cap) events = realloc(events, sizeof(Event) * (cap *= 2));
        events[n++] = e;
    }
    free(text);
    *count = n;
    return events;
}

/* Hexcone HSV of an 8-bit colour, each 0…1 (a grey has hue 0): Kernels' HSV.components. */
static void hsv_of(unsigned rgb, double *h, double *s, double *v) {
    double r = (rgb >> 16 & 255) / 255.0, g = (rgb >> 8 & 255) / 255.0, b = (rgb & 255) / 255.0;
    double mx = fmax(r, fmax(g, b)), mn = fmin(r, fmin(g, b)), d = mx - mn;
    *v = mx;
    if (!(d > 0)) { *h = 0; *s = 0; return; }
    double hh;
    if (mx == r) hh = (g - b) / d; else if (mx == g) hh = (b - r) / d + 2; else hh = (r - g) / d + 4;
    hh /= 6;
    if (hh < 0) hh += 1;
    *h = hh;
    *s = d / mx;
}

/* 15-bit premultiplied over white, to 8 bits rounded. */
static uint8_t over_white(uint16_t c, uint16_t a) {
    uint32_t v = (uint32_t)c + (1u << 15) - (a > (1u << 15) ? (1u << 15) : a);
    if (v > (1u << 15)) v = 1u << 15;
    return (uint8_t)((v * 255 + (1u << 14)) >> 15);
}

static int write_picture(GridSurface *grid, MyPaintFixedTiledSurface *fixed, int width, int height, const char *out);

/* --dabs: the dabs of a file, straight onto the surface. */
static int draw_dabs(const char *path, const char *out, int width, int height) {
    char *text = read_file(path, NULL);
    if (!text) { perror(path); return 2; }
    GridSurface *grid = grid_surface_new(width, height);
    if (!grid) return 1;
    MyPaintSurface2 *surface = &grid->parent.parent;
    int line = 0;
    for (char *p = text, *next; p && *p; p = next) {
        next = strchr(p, '\n');
        if (next) *next++ = 0;
        line++;
        if (!*p || *p == '#') continue;
        float v[16];
        if (sscanf(p, "%f %f %f %f %f %f %f %f %f %f %f %f %f %f %f %f", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
                   &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15]) != 16) {
            fprintf(stderr, "%s:%d: expected 16 numbers\n", path, line);
            return 2;
        }
        mypaint_surface_begin_atomic(&surface->parent);
        mypaint_surface2_draw_dab(surface, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13],
                                  v[14], v[15]);
        MyPaintRectangle rect;
        MyPaintRectangles rois = {1, &rect};
        mypaint_surface2_end_atomic(surface, &rois);
    }
    free(text);
    return write_picture(grid, NULL, width, height, out);
}

/* The .myb's JSON without the settings and inputs libmypaint does not know, as Quicksilver's
 * BrushSettings hands it over: libmypaint 1.6 on its own stops reading a setting's inputs at the
 * first it does not know (the Dieterle brushes' surfacemap_x, from libmypaint 2), losing the
 * known ones after it. */
static char *known_settings(const char *text, const char *path) {
    json_object *root = json_tokener_parse(text), *settings;
    if (!root || !json_object_object_get_ex(root, "settings", &settings) || !json_object_is_type(settings, json_type_object)) {
        fprintf(stderr, "%s: not a brush\n", path);
        exit(2);
    }
    const char *drop[256];
    int n = 0;
    json_object_object_foreach(settings, name, setting) {
        json_object *inputs;
        if ((int)mypaint_brush_setting_from_cname(name) < 0) {
            if (n < 256) drop[n++] = name;
        } else if (json_object_is_type(setting, json_type_object) && json_object_object_get_ex(setting, "inputs", &inputs) &&
                   json_object_is_type(inputs, json_type_object)) {
            const char *unknown[64];
            int k = 0;
            json_object_object_foreach(inputs, input, curve) {
                (void)curve;
                if ((int)mypaint_brush_input_from_cname(input) < 0 && k < 64) unknown[k++] = input;
            }
            for (int i = 0; i < k; i++) json_object_object_del(inputs, unknown[i]);
        }
    }
    for (int i = 0; i < n; i++) json_object_object_del(settings, drop[i]);
    char *out = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
    json_object_put(root);
    return out;
}

/* A brush made by the protocol: new, libmypaint's defaults, the .myb's JSON, the colour's HSV. */
static MyPaintBrush *make_brush(const char *path, unsigned rgb) {
    char *text = read_file(path, NULL);
    if (!text) { perror(path); exit(2); }
    char *json = known_settings(text, path);
    free(text);
    /* libmypaint 1.6 reads the brush's setting values before it first computes them (the top of
     * update_states_and_setting_values copies three of them into the state): whatever malloc
     * handed mypaint_brush_new decides the first dabs. Zeroed here (malloc fills what it hands
     * out with the complement of M_PERTURB's byte), as a fresh process's heap happens to be, so
     * that every process paints the same. */
    mallopt(M_PERTURB, 0xff);
    MyPaintBrush *brush = mypaint_brush_new();
    mallopt(M_PERTURB, 0);
    mypaint_brush_from_defaults(brush);
    if (!mypaint_brush_from_string(brush, json)) { fprintf(stderr, "%s: libmypaint refused the brush\n", path); exit(2); }
    free(json);
    double h, s, v;
    hsv_of(rgb, &h, &s, &v);
    mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_H, (float)h);
    mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_S, (float)s);
    mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_V, (float)v);
    return brush;
}

/* Each event one stroke_to in its own atomic section, shifted by (dx, dy). */
static void play(MyPaintBrush *brush, MyPaintSurface *surface, const Event *events, int count, int legacy, double dx, double dy) {
    double previous = 0;
    for (int i = 0; i < count; i++) {
        const Event *e = &events[i];
        /* 10 s for the first: over libmypaint's 5 s, so the new brush is reset where it starts
         * (it sits at 0,0, and slow tracking would draw the first stroke in from the corner). */
        double dtime = i == 0 ? 10 : e->t - previous;
        previous = e->t;
        float x = (float)(e->x + dx), y = (float)(e->y + dy);
        mypaint_surface_begin_atomic(surface);
        if (legacy) {
            mypaint_brush_stroke_to(brush, surface, x, y, (float)e->pressure, (float)e->xtilt, (float)e->ytilt, dtime);
            MyPaintRectangle roi;
            mypaint_surface_end_atomic(surface, &roi);
        } else {
            mypaint_brush_stroke_to_2(brush, (MyPaintSurface2 *)surface, x, y, (float)e->pressure, (float)e->xtilt,
                                      (float)e->ytilt, dtime, 1.0f, 0.0f, 0.0f);
            MyPaintRectangle rect;
            MyPaintRectangles rois = {1, &rect};
            mypaint_surface2_end_atomic((MyPaintSurface2 *)surface, &rois);
        }
    }
}

static int parse_color(const char *text, unsigned *rgb) {
    return text && strlen(text) == 7 && sscanf(text, "#%6x", rgb) == 1;
}

int main(int argc, char **argv) {
    if (argc >= 4 && !strcmp(argv[1], "--dabs")) {
        int width = 128, height = 128;
        if (argc == 6 && !strcmp(argv[4], "--size") && sscanf(argv[5], "%dx%d", &width, &height) != 2) return 2;
        return draw_dabs(argv[2], argv[3], width, height);
    }
    const char *brush_path = NULL, *color = NULL, *events_path = NULL, *out = NULL;
    const char *under_path = NULL;
    unsigned under_rgb = 0;
    double under_dx = 0, under_dy = 0;
    int width = 1024, height = 768, legacy = 0, null = 0, positional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--legacy")) legacy = 1;
        else if (!strcmp(argv[i], "--null")) null = 1;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "mypaint-render: bad --size %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--under") && i + 4 < argc) {
            under_path = argv[++i];
            if (!parse_color(argv[++i], &under_rgb)) { fprintf(stderr, "mypaint-render: bad --under colour %s\n", argv[i]); return 2; }
            under_dx = atof(argv[++i]);
            under_dy = atof(argv[++i]);
        } else if (positional == 0) { brush_path = argv[i]; positional++; }
        else if (positional == 1) { color = argv[i]; positional++; }
        else if (positional == 2) { events_path = argv[i]; positional++; }
        else if (positional == 3) { out = argv[i]; positional++; }
        else positional++;
    }
    unsigned rgb;
    if (positional != 4 || !parse_color(color, &rgb)) {
        fprintf(stderr, "usage: mypaint-render BRUSH.myb '#rrggbb' EVENTS OUT.png [--size WxH] [--under BRUSH.myb '#rrggbb' DX DY] "
                        "[--legacy] [--null]\n");
        return 2;
    }
    int count;
    Event *events = read_events(events_path, &count);
    if (!events) { perror(events_path); return 2; }

    GridSurface *grid = NULL;
    MyPaintFixedTiledSurface *fixed = NULL;
    MyPaintSurface2 null_surface;
    MyPaintSurface *surface;
    if (null) {
        memset(&null_surface, 0, sizeof null_surface);
        null_surface.draw_dab_pigment = null_draw_dab;
        null_surface.get_color_pigment = null_get_color;
        null_surface.end_atomic_multi = null_end;
        null_surface.parent.begin_atomic = null_begin;
        surface = &null_surface.parent;
    } else if (legacy) {
        fixed = mypaint_fixed_tiled_surface_new(width, height);
        if (!fixed) return 1;
        /* It starts with every value 0xffff: cleared to transparent, tile by tile. */
        MyPaintTiledSurface *tiled = (MyPaintTiledSurface *)fixed;
        for (int ty = 0; ty * TILE < height; ty++) {
            for (int tx = 0; tx * TILE < width; tx++) {
                MyPaintTileRequest r;
                mypaint_tile_request_init(&r, 0, tx, ty, FALSE);
                mypaint_tiled_surface_tile_request_start(tiled, &r);
                memset(r.buffer, 0, TILE * TILE * 4 * sizeof(uint16_t));
                mypaint_tiled_surface_tile_request_end(tiled, &r);
            }
        }
        surface = mypaint_fixed_tiled_surface_interface(fixed);
    } else {
        grid = grid_surface_new(width, height);
        if (!grid) { fprintf(stderr, "mypaint-render: out of memory\n"); return 1; }
        surface = (MyPaintSurface *)&grid->parent;
    }

    /* --under: the recording first painted, shifted, with another brush (what an eraser, a smudge
     * or a lock-alpha brush then works on). */
    if (under_path) {
        MyPaintBrush *under = make_brush(under_path, under_rgb);
        play(under, surface, events, count, legacy, under_dx, under_dy);
        mypaint_brush_unref(under);
    }
    MyPaintBrush *brush = make_brush(brush_path, rgb);
    play(brush, surface, events, count, legacy, 0, 0);

    int status = null ? 0 : write_picture(grid, fixed, width, height, out);
    mypaint_brush_unref(brush);
    if (fixed) mypaint_surface_unref(surface);
    if (grid) {
        mypaint_tiled_surface2_destroy(&grid->parent);
        free(grid->tiles);
        free(grid->null_tile);
        free(grid);
    }
    free(events);
    return status;
}

/* The picture (0, 0)–(width, height) over white, as an 8-bit RGB PNG: from the grid, or from the
 * fixed tiled surface (--legacy). */
static int write_picture(GridSurface *grid, MyPaintFixedTiledSurface *fixed, int width, int height, const char *out) {
    uint8_t *rgb8 = malloc((size_t)width * height * 3);
    if (!rgb8) return 1;
    for (int ty = 0; ty * TILE < height; ty++) {
        for (int tx = 0; tx * TILE < width; tx++) {
            uint16_t *tile;
            MyPaintTileRequest r;
            if (fixed) {
                mypaint_tile_request_init(&r, 0, tx, ty, TRUE);
                mypaint_tiled_surface_tile_request_start((MyPaintTiledSurface *)fixed, &r);
                tile = r.buffer;
            } else {
                tile = grid_tile(grid, tx, ty);
            }
            for (int y = 0; y < TILE && ty * TILE + y < height; y++) {
                for (int x = 0; x < TILE && tx * TILE + x < width; x++) {
                    const uint16_t *p = tile + (y * TILE + x) * 4;
                    uint8_t *o = rgb8 + ((size_t)(ty * TILE + y) * width + tx * TILE + x) * 3;
                    for (int c = 0; c < 3; c++) o[c] = over_white(p[c], p[3]);
                }
            }
            if (fixed) mypaint_tiled_surface_tile_request_end((MyPaintTiledSurface *)fixed, &r);
        }
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&image, out, 0, rgb8, width * 3, NULL)) {
        fprintf(stderr, "%s: %s\n", out, image.message);
        return 1;
    }
    free(rgb8);
    return 0;
}
