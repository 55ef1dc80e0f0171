// A MyPaint dab's pigment source-over (DabRows: the mask of a dab that is not anti-aliased, then
// DabPaint.applyPigment) eight pixels at a time in AVX2, where Swift's lanes on x86-64 are SSE2's
// four. Every step is DabRows' and DabLanes' in the same order, each float and double operation
// the same IEEE operation (no fused multiply-adds: the target has none), so the 15-bit values are
// the same bytes on every processor.
#include "CVector.h"

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

/// The mask's opacities at eight pixels of row y from x: DabRows.opacities.
QS_AVX2 __m256i opacities(const qs_pigment_dab *d, int x, int y) {
    __m256 yy = _mm256_set1_ps(((float)y + 0.5f) - d->ly);
    __m256 xx = _mm256_sub_ps(_mm256_add_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))),
                                            _mm256_set1_ps(0.5f)), _mm256_set1_ps(d->lx));
    __m256 cs = _mm256_set1_ps(d->cs), sn = _mm256_set1_ps(d->sn);
    __m256 yyr = _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(yy, cs), _mm256_mul_ps(xx, sn)), _mm256_set1_ps(d->aspect_ratio));
    __m256 xxr = _mm256_add_ps(_mm256_mul_ps(yy, sn), _mm256_mul_ps(xx, cs));
    __m256 rr = _mm256_mul_ps(_mm256_add_ps(_mm256_mul_ps(yyr, yyr), _mm256_mul_ps(xxr, xxr)), _mm256_set1_ps(d->one_over_radius2));
    __m256 below = _mm256_cmp_ps(rr, _mm256_set1_ps(d->hardness), _CMP_LE_OQ);
    __m256 opa = _mm256_blendv_ps(_mm256_set1_ps(d->segment2_offset), _mm256_set1_ps(d->segment1_offset), below);
    opa = _mm256_add_ps(opa, _mm256_mul_ps(rr, _mm256_blendv_ps(_mm256_set1_ps(d->segment2_slope), _mm256_set1_ps(d->segment1_slope), below)));
    __m256 v = _mm256_mul_ps(opa, _mm256_set1_ps(32768.0f));
    __m256 off = _mm256_or_ps(_mm256_cmp_ps(rr, _mm256_set1_ps(1.0f), _CMP_GT_OQ), _mm256_cmp_ps(opa, _mm256_setzero_ps(), _CMP_NGT_UQ));
    v = _mm256_andnot_ps(off, v);
    v = _mm256_min_ps(v, _mm256_set1_ps(65535.0f));
    return _mm256_cvttps_epi32(v);
}

__attribute__((target("avx2"))) static int pigment_row_avx2(const qs_pigment_dab *d, uint16_t *row, int y, int x, int end) {
    const __m256i opacity = _mm256_set1_epi32((int)d->opacity), full = _mm256_set1_epi32(32768);
    const __m256i cr = _mm256_set1_epi32((int)d->r), cg = _mm256_set1_epi32((int)d->g), cb = _mm256_set1_epi32((int)d->b);
    for (; x < end; x += 8) {
        // The row's last pixels (under eight) as lanes that lay nothing.
        int n = end - x < 8 ? end - x : 8;
        __m256i mask = opacities(d, x, y);
        __m256i on = _mm256_and_si256(_mm256_cmpgt_epi32(mask, _mm256_setzero_si256()),
                                      _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
        if (_mm256_testz_si256(on, on)) continue;
        uint16_t *p = row + 4 * x;
        // The pixels' channels, one vector each: r, g, b, a of pixel k in lane k.
        uint32_t cr_[8] = {0}, cg_[8] = {0}, cb_[8] = {0}, ca_[8] = {0};
        for (int k = 0; k < n; k++) { cr_[k] = p[4 * k]; cg_[k] = p[4 * k + 1]; cb_[k] = p[4 * k + 2]; ca_[k] = p[4 * k + 3]; }
        __m256i r = _mm256_loadu_si256((const __m256i *)cr_), g = _mm256_loadu_si256((const __m256i *)cg_);
        __m256i b = _mm256_loadu_si256((const __m256i *)cb_), a = _mm256_loadu_si256((const __m256i *)ca_);
        __m256i opa_a = _mm256_srli_epi32(_mm256_mullo_epi32(mask, opacity), 15), opa_b = _mm256_sub_epi32(full, opa_a);
        __m256i out_a = _mm256_add_epi32(opa_a, _mm256_srli_epi32(_mm256_mullo_epi32(opa_b, a), 15));
        // Where the pixel is transparent: plain source-over.
        __m256i nr = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(opa_a, cr), _mm256_mullo_epi32(opa_b, r)), 15);
        __m256i ng = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(opa_a, cg), _mm256_mullo_epi32(opa_b, g)), 15);
        __m256i nb = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(opa_a, cb), _mm256_mullo_epi32(opa_b, b)), 15);
        __m256i painted = _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), on);
        if (!_mm256_testz_si256(painted, painted)) {
            __m256 fa_a = _mm256_div_ps(floats(opa_a), floats(out_a));
            __m256 fa_b = QS_VIA_DOUBLE(fa_a, one_minus);
            __m256 fa = floats(a), offset = _mm256_set1_ps((float)(1.0 - 0.001));
            __m256 sr = _mm256_div_ps(floats(r), fa), sg = _mm256_div_ps(floats(g), fa), sb = _mm256_div_ps(floats(b), fa);
            sr = _mm256_mul_ps(sr, offset); sg = _mm256_mul_ps(sg, offset); sb = _mm256_mul_ps(sb, offset);
            sr = QS_VIA_DOUBLE(sr, plus_epsilon); sg = QS_VIA_DOUBLE(sg, plus_epsilon); sb = QS_VIA_DOUBLE(sb, plus_epsilon);
            __m256 mr = _mm256_setzero_ps(), mg = mr, mb = mr;
            for (int i = 0; i < 10; i++) {
                __m256 band = sum3(_mm256_set1_ps(d->spectral->red[i]), sr, _mm256_set1_ps(d->spectral->green[i]), sg,
                                   _mm256_set1_ps(d->spectral->blue[i]), sb);
                __m256 m = _mm256_mul_ps(fastpow2(_mm256_mul_ps(fa_a, _mm256_set1_ps(d->log_curve[i]))),
                                         fastpow2(_mm256_mul_ps(fa_b, fastlog2(band))));
                __m256 tr = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_red[i]), m);
                __m256 tg = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_green[i]), m);
                __m256 tb = _mm256_mul_ps(_mm256_set1_ps(d->spectral->to_blue[i]), m);
                if (i == 0) { mr = tr; mg = tg; mb = tb; }
                else { mr = _mm256_add_ps(mr, tr); mg = _mm256_add_ps(mg, tg); mb = _mm256_add_ps(mb, tb); }
            }
            mr = QS_VIA_DOUBLE(mr, channel); mg = QS_VIA_DOUBLE(mg, channel); mb = QS_VIA_DOUBLE(mb, channel);
            __m256 f_out = floats(out_a);
            // (uint16_t)(x + 0.5) with the sum in double: its floor, x being at least 0.
            #define QS_ROUNDED(x) _mm256_cvtps_epi32(QS_VIA_DOUBLE(_mm256_mul_ps((x), f_out), rounded_half_up))
            nr = _mm256_blendv_epi8(nr, QS_ROUNDED(mr), painted);
            ng = _mm256_blendv_epi8(ng, QS_ROUNDED(mg), painted);
            nb = _mm256_blendv_epi8(nb, QS_ROUNDED(mb), painted);
            #undef QS_ROUNDED
        }
        uint32_t or_[8], og_[8], ob_[8], oa_[8], on_[8];
        _mm256_storeu_si256((__m256i *)or_, nr); _mm256_storeu_si256((__m256i *)og_, ng);
        _mm256_storeu_si256((__m256i *)ob_, nb); _mm256_storeu_si256((__m256i *)oa_, out_a);
        _mm256_storeu_si256((__m256i *)on_, on);
        for (int k = 0; k < 8; k++) {
            if (!on_[k]) continue;
            p[4 * k] = (uint16_t)or_[k]; p[4 * k + 1] = (uint16_t)og_[k]; p[4 * k + 2] = (uint16_t)ob_[k]; p[4 * k + 3] = (uint16_t)oa_[k];
        }
    }
    return end;
}
#endif

int qs_pigment_row(const qs_pigment_dab *dab, uint16_t *row, int y, int x, int end, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256) return pigment_row_avx2(dab, row, y, x, end);
#endif
    (void)dab; (void)row; (void)y; (void)end; (void)widest;
    return x;
}
