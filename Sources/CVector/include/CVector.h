// CVector: the vector loops the kernels need that Swift cannot spell. Start with this header: a
// function and a type per loop. (t · 257) >> 16 on eight 16-bit lanes is x86's `pmulhuw`; in Swift
// it goes through the standard library's generic widening, which the optimiser leaves as a call
// inside a large kernel. Written with clang's vector extensions, it is the same instruction on
// every target (arm64's `umull`/`shrn` pair) and always inlined. A turned view's bilinear rows
// (AVX-512 or AVX2, sixteen or eight pixels at a time, BilinearRow.c), the fused compose (AVX2,
// FusedPiece.c) and a MyPaint dab's rows and its tiles packed for the screen (AVX2, DabRows.c,
// PackTile.c) use instruction sets Swift cannot target per function; VectorBits.c says at run
// time which of them the processor has.
#ifndef QUICKSILVER_CVECTOR_H
#define QUICKSILVER_CVECTOR_H

#include <stdint.h>

typedef unsigned short qs_u16x8 __attribute__((ext_vector_type(8)));
typedef unsigned int qs_u32x8 __attribute__((ext_vector_type(8)));

/// The high half of each lane of `t` times 257: (t + t / 256) / 256 for every 16-bit t.
static inline __attribute__((always_inline)) qs_u16x8 qs_mulhi257(qs_u16x8 t) {
    return __builtin_convertvector((__builtin_convertvector(t, qs_u32x8) * 257u) >> 16, qs_u16x8);
}

/// The widest vectors the loops below have here, in bits: 512 (AVX-512), 256 (AVX2) or 0 (none:
/// the caller does the work in its own vectors), as the processor has them and the system saves them.
int qs_vector_bits(void);

/// `count` samples of a turned view's row into `dst`, each the four pixels of `scratch` (`width`
/// pixels a row) around it weighed by its fractions and made opaque, exactly as
/// ComposeKernel.bilinear rounds. Sample i is at (u + i·a, v + i·d) in fixed point with 24
/// fraction bits from the scratch's corner; every sample's pixel, and the pixels right of and
/// below it, must lie in the scratch, whose sides are under 2¹⁶. Uses vectors up to `widest`
/// bits (`qs_vector_bits()`, or less to compare the paths). Returns `count`, or 0 having
/// written nothing when there are no such vectors here or a step is 4 pixels or more.
int qs_bilinear_row(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d,
                    int count, uint32_t *dst, int widest);

/// The live stroke's colour for `qs_fused_piece`: straight channels and alpha, and whether it
/// paints (an eraser's alpha lane is 0, so paint goes away).
typedef struct {
    uint32_t r, g, b, a;
    int paints;
} qs_stroke_paint;

/// ComposeKernel.FusedPiece: `count` pixels by `rows` rows, each source's first pixel and row
/// step, which mask rows may be set (bit j: row j), the rows the stroke and the layer above may
/// cover ([lo, hi)), and, for a turned view's scratch, each row's span of canvas x (`spans`:
/// lower and upper bound per row, `x` the piece's first canvas x), else null.
typedef struct {
    long count, rows;
    uint32_t *dst; long dst_stride;
    const uint32_t *base; long base_stride;
    const uint32_t *layer; long layer_stride;
    const uint8_t *committed; uint64_t committed_rows;
    const uint8_t *tail; uint64_t tail_rows;
    const uint8_t *none;
    const uint32_t *over; long over_stride;
    long stroke_rows_lo, stroke_rows_hi, over_rows_lo, over_rows_hi;
    long x;
    const long *spans;
} qs_piece;

/// ComposeKernel.fusedPiece: `layer` with the coverage of `committed` and `tail` painted in
/// (when `paint` is not null), at `opacity` over `base`, then `over` at `over_opacity`, then
/// inverted (when `invert`), into `dst`, with the same bytes. Uses vectors up to `widest` bits;
/// returns 1, or 0 having written nothing when there are no such vectors here.
int qs_fused_piece(const qs_piece *piece, const qs_stroke_paint *paint, uint32_t opacity, uint32_t over_opacity, int invert,
                   int widest);

/// libmypaint's spectral tables (Spectral.red … toBlue): 10 bands each.
typedef struct {
    float red[10], green[10], blue[10], to_red[10], to_green[10], to_blue[10];
} qs_spectral;

/// A dab's mask (DabMask), its centre in the tile's own coordinates; anti-aliased or not.
typedef struct {
    float lx, ly, cs, sn, aspect_ratio, one_over_radius2, hardness;
    float segment1_offset, segment1_slope, segment2_offset, segment2_slope;
    int antialiased;
    float r_aa_start, rad_area_one, radius;
} qs_dab_mask;

/// A dab laying source-over, plain or pigment or both (DabPaint without lock alpha, colorize or
/// posterize): which of the two passes it lays, each pass's opacity (0…1<<15), its colour's alpha
/// (1<<15, or below: smudging toward transparency, erasing), its 15-bit colour, and its colour's
/// curve as fastlog2 with libmypaint's tables (for the pigment pass).
typedef struct {
    qs_dab_mask mask;
    int normal_pass, paint_pass;
    uint32_t normal_opacity, paint_opacity, color_a, r, g, b;
    float log_curve[10];
    const qs_spectral *spectral;
} qs_dab;

/// The columns of row y, within x0…x1, where a dab that is not anti-aliased may lay anything
/// (`first`…`last`); 0 when it lays nothing on the row. Outside its ellipse rr > 1 and the
/// opacity is 0, so only such pixels are left out: the row's quadratic in x solved in double,
/// the rim widened by a thousandth and a pixel either way, far beyond the float rounding of rr.
/// (A thin dab at an angle covers a few pixels of each row of its bounding box.)
int qs_dab_columns(const qs_dab_mask *mask, int y, int x0, int x1, int *first, int *last);

/// A dab's mask then its passes (DabRows.opacities, then DabPaint.apply: the bytes of the Swift
/// steps) on rows y0…y1, columns x0…x1 (inclusive) of a 64x64 tile of 15-bit r, g, b, a, eight
/// pixels at a time, each row only where it may lay anything (`qs_dab_columns`). Returns 1, or
/// 0 having done nothing when there are no such vectors here (the caller then lays it).
int qs_dab_rows(const qs_dab *dab, uint16_t *tile, int x0, int y0, int x1, int y1, int widest);

/// Which pixels of rows y0…y1, columns x0…x1 of a tile libmypaint's pigment get_color folds in
/// (DabSampler.accumulate), in its order, rows first: each pixel of the mask's nonzero opacity
/// moves `counter` on (back to 0 at `interval`), and is taken when the counter was 0, else when
/// the next draw of glibc's rand() (`state`: its 31 words, `front` and `rear` its pointers, all
/// moved on) is below `threshold`. Writes each taken pixel's index in the tile (y·64 + x) to
/// `taken` and its opacity to `opacity` (both must hold a tile's 4096), and returns how many;
/// -1 having done nothing when there are no such vectors here.
int qs_sample_pick(const qs_dab_mask *mask, int x0, int y0, int x1, int y1, uint16_t interval, int32_t threshold, uint16_t *counter,
                   uint32_t *state, int *front, int *rear, uint32_t *taken, uint32_t *opacity, int widest);

/// DabSampler.accumulate's fold of the pixels `qs_sample_pick` took (`count` of them, their
/// indices in `tile` and opacities) into the running averages, with the bytes of the Swift
/// steps: `sum_a` and `sum_weight`, by `paint` the 10-band pigment curve (`curve`, 16 floats,
/// the last six unused) and the additive colour (`avg`, r, g, b). Returns 1, or 0 having done
/// nothing when there are no such vectors here (the caller then folds them).
int qs_sample_fold(const uint16_t *tile, const uint32_t *taken, const uint32_t *opacity, int count, float paint,
                   const qs_spectral *spectral, float *curve, float *avg, float *sum_weight, float *sum_a, int widest);

/// Fix15.pack on the first pixels of `values` (15-bit r, g, b, a each) into `dst`, eight at a
/// time, with the same bytes. Returns how many it packed (count rounded down to eight; 0 when
/// there are no such vectors here): the caller packs the rest.
int qs_pack15(const uint16_t *values, uint32_t *dst, int count, int widest);

#endif
