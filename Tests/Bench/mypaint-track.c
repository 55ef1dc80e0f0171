/* libmypaint's slow position tracking on the stabilizer bench's samples (`make bench` builds it).
 *
 * Usage: mypaint-track SLOW_TRACKING [SECONDS_PER_SAMPLE]. Reads one sample a line, "x y", from
 * stdin; strokes them with libmypaint's default brush (radius 4 px, pressure 0.5, the given
 * slow_tracking, SECONDS_PER_SAMPLE between samples, default 0.01: 100 Hz); writes each dab it
 * draws as "x y radius" to stdout, read back through a MyPaintSurface whose draw_dab records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mypaint-brush.h>
#include <mypaint-surface.h>

static int draw_dab(MyPaintSurface *self, float x, float y, float radius, float r, float g, float b,
                    float opaque, float hardness, float alpha_eraser, float aspect_ratio, float angle,
                    float lock_alpha, float colorize) {
    (void)self; (void)r; (void)g; (void)b; (void)opaque; (void)hardness; (void)alpha_eraser;
    (void)aspect_ratio; (void)angle; (void)lock_alpha; (void)colorize;
    printf("%.4f %.4f %.4f\n", x, y, radius);
    return 1;
}

static void get_color(MyPaintSurface *self, float x, float y, float radius, float *r, float *g, float *b, float *a) {
    (void)self; (void)x; (void)y; (void)radius;
    *r = *g = *b = 1; *a = 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: mypaint-track SLOW_TRACKING [SECONDS_PER_SAMPLE] < samples\n");
        return 2;
    }
    char *end;
    double slow = strtod(argv[1], &end);
    if (*end || !(slow >= 0)) { fprintf(stderr, "mypaint-track: bad SLOW_TRACKING %s\n", argv[1]); return 2; }
    double dtime = argc > 2 ? strtod(argv[2], &end) : 0.01;
    if (argc > 2 && (*end || !(dtime > 0))) { fprintf(stderr, "mypaint-track: bad SECONDS_PER_SAMPLE %s\n", argv[2]); return 2; }

    MyPaintSurface surface = {0};
    surface.draw_dab = draw_dab;
    surface.get_color = get_color;
    MyPaintBrush *brush = mypaint_brush_new();
    mypaint_brush_from_defaults(brush);
    mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_RADIUS_LOGARITHMIC, logf(4));
    mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_SLOW_TRACKING, (float)slow);
    mypaint_brush_new_stroke(brush);

    double x, y;
    int line = 0, n;
    char text[256];
    while (fgets(text, sizeof text, stdin)) {
        line++;
        if (sscanf(text, "%lf %lf %n", &x, &y, &n) != 2 || text[n] != 0) {
            fprintf(stderr, "<stdin>:%d: expected \"x y\"\n", line);
            return 1;
        }
        /* The first sample places the brush (a long pause with no pressure: nothing drawn, no
         * tracking from the origin). */
        if (line == 1) mypaint_brush_stroke_to(brush, &surface, (float)x, (float)y, 0, 0, 0, 10);
        mypaint_brush_stroke_to(brush, &surface, (float)x, (float)y, 0.5f, 0, 0, dtime);
    }
    mypaint_brush_unref(brush);
    return fflush(stdout) == 0 ? 0 : 1;
}
