/*
   Packed half storage of a scalar jagged format on the host (see jaggedpacked.hpp): the packed pattern, the words, and the
   product, the twins of jaggedpacked.cu and of gpu::MultPacked() in jaggedkernels.cu
*/
#include <petscjagged/private/jaggedpacked.hpp>

#include <algorithm>
#include <cmath>
#include <new>

namespace jagged {

Status PackPattern(int nrows, const int rowptr[], const int colidx[], PackedPattern *packed)
{
  long long nescapes = 0;

  if (nrows < 0 || rowptr[0] != 0) return Status::InvalidCSR;
  for (int r = 0; r < nrows; ++r) {
    if (rowptr[r + 1] < rowptr[r]) return Status::InvalidCSR;
    for (int k = rowptr[r] + 1; k < rowptr[r + 1]; ++k) {
      const long long gap = static_cast<long long>(colidx[k]) - colidx[k - 1];
      if (gap <= 0) return Status::InvalidCSR;
      nescapes += gap > kPackedMaxDistance;
    }
  }
  if (rowptr[nrows] + nescapes > kMaxSlots) return Status::TooLarge;
  try {
    packed->rowptr.assign(1, 0);
    packed->rowptr.reserve(static_cast<size_t>(nrows) + 1);
    packed->colidx.clear();
    packed->amap.clear();
    packed->colidx.reserve(static_cast<size_t>(rowptr[nrows] + nescapes));
    packed->amap.reserve(static_cast<size_t>(rowptr[nrows] + nescapes));
    for (int r = 0; r < nrows; ++r) {
      for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) {
        const long long gap = k > rowptr[r] ? static_cast<long long>(colidx[k]) - colidx[k - 1] : 0;
        if (gap > kPackedMaxDistance) { /* the escape: a column (gap - 1) / max whole distances on */
          packed->colidx.push_back(static_cast<int>(colidx[k - 1] + (gap - 1) / kPackedMaxDistance * kPackedMaxDistance));
          packed->amap.push_back(-1);
        }
        packed->colidx.push_back(colidx[k]);
        packed->amap.push_back(k);
      }
      packed->rowptr.push_back(static_cast<int>(packed->colidx.size()));
    }
  } catch (const std::bad_alloc &) {
    return Status::OutOfMemory;
  }
  packed->nescapes = nescapes;
  return Status::Success;
}

void PackWords(const Format &f, const int amap[], const double vals[], std::uint32_t words[], int first[])
{
  std::fill(words, words + f.nstored, 0u);
  for (int i = 0; i < f.nsorted; ++i) {
    const int len = f.rowlen[i];
    int       prev;

    first[i] = len > 0 && f.valmap[f.diagstart[0] + i] >= 0 ? f.colidx[f.diagstart[0] + i] - 1 : 0;
    prev     = first[i];
    for (int j = 0; j < len; ++j) {
      const int s = f.diagstart[j] + i, p = f.valmap[s];
      if (p < 0) continue; /* padding: 0 */
      const std::uint32_t d = static_cast<std::uint32_t>(f.colidx[s] - prev);
      prev                  = f.colidx[s];
      words[s]              = amap[p] < 0 ? (d / kPackedMaxDistance) << 16 : static_cast<std::uint32_t>(Half(vals[amap[p]]).bits) << 16 | d;
    }
  }
}

namespace host {

void MultPacked(const Format &f, const std::uint32_t words[], const int first[], const float x[], float y[])
{
  for (int i = 0; i < f.nsorted; ++i) {
    int   col = first[i];
    float acc = 0;

    for (int j = 0; j < f.rowlen[i]; ++j) {
      const std::uint32_t w = words[f.diagstart[j] + i], d = w & 0xffffu, h = w >> 16;
      Half                v;

      if (d == 0) {
        col += static_cast<int>(h * kPackedMaxDistance);
        continue;
      }
      col += static_cast<int>(d);
      v.bits = static_cast<std::uint16_t>(h);
      acc += static_cast<float>(v) * x[col]; /* as host::Mult() sums */
    }
    y[f.perm[i]] = acc;
  }
}

} // namespace host
} // namespace jagged
