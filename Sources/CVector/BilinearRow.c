// A turned view's bilinear rows, sixteen samples at a time in AVX-512 or eight in AVX2, whichever
// the processor has (see CVector.h). The rounding is ComposeKernel.bilinear's: across,
// p + ((q − p)·fx + 128) >> 8 per channel, then down the same, which is one `vpmulhrsw` with the
// weight scaled by 2⁷: (δ·(fx·2⁷) + 2¹⁴) >> 15 = (δ·fx + 128) >> 8 for δ in −255…255 and fx in
// 0…255, so the bytes equal the Swift rows' on every processor. As there, a pixel's blue and red
// share a 32-bit lane (its green and alpha, shifted, another), so one multiply weighs two channels
// of every pixel in the register, with no shuffle to spread the weights.
#include "CVector.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// One sample, the scalar form of the same arithmetic (the row's ragged end).
static inline uint32_t bilinear1(const uint32_t *p, int width, uint32_t fx, uint32_t fy) {
    uint32_t out = 0xFF000000u;
    for (int shift = 0; shift < 24; shift += 8) {
        int p00 = (p[0] >> shift) & 0xFF, p10 = (p[1] >> shift) & 0xFF;
        int p01 = (p[width] >> shift) & 0xFF, p11 = (p[width + 1] >> shift) & 0xFF;
        int top = p00 + (((p10 - p00) * (int)fx + 128) >> 8), bottom = p01 + (((p11 - p01) * (int)fx + 128) >> 8);
        out |= (uint32_t)(top + (((bottom - top) * (int)fy + 128) >> 8)) << shift;
    }
    return out;
}

/// Samples `i` up to `count` one by one (a row's ragged end).
static int bilinear_tail(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d,
                         int i, int count, uint32_t *dst) {
    u += (uint64_t)(a * i);
    v += (uint64_t)(d * i);
    for (; i < count; i++, u += (uint64_t)a, v += (uint64_t)d)
        dst[i] = bilinear1(scratch + (v >> 24) * (uint64_t)width + (u >> 24), width, (u >> 16) & 0xFF, (v >> 16) & 0xFF);
    return count;
}

/// p + ((q − p)·f + 128) >> 8 on the 16-bit lanes of W-bit vectors, `f` the weight ·2⁷.
#define QS_LERP(W, p, q, f) _mm##W##_add_epi16((p), _mm##W##_mulhrs_epi16(_mm##W##_sub_epi16((q), (p)), (f)))
/// Each 32-bit lane of `x` shifted down `s` bits, then its bytes 0 and 2 (blue and red, or green and alpha).
#define QS_HALF(W, x, s) _mm##W##_and_si##W(_mm##W##_srli_epi32((x), (s)), _mm##W##_set1_epi32(0x00FF00FF))
/// The samples weighed, for both widths (W = 256: eight, 512: sixteen): `l`, `r` each sample's
/// pixel and the one right of it, `lb`, `rb` the two below, `us`, `vs` its coordinates with 16
/// fraction bits. The fractions ·2⁷ (bits 8…15, shifted to 7…14) go in both 16-bit halves of
/// each pixel's lane, which hold blue and red, or (shifted down 8) green and alpha; opaque.
#define QS_WEIGH(W, T, l, r, lb, rb, us, vs) ({                                                                  \
    const T weight_ = _mm##W##_set1_epi32(0xFF << 7);                                                             \
    T fx_ = _mm##W##_and_si##W(_mm##W##_srli_epi32((us), 1), weight_);                                            \
    T fy_ = _mm##W##_and_si##W(_mm##W##_srli_epi32((vs), 1), weight_);                                            \
    fx_ = _mm##W##_or_si##W(fx_, _mm##W##_slli_epi32(fx_, 16));                                                   \
    fy_ = _mm##W##_or_si##W(fy_, _mm##W##_slli_epi32(fy_, 16));                                                   \
    T br_ = QS_LERP(W, QS_LERP(W, QS_HALF(W, l, 0), QS_HALF(W, r, 0), fx_), QS_LERP(W, QS_HALF(W, lb, 0), QS_HALF(W, rb, 0), fx_), fy_); \
    T ga_ = QS_LERP(W, QS_LERP(W, QS_HALF(W, l, 8), QS_HALF(W, r, 8), fx_), QS_LERP(W, QS_HALF(W, lb, 8), QS_HALF(W, rb, 8), fx_), fy_); \
    _mm##W##_or_si##W(_mm##W##_or_si##W(br_, _mm##W##_slli_epi32(ga_, 8)), _mm##W##_set1_epi32((int)0xFF000000u)); })

/// Two adjacent pixels as one 64-bit word each, two words into each 128-bit half.
#define QS_PAIRS(p, i, j, k, l) _mm256_inserti128_si256(_mm256_castsi128_si256(QS_PAIR2(p, i, j)), QS_PAIR2(p, k, l), 1)
#define QS_PAIR2(p, i, j) _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)((p) + (i)))), \
                                                        (const double *)((p) + (j))))

__attribute__((target("avx2"))) static int bilinear_row_avx2(const uint32_t *scratch, int width, uint64_t u, uint64_t v,
                                                             int64_t a, int64_t d, int count, uint32_t *dst) {
    // Coordinates in 64 bits, exact as the caller's, in the order that the packing below puts
    // back in place: its shuffle takes lanes 0, 1 of each half of `_0145`, then of `_2367`.
    const __m256i a8 = _mm256_set1_epi64x(a * 8), d8 = _mm256_set1_epi64x(d * 8);
    __m256i u0145 = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)u), _mm256_setr_epi64x(0, a, 4 * a, 5 * a));
    __m256i u2367 = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)u), _mm256_setr_epi64x(2 * a, 3 * a, 6 * a, 7 * a));
    __m256i v0145 = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)v), _mm256_setr_epi64x(0, d, 4 * d, 5 * d));
    __m256i v2367 = _mm256_add_epi64(_mm256_set1_epi64x((int64_t)v), _mm256_setr_epi64x(2 * d, 3 * d, 6 * d, 7 * d));
    const __m256i w = _mm256_set1_epi32(width);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        // Eight samples' coordinates with 16 fraction bits in 32-bit lanes (whole parts under 2¹⁶).
        __m256i us = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(_mm256_srli_epi64(u0145, 8)),
                                                           _mm256_castsi256_ps(_mm256_srli_epi64(u2367, 8)), 0x88));
        __m256i vs = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(_mm256_srli_epi64(v0145, 8)),
                                                           _mm256_castsi256_ps(_mm256_srli_epi64(v2367, 8)), 0x88));
        uint32_t at[8];
        _mm256_storeu_si256((__m256i *)at, _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srli_epi32(vs, 16), w), _mm256_srli_epi32(us, 16)));
        // Each sample's pixel and the one right of it, a 64-bit load per row (loads, not
        // gathers: those were slower), then split into the left pixels and the right.
        const uint32_t *below = scratch + width;
        __m256 t0 = _mm256_castsi256_ps(QS_PAIRS(scratch, at[0], at[1], at[4], at[5]));
        __m256 t1 = _mm256_castsi256_ps(QS_PAIRS(scratch, at[2], at[3], at[6], at[7]));
        __m256 b0 = _mm256_castsi256_ps(QS_PAIRS(below, at[0], at[1], at[4], at[5]));
        __m256 b1 = _mm256_castsi256_ps(QS_PAIRS(below, at[2], at[3], at[6], at[7]));
        __m256i l = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0x88)), r = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0xDD));
        __m256i lb = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0x88)), rb = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0xDD));
        _mm256_storeu_si256((__m256i *)(dst + i), QS_WEIGH(256, __m256i, l, r, lb, rb, us, vs));
        u0145 = _mm256_add_epi64(u0145, a8); u2367 = _mm256_add_epi64(u2367, a8);
        v0145 = _mm256_add_epi64(v0145, d8); v2367 = _mm256_add_epi64(v2367, d8);
    }
    return bilinear_tail(scratch, width, u, v, a, d, i, count, dst);
}

/// The same on sixteen samples: coordinates in two vectors of eight 64-bit lanes each, pixel
/// pairs loaded eight to a vector, split into left and right by one two-source permute each.
#define QS_PAIRS8(p, at, o) _mm512_inserti64x4(_mm512_castsi256_si512(QS_PAIRS(p, at[o], at[o + 1], at[o + 2], at[o + 3])), \
                                               QS_PAIRS(p, at[o + 4], at[o + 5], at[o + 6], at[o + 7]), 1)

__attribute__((target("avx2,avx512f,avx512bw"))) static int bilinear_row_avx512(const uint32_t *scratch, int width, uint64_t u,
                                                                                uint64_t v, int64_t a, int64_t d, int count,
                                                                                uint32_t *dst) {
    const __m512i a8 = _mm512_set1_epi64(a * 8), d8 = _mm512_set1_epi64(d * 8), a16 = _mm512_set1_epi64(a * 16), d16 = _mm512_set1_epi64(d * 16);
    __m512i u0 = _mm512_add_epi64(_mm512_set1_epi64((int64_t)u), _mm512_setr_epi64(0, a, 2 * a, 3 * a, 4 * a, 5 * a, 6 * a, 7 * a));
    __m512i v0 = _mm512_add_epi64(_mm512_set1_epi64((int64_t)v), _mm512_setr_epi64(0, d, 2 * d, 3 * d, 4 * d, 5 * d, 6 * d, 7 * d));
    __m512i u1 = _mm512_add_epi64(u0, a8), v1 = _mm512_add_epi64(v0, d8);
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i w = _mm512_set1_epi32(width);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i us = _mm512_permutex2var_epi32(_mm512_srli_epi64(u0, 8), evens, _mm512_srli_epi64(u1, 8));
        __m512i vs = _mm512_permutex2var_epi32(_mm512_srli_epi64(v0, 8), evens, _mm512_srli_epi64(v1, 8));
        uint32_t at[16];
        _mm512_storeu_si512((void *)at, _mm512_add_epi32(_mm512_mullo_epi32(_mm512_srli_epi32(vs, 16), w), _mm512_srli_epi32(us, 16)));
        const uint32_t *below = scratch + width;
        __m512i t0 = QS_PAIRS8(scratch, at, 0), t1 = QS_PAIRS8(scratch, at, 8);
        __m512i b0 = QS_PAIRS8(below, at, 0), b1 = QS_PAIRS8(below, at, 8);
        __m512i l = _mm512_permutex2var_epi32(t0, evens, t1), r = _mm512_permutex2var_epi32(t0, odds, t1);
        __m512i lb = _mm512_permutex2var_epi32(b0, evens, b1), rb = _mm512_permutex2var_epi32(b0, odds, b1);
        _mm512_storeu_si512((void *)(dst + i), QS_WEIGH(512, __m512i, l, r, lb, rb, us, vs));
        u0 = _mm512_add_epi64(u0, a16); u1 = _mm512_add_epi64(u1, a16);
        v0 = _mm512_add_epi64(v0, d16); v1 = _mm512_add_epi64(v1, d16);
    }
    // The rest (under sixteen) eight at a time, then one by one.
    bilinear_row_avx2(scratch, width, u + (uint64_t)(a * i), v + (uint64_t)(d * i), a, d, count - i, dst + i);
    return count;
}
#endif

int qs_bilinear_row(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d,
                    int count, uint32_t *dst, int widest) {
#if defined(__x86_64__)
    int have = qs_vector_bits();
    if (widest >= 512 && have >= 512) return bilinear_row_avx512(scratch, width, u, v, a, d, count, dst);
    if (widest >= 256 && have >= 256) return bilinear_row_avx2(scratch, width, u, v, a, d, count, dst);
#endif
    (void)scratch; (void)width; (void)u; (void)v; (void)a; (void)d; (void)count; (void)dst; (void)widest;
    return 0;
}
