// A turned view's bilinear rows, sixteen samples at a time in AVX-512 or eight in AVX2, whichever
// the processor has (see CVector.h). The rounding is ComposeKernel.bilinear's: across,
// p + ((q − p)·fx + 128) >> 8 per channel, then down the same, which is one `vpmulhrsw` with the
// weight scaled by 2⁷: (δ·(fx·2⁷) + 2¹⁴) >> 15 = (δ·fx + 128) >> 8 for δ in −255…255 and fx in
// 0…255, so the bytes equal the Swift rows' on every processor. As there, a pixel's blue and red
// share a 32-bit lane (its green and alpha another), so one multiply weighs two channels of every
// pixel in the register, with no shuffle to spread the weights.
//
// A block's coordinates are exact: its first sample's (64 bits, 24 fraction bits) split into whole
// and fraction, and the fraction plus k steps in 32-bit lanes, whose low 24 bits are the sample's
// fraction and whose top bits (arithmetic shift) add to the whole part. Each block's pixel offsets
// are worked out a block ahead and stored, then read back into the integer registers that address
// the loads: taken out of the lanes one by one (`vpextrd`), they cost as much as all the rest of
// the row, and read back at once, before the store had left the store queue, no less. A ragged
// end is the row's last block again, which writes its first samples a second time, the same bytes.
#include "CVector.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// One sample, the scalar form of the same arithmetic (a short row).
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

/// The samples one by one (a row under eight).
static int bilinear_few(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d, int count,
                        uint32_t *dst) {
    for (int i = 0; i < count; i++, u += (uint64_t)a, v += (uint64_t)d)
        dst[i] = bilinear1(scratch + (v >> 24) * (uint64_t)width + (u >> 24), width, (u >> 16) & 0xFF, (v >> 16) & 0xFF);
    return count;
}

/// p + ((q − p)·f + 128) >> 8 on the 16-bit lanes of W-bit vectors, `f` the weight ·2⁷.
#define QS_LERP(W, p, q, f) _mm##W##_add_epi16((p), _mm##W##_mulhrs_epi16(_mm##W##_sub_epi16((q), (p)), (f)))
/// Each 32-bit lane's bytes 0 and 2 (blue and red) in its 16-bit halves, and bytes 1 and 3 (green and alpha).
#define QS_BR(W, x) _mm##W##_and_si##W((x), _mm##W##_set1_epi32(0x00FF00FF))
#define QS_GA(W, x) _mm##W##_srli_epi16((x), 8)
/// Blue and red, green and alpha put back together, opaque.
#define QS_JOIN_256(br, ga) _mm256_or_si256(_mm256_or_si256((br), _mm256_slli_epi16((ga), 8)), _mm256_set1_epi32((int)0xFF000000u))
#define QS_JOIN_512(br, ga) _mm512_ternarylogic_epi32((br), _mm512_slli_epi16((ga), 8), _mm512_set1_epi32((int)0xFF000000u), 0xFE)
/// The samples weighed, for both widths (W = 256: eight, 512: sixteen): `l`, `r` each sample's
/// pixel and the one right of it, `lb`, `rb` the two below, `us`, `vs` its coordinates' fractions
/// in bits 0…23. The fractions' top bytes ·2⁷ (bits 16…23, shifted to 7…14) go in both 16-bit
/// halves of each pixel's lane, which hold blue and red, or green and alpha; opaque.
#define QS_WEIGH(W, T, l, r, lb, rb, us, vs) ({                                                                  \
    const T weight_ = _mm##W##_set1_epi32(0xFF << 7);                                                             \
    T fx_ = _mm##W##_and_si##W(_mm##W##_srli_epi32((us), 9), weight_);                                            \
    T fy_ = _mm##W##_and_si##W(_mm##W##_srli_epi32((vs), 9), weight_);                                            \
    fx_ = _mm##W##_or_si##W(fx_, _mm##W##_slli_epi32(fx_, 16));                                                   \
    fy_ = _mm##W##_or_si##W(fy_, _mm##W##_slli_epi32(fy_, 16));                                                   \
    T br_ = QS_LERP(W, QS_LERP(W, QS_BR(W, l), QS_BR(W, r), fx_), QS_LERP(W, QS_BR(W, lb), QS_BR(W, rb), fx_), fy_); \
    T ga_ = QS_LERP(W, QS_LERP(W, QS_GA(W, l), QS_GA(W, r), fx_), QS_LERP(W, QS_GA(W, lb), QS_GA(W, rb), fx_), fy_); \
    QS_JOIN_##W(br_, ga_); })

/// Two adjacent pixels as one 64-bit word each, two words into each 128-bit half.
#define QS_PAIRS(p, i, j, k, l) _mm256_inserti128_si256(_mm256_castsi128_si256(QS_PAIR2(p, i, j)), QS_PAIR2(p, k, l), 1)
#define QS_PAIR2(p, i, j) _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)((p) + (i)))), \
                                                        (const double *)((p) + (j))))

/// The first sample of block `n` of `size` in a row of `count` (at least `size`): the last block
/// ends with the row.
static inline int block_start(int n, int size, int count) { return n * size > count - size ? count - size : n * size; }

/// Keeps the offsets' store where it is: without it the compiler takes them from the lanes.
#define QS_STORED(at) __asm__ volatile("" ::"r"(at) : "memory")

/// Two stored offsets in one load (half the loads of reading them one by one, which the row's
/// pixel loads contend with), and each of them.
static inline uint64_t two_offsets(const uint32_t *at) {
    uint64_t q;
    __builtin_memcpy(&q, at, sizeof q);
    return q;
}
#define QS_LOW(q) ((uint32_t)(q))
#define QS_HIGH(q) ((uint32_t)((q) >> 32))

/// Sample k's step count in lane k.
#define QS_STEPS_256 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define QS_STEPS_512 _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

/// A block's four pixels around each sample (`l`, `r`: its pixel and the one right of it; `lb`,
/// `rb` the two below) from the pixel offsets `o`: a 64-bit load of each pair (loads, not
/// gathers: those were slower), split into the left pixels and the right.
#define QS_TAPS_256(o, l, r, lb, rb) do {                                                                                  \
        uint64_t q0 = two_offsets(o), q1 = two_offsets(o + 2), q2 = two_offsets(o + 4), q3 = two_offsets(o + 6);          \
        __m256 t0 = _mm256_castsi256_ps(QS_PAIRS(scratch, QS_LOW(q0), QS_HIGH(q0), QS_LOW(q2), QS_HIGH(q2)));              \
        __m256 t1 = _mm256_castsi256_ps(QS_PAIRS(scratch, QS_LOW(q1), QS_HIGH(q1), QS_LOW(q3), QS_HIGH(q3)));              \
        __m256 b0 = _mm256_castsi256_ps(QS_PAIRS(below, QS_LOW(q0), QS_HIGH(q0), QS_LOW(q2), QS_HIGH(q2)));                \
        __m256 b1 = _mm256_castsi256_ps(QS_PAIRS(below, QS_LOW(q1), QS_HIGH(q1), QS_LOW(q3), QS_HIGH(q3)));                \
        l = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0x88)); r = _mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0xDD)); \
        lb = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0x88)); rb = _mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0xDD)); \
    } while (0)
/// Eight pairs to a vector, split by one two-source permute each.
#define QS_PAIRS8(p, at, o) ({                                                                                              \
        uint64_t a_ = two_offsets(at + (o)), b_ = two_offsets(at + (o) + 2);                                                \
        uint64_t c_ = two_offsets(at + (o) + 4), d_ = two_offsets(at + (o) + 6);                                            \
        _mm512_inserti64x4(_mm512_castsi256_si512(QS_PAIRS(p, QS_LOW(a_), QS_HIGH(a_), QS_LOW(b_), QS_HIGH(b_))),          \
                           QS_PAIRS(p, QS_LOW(c_), QS_HIGH(c_), QS_LOW(d_), QS_HIGH(d_)), 1); })
#define QS_TAPS_512(o, l, r, lb, rb) do {                                                                                  \
        const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);                 \
        const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);                  \
        __m512i t0 = QS_PAIRS8(scratch, o, 0), t1 = QS_PAIRS8(scratch, o, 8);                                               \
        __m512i b0 = QS_PAIRS8(below, o, 0), b1 = QS_PAIRS8(below, o, 8);                                                   \
        l = _mm512_permutex2var_epi32(t0, evens, t1); r = _mm512_permutex2var_epi32(t0, odds, t1);                          \
        lb = _mm512_permutex2var_epi32(b0, evens, b1); rb = _mm512_permutex2var_epi32(b0, odds, b1);                        \
    } while (0)

/// The body of a row in W-bit vectors of `SIZE` samples (the arguments of `qs_bilinear_row`).
/// Block n's coordinates, their fractions in the low 24 bits of 32-bit lanes (`us`, `vs`), and
/// its pixels' offsets (`at`) are worked out a block ahead, into one of two buffers; two blocks
/// a turn, so that which buffer each uses is known when compiling.
#define QS_ROW(W, T, SIZE) do {                                                                                             \
        const T ka = _mm##W##_mullo_epi32(QS_STEPS_##W, _mm##W##_set1_epi32((int)a));                                       \
        const T kd = _mm##W##_mullo_epi32(QS_STEPS_##W, _mm##W##_set1_epi32((int)d));                                       \
        const T w = _mm##W##_set1_epi32(width);                                                                             \
        const uint32_t *below = scratch + width;                                                                            \
        const int blocks = (count + SIZE - 1) / SIZE;                                                                       \
        uint32_t at[2][SIZE] __attribute__((aligned(W / 8)));                                                               \
        T us[2], vs[2];                                                                                                     \
        QS_AHEAD(W, SIZE, 0, 0);                                                                                            \
        int n = 0;                                                                                                          \
        for (; n + 2 <= blocks; n += 2) {                                                                                   \
            QS_BLOCK(W, T, SIZE, n, 0);                                                                                     \
            QS_BLOCK(W, T, SIZE, n + 1, 1);                                                                                 \
        }                                                                                                                   \
        if (n < blocks) QS_BLOCK(W, T, SIZE, n, 0);                                                                         \
    } while (0)
#define QS_AHEAD(W, SIZE, n, k) do {                                                                                        \
        int i_ = block_start((n), SIZE, count);                                                                             \
        uint64_t u_ = u + (uint64_t)(a * i_), v_ = v + (uint64_t)(d * i_);                                                  \
        us[k] = _mm##W##_add_epi32(_mm##W##_set1_epi32((int)(u_ & 0xFFFFFF)), ka);                                         \
        vs[k] = _mm##W##_add_epi32(_mm##W##_set1_epi32((int)(v_ & 0xFFFFFF)), kd);                                         \
        __typeof__(ka) corner_ = _mm##W##_set1_epi32((int)((v_ >> 24) * (uint64_t)width + (u_ >> 24)));                     \
        _mm##W##_store_si##W((void *)at[k], _mm##W##_add_epi32(corner_, _mm##W##_add_epi32(                                 \
                                 _mm##W##_mullo_epi32(_mm##W##_srai_epi32(vs[k], 24), w), _mm##W##_srai_epi32(us[k], 24))));\
    } while (0)
#define QS_BLOCK(W, T, SIZE, n, k) do {                                                                                     \
        if ((n) + 1 < blocks) QS_AHEAD(W, SIZE, (n) + 1, (k) ^ 1);                                                          \
        QS_STORED(at);                                                                                                      \
        T l, r, lb, rb;                                                                                                     \
        QS_TAPS_##W(at[k], l, r, lb, rb);                                                                                   \
        _mm##W##_storeu_si##W((void *)(dst + block_start((n), SIZE, count)), QS_WEIGH(W, T, l, r, lb, rb, us[k], vs[k]));  \
    } while (0)

__attribute__((target("avx2"))) static int bilinear_row_avx2(const uint32_t *scratch, int width, uint64_t u, uint64_t v,
                                                             int64_t a, int64_t d, int count, uint32_t *dst) {
    if (count < 8) return bilinear_few(scratch, width, u, v, a, d, count, dst);
    QS_ROW(256, __m256i, 8);
    return count;
}

__attribute__((target("avx2,avx512f,avx512bw"))) static int bilinear_row_avx512(const uint32_t *scratch, int width, uint64_t u,
                                                                                uint64_t v, int64_t a, int64_t d, int count,
                                                                                uint32_t *dst) {
    if (count < 16) return bilinear_row_avx2(scratch, width, u, v, a, d, count, dst);
    QS_ROW(512, __m512i, 16);
    return count;
}
#endif

int qs_bilinear_row(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d,
                    int count, uint32_t *dst, int widest) {
#if defined(__x86_64__)
    int have = qs_vector_bits();
    // Fifteen steps plus a fraction must fit a 32-bit lane.
    const int64_t most = (int64_t)1 << 26;
    if (a <= -most || a >= most || d <= -most || d >= most) return 0;
    if (widest >= 512 && have >= 512) return bilinear_row_avx512(scratch, width, u, v, a, d, count, dst);
    if (widest >= 256 && have >= 256) return bilinear_row_avx2(scratch, width, u, v, a, d, count, dst);
#endif
    (void)scratch; (void)width; (void)u; (void)v; (void)a; (void)d; (void)count; (void)dst; (void)widest;
    return 0;
}
