// CVector: the one vector operation the kernels need that Swift cannot spell so that it stays
// one instruction. (t · 257) >> 16 on eight 16-bit lanes is x86's `pmulhuw`; in Swift it goes
// through the standard library's generic widening, which the optimiser leaves as a call inside
// a large kernel. Written with clang's vector extensions, it is the same instruction on every
// target (arm64's `umull`/`shrn` pair) and always inlined.
#ifndef QUICKSILVER_CVECTOR_SHIM_H
#define QUICKSILVER_CVECTOR_SHIM_H

typedef unsigned short qs_u16x8 __attribute__((ext_vector_type(8)));
typedef unsigned int qs_u32x8 __attribute__((ext_vector_type(8)));

/// The high half of each lane of `t` times 257: (t + t / 256) / 256 for every 16-bit t.
static inline __attribute__((always_inline)) qs_u16x8 qs_mulhi257(qs_u16x8 t) {
    return __builtin_convertvector((__builtin_convertvector(t, qs_u32x8) * 257u) >> 16, qs_u16x8);
}

#endif
