/*
   The 16-bit values of the jagged core: IEEE binary16 as stored, for the inner single-precision copies whose values are
   scaled to order one (the half storage of PCSPCG, -pc_spcg_storage half). Arithmetic never happens in half: a value is
   widened to float where a product reads it. On the GPU a Half is a __half (same size and bits, jaggeddevicescalar.cuh);
   on the host these conversions are the twins of CUDA's __double2half() and __half2float(): rounding to nearest, ties to
   even, directly from double (no double rounding through float), subnormals kept, beyond 65504 to infinity. Not cuda_fp16.h's
   host __double2half(): it rounds as the device does but turns NaN into 0x7fff where the device gives 0x7e00 (checked on all
   2.1 M values of the unit tests), and the twins are compared bit for bit.
*/
#pragma once

#include <cstdint>

namespace jagged {

struct Half {
  std::uint16_t bits = 0;

  Half() = default;
  explicit Half(double v); /* rounded to nearest, ties to even */
  explicit Half(float v) : Half(static_cast<double>(v)) { }
  explicit Half(int v) : Half(static_cast<double>(v)) { }
  operator float() const; /* exact (every half is a float): what arithmetic reads */

  friend bool operator==(Half a, Half b) { return a.bits == b.bits; } /* the same bits: twins compared exactly */
  friend bool operator!=(Half a, Half b) { return a.bits != b.bits; }
};

static_assert(sizeof(Half) == 2, "Half is 16 bits");

constexpr double kHalfMax          = 65504.0; /* the largest finite half */
constexpr double kHalfMinNormal    = 0x1p-14; /* below it a half is subnormal (fewer significant bits) */
constexpr double kHalfUnitRoundoff = 0x1p-11; /* the relative error of rounding to a normal half, at most */

} // namespace jagged
