#include <petscjagged/private/jaggedhalf.hpp>

#include <cmath>

namespace jagged {

Half::Half(double v)
{
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  const double        a    = std::fabs(v);

  if (std::isnan(v)) {
    bits = static_cast<std::uint16_t>(sign | 0x7e00u);
    return;
  }
  if (a >= 65520.0) { /* halfway between 65504 and the next binade's first value and beyond: infinity */
    bits = static_cast<std::uint16_t>(sign | 0x7c00u);
    return;
  }
  if (a == 0.0) {
    bits = sign;
    return;
  }
  int e;
  (void)std::frexp(a, &e);                        /* a in [2^(e-1), 2^e) */
  const int    q = e - 11 < -24 ? -24 : e - 11;   /* the value's quantum 2^q: 11 significant bits, or the subnormals' 2^-24 */
  const double r = std::nearbyint(std::ldexp(a, -q)); /* a / 2^q, exact before the rounding, which is to even in the default mode */
  if (r < 1024.0) {                               /* subnormal (or zero): bits are the multiple of 2^-24 */
    bits = static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(r));
    return;
  }
  int biased = q + 25, mant = static_cast<int>(r) - 1024; /* value = (1024 + mant) 2^(biased - 25) */
  if (mant == 1024) {                                       /* rounded up into the next binade */
    mant = 0;
    biased++;
  }
  bits = static_cast<std::uint16_t>(sign | (biased >= 31 ? 0x7c00u : static_cast<unsigned>(biased << 10 | mant)));
}

Half::operator float() const
{
  const int   biased = bits >> 10 & 0x1f, mant = bits & 0x3ff;
  const float s      = bits & 0x8000u ? -1.0f : 1.0f;

  if (biased == 31) return mant ? std::nanf("") : s * INFINITY;
  if (biased == 0) return s * std::ldexp(static_cast<float>(mant), -24);
  return s * std::ldexp(static_cast<float>(1024 + mant), biased - 25);
}

} // namespace jagged
