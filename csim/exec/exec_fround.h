/* Exact IEEE-754 rounding without fesetround: f16/f32/f64 results of
 * add/mul/fma/div/sqrt and conversions in the four PTX rounding modes,
 * computed from the exact value (integer significands or error-free
 * transformations) and rounded once. Results are raw bit patterns; a NaN
 * result is the PTX canonical NaN. The host FPU is assumed to be in its
 * default round-to-nearest mode (we never change it). */
#ifndef EXEC_FROUND_H
#define EXEC_FROUND_H

#include <stdint.h>

enum exec_fmode { EXEC_FR_RN = 0, EXEC_FR_RZ, EXEC_FR_RM, EXEC_FR_RP };

/* Binary floating-point format: precision p (with the hidden bit), minimum
 * and maximum normal exponent, total width. */
struct exec_ffmt {
    int p, emin, emax;
    unsigned bits;
};
extern const struct exec_ffmt exec_ff16, exec_ff32, exec_ff64, exec_ffbf16;

/* Rounding mode for a PTX .rn/.rz/.rm/.rp (also .rni.. -> same direction);
 * none means .rn. */
enum exec_fmode exec_fr_mode(unsigned ptx_rnd);

/* Bits of (-1)^sign * (mant * 2^exp + a positive amount below mant's
 * last bit when sticky) rounded to format f in mode. mant == 0 gives a
 * signed zero. */
uint64_t exec_fr_round(const struct exec_ffmt *f, int sign,
                       unsigned __int128 mant, int exp, int sticky,
                       enum exec_fmode mode);

/* Rounds v + t to format f, where t is a tiny unknown amount whose sign is
 * tail (-1, 0, +1) and |t| < ulp(v)/2; v may be inf/NaN. */
uint64_t exec_fr_from_f64(const struct exec_ffmt *f, double v, int tail,
                          enum exec_fmode mode);

/* Exactly rounded f32 operations in mode (inputs are f32 values; results
 * are f32 bit patterns): */
uint32_t exec_fr_add32(float a, float b, enum exec_fmode mode);  /* a + b  */
uint32_t exec_fr_mul32(float a, float b, enum exec_fmode mode);  /* a * b  */
uint32_t exec_fr_fma32(float a, float b, float c,
                       enum exec_fmode mode);                    /* a*b+c  */
uint32_t exec_fr_div32(float a, float b, enum exec_fmode mode);  /* a / b  */
uint32_t exec_fr_sqrt32(float a, enum exec_fmode mode);          /* sqrt a */

/* Exactly rounded f16 operations in mode (inputs and results are f16 bit
 * patterns): */
uint16_t exec_fr_add16(uint16_t a, uint16_t b, enum exec_fmode mode); /* a + b */
uint16_t exec_fr_mul16(uint16_t a, uint16_t b, enum exec_fmode mode); /* a * b */
uint16_t exec_fr_fma16(uint16_t a, uint16_t b, uint16_t c,
                       enum exec_fmode mode);                       /* a*b+c */

/* a + b on bfloat16 bit patterns (an f32's upper half: 8-bit precision,
 * f32's exponent range, subnormals kept), rounded once in mode. */
uint16_t exec_fr_add_bf16(uint16_t a, uint16_t b, enum exec_fmode mode);

/* Exactly rounded f64 operations in mode (results are f64 bit patterns): */
uint64_t exec_fr_add64(double a, double b, enum exec_fmode mode);   /* a + b  */
uint64_t exec_fr_mul64(double a, double b, enum exec_fmode mode);   /* a * b  */
uint64_t exec_fr_fma64(double a, double b, double c,
                       enum exec_fmode mode);                       /* a*b+c  */
uint64_t exec_fr_div64(double a, double b, enum exec_fmode mode);   /* a / b  */
uint64_t exec_fr_sqrt64(double a, enum exec_fmode mode);            /* sqrt a */

/* Integer magnitude mag with sign rounded to format f in mode. */
uint64_t exec_fr_from_int(const struct exec_ffmt *f, int sign, uint64_t mag,
                          enum exec_fmode mode);
/* Exact value of an f16 bit pattern. */
double exec_f16_to_f64(uint16_t h);

#endif
