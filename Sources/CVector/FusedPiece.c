// The fused compose (ComposeKernel.fusedPiece) in AVX2: a piece of up to 64 pixels by the rows of
// one tile, the layer with the live stroke's coverage painted in, blended normal over what lies
// below at the layer's opacity, then the layer above (if any), then inverted. One call a piece:
// called a row at a time (32,000 calls a 1080p frame) the set-up cost more than the vectors saved.
// Every step is the Swift loop's integer step — mul255(x, y) = ((x·y + 128)·257) >> 16 on 16-bit
// lanes, a pixel's blue and red in one 32-bit lane's halves and its green and alpha (shifted down
// 8) in another's; the ragged end of a row one pixel at a time, as Swift's — so the bytes are the
// same, eight pixels to a register where Swift's SIMD8 on x86-64 takes two SSE2 registers.
#include "CVector.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// Blend.mul255: x·y / 255, rounded.
static inline uint32_t mul255(uint32_t x, uint32_t y) {
    uint32_t t = x * y + 128;
    return (t + (t >> 8)) >> 8;
}

/// LayerBlend.scaled: a premultiplied pixel at `opacity`, both channels of a half at once.
static inline uint32_t scaled(uint32_t p, uint32_t opacity) {
    uint32_t tbr = (p & 0x00FF00FF) * opacity + 0x00800080, tga = ((p >> 8) & 0x00FF00FF) * opacity + 0x00800080;
    return (((tbr + ((tbr >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF) | (((tga + ((tga >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF) << 8;
}

/// One pixel of the row: StrokePaint.blend, then ComposeKernel.normal1 (twice with a layer above).
static inline uint32_t fused1(uint32_t s, uint32_t base, uint32_t coverage, const qs_stroke_paint *paint, const uint32_t *over,
                              uint32_t opacity, uint32_t over_opacity, int invert) {
    if (paint && coverage) {
        uint32_t alpha = mul255(paint->a, coverage), inv = 255 - alpha;
        s = ((paint->paints ? alpha : 0) + mul255(s >> 24, inv)) << 24 | (mul255(paint->r, alpha) + mul255((s >> 16) & 0xFF, inv)) << 16
            | (mul255(paint->g, alpha) + mul255((s >> 8) & 0xFF, inv)) << 8 | (mul255(paint->b, alpha) + mul255(s & 0xFF, inv));
    }
    if (opacity != 255) s = scaled(s, opacity);
    uint32_t d = s + scaled(base, 255 - (s >> 24));
    if (over) {
        uint32_t a = over_opacity != 255 ? scaled(*over, over_opacity) : *over;
        d = a + scaled(d, 255 - (a >> 24));
    }
    return invert ? (d | 0xFF000000u) ^ 0x00FFFFFFu : d;
}

#define QS_AVX2 __attribute__((target("avx2"))) static inline

QS_AVX2 __m256i mul255x(__m256i x, __m256i y) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(_mm256_mullo_epi16(x, y), _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}

/// `s` at opacity `o` (held in both halves of each 32-bit lane).
QS_AVX2 __m256i scaledx(__m256i s, __m256i o, __m256i low) {
    return _mm256_or_si256(mul255x(_mm256_and_si256(s, low), o), _mm256_slli_epi32(mul255x(_mm256_and_si256(_mm256_srli_epi32(s, 8), low), o), 8));
}

/// Premultiplied `s` (at its opacity) over `d`: s + d·(255 − s's alpha); `d` itself when every
/// alpha is 0, as the Swift step returns it.
QS_AVX2 __m256i overx(__m256i s, __m256i d, __m256i low) {
    __m256i alpha = _mm256_srli_epi32(s, 24);
    if (_mm256_testz_si256(alpha, alpha)) return d;
    __m256i inv = _mm256_sub_epi16(_mm256_set1_epi16(255), _mm256_or_si256(alpha, _mm256_slli_epi32(alpha, 16)));
    __m256i br = mul255x(_mm256_and_si256(d, low), inv), ga = mul255x(_mm256_and_si256(_mm256_srli_epi32(d, 8), low), inv);
    return _mm256_add_epi32(s, _mm256_or_si256(br, _mm256_slli_epi32(ga, 8)));
}

__attribute__((target("avx2"))) static void fused_piece_avx2(const qs_piece *p, const qs_stroke_paint *paint, uint32_t opacity,
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
    for (long j = 0; j < p->rows; j++) {
        long lo = 0, n = p->count;
        if (p->spans) {
            long first = p->spans[2 * j] - p->x, end = p->spans[2 * j + 1] - p->x;
            lo = first > 0 ? first : 0;
            n = (end < p->count ? end : p->count) - lo;
            if (n <= 0) continue;
        }
        const uint8_t *c = (p->committed_rows >> j & 1) ? p->committed + j * 64 : p->none;
        const uint8_t *t = (p->tail_rows >> j & 1) ? p->tail + j * 64 : p->none;
        const qs_stroke_paint *painted = paint && j >= p->stroke_rows_lo && j < p->stroke_rows_hi && (c != p->none || t != p->none) ? paint : 0;
        const uint32_t *over = p->over && j >= p->over_rows_lo && j < p->over_rows_hi ? p->over + j * p->over_stride + lo : 0;
        uint32_t *dst = p->dst + j * p->dst_stride + lo;
        const uint32_t *base = p->base + j * p->base_stride + lo, *layer = p->layer + j * p->layer_stride + lo;
        c += lo;
        t += lo;
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            __m256i s = _mm256_loadu_si256((const __m256i *)(layer + i));
            if (painted) {
                __m128i m = _mm_max_epu8(_mm_loadl_epi64((const __m128i *)(c + i)), _mm_loadl_epi64((const __m128i *)(t + i)));
                if (!_mm_testz_si128(m, _mm_set1_epi64x(-1))) {
                    // Each pixel's coverage in both 16-bit halves of its lane.
                    __m256i cover = _mm256_cvtepu8_epi32(m);
                    cover = _mm256_or_si256(cover, _mm256_slli_epi32(cover, 16));
                    __m256i alpha = mul255x(a16, cover), inv = _mm256_sub_epi16(full, alpha);
                    __m256i br = _mm256_add_epi16(mul255x(colour_br, alpha), mul255x(_mm256_and_si256(s, low), inv));
                    __m256i ga = _mm256_add_epi16(mul255x(colour_ga, alpha), mul255x(_mm256_and_si256(_mm256_srli_epi32(s, 8), low), inv));
                    s = _mm256_or_si256(br, _mm256_slli_epi32(ga, 8));
                }
            }
            if (opacity != 255) s = scaledx(s, o, low);
            __m256i d = overx(s, _mm256_loadu_si256((const __m256i *)(base + i)), low);
            if (over) {
                __m256i a = _mm256_loadu_si256((const __m256i *)(over + i));
                d = overx(over_opacity != 255 ? scaledx(a, oo, low) : a, d, low);
            }
            if (invert) d = _mm256_xor_si256(_mm256_or_si256(d, opaque), flip);
            _mm256_storeu_si256((__m256i *)(dst + i), d);
        }
        for (; i < n; i++)
            dst[i] = fused1(layer[i], base[i], c[i] > t[i] ? c[i] : t[i], painted, over ? over + i : 0, opacity, over_opacity, invert);
    }
}
#endif

int qs_fused_piece(const qs_piece *piece, const qs_stroke_paint *paint, uint32_t opacity, uint32_t over_opacity, int invert,
                   int widest) {
#if defined(__x86_64__)
    if (widest >= 256 && qs_vector_bits() >= 256) {
        fused_piece_avx2(piece, paint, opacity, over_opacity, invert);
        return 1;
    }
#endif
    (void)piece; (void)paint; (void)opacity; (void)over_opacity; (void)invert; (void)widest;
    return 0;
}
