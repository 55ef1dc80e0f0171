// CVector: the vector loops the kernels need that Swift cannot spell. Start at the two functions
// below. (t · 257) >> 16 on eight 16-bit lanes is x86's `pmulhuw`; in Swift it goes through the
// standard library's generic widening, which the optimiser leaves as a call inside a large
// kernel. Written with clang's vector extensions, it is the same instruction on every target
// (arm64's `umull`/`shrn` pair) and always inlined. A turned view's bilinear rows are AVX-512 or AVX2
// (sixteen or eight pixels at a time), which Swift cannot target per function: BilinearRow.c,
// chosen at run time.
#ifndef QUICKSILVER_CVECTOR_H
#define QUICKSILVER_CVECTOR_H

#include <stdint.h>

typedef unsigned short qs_u16x8 __attribute__((ext_vector_type(8)));
typedef unsigned int qs_u32x8 __attribute__((ext_vector_type(8)));

/// The high half of each lane of `t` times 257: (t + t / 256) / 256 for every 16-bit t.
static inline __attribute__((always_inline)) qs_u16x8 qs_mulhi257(qs_u16x8 t) {
    return __builtin_convertvector((__builtin_convertvector(t, qs_u32x8) * 257u) >> 16, qs_u16x8);
}

/// The widest vectors `qs_bilinear_row` has here, in bits: 512 (AVX-512), 256 (AVX2) or 0 (none:
/// the caller samples on its own), as the processor has them and the system saves them.
int qs_bilinear_row_widest(void);

/// `count` samples of a turned view's row into `dst`, each the four pixels of `scratch` (`width`
/// pixels a row) around it weighed by its fractions and made opaque, exactly as
/// ComposeKernel.bilinear rounds. Sample i is at (u + i·a, v + i·d) in fixed point with 24
/// fraction bits from the scratch's corner; every sample's pixel, and the pixels right of and
/// below it, must lie in the scratch, whose sides are under 2¹⁶. Uses vectors up to `widest`
/// bits (`qs_bilinear_row_widest()`, or less to compare the paths). Returns `count`, or 0 having
/// written nothing when there are no such vectors here.
int qs_bilinear_row(const uint32_t *scratch, int width, uint64_t u, uint64_t v, int64_t a, int64_t d,
                    int count, uint32_t *dst, int widest);

#endif
