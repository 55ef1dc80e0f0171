// A MyPaint dab's rows eight pixels at a time in AVX2, where Swift's lanes on x86-64 are SSE2's
// four and most of its steps one pixel at a time. Start at qs_dab_rows: a threadgroup's rows of
// a dab, each only over the columns its ellipse may cover (`span_of_row`), by dab_row_avx2 —
// pixels split into channels by shuffles (`lanes`, `store`), the mask (`opacities`:
// DabRows.opacities, or DabMask.rrAntialiased under 3 px), then the passes DabPaint.apply lays
// when there is no lock alpha, colorize or posterize: plain source-over (`normal_pass`), then
// pigment source-over (`pigment_pass`, or `eraser_paint_pass` with the colour's alpha below 1).
// qs_sample_pick gives smudge sampling (DabSampler) the pixels it folds in. Every step is the
// Swift one in the same order, each float and double operation the same IEEE operation (no fused
// multiply-adds: the target has none), so the 15-bit values are the same bytes on every processor.
#include "CVector.h"

#include <math.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define QS_AVX2 __attribute__((target("avx2"))) static inline

/// x·c + y·d + z·e for float vectors, in that order: ((x·c + y·d) + z·e).
QS_AVX2 __m256 sum3(__m256 c, __m256 x, __m256 d, __m256 y, __m256 e, __m256 z) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(c, x), _mm256_mul_ps(d, y)), _mm256_mul_ps(e, z));
}

/// Float lanes through double and back: f(double(x)), rounded to float, on the eight lanes.
#define QS_VIA_DOUBLE(x, f) ({                                                                     \
    __m256d lo_ = _mm256_cvtps_pd(_mm256_castps256_ps128(x)), hi_ = _mm256_cvtps_pd(_mm256_extractf128_ps((x), 1)); \
    lo_ = f(lo_); hi_ = f(hi_);                                                                    \
    _mm256_set_m128(_mm256_cvtpd_ps(hi_), _mm256_cvtpd_ps(lo_)); })

QS_AVX2 __m256d plus_epsilon(__m256d x) { return _mm256_add_pd(x, _mm256_set1_pd(0.001)); }
QS_AVX2 __m256d one_minus(__m256d x) { return _mm256_sub_pd(_mm256_set1_pd(1.0), x); }
/// ⌊x + 0.5⌋: DabLanes.roundedHalfUp's double step.
QS_AVX2 __m256d rounded_half_up(__m256d x) { return _mm256_floor_pd(_mm256_add_pd(x, _mm256_set1_pd(0.5))); }
/// DabLanes.mix's channel: (x − ε) / (1 − ε as a float), clamped to 0…1 (NaN kept).
QS_AVX2 __m256d channel(__m256d x) {
    __m256d v = _mm256_div_pd(_mm256_sub_pd(x, _mm256_set1_pd(0.001)), _mm256_set1_pd((double)(float)(1.0 - 0.001)));
    v = _mm256_blendv_pd(v, _mm256_set1_pd(1.0), _mm256_cmp_pd(v, _mm256_set1_pd(1.0), _CMP_GT_OQ));
    return _mm256_blendv_pd(v, _mm256_setzero_pd(), _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_LT_OQ));
}

/// Spectral.fastlog2.
QS_AVX2 __m256 fastlog2(__m256 x) {
    __m256i bits = _mm256_castps_si256(x);
    __m256 mx = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x007FFFFF)), _mm256_set1_epi32(0x3F000000)));
    __m256 y = _mm256_mul_ps(_mm256_cvtepi32_ps(bits), _mm256_set1_ps(1.1920928955078125e-7f));
    y = _mm256_sub_ps(_mm256_sub_ps(y, _mm256_set1_ps(124.22551499f)), _mm256_mul_ps(_mm256_set1_ps(1.498030302f), mx));
    return _mm256_sub_ps(y, _mm256_div_ps(_mm256_set1_ps(1.72587999f), _mm256_add_ps(_mm256_set1_ps(0.3520887068f), mx)));
}

/// Spectral.fastpow2, the whole number of its result rounded to nearest as the Swift lanes do.
QS_AVX2 __m256 fastpow2(__m256 p) {
    __m256 negative = _mm256_cmp_ps(p, _mm256_setzero_ps(), _CMP_LT_OQ);
    __m256 offset = _mm256_and_ps(negative, _mm256_set1_ps(1.0f));
    __m256 clipp = _mm256_blendv_ps(p, _mm256_set1_ps(-126.0f), _mm256_cmp_ps(p, _mm256_set1_ps(-126.0f), _CMP_LT_OQ));
    __m256 z = _mm256_add_ps(_mm256_sub_ps(clipp, _mm256_round_ps(clipp, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)), offset);
    __m256 v = _mm256_add_ps(_mm256_add_ps(clipp, _mm256_set1_ps(121.2740575f)),
                             _mm256_div_ps(_mm256_set1_ps(27.7280233f), _mm256_sub_ps(_mm256_set1_ps(4.84252568f), z)));
    v = _mm256_mul_ps(_mm256_set1_ps(8388608.0f), _mm256_sub_ps(v, _mm256_mul_ps(_mm256_set1_ps(1.49012907f), z)));
    return _mm256_castsi256_ps(_mm256_cvtps_epi32(v));
}

/// Unsigned 32-bit lanes (below 2³¹) as floats.
QS_AVX2 __m256 floats(__m256i v) { return _mm256_cvtepi32_ps(v); }

/// DabMask.rSample: the squared distance of (x, y) from the centre in the ellipse's own axes.
QS_AVX2 __m256 r_sample(const qs_dab_mask *d, __m256 x, __m256 y) {
    __m256 cs = _mm256_set1_ps(d->cs), sn = _mm256_set1_ps(d->sn);
    __m256 yyr = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(y, cs), _mm256_mul_ps(x, sn)), _mm256_set1_ps(d->aspect_ratio));
    __m256 xxr = _mm256_add_ps(_mm256_mul_ps(y, sn), _mm256_mul_ps(x, cs));
    return _mm256_add_ps(_mm256_mul_ps(yyr, yyr), _mm256_mul_ps(xxr, xxr));
}

/// min(max(v, low), high) as DabMask writes it: v > high ? high : (v < low ? low : v).
QS_AVX2 __m256 clamp(__m256 v, __m256 low, __m256 high) {
    __m256 c = _mm256_blendv_ps(v, low, _mm256_cmp_ps(v, low, _CMP_LT_OQ));
    return _mm256_blendv_ps(c, high, _mm256_cmp_ps(v, high, _CMP_GT_OQ));
}

/// DabMask.rrAntialiased for pixels xs of row y: the visibility at the pixel's point nearest the
/// centre, lessened by how much farther a point one unit of area away lies. Both sides of each
/// branch are worked out and the lane's chosen.
QS_AVX2 __m256 rr_antialiased(const qs_dab_mask *d, __m256 xs, int y) {
    __m256 cs = _mm256_set1_ps(d->cs), sn = _mm256_set1_ps(d->sn), zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    __m256 one_over = _mm256_set1_ps(d->one_over_radius2), area = _mm256_set1_ps(d->rad_area_one);
    __m256 right = _mm256_sub_ps(_mm256_set1_ps(d->lx), xs), bottom = _mm256_set1_ps(d->ly - (float)y);
    __m256 center_x = _mm256_sub_ps(right, _mm256_set1_ps(0.5f)), center_y = _mm256_sub_ps(bottom, _mm256_set1_ps(0.5f));
    __m256 left = _mm256_sub_ps(right, one), top = _mm256_sub_ps(bottom, one);
    // The pixel holds the centre: the near point is it, at distance 0.
    __m256 inside = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(left, zero, _CMP_LT_OQ), _mm256_cmp_ps(right, zero, _CMP_GT_OQ)),
                                  _mm256_and_ps(_mm256_cmp_ps(top, zero, _CMP_LT_OQ), _mm256_cmp_ps(bottom, zero, _CMP_GT_OQ)));
    __m256 l2 = _mm256_add_ps(_mm256_mul_ps(cs, cs), _mm256_mul_ps(sn, sn));
    __m256 t = _mm256_div_ps(_mm256_add_ps(_mm256_mul_ps(center_x, cs), _mm256_mul_ps(center_y, sn)), l2);
    __m256 near_x = clamp(_mm256_mul_ps(cs, t), left, right), near_y = clamp(_mm256_mul_ps(sn, t), top, bottom);
    near_x = _mm256_andnot_ps(inside, near_x);
    near_y = _mm256_andnot_ps(inside, near_y);
    __m256 rr_near = _mm256_andnot_ps(inside, _mm256_mul_ps(r_sample(d, near_x, near_y), one_over));
    // Which side of the axis the pixel centre lies on.
    __m256 sign = _mm256_sub_ps(_mm256_mul_ps(_mm256_sub_ps(center_x, cs), sn), _mm256_mul_ps(cs, _mm256_add_ps(center_y, sn)));
    __m256 negative = _mm256_cmp_ps(sign, zero, _CMP_LT_OQ);
    __m256 far_x = _mm256_blendv_ps(_mm256_add_ps(near_x, _mm256_mul_ps(sn, area)), _mm256_sub_ps(near_x, _mm256_mul_ps(sn, area)), negative);
    __m256 far_y = _mm256_blendv_ps(_mm256_sub_ps(near_y, _mm256_mul_ps(cs, area)), _mm256_add_ps(near_y, _mm256_mul_ps(cs, area)), negative);
    __m256 r_far = r_sample(d, far_x, far_y);
    __m256 rr_far = _mm256_mul_ps(r_far, one_over);
    __m256 mean = _mm256_mul_ps(_mm256_add_ps(rr_far, rr_near), _mm256_set1_ps(0.5f));
    __m256 visibility = _mm256_div_ps(_mm256_sub_ps(one, rr_near), _mm256_add_ps(one, _mm256_sub_ps(rr_far, rr_near)));
    __m256 rr = _mm256_blendv_ps(_mm256_sub_ps(one, visibility), mean, _mm256_cmp_ps(r_far, _mm256_set1_ps(d->r_aa_start), _CMP_LT_OQ));
    return _mm256_blendv_ps(rr, rr_near, _mm256_cmp_ps(rr_near, one, _CMP_GT_OQ));
}

/// The mask's opacities at eight pixels of row y, x + order[k] in lane k: DabRows.opacities, or
/// DabMask.opacity for a dab anti-aliased.
QS_AVX2 __m256i opacities(const qs_dab_mask *d, int x, int y, __m256i order) {
    __m256 xs = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x), order));
    __m256 rr;
    if (d->antialiased) {
        rr = rr_antialiased(d, xs, y);
    } else {
        __m256 yy = _mm256_set1_ps(((float)y + 0.5f) - d->ly);
        __m256 xx = _mm256_sub_ps(_mm256_add_ps(xs, _mm256_set1_ps(0.5f)), _mm256_set1_ps(d->lx));
        rr = _mm256_mul_ps(r_sample(d, xx, yy), _mm256_set1_ps(d->one_over_radius2));
    }
    __m256 below = _mm256_cmp_ps(rr, _mm256_set1_ps(d->hardness), _CMP_LE_OQ);
    __m256 opa = _mm256_blendv_ps(_mm256_set1_ps(d->segment2_offset), _mm256_set1_ps(d->segment1_offset), below);
    opa = _mm256_add_ps(opa, _mm256_mul_ps(rr, _mm256_blendv_ps(_mm256_set1_ps(d->segment2_slope), _mm256_set1_ps(d->segment1_slope), below)));
    __m256 v = _mm256_mul_ps(opa, _mm256_set1_ps(32768.0f));
    __m256 off = _mm256_or_ps(_mm256_cmp_ps(rr, _mm256_set1_ps(1.0f), _CMP_GT_OQ), _mm256_cmp_ps(opa, _mm256_setzero_ps(), _CMP_NGT_UQ));
    v = _mm256_andnot_ps(off, v);
    v = _mm256_min_ps(v, _mm256_set1_ps(65535.0f));
    return _mm256_cvttps_epi32(v);
}

/// The lanes' pixels, as `lanes` orders them: 0, 1, 4, 5, 2, 3, 6, 7. Four pixels of four 16-bit
/// channels fill a 256-bit register, and splitting two such registers into channels with one
/// in-lane shuffle each leaves this order (putting it right would take a permute more each way).
#define QS_ORDER _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)

/// Pixels x… of the row (at `p`) as lanes: the mask's opacities, which lanes it covers (the
/// row's last pixels, under eight, as lanes that lay nothing), and r, g, b, a, each in the
/// order QS_ORDER gives; `v` the pixels as they were, four to a register. Returns 0 when no
/// lane is covered.
QS_AVX2 int lanes(const qs_dab_mask *m, const uint16_t *p, int x, int y, int end, __m256i *mask, __m256i *on, __m256i *r,
                  __m256i *g, __m256i *b, __m256i *a, __m256i v[2]) {
    int n = end - x < 8 ? end - x : 8;
    const __m256i order = QS_ORDER;
    *mask = opacities(m, x, y, order);
    *on = _mm256_and_si256(_mm256_cmpgt_epi32(*mask, _mm256_setzero_si256()), _mm256_cmpgt_epi32(_mm256_set1_epi32(n), order));
    if (_mm256_testz_si256(*on, *on)) return 0;
    if (n == 8) {
        v[0] = _mm256_loadu_si256((const __m256i *)p);
        v[1] = _mm256_loadu_si256((const __m256i *)(p + 16));
    } else {
        // Past the row's end lies the next row's start, or the tile's end: not read.
        const __m256i first = _mm256_setr_epi64x(0, 1, 2, 3);
        v[0] = _mm256_maskload_epi64((const long long *)p, _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), first));
        v[1] = _mm256_maskload_epi64((const long long *)(p + 16), _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - 4), first));
    }
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    __m256 rb0 = _mm256_castsi256_ps(_mm256_and_si256(v[0], low)), rb1 = _mm256_castsi256_ps(_mm256_and_si256(v[1], low));
    __m256 ga0 = _mm256_castsi256_ps(_mm256_srli_epi32(v[0], 16)), ga1 = _mm256_castsi256_ps(_mm256_srli_epi32(v[1], 16));
    *r = _mm256_castps_si256(_mm256_shuffle_ps(rb0, rb1, 0x88)); *b = _mm256_castps_si256(_mm256_shuffle_ps(rb0, rb1, 0xDD));
    *g = _mm256_castps_si256(_mm256_shuffle_ps(ga0, ga1, 0x88)); *a = _mm256_castps_si256(_mm256_shuffle_ps(ga0, ga1, 0xDD));
    return 1;
}

/// The lanes `on` covers back into the row as r, g, b, a (each truncated to 16 bits); the other
/// pixels keep `v`'s values, and none past the row's end is written.
QS_AVX2 void store(uint16_t *p, int x, int end, __m256i on, __m256i r, __m256i g, __m256i b, __m256i a, const __m256i v[2]) {
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    __m256i rg = _mm256_or_si256(_mm256_and_si256(r, low), _mm256_slli_epi32(g, 16));
    __m256i ba = _mm256_or_si256(_mm256_and_si256(b, low), _mm256_slli_epi32(a, 16));
    // Unpacking undoes QS_ORDER: pixels 0…3, then 4…7, each pixel's mask widened to 64 bits.
    __m256i on0 = _mm256_unpacklo_epi32(on, on), on1 = _mm256_unpackhi_epi32(on, on);
    __m256i out0 = _mm256_unpacklo_epi32(rg, ba), out1 = _mm256_unpackhi_epi32(rg, ba);
    if (end - x >= 8) {
        _mm256_storeu_si256((__m256i *)p, _mm256_blendv_epi8(v[0], out0, on0));
        _mm256_storeu_si256((__m256i *)(p + 16), _mm256_blendv_epi8(v[1], out1, on1));
    } else {
        _mm256_maskstore_epi64((long long *)p, on0, out0);
        _mm256_maskstore_epi64((long long *)(p + 16), on1, out1);
    }
}

/// (x·c + y·d) >> 15 on 32-bit lanes.
QS_AVX2 __m256i mix15(__m256i x, __m256i c, __m256i y, __m256i d) {
    return _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(x, c), _mm256_mullo_epi32(y, d)), 15);
}

/// DabPaint.normal (colour alpha 1<<15) or normalAndEraser: source-over at the colour's alpha.
QS_AVX2 void normal_pass(const qs_dab *d, __m256i mask, __m256i *r, __m256i *g, __m256i *b, __m256i *a) {
    __m256i opa_a = _mm256_srli_epi32(_mm256_mullo_epi32(mask, _mm256_set1_epi32((int)d->normal_opacity)), 15);
    __m256i opa_b = _mm256_sub_epi32(_mm256_set1_epi32(32768), opa_a);
    opa_a = _mm256_srli_epi32(_mm256_mullo_epi32(opa_a, _mm256_set1_epi32((int)d->color_a)), 15);
    *a = _mm256_add_epi32(opa_a, _mm256_srli_epi32(_mm256_mullo_epi32(opa_b, *a), 15));
    *r = mix15(opa_a, _mm256_set1_epi32((int)d->r), opa_b, *r);
    *g = mix15(opa_a, _mm256_set1_epi32((int)d->g), opa_b, *g);
    *b = mix15(opa_a, _mm256_set1_epi32((int)d->b), opa_b, *b);
}

/// The dab's curve to the power `fa` times the curve of the pixels' straight colour to the power
/// `fb`, back to r, g, b (each clamped to 0…1): DabLanes.mix, band by band in order.
QS_AVX2 void pigment_mix(const qs_dab *d, __m256 fa_a, __m256 fa_b, __m256i r, __m256i g, __m256i b, __m256i a, __m256 *mr,
                         __m256 *mg, __m256 *mb) {
    __m256 fa = floats(a), offset = _mm256_set1_ps((float)(1.0 - 0.001));
    __m256 sr = _mm256_div_ps(floats(r), fa), sg = _mm256_div_ps(floats(g), fa), sb = _mm256_div_ps(floats(b), fa);
    sr = _mm256_mul_ps(sr, offset); sg = _mm256_mul_ps(sg, offset); sb = _mm256_mul_ps(sb, offset);
    sr = QS_VIA_DOUBLE(sr, plus_epsilon); sg = QS_VIA_DOUBLE(sg, plus_epsilon); sb = QS_VIA_DOUBLE(sb, plus_epsilon);
    __m256 xr = _mm256_setzero_ps(), xg = xr, xb = xr;
    for (int i = 0; i < 10; i++) {
        __m256 band = sum3(_mm256_set1_ps(d->spectral->red[i]), sr, _mm256_set1_ps(d->spectral->green[i]), sg,
                           _mm256_set1_ps(d->spectral->blue[i]), sb);
        __m256 m = _mm256_mul_ps(fastpow2(_mm256_mul_ps(fa_a, _mm256_set1_ps(d->log_curve[i]))), fastpow2(_mm256_mul_ps(fa_b, fastlog2(band))));
        __m256 tr = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_red[i]), m);
        __m256 tg = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_green[i]), m);
        __m256 tb = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_blue[i]), m);
        if (i == 0) { xr = tr; xg = tg; xb = tb; }
        else { xr = _mm256_add_ps(xr, tr); xg = _mm256_add_ps(xg, tg); xb = _mm256_add_ps(xb, tb); }
    }
    *mr = QS_VIA_DOUBLE(xr, channel); *mg = QS_VIA_DOUBLE(xg, channel); *mb = QS_VIA_DOUBLE(xb, channel);
}

/// DabPaint.normalPaint (DabRows.pigment): pigment source-over, plain where the pixel is transparent.
QS_AVX2 void pigment_pass(const qs_dab *d, __m256i mask, __m256i on, __m256i *r, __m256i *g, __m256i *b, __m256i *a) {
    // libmypaint's floor: pigment does not take opacities under 150.
    uint32_t opacity = d->paint_opacity > 150 ? d->paint_opacity : 150;
    __m256i opa_a = _mm256_srli_epi32(_mm256_mullo_epi32(mask, _mm256_set1_epi32((int)opacity)), 15);
    __m256i opa_b = _mm256_sub_epi32(_mm256_set1_epi32(32768), opa_a);
    __m256i out_a = _mm256_add_epi32(opa_a, _mm256_srli_epi32(_mm256_mullo_epi32(opa_b, *a), 15));
    __m256i nr = mix15(opa_a, _mm256_set1_epi32((int)d->r), opa_b, *r);
    __m256i ng = mix15(opa_a, _mm256_set1_epi32((int)d->g), opa_b, *g);
    __m256i nb = mix15(opa_a, _mm256_set1_epi32((int)d->b), opa_b, *b);
    __m256i painted = _mm256_andnot_si256(_mm256_cmpeq_epi32(*a, _mm256_setzero_si256()), on);
    if (!_mm256_testz_si256(painted, painted)) {
        __m256 fa_a = _mm256_div_ps(floats(opa_a), floats(out_a)), mr, mg, mb;
        pigment_mix(d, fa_a, QS_VIA_DOUBLE(fa_a, one_minus), *r, *g, *b, *a, &mr, &mg, &mb);
        __m256 f_out = floats(out_a);
        // (uint16_t)(x + 0.5) with the sum in double: its floor, x being at least 0.
        #define QS_ROUNDED(x) _mm256_cvtps_epi32(QS_VIA_DOUBLE(_mm256_mul_ps((x), f_out), rounded_half_up))
        nr = _mm256_blendv_epi8(nr, QS_ROUNDED(mr), painted);
        ng = _mm256_blendv_epi8(ng, QS_ROUNDED(mg), painted);
        nb = _mm256_blendv_epi8(nb, QS_ROUNDED(mb), painted);
        #undef QS_ROUNDED
    }
    *r = nr; *g = ng; *b = nb; *a = out_a;
}

QS_AVX2 __m256d half_plus(__m256d x) { return _mm256_add_pd(_mm256_set1_pd(0.5), x); }
/// DabPaint.spectralFactor: how far to mix by pigment rather than additively, by alpha x.
QS_AVX2 __m256 spectral_factor(__m256 x) {
    __m256 b = _mm256_sub_ps(_mm256_mul_ps(x, _mm256_set1_ps(8.0f)), _mm256_set1_ps(3.0f));
    __m256 magnitude = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), b);
    __m256 q = _mm256_div_ps(b, _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_mul_ps(magnitude, _mm256_set1_ps(1.65f))));
    __m256 f = QS_VIA_DOUBLE(q, half_plus);
    f = _mm256_blendv_ps(f, _mm256_set1_ps(1.0f), _mm256_cmp_ps(f, _mm256_set1_ps(1.0f), _CMP_GT_OQ));
    return _mm256_blendv_ps(f, _mm256_setzero_ps(), _mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_LT_OQ));
}

/// Float lanes to unsigned (DabPaint.u32): truncated, 0 for anything not above 0.
QS_AVX2 __m256i u32(__m256 v) { return _mm256_cvttps_epi32(_mm256_max_ps(v, _mm256_setzero_ps())); }

/// DabPaint.normalAndEraserPaint: pigment source-over at the colour's alpha below 1, mixed
/// additively as much as the pixel is transparent.
QS_AVX2 void eraser_paint_pass(const qs_dab *d, __m256i mask, __m256i on, __m256i *r, __m256i *g, __m256i *b, __m256i *a) {
    __m256i opa_a = _mm256_srli_epi32(_mm256_mullo_epi32(mask, _mm256_set1_epi32((int)d->paint_opacity)), 15);
    __m256i opa_b = _mm256_sub_epi32(_mm256_set1_epi32(32768), opa_a);
    __m256i opa_a2 = _mm256_srli_epi32(_mm256_mullo_epi32(opa_a, _mm256_set1_epi32((int)d->color_a)), 15);
    __m256i below = _mm256_srli_epi32(_mm256_mullo_epi32(opa_b, *a), 15);
    __m256i out_a = _mm256_add_epi32(opa_a2, below);
    __m256 spectral = spectral_factor(_mm256_div_ps(floats(*a), _mm256_set1_ps(32768.0f)));
    __m256 additive = QS_VIA_DOUBLE(spectral, one_minus);
    __m256i adds = _mm256_castps_si256(_mm256_cmp_ps(additive, _mm256_setzero_ps(), _CMP_NEQ_UQ));
    __m256i nr = _mm256_and_si256(mix15(opa_a2, _mm256_set1_epi32((int)d->r), opa_b, *r), adds);
    __m256i ng = _mm256_and_si256(mix15(opa_a2, _mm256_set1_epi32((int)d->g), opa_b, *g), adds);
    __m256i nb = _mm256_and_si256(mix15(opa_a2, _mm256_set1_epi32((int)d->b), opa_b, *b), adds);
    __m256i mixes = _mm256_and_si256(_mm256_andnot_si256(_mm256_cmpeq_epi32(*a, _mm256_setzero_si256()), on),
                                     _mm256_castps_si256(_mm256_cmp_ps(spectral, _mm256_setzero_ps(), _CMP_NEQ_UQ)));
    if (!_mm256_testz_si256(mixes, mixes)) {
        __m256 fa_a = _mm256_div_ps(floats(opa_a), floats(_mm256_add_epi32(opa_a, below)));
        fa_a = _mm256_mul_ps(fa_a, _mm256_div_ps(_mm256_set1_ps((float)d->color_a), _mm256_set1_ps(32768.0f)));
        __m256 mr, mg, mb;
        pigment_mix(d, fa_a, QS_VIA_DOUBLE(fa_a, one_minus), *r, *g, *b, *a, &mr, &mg, &mb);
        __m256 out = floats(out_a);
        #define QS_CHANNEL(n, m) _mm256_blendv_epi8((n), u32(_mm256_add_ps(_mm256_mul_ps(additive, floats(n)), \
                                                                      _mm256_mul_ps(_mm256_mul_ps(spectral, (m)), out))), mixes)
        nr = QS_CHANNEL(nr, mr); ng = QS_CHANNEL(ng, mg); nb = QS_CHANNEL(nb, mb);
        #undef QS_CHANNEL
    }
    *r = nr; *g = ng; *b = nb; *a = out_a;
}

__attribute__((target("avx2"))) static int dab_row_avx2(const qs_dab *d, uint16_t *row, int y, int x, int end) {
    for (; x < end; x += 8) {
        __m256i mask, on, r, g, b, a, v[2];
        uint16_t *p = row + 4 * x;
        if (!lanes(&d->mask, p, x, y, end, &mask, &on, &r, &g, &b, &a, v)) continue;
        if (d->normal_pass) normal_pass(d, mask, &r, &g, &b, &a);
        if (d->paint_pass) {
            if (d->color_a == 32768) pigment_pass(d, mask, on, &r, &g, &b, &a);
            else eraser_paint_pass(d, mask, on, &r, &g, &b, &a);
        }
        store(p, x, end, on, r, g, b, a, v);
    }
    return end;
}
#endif

/// A dab's rows as quadratics in x: rr·radius² = a·xx² + b·xx + c at xx = x + 0.5 − lx, with
/// b = b1·yy and c = c2·yy² − r2 at yy = y + 0.5 − ly (DabMask.rrPlain's terms multiplied out),
/// the rim r2 widened by a thousandth and a pixel.
typedef struct { double four_a, half_over_a, b1, c2, r2, yy0, centre; } qs_span_terms;

static inline qs_span_terms span_terms(const qs_dab_mask *m) {
    double cs = m->cs, sn = m->sn, ar2 = (double)m->aspect_ratio * m->aspect_ratio, a = sn * sn * ar2 + cs * cs;
    qs_span_terms t = {4 * a, 0.5 / a, 2 * sn * cs * (1 - ar2), cs * cs * ar2 + sn * sn,
                       (double)m->radius * m->radius * 1.001 + 1, 0.5 - (double)m->ly, (double)m->lx - 0.5};
    return t;
}

/// qs_dab_columns with the terms worked out. a ≥ 1 (the aspect ratio is at least 1), so the
/// roots are well conditioned; whole pixels are taken by truncation, a pixel wider still.
static inline int span_of_row(const qs_span_terms *t, int y, int x0, int x1, int *first, int *last) {
    double yy = y + t->yy0, b = t->b1 * yy, disc = b * b - t->four_a * (t->c2 * yy * yy - t->r2);
    if (!(disc >= 0)) return 0;
    double root = sqrt(disc);
    double lo = (-b - root) * t->half_over_a + t->centre, hi = (-b + root) * t->half_over_a + t->centre;
    if (!(lo < x1 + 2 && hi > x0 - 2)) return 0;
    // Clamped near the columns first, so that the conversions stay in range.
    lo = lo > x0 - 4 ? lo : x0 - 4;
    hi = hi < x1 + 4 ? hi : x1 + 4;
    int f = (int)lo - 2, l = (int)hi + 2;
    *first = f > x0 ? f : x0;
    *last = l < x1 ? l : x1;
    return *first <= *last;
}

int qs_dab_columns(const qs_dab_mask *m, int y, int x0, int x1, int *first, int *last) {
    qs_span_terms t = span_terms(m);
    return span_of_row(&t, y, x0, x1, first, last);
}

int qs_dab_rows(const qs_dab *dab, uint16_t *tile, int x0, int y0, int x1, int y1, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256) {
        qs_span_terms t = span_terms(&dab->mask);
        for (int y = y0; y <= y1; y++) {
            int first = x0, last = x1;
            if (!dab->mask.antialiased && !span_of_row(&t, y, x0, x1, &first, &last)) continue;
            dab_row_avx2(dab, tile + 256 * y, y, first, last + 1);
        }
        return 1;
    }
#endif
    (void)dab; (void)tile; (void)x0; (void)y0; (void)x1; (void)y1; (void)widest;
    return 0;
}

#if defined(__x86_64__)
/// qs_sample_pick's walk, the opacities eight at a time and each covered pixel taken in order.
__attribute__((target("avx2"))) static int sample_pick_avx2(const qs_dab_mask *m, int x0, int y0, int x1, int y1, uint16_t interval,
                                                            int32_t threshold, uint16_t *counter, uint32_t *state, int *front,
                                                            int *rear, uint32_t *taken, uint32_t *opacity) {
    const __m256i order = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    qs_span_terms t = span_terms(m);
    int count = 0, f = *front, r = *rear;
    uint16_t c = *counter;
    for (int y = y0; y <= y1; y++) {
        int first = x0, last = x1;
        if (!m->antialiased && !span_of_row(&t, y, x0, x1, &first, &last)) continue;
        for (int x = first; x <= last; x += 8) {
            __m256i opa = opacities(m, x, y, order);
            uint32_t lanes[8];
            _mm256_storeu_si256((__m256i *)lanes, opa);
            unsigned covered = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(opa, _mm256_setzero_si256())));
            if (last - x < 7) covered &= (1u << (last - x + 1)) - 1;
            while (covered) {
                int k = __builtin_ctz(covered);
                covered &= covered - 1;
                int take = c == 0;
                if (!take) {
                    // glibc's rand(): r[f] += r[r], shifted right once.
                    uint32_t v = state[f] + state[r];
                    state[f] = v;
                    f = f == 30 ? 0 : f + 1;
                    r = r == 30 ? 0 : r + 1;
                    take = (int32_t)(v >> 1) < threshold;
                }
                c = interval == 0 || c + 1 == interval ? 0 : c + 1;
                if (take) {
                    taken[count] = (uint32_t)(y * 64 + x + k);
                    opacity[count] = lanes[k];
                    count++;
                }
            }
        }
    }
    *counter = c; *front = f; *rear = r;
    return count;
}

/// A table's ten bands as two vectors of eight lanes (the last six lanes zero).
QS_AVX2 void bands(const float t[10], __m256 *low, __m256 *high) {
    float padded[16] = {0};
    for (int i = 0; i < 10; i++) padded[i] = t[i];
    *low = _mm256_loadu_ps(padded);
    *high = _mm256_loadu_ps(padded + 8);
}

/// Spectral.fastpow(x, p) = fastpow2(p · fastlog2(x)) on eight lanes.
QS_AVX2 __m256 fastpow(__m256 x, float p) { return fastpow2(_mm256_mul_ps(_mm256_set1_ps(p), fastlog2(x))); }

/// qs_sample_fold's loop: DabSampler.accumulate's, step for step.
__attribute__((target("avx2"))) static void sample_fold_avx2(const uint16_t *tile, const uint32_t *taken, const uint32_t *opacity,
                                                            int count, float paint, const qs_spectral *spectral, float *curve,
                                                            float *avg, float *sum_weight, float *sum_a) {
    __m256 red[2], green[2], blue[2];
    bands(spectral->red, &red[0], &red[1]);
    bands(spectral->green, &green[0], &green[1]);
    bands(spectral->blue, &blue[0], &blue[1]);
    __m256 c[2] = {_mm256_loadu_ps(curve), _mm256_loadu_ps(curve + 8)};
    float a0 = avg[0], a1 = avg[1], a2 = avg[2], weight = *sum_weight, sum = *sum_a;
    const float offset = (float)(1.0 - 0.001);
    for (int k = 0; k < count; k++) {
        const uint16_t *p = tile + 4 * taken[k];
        uint32_t opa = opacity[k];
        float pa = (float)p[3];
        float alpha = (float)opa * pa / (float)(1 << 30);
        float alpha_sums = alpha + sum;
        weight += (float)opa / 32768.0f;
        float fa = 1, fb = 1;
        if (alpha_sums > 0) {
            fa = alpha / alpha_sums;
            fb = (float)(1.0 - (double)fa);
        }
        if (paint > 0 && p[3] > 0) {
            // Spectral.curve: `r * offset + WGM_EPSILON`, the product in float, the sum in double.
            __m256 r = _mm256_set1_ps((float)((double)((float)p[0] / pa * offset) + 0.001));
            __m256 g = _mm256_set1_ps((float)((double)((float)p[1] / pa * offset) + 0.001));
            __m256 b = _mm256_set1_ps((float)((double)((float)p[2] / pa * offset) + 0.001));
            for (int h = 0; h < 2; h++) {
                __m256 band = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(red[h], r), _mm256_mul_ps(green[h], g)), _mm256_mul_ps(blue[h], b));
                c[h] = _mm256_mul_ps(fastpow(band, fa), fastpow(c[h], fb));
            }
        }
        if (paint < 1 && p[3] > 0) {
            a0 = (float)p[0] * fa / pa + a0 * fb;
            a1 = (float)p[1] * fa / pa + a1 * fb;
            a2 = (float)p[2] * fa / pa + a2 * fb;
        }
        sum += alpha;
    }
    _mm256_storeu_ps(curve, c[0]);
    _mm256_storeu_ps(curve + 8, c[1]);
    avg[0] = a0; avg[1] = a1; avg[2] = a2;
    *sum_weight = weight; *sum_a = sum;
}

#endif

int qs_sample_fold(const uint16_t *tile, const uint32_t *taken, const uint32_t *opacity, int count, float paint,
                   const qs_spectral *spectral, float *curve, float *avg, float *sum_weight, float *sum_a, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256) {
        sample_fold_avx2(tile, taken, opacity, count, paint, spectral, curve, avg, sum_weight, sum_a);
        return 1;
    }
#endif
    (void)tile; (void)taken; (void)opacity; (void)count; (void)paint; (void)spectral; (void)curve; (void)avg; (void)sum_weight;
    (void)sum_a; (void)widest;
    return 0;
}

int qs_sample_pick(const qs_dab_mask *mask, int x0, int y0, int x1, int y1, uint16_t interval, int32_t threshold, uint16_t *counter,
                   uint32_t *state, int *front, int *rear, uint32_t *taken, uint32_t *opacity, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256)
        return sample_pick_avx2(mask, x0, y0, x1, y1, interval, threshold, counter, state, front, rear, taken, opacity);
#endif
    (void)mask; (void)x0; (void)y0; (void)x1; (void)y1; (void)interval; (void)threshold; (void)counter; (void)state;
    (void)front; (void)rear; (void)taken; (void)opacity; (void)widest;
    return -1;
}
