// The fused compose's row (ComposeKernel.fusedLoop) in AVX2, eight pixels at a time: the layer
// with the live stroke's coverage painted in, blended normal over what lies below at the layer's
// opacity, then the layer above (if any), then inverted. Every step is the Swift loop's integer
// step — mul255(x, y) = ((x·y + 128)·257) >> 16 on 16-bit lanes, a pixel's blue and red in one
// 32-bit lane's halves and its green and alpha (shifted down 8) in another's — so the bytes are
// the same; only the width differs (Swift's SIMD8 is two SSE2 registers on x86-64).
#include "CVector.h"
#include <immintrin.h>

#if defined(__x86_64__)
#define QS_AVX2 __attribute__((target("avx2"))) static inline

QS_AVX2 __m256i mul255(__m256i x, __m256i y) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(x, y), _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}

/// `s` at `opacity` (both halves of each 32-bit lane: `o` holds it twice).
QS_AVX2 __m256i scaled(__m256i s, __m256i o, __m256i low) {
    return _mm256_or_si256(mul255(_mm256_and_si256(s, low), o), _mm256_slli_epi32(mul255(_mm256_and_si256(_mm256_srli_epi32(s, 8), low), o), 8));
}

/// Premultiplied `s` (already at its opacity) over `d`: s + d·(255 − s's alpha).
QS_AVX2 __m256i over(__m256i s, __m256i d, __m256i low) {
    __m256i alpha = _mm256_srli_epi32(s, 24);
    if (_mm256_testz_si256(alpha, alpha)) return d;
    __m256i inv = _mm256_sub_epi16(_mm256_set1_epi16(255), _mm256_or_si256(alpha, _mm256_slli_epi32(alpha, 16)));
    __m256i br = mul255(_mm256_and_si256(d, low), inv), ga = mul255(_mm256_and_si256(_mm256_srli_epi32(d, 8), low), inv);
    return _mm256_add_epi32(s, _mm256_or_si256(br, _mm256_slli_epi32(ga, 8)));
}

__attribute__((target("avx2"))) static int fused_row_avx2(int count, uint32_t *dst, const uint32_t *base, const uint32_t *layer,
                                                          uint32_t opacity, const uint8_t *committed, const uint8_t *tail,
                                                          const qs_stroke_paint *paint, const uint32_t *over_row,
                                                          uint32_t over_opacity, int invert) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF), full = _mm256_set1_epi16(255);
    const __m256i o = _mm256_set1_epi16((short)opacity), oo = _mm256_set1_epi16((short)over_opacity);
    const __m256i flip = _mm256_set1_epi32(0x00FFFFFF), opaque = _mm256_set1_epi32((int)0xFF000000u);
    __m256i colour_br = _mm256_setzero_si256(), colour_ga = colour_br, a16 = colour_br;
    if (paint) {
        colour_br = _mm256_set1_epi32((int)(paint->r << 16 | paint->b));
        colour_ga = _mm256_set1_epi32((int)((paint->paints ? 0xFFu : 0) << 16 | paint->g));
        a16 = _mm256_set1_epi16((short)paint->a);
    }
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(layer + i));
        if (paint) {
            __m128i m = _mm_max_epu8(_mm_loadl_epi64((const __m128i *)(committed + i)), _mm_loadl_epi64((const __m128i *)(tail + i)));
            if (!_mm_testz_si128(m, _mm_set1_epi64x(-1))) {
                // Each pixel's coverage in both 16-bit halves of its lane.
                __m256i c = _mm256_cvtepu8_epi32(m);
                c = _mm256_or_si256(c, _mm256_slli_epi32(c, 16));
                __m256i alpha = mul255(a16, c), inv = _mm256_sub_epi16(full, alpha);
                __m256i br = _mm256_add_epi16(mul255(colour_br, alpha), mul255(_mm256_and_si256(s, low), inv));
                __m256i ga = _mm256_add_epi16(mul255(colour_ga, alpha), mul255(_mm256_and_si256(_mm256_srli_epi32(s, 8), low), inv));
                s = _mm256_or_si256(br, _mm256_slli_epi32(ga, 8));
            }
        }
        if (opacity != 255) s = scaled(s, o, low);
        __m256i d = over(s, _mm256_loadu_si256((const __m256i *)(base + i)), low);
        if (over_row) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(over_row + i));
            d = over(over_opacity != 255 ? scaled(a, oo, low) : a, d, low);
        }
        if (invert) d = _mm256_xor_si256(_mm256_or_si256(d, opaque), flip);
        _mm256_storeu_si256((__m256i *)(dst + i), d);
    }
    return i;
}
#endif

int qs_fused_row(int count, uint32_t *dst, const uint32_t *base, const uint32_t *layer, uint32_t opacity,
                 const uint8_t *committed, const uint8_t *tail, const qs_stroke_paint *paint, const uint32_t *over,
                 uint32_t over_opacity, int invert, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256)
        return fused_row_avx2(count, dst, base, layer, opacity, committed, tail, paint, over, over_opacity, invert);
#endif
    (void)count; (void)dst; (void)base; (void)layer; (void)opacity; (void)committed; (void)tail; (void)paint; (void)over;
    (void)over_opacity; (void)invert; (void)widest;
    return 0;
}
