// cairo_play: what `quicksilver-bench`'s play.300k is compared with (`make bench` builds it against
// Debian's libcairo2-dev and passes it as `bench --cairo`). It reads the same replay journal,
// collects each stroke's points (the `down`, `move` and `up` lines, in order), and then, timed,
// draws every stroke onto a white canvas of the journal's size with cairo: one path per stroke,
// black, round caps and joins, width 8 (the pen's default size), antialiased (cairo's default).
// Nothing is written out: play.300k ends with the strokes in memory too.
//
// Usage: cairo_play FILE [RUNS]. Prints one line:
//   DRAW_MS STROKES POINTS CHECKSUM
// the median over RUNS (default 5, after one warm-up) of drawing all strokes; CHECKSUM, a sum of
// the canvas's bytes, shows the strokes were drawn.
#include <cairo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct strokes {
    int *counts;
    double *xy;
    int n, points;
};

// The number after `"key":` on `line`, or 0 when the key is missing.
static double field(const char *line, const char *key) {
    const char *at = strstr(line, key);
    if (!at) return 0;
    at = strchr(at + strlen(key), ':');
    return at ? strtod(at + 1, NULL) : 0;
}

static int read_journal(const char *path, struct strokes *s, int *width, int *height) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return 0; }
    size_t cap = 1 << 20, ccap = 1 << 12;
    s->xy = malloc(cap * sizeof(double));
    s->counts = calloc(ccap, sizeof(int));
    s->n = 0; s->points = 0;
    static char line[4096];
    int open = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "\"quicksilver\"")) {
            *width = (int)field(line, "\"width\"");
            *height = (int)field(line, "\"height\"");
            continue;
        }
        int down = strstr(line, "\"type\": \"down\"") != NULL;
        int move = strstr(line, "\"type\": \"move\"") != NULL;
        int up = strstr(line, "\"type\": \"up\"") != NULL;
        if (!down && !move && !up) continue;
        if (down) {
            if ((size_t)s->n + 1 >= ccap) { ccap *= 2; s->counts = realloc(s->counts, ccap * sizeof(int)); }
            s->counts[s->n++] = 0;
            open = 1;
        } else if (!open) continue;
        if ((size_t)s->points * 2 + 2 > cap) { cap *= 2; s->xy = realloc(s->xy, cap * sizeof(double)); }
        s->xy[2 * s->points] = field(line, "\"x\"");
        s->xy[2 * s->points + 1] = field(line, "\"y\"");
        s->points++;
        s->counts[s->n - 1]++;
        if (up) open = 0;
    }
    fclose(f);
    return *width > 0 && *height > 0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double draw(const struct strokes *s, int width, int height, unsigned long *checksum) {
    double start = now_ms();
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 8);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    const double *p = s->xy;
    for (int i = 0; i < s->n; i++) {
        cairo_move_to(cr, p[0], p[1]);
        for (int k = 1; k < s->counts[i]; k++) cairo_line_to(cr, p[2 * k], p[2 * k + 1]);
        cairo_stroke(cr);
        p += 2 * s->counts[i];
    }
    cairo_surface_flush(surface);
    double ms = now_ms() - start;
    const unsigned char *bytes = cairo_image_surface_get_data(surface);
    long total = (long)cairo_image_surface_get_stride(surface) * height;
    unsigned long sum = 0;
    for (long i = 0; i < total; i++) sum += bytes[i];
    *checksum = sum;
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return ms;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: cairo_play FILE [RUNS]\n"); return 2; }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1) runs = 1;
    struct strokes s;
    int width = 0, height = 0;
    if (!read_journal(argv[1], &s, &width, &height)) {
        fprintf(stderr, "cairo_play: %s: no header with a size\n", argv[1]);
        return 1;
    }
    unsigned long checksum = 0;
    draw(&s, width, height, &checksum);
    double *times = malloc(runs * sizeof(double));
    for (int r = 0; r < runs; r++) times[r] = draw(&s, width, height, &checksum);
    qsort(times, runs, sizeof(double), by_value);
    printf("%.3f %d %d %lu\n", times[runs / 2], s.n, s.points, checksum);
    return 0;
}
