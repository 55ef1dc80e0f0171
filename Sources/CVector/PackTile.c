// 15-bit premultiplied pixels (r, g, b, a as uint16_t) packed to 0xAARRGGBB, eight at a time in
// AVX2: Fix15.pack's steps — each channel (v·255 + 16384) >> 15, at most 255, colour at most
// alpha — on 32-bit lanes, so the bytes are the same. A MyPaint stroke's tiles go through it each
// time the window shows them.
#include "CVector.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// Two pixels (one to each 128-bit half, lanes r, g, b, a) packed to 8-bit b, g, r, a lanes.
__attribute__((target("avx2"))) static inline __m256i pack2(__m128i pixels) {
    __m256i v = _mm256_cvtepu16_epi32(pixels);
    v = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(v, _mm256_set1_epi32(255)), _mm256_set1_epi32(16384)), 15);
    v = _mm256_min_epu32(v, _mm256_set1_epi32(255));
    v = _mm256_min_epu32(v, _mm256_shuffle_epi32(v, _MM_SHUFFLE(3, 3, 3, 3)));
    return _mm256_shuffle_epi32(v, _MM_SHUFFLE(3, 0, 1, 2));
}

__attribute__((target("avx2"))) static int pack_avx2(const uint16_t *values, uint32_t *dst, int count) {
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m128i *p = (const __m128i *)(values + 4 * i);
        // Pixels 0, 1 | 2, 3 | 4, 5 | 6, 7, each pair's first in the low half; packing them
        // leaves the bytes in the order 0 2 4 6 | 1 3 5 7, put back in place by the permute.
        __m256i a = pack2(_mm_loadu_si128(p)), b = pack2(_mm_loadu_si128(p + 1));
        __m256i c = pack2(_mm_loadu_si128(p + 2)), d = pack2(_mm_loadu_si128(p + 3));
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
        bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *)(dst + i), bytes);
    }
    return i;
}
#endif

int qs_pack15(const uint16_t *values, uint32_t *dst, int count, int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256) return pack_avx2(values, dst, count);
#endif
    (void)values; (void)dst; (void)count; (void)widest;
    return 0;
}
