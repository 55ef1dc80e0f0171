// Which vectors CVector's loops may use here (see CVector.h): asked of the processor (and, through
// the compiler's run-time check, of the system, which must save the wider registers).
#include "CVector.h"

int qs_vector_bits(void) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return 512;
    if (__builtin_cpu_supports("avx2")) return 256;
#endif
    return 0;
}
