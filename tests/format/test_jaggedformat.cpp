/*
   Host test of the jagged formats (no PETSc, no GPU): the builder's structure, the host twins of
   every kernel against plain CSR products, the values-only refresh, the long-row split and the
   option checks. Exits non-zero on failure.

     g++ -O2 -std=c++17 -Wall -Wextra test_jaggedformat.cpp jaggedformat.cpp jaggedhost.cpp -o test_jaggedformat
*/
#include <petscjagged/private/jaggedhost.hpp>
#include <petscjagged/private/jaggedpacked.hpp>
#include "test_jaggedutil.hpp"

#include <climits>
#include <limits>

int jagged::test::failures = 0;

namespace {

using namespace jagged;
using namespace jagged::test;

/* Row threshold the options should have applied */
int ExpectedThreshold(const CSR &a, const Options &o)
{
  if (o.long_rows == LongRowMode::JaggedOnly) return INT_MAX;
  if (o.long_rows == LongRowMode::Split) return o.long_row_threshold;
  return LongRowThreshold(a.nrows, a.colidx.size());
}

/* The long rows are exactly those over the threshold, longest first (stable), copied as CSR */
void CheckLongPart(const CSR &a, const Options &o, const Format &f)
{
  const int        threshold = ExpectedThreshold(a, o);
  std::vector<int> expected;

  for (int r = 0; r < a.nrows; ++r)
    if (a.Length(r) > threshold) expected.push_back(r);
  std::stable_sort(expected.begin(), expected.end(), [&](int r, int s) { return a.Length(r) > a.Length(s); });
  JAGGED_CHECK(f.long_threshold == threshold, "threshold %d, expected %d", f.long_threshold, threshold);
  JAGGED_CHECK(f.long_rows == expected, "long rows differ (%d vs %zu)", f.nlong, expected.size());
  JAGGED_CHECK(f.nlong == static_cast<int>(f.long_rows.size()) && f.long_rowptr.size() == static_cast<size_t>(f.nlong) + 1, "long sizes");
  int nblock = 0;
  for (int r = 0; r < f.nlong && r < static_cast<int>(expected.size()); ++r) {
    const int row = f.long_rows[r];
    JAGGED_CHECK(f.long_rowptr[r + 1] - f.long_rowptr[r] == a.Length(row), "long row %d length", row);
    for (int k = 0; k < a.Length(row); ++k) {
      JAGGED_CHECK(f.long_colidx[f.long_rowptr[r] + k] == a.colidx[a.rowptr[row] + k], "long row %d column %d", row, k);
      JAGGED_CHECK(f.valmap[f.nstored + f.long_rowptr[r] + k] == a.rowptr[row] + k, "long row %d map %d", row, k);
    }
    if (a.Length(row) >= kBlockRowMinLength) nblock = r + 1;
  }
  JAGGED_CHECK(f.nlong_block == nblock, "nlong_block %d, expected %d", f.nlong_block, nblock);
  JAGGED_CHECK(f.long_nnz == (f.nlong ? f.long_rowptr[f.nlong] : 0), "long_nnz");
}

/* perm sorted by decreasing length (stable), rowlen and diagonal starts as documented */
void CheckJaggedIndex(const CSR &a, const Options &o, const Format &f)
{
  const int        br    = o.kind == Kind::PJDS ? o.block_rows : 1;
  const int        align = o.kind == Kind::PJDS ? o.block_rows : kJDSDiagonalAlign;
  std::vector<int> seen(a.nrows, 0);

  JAGGED_CHECK(f.nsorted + f.nlong == a.nrows && f.perm.size() == static_cast<size_t>(f.nsorted), "row counts");
  for (int r : f.perm) seen[r]++;
  for (int r : f.long_rows) seen[r]++;
  JAGGED_CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }), "perm and long rows are not a permutation");
  for (int i = 1; i < f.nsorted; ++i) {
    const int lp = a.Length(f.perm[i - 1]), li = a.Length(f.perm[i]);
    JAGGED_CHECK(lp > li || (lp == li && f.perm[i - 1] < f.perm[i]), "perm not stably sorted at %d", i);
  }
  for (int i = 0; i < f.nsorted; ++i) JAGGED_CHECK(f.rowlen[i] == a.Length(f.perm[i - i % br]), "rowlen[%d]", i);
  JAGGED_CHECK(f.ndiag == (f.nsorted ? f.rowlen[0] : 0) && f.diagstart.size() == static_cast<size_t>(f.ndiag) + 1 && f.diagstart[0] == 0, "ndiag");
  for (int j = 0; j < f.ndiag; ++j) {
    const int count = static_cast<int>(std::count_if(f.rowlen.begin(), f.rowlen.end(), [j](int l) { return l > j; }));
    JAGGED_CHECK(f.diagstart[j + 1] - f.diagstart[j] == (count + align - 1) / align * align, "diagonal %d length", j);
    JAGGED_CHECK(f.diagstart[j] % align == 0, "diagonal %d not aligned", j);
  }
  JAGGED_CHECK(f.nstored == f.diagstart[f.ndiag] && f.nslots == f.nstored + f.long_nnz, "nstored/nslots");
}

/* Every CSR entry has exactly one slot with its column; the other slots are padding with a valid column */
void CheckSlots(const CSR &a, const Format &f)
{
  std::vector<int> hits(a.colidx.size(), 0);

  JAGGED_CHECK(f.valmap.size() == static_cast<size_t>(f.nslots) && f.colidx.size() == static_cast<size_t>(f.nstored), "slot arrays");
  for (int j = 0; j < f.ndiag; ++j) {
    for (int s = f.diagstart[j]; s < f.diagstart[j + 1]; ++s) {
      const int  i    = s - f.diagstart[j];
      const bool real = i < f.nsorted && j < a.Length(f.perm[i]);
      JAGGED_CHECK(f.colidx[s] >= 0 && f.colidx[s] < a.ncols, "slot %d column %d", s, f.colidx[s]);
      JAGGED_CHECK(real ? f.valmap[s] == a.rowptr[f.perm[i]] + j : f.valmap[s] == -1, "slot %d map %d", s, f.valmap[s]);
      if (real) JAGGED_CHECK(f.colidx[s] == a.colidx[f.valmap[s]], "slot %d column", s);
    }
  }
  for (int m : f.valmap)
    if (m >= 0) hits[m]++;
  JAGGED_CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }), "CSR entries not mapped once each");
}

/* A blocked format: block rows, block columns, and every CSR entry at its entry of its block's slot, once; the rest zero-filled (-1) */
void CheckBlockedSlots(const CSR &a, const Format &f)
{
  const int        bs = f.bs;
  std::vector<int> hits(a.colidx.size(), 0);

  JAGGED_CHECK(f.nsorted == a.nrows / bs && f.nlong == 0 && f.nslots == bs * bs * f.nstored && f.valmap.size() == static_cast<size_t>(f.nslots), "blocked sizes");
  for (int j = 0; j < f.ndiag; ++j) {
    for (int s = f.diagstart[j]; s < f.diagstart[j + 1]; ++s) {
      const int  i    = s - f.diagstart[j];
      const bool real = i < f.nsorted && j < f.rowlen[i];
      JAGGED_CHECK(f.colidx[s] >= 0 && f.colidx[s] < a.ncols && f.colidx[s] % bs == 0, "slot %d column %d", s, f.colidx[s]);
      for (int r = 0; r < bs; ++r)
        for (int c = 0; c < bs; ++c) {
          const int m = f.valmap[static_cast<size_t>(r * bs + c) * f.nstored + s];
          if (m < 0) continue;
          const int row = real ? f.perm[i] * bs + r : -1;
          JAGGED_CHECK(real && m >= a.rowptr[row] && m < a.rowptr[row + 1] && a.colidx[m] == f.colidx[s] + c, "slot %d entry (%d, %d) maps %d", s, r, c, m);
          hits[m]++;
        }
    }
  }
  JAGGED_CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }), "CSR entries not mapped once each");
}

void CheckStats(const CSR &a, const Format &f)
{
  const Stats st = GetStats(f, sizeof(double));

  JAGGED_CHECK(st.nnz == static_cast<long long>(a.colidx.size()) && st.nslots == f.nslots && st.padding == f.nslots - st.nnz, "stats counts");
  JAGGED_CHECK(st.ellpack_slots == static_cast<long long>(a.nrows) * f.maxrowlen * f.bs, "ellpack slots");
  JAGGED_CHECK(st.value_bytes == f.nslots * sizeof(double) && st.valmap_bytes == f.nslots * sizeof(int), "stats bytes");
  JAGGED_CHECK(st.device_bytes == st.index_bytes + st.valmap_bytes + st.value_bytes, "device bytes");
}

/* Every host twin against CSR for one (MatT, VecT), plus the values-only refresh */
template <typename MatT, typename VecT>
void CheckProducts(const CSR &a, const Format &f, std::mt19937 &rng, const std::string &what)
{
  using M0           = typename Master<MatT>::type;
  const double     tol    = Tolerance<VecT>();
  std::vector<M0>  master = MasterValues<M0>(a, rng);
  std::vector<MatT> csr   = Convert<MatT>(master), vals(f.nslots);
  const std::vector<VecT> x = RandomVector<VecT>(a.ncols, rng), xt = RandomVector<VecT>(a.nrows, rng);
  const std::vector<VecT> w = RandomVector<VecT>(a.nrows, rng), wt = RandomVector<VecT>(a.ncols, rng);
  std::vector<VecT>       y(a.nrows), yt(a.ncols);
  double                  err;

  FillValues(f, master.data(), vals.data());
  host::Mult(f, vals.data(), x.data(), y.data());
  err = RelativeError(y, CSRMult(a, csr, x, {}, false));
  JAGGED_CHECK(err <= tol, "%s: Mult error %g", what.c_str(), err);
  host::MultAdd(f, vals.data(), x.data(), w.data(), y.data());
  err = RelativeError(y, CSRMult(a, csr, x, w, false));
  JAGGED_CHECK(err <= tol, "%s: MultAdd error %g", what.c_str(), err);
  y = w;
  host::MultAdd(f, vals.data(), x.data(), y.data(), y.data());
  err = RelativeError(y, CSRMult(a, csr, x, w, false));
  JAGGED_CHECK(err <= tol, "%s: MultAdd (w = y) error %g", what.c_str(), err);
  host::MultTranspose(f, vals.data(), xt.data(), yt.data());
  err = RelativeError(yt, CSRMult(a, csr, xt, {}, true));
  JAGGED_CHECK(err <= tol, "%s: MultTranspose error %g", what.c_str(), err);
  host::MultTransposeAdd(f, vals.data(), xt.data(), wt.data(), yt.data());
  err = RelativeError(yt, CSRMult(a, csr, xt, wt, true));
  JAGGED_CHECK(err <= tol, "%s: MultTransposeAdd error %g", what.c_str(), err);
  yt = wt;
  host::MultTransposeAdd(f, vals.data(), xt.data(), yt.data(), yt.data());
  err = RelativeError(yt, CSRMult(a, csr, xt, wt, true));
  JAGGED_CHECK(err <= tol, "%s: MultTransposeAdd (w = y) error %g", what.c_str(), err);

  /* values-only refresh: new values of the same pattern through the same map */
  master = MasterValues<M0>(a, rng);
  csr    = Convert<MatT>(master);
  FillValues(f, master.data(), vals.data());
  for (int s = 0; s < f.nslots; ++s) JAGGED_CHECK(f.valmap[s] >= 0 || vals[s] == MatT(0), "%s: padding slot %d not zero", what.c_str(), s);
  host::Mult(f, vals.data(), x.data(), y.data());
  err = RelativeError(y, CSRMult(a, csr, x, {}, false));
  JAGGED_CHECK(err <= tol, "%s: Mult after refresh error %g", what.c_str(), err);
}

/* Diagonal and scaling for one matrix type */
template <typename MatT>
void CheckValueOps(const CSR &a, const Format &f, std::mt19937 &rng, const std::string &what)
{
  using M0                      = typename Master<MatT>::type;
  const std::vector<M0>  master = MasterValues<M0>(a, rng);
  std::vector<MatT>      csr    = Convert<MatT>(master), vals(f.nslots), expected(f.nslots), diag(a.nrows), back(csr.size(), RandomScalar<MatT>(rng));
  const MatT             alpha  = RandomScalar<MatT>(rng);

  FillValues(f, master.data(), vals.data());
  ScatterValues(f, vals.data(), back.data());
  JAGGED_CHECK(back == csr, "%s: values scattered back to CSR order differ", what.c_str());
  host::GetDiagonal(f, vals.data(), diag.data());
  JAGGED_CHECK(diag == CSRDiagonal(a, csr), "%s: diagonal differs", what.c_str());
  host::Scale(f, vals.data(), alpha);
  for (MatT &v : csr) v *= alpha;
  FillValues(f, csr.data(), expected.data());
  JAGGED_CHECK(vals == expected, "%s: scaled values differ", what.c_str());
}

/* The CSR column indices scattered back from the format (ScatterColumns()) are the pattern's */
void CheckColumns(const CSR &a, const Format &f, const std::string &what)
{
  std::vector<int> cols(a.colidx.size(), -1);

  ScatterColumns(f, cols.data());
  JAGGED_CHECK(cols == a.colidx, "%s: columns scattered back to CSR order differ", what.c_str());
}

void CheckMatrix(const CSR &a, const Options &o, std::mt19937 &rng)
{
  const std::string what = a.name + ", " + Describe(o);
  Format            f;
  const Status      st = BuildFormat(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), o, &f);

  JAGGED_CHECK(st == Status::Success, "%s: build failed: %s", what.c_str(), StatusString(st));
  if (st != Status::Success) return;
  if (o.block_size > 1) {
    const bool pays = !o.block_auto_bytes || BlocksPay(a.nrows, static_cast<long long>(a.colidx.size()), CountBlocks(a.nrows, a.ncols, a.rowptr.data(), a.colidx.data(), o.block_size), o.block_size, o.block_auto_bytes);
    JAGGED_CHECK(f.bs == (pays ? o.block_size : 1), "%s: block size %d built, %d expected", what.c_str(), f.bs, pays ? o.block_size : 1);
  }
  if (f.bs > 1) CheckBlockedSlots(a, f);
  else {
    CheckLongPart(a, o, f);
    CheckJaggedIndex(a, o, f);
    CheckSlots(a, f);
  }
  CheckStats(a, f);
  CheckColumns(a, f, what);
  CheckProducts<double, double>(a, f, rng, what + " <double>");
  CheckProducts<float, float>(a, f, rng, what + " <float>");
  CheckProducts<float, double>(a, f, rng, what + " <float, double>");
  CheckProducts<std::complex<double>, std::complex<double>>(a, f, rng, what + " <complex>");
  CheckProducts<std::complex<float>, std::complex<float>>(a, f, rng, what + " <complex float>");
  CheckProducts<std::complex<float>, std::complex<double>>(a, f, rng, what + " <complex float, complex>");
  CheckProducts<Half, float>(a, f, rng, what + " <half, float>");
  CheckValueOps<double>(a, f, rng, what + " <double>");
  CheckValueOps<float>(a, f, rng, what + " <float>");
  CheckValueOps<std::complex<double>>(a, f, rng, what + " <complex>");
  CheckValueOps<std::complex<float>>(a, f, rng, what + " <complex float>");
}

/*
  Half's rounding: every finite half back from its float exactly; the midpoint between neighbours to the even one, and a
  hair off it to the nearer; the subnormals, the underflow to zero below half the least subnormal, the overflow to infinity
  from 65520 on, signs, NaN
*/
void CheckHalf()
{
  int nchecked = 0;

  for (unsigned b = 0; b < 0x10000u; ++b) {
    Half h;
    h.bits = static_cast<std::uint16_t>(b);
    const float v = static_cast<float>(h);
    if ((b & 0x7c00u) == 0x7c00u) {
      JAGGED_CHECK((b & 0x3ffu) ? std::isnan(v) : std::isinf(v), "half %#x: %g is not %s", b, (double)v, (b & 0x3ffu) ? "NaN" : "infinite");
      continue;
    }
    JAGGED_CHECK(Half(static_cast<double>(v)).bits == b, "half %#x: %g rounds to %#x", b, (double)v, (unsigned)Half(static_cast<double>(v)).bits);
    if ((b & 0x7fffu) < 0x7bffu) { /* a finite upper neighbour */
      Half up;
      up.bits              = static_cast<std::uint16_t>(b + 1);
      const double mid     = (static_cast<double>(v) + static_cast<double>(static_cast<float>(up))) / 2;
      const double hair    = std::fabs(static_cast<double>(static_cast<float>(up)) - v) * 1e-6;
      const unsigned even  = (b & 1u) ? b + 1 : b;
      const double   sign  = (b & 0x8000u) ? -1.0 : 1.0;
      JAGGED_CHECK(Half(mid).bits == even, "midpoint %.17g of %#x, %#x: %#x, not the even %#x", mid, b, b + 1, (unsigned)Half(mid).bits, even);
      JAGGED_CHECK(Half(mid - sign * hair).bits == b && Half(mid + sign * hair).bits == b + 1, "a hair off the midpoint of %#x, %#x rounds to the wrong side", b, b + 1);
      nchecked++;
    }
  }
  JAGGED_CHECK(Half(0x1p-25).bits == 0 && Half(0x1.0001p-25).bits == 1 && Half(-0x1.8p-24).bits == 0x8002u, "rounding at the least subnormal");
  JAGGED_CHECK(Half(65519.99).bits == 0x7bffu && Half(65520.0).bits == 0x7c00u && Half(-1e300).bits == 0xfc00u, "rounding at the largest half");
  JAGGED_CHECK(Half(kHalfMinNormal).bits == 0x0400u && Half(-0.0).bits == 0x8000u && Half(1.0).bits == 0x3c00u && Half(-1.0 / 3).bits == 0xb555u, "known halves");
  JAGGED_CHECK(std::isnan(static_cast<float>(Half(std::nan("")))), "NaN stays NaN");
  std::printf("test_jaggedformat: Half rounding checked on all %d neighbour pairs of finite halves\n", nchecked);
}

/*
   Packed half storage: the packed pattern (escapes where distances pass 16 bits, each entry mapped back), the words of a format
   built from it (every entry's column and value decoded again from its row's words), and the packed product against a CSR product
   of the same half values
*/
void CheckPacked(std::mt19937 &rng)
{
  int ncombinations = 0;

  for (const CSR &a : PackedTestMatrices(rng)) {
    PackedPattern p;
    long long     escapes = 0;

    JAGGED_CHECK(PackPattern(a.nrows, a.rowptr.data(), a.colidx.data(), &p) == Status::Success, "%s: PackPattern", a.name.c_str());
    for (int r = 0; r < a.nrows; ++r)
      for (int k = a.rowptr[r] + 1; k < a.rowptr[r + 1]; ++k) escapes += a.colidx[k] - a.colidx[k - 1] > kPackedMaxDistance;
    JAGGED_CHECK(p.nescapes == escapes && p.rowptr.back() == a.rowptr.back() + escapes, "%s: %lld escapes, %lld expected", a.name.c_str(), p.nescapes, escapes);
    for (int r = 0; r < a.nrows; ++r) {
      int prev = -1, k = a.rowptr[r];
      for (int q = p.rowptr[r]; q < p.rowptr[r + 1]; ++q) {
        JAGGED_CHECK(p.colidx[q] > prev && (q == p.rowptr[r] || p.colidx[q] - prev <= kPackedMaxDistance || p.amap[q] < 0), "%s: row %d distance at %d", a.name.c_str(), r, q);
        if (p.amap[q] >= 0) JAGGED_CHECK(p.amap[q] == k && p.colidx[q] == a.colidx[k++], "%s: row %d entry %d maps wrongly", a.name.c_str(), r, q);
        prev = p.colidx[q];
      }
      JAGGED_CHECK(k == a.rowptr[r + 1], "%s: row %d lost entries", a.name.c_str(), r);
    }
    const std::vector<double> vals = MasterValues<double>(a, rng);
    const std::vector<float>  x    = RandomVector<float>(a.ncols, rng);
    std::vector<long double>  ref(a.nrows, 0), mag(a.nrows, 0);
    for (int r = 0; r < a.nrows; ++r)
      for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
        const long double t = static_cast<long double>(static_cast<float>(Half(vals[k]))) * x[a.colidx[k]];
        ref[r] += t;
        mag[r] += std::fabs(t);
      }
    for (const Options &o : {Options{Kind::PJDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}, Options{Kind::PJDS, 7, LongRowMode::JaggedOnly, 0}, Options{Kind::JDS, kDefaultBlockRows, LongRowMode::JaggedOnly, 0}}) {
      Format                     f;
      const std::string          what = a.name + ", " + Describe(o);
      std::vector<std::uint32_t> words(1);
      std::vector<int>           first(1);
      std::vector<float>         y(a.nrows, NAN);
      double                     err = 0;

      JAGGED_CHECK(BuildFormat(a.nrows, a.ncols, p.rowptr.data(), p.colidx.data(), o, &f) == Status::Success && f.nlong == 0, "%s: BuildFormat", what.c_str());
      words.resize(std::max(f.nstored, 1));
      first.resize(std::max(f.nsorted, 1));
      PackWords(f, p.amap.data(), vals.data(), words.data(), first.data());
      for (int i = 0; i < f.nsorted; ++i) { /* decoded: the row's entries, in order */
        const int r = f.perm[i];
        int       col = first[i], k = a.rowptr[r];
        for (int j = 0; j < f.rowlen[i]; ++j) {
          const std::uint32_t w = words[f.diagstart[j] + i];
          if (!(w & 0xffffu)) {
            col += static_cast<int>((w >> 16) * kPackedMaxDistance);
            continue;
          }
          col += static_cast<int>(w & 0xffffu);
          JAGGED_CHECK(k < a.rowptr[r + 1] && col == a.colidx[k] && (w >> 16) == Half(vals[k]).bits, "%s: row %d decodes wrongly at slot %d", what.c_str(), r, j);
          ++k;
        }
        JAGGED_CHECK(k == a.rowptr[r + 1], "%s: row %d decodes %d of %d entries", what.c_str(), r, k - a.rowptr[r], a.Length(r));
      }
      host::MultPacked(f, words.data(), first.data(), x.data(), y.data());
      for (int r = 0; r < a.nrows; ++r) err = std::max(err, static_cast<double>(std::fabs(y[r] - ref[r]) / std::max(mag[r], 1e-300L)));
      JAGGED_CHECK(err <= 1e-6, "%s: MultPacked error %g", what.c_str(), err);
      ncombinations++;
    }
  }
  const int unsorted[] = {0, 2}, cols[] = {5, 3};
  PackedPattern p;
  JAGGED_CHECK(PackPattern(1, unsorted, cols, &p) == Status::InvalidCSR, "PackPattern of an unsorted row");
  std::printf("test_jaggedformat: packed half storage checked on %d matrix/format combinations\n", ncombinations);
}

/* Option and CSR validation */
void CheckValidation()
{
  const std::vector<int> rowptr{0, 1, 2}, colidx{0, 1};
  const int              bad_start[]{1, 1, 2}, bad_order[]{0, 2, 1}, bad_col[]{0, 2};
  Format                 f;

  for (int br : {0, -1, -32}) JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), colidx.data(), {Kind::PJDS, br, LongRowMode::Auto, 0}, &f) == Status::InvalidBlockRows, "b_r %d accepted", br);
  JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), colidx.data(), {Kind::JDS, 0, LongRowMode::Auto, 0}, &f) == Status::Success, "JDS ignores b_r");
  JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), colidx.data(), {Kind::PJDS, 32, LongRowMode::Split, -1}, &f) == Status::InvalidThreshold, "threshold -1 accepted");
  JAGGED_CHECK(BuildFormat(2, 2, bad_start, colidx.data(), Options(), &f) == Status::InvalidCSR, "rowptr[0] != 0 accepted");
  JAGGED_CHECK(BuildFormat(2, 2, bad_order, colidx.data(), Options(), &f) == Status::InvalidCSR, "decreasing rowptr accepted");
  JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), bad_col, Options(), &f) == Status::InvalidCSR, "column out of range accepted");
  JAGGED_CHECK(BuildFormat(-1, 2, rowptr.data(), colidx.data(), Options(), &f) == Status::InvalidCSR, "negative nrows accepted");
  JAGGED_CHECK(BuildFormat(0, 0, nullptr, nullptr, Options(), &f) == Status::Success && f.nslots == 0, "empty matrix without arrays");
  for (int bs : {0, -1, kMaxBlockSize + 1}) JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), colidx.data(), {Kind::PJDS, 32, LongRowMode::Auto, 0, bs}, &f) == Status::InvalidBlockSize, "block size %d accepted", bs);
  JAGGED_CHECK(BuildFormat(2, 2, rowptr.data(), colidx.data(), {Kind::PJDS, 32, LongRowMode::Auto, 0, 2}, &f) == Status::Success && f.bs == 2 && f.nslots == 4 * f.nstored, "2 x 2 of block size 2");
  {
    const std::vector<int> r3{0, 1, 2, 3}, c3{0, 1, 2};
    JAGGED_CHECK(BuildFormat(3, 3, r3.data(), c3.data(), {Kind::PJDS, 32, LongRowMode::Auto, 0, 2}, &f) == Status::InvalidBlockSize, "3 rows in blocks of 2 accepted");
    JAGGED_CHECK(BuildFormat(2, 3, rowptr.data(), colidx.data(), {Kind::PJDS, 32, LongRowMode::Auto, 0, 2}, &f) == Status::InvalidBlockSize, "3 columns in blocks of 2 accepted");
  }
  for (Status s : {Status::Success, Status::InvalidBlockRows, Status::InvalidThreshold, Status::InvalidBlockSize, Status::InvalidCSR, Status::TooLarge, Status::OutOfMemory}) JAGGED_CHECK(StatusString(s)[0] != '\0', "empty status string");
}

/* The automatic threshold rule, and the split it makes or avoids */
void CheckLongRowRule(std::mt19937 &rng)
{
  Format f;
  JAGGED_CHECK(LongRowThreshold(0, 0) == kLongRowMinLength && LongRowThreshold(100, 0) == kLongRowMinLength, "threshold of empty matrices");
  JAGGED_CHECK(LongRowThreshold(100000, 100000LL * 100) == 800 && LongRowThreshold(100000, 100000LL * 10) == 80, "threshold = ceil(8 * mean)");
  JAGGED_CHECK(LongRowThreshold(100, 100 * 100) == kWarpRowMinMean && LongRowThreshold(100, 100 * 10) == 80, "small matrices of long rows: rows longer than kWarpRowMinMean by warps");

  std::vector<int> len = UniformLengths(4096, 3, 9, rng);
  len[1000]            = 4096;
  const CSR arrow      = MakeCSR("arrow", 4096, len, rng, true);
  BuildFormat(arrow.nrows, arrow.ncols, arrow.rowptr.data(), arrow.colidx.data(), Options(), &f);
  JAGGED_CHECK(f.nlong == 1 && f.long_rows[0] == 1000 && f.nlong_block == 1 && f.ndiag <= 9, "auto split of a dense row: nlong %d ndiag %d", f.nlong, f.ndiag);
  BuildFormat(arrow.nrows, arrow.ncols, arrow.rowptr.data(), arrow.colidx.data(), {Kind::PJDS, 32, LongRowMode::JaggedOnly, 0}, &f);
  JAGGED_CHECK(f.nlong == 0 && f.ndiag == 4096, "jagged-only keeps the dense row");

  const CSR wide = MakeCSR("uniform 300", 2000, UniformLengths(500, 280, 300, rng), rng, true);
  BuildFormat(wide.nrows, wide.ncols, wide.rowptr.data(), wide.colidx.data(), Options(), &f);
  JAGGED_CHECK(f.nlong == 500, "a small matrix of long rows runs every row by warps (nlong %d)", f.nlong);
  const CSR many = MakeCSR("uniform 20", 2000, UniformLengths(kFewRows + 1000, 18, 22, rng), rng, true);
  BuildFormat(many.nrows, many.ncols, many.rowptr.data(), many.colidx.data(), Options(), &f);
  JAGGED_CHECK(f.nlong == 0, "auto does not split rows of ordinary length (nlong %d)", f.nlong);
  BuildFormat(wide.nrows, wide.ncols, wide.rowptr.data(), wide.colidx.data(), {Kind::JDS, 32, LongRowMode::Split, 0}, &f);
  JAGGED_CHECK(f.nlong == 500 && f.nsorted == 0 && f.ndiag == 0 && f.nstored == 0, "split at 0 moves every non-empty row");
}

/* The pJDS paper's extreme case: one full row and one entry elsewhere; and a hand-checked example */
void CheckKnownLayouts(std::mt19937 &rng)
{
  const int        n = 256, br = 32;
  std::vector<int> len(n, 1);
  Format           f;

  len[0]           = n;
  const CSR onefull = MakeCSR("one full row", n, len, rng, false);
  BuildFormat(n, n, onefull.rowptr.data(), onefull.colidx.data(), {Kind::PJDS, br, LongRowMode::JaggedOnly, 0}, &f);
  JAGGED_CHECK(f.nslots == (br + 1) * n - br, "pJDS stores (b_r+1)N - b_r, got %d", f.nslots);
  JAGGED_CHECK(GetStats(f, 8).ellpack_slots == static_cast<long long>(n) * n, "ELLPACK stores N^2");

  /* rows of lengths 2 3 0 3 1 (columns 0..len-1), pJDS b_r = 2: sorted rows 1 3 0 4 2 */
  const std::vector<int> rowptr{0, 2, 5, 5, 8, 9}, colidx{0, 1, 0, 1, 2, 0, 1, 2, 0};
  BuildFormat(5, 3, rowptr.data(), colidx.data(), {Kind::PJDS, 2, LongRowMode::JaggedOnly, 0}, &f);
  JAGGED_CHECK((f.perm == std::vector<int>{1, 3, 0, 4, 2}), "example perm");
  JAGGED_CHECK((f.rowlen == std::vector<int>{3, 3, 2, 2, 0}), "example rowlen");
  JAGGED_CHECK((f.diagstart == std::vector<int>{0, 4, 8, 10}), "example diagstart");
  JAGGED_CHECK((f.valmap == std::vector<int>{2, 5, 0, 8, 3, 6, 1, -1, 4, 7}), "example valmap");
  JAGGED_CHECK((f.colidx == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}), "example colidx");
  BuildFormat(5, 3, rowptr.data(), colidx.data(), {Kind::JDS, 32, LongRowMode::JaggedOnly, 0}, &f);
  JAGGED_CHECK((f.rowlen == std::vector<int>{3, 3, 2, 1, 0} && f.diagstart == std::vector<int>{0, 32, 64, 96}), "JDS example");
}

/* A hand-checked blocked layout: 4 x 6 in blocks of 2, block rows {0: cols 0, 2 (partly zero)}, {1: col 1}, pJDS b_r 2 */
void CheckBlockedLayout()
{
  /* rows: 0: (0,0) (0,1) (0,4); 1: (1,1) (1,5); 2: (2,2) (2,3); 3: (3,3) */
  const std::vector<int> rowptr{0, 3, 5, 7, 8}, colidx{0, 1, 4, 1, 5, 2, 3, 3};
  const std::vector<double> csr{1, 2, 3, 4, 5, 6, 7, 8}, x{1, 10, 100, 1000, 10000, 100000};
  Format                  f;

  JAGGED_CHECK(BuildFormat(4, 6, rowptr.data(), colidx.data(), {Kind::PJDS, 2, LongRowMode::Auto, 0, 2}, &f) == Status::Success, "blocked example builds");
  JAGGED_CHECK((f.perm == std::vector<int>{0, 1} && f.rowlen == std::vector<int>{2, 2} && f.diagstart == std::vector<int>{0, 2, 4}), "blocked example structure");
  JAGGED_CHECK((f.colidx == std::vector<int>{0, 2, 4, 4}), "blocked example columns (padding repeats its neighbour's)");
  /* entry (r, c) of slot s at (2 r + c) 4 + s */
  JAGGED_CHECK((f.valmap == std::vector<int>{0, 5, 2, -1, 1, 6, -1, -1, -1, -1, -1, -1, 3, 7, 4, -1}), "blocked example valmap");
  std::vector<double> vals(f.nslots), y(4);
  FillValues(f, csr.data(), vals.data());
  host::Mult(f, vals.data(), x.data(), y.data());
  JAGGED_CHECK((y == std::vector<double>{1 + 20 + 30000, 40 + 500000, 600 + 7000, 8000}), "blocked example product");
  const Stats st = GetStats(f, sizeof(double));
  JAGGED_CHECK(st.nslots == 16 && st.padding == 8, "blocked example: 16 entries stored for 8 nonzeros");
  JAGGED_CHECK(st.product_bytes == 18.0, "blocked example: (16 values of 8 bytes + 4 block columns of 4) / 8 nonzeros = 18 bytes a nonzero, not %g", st.product_bytes);
  JAGGED_CHECK(CountBlocks(4, 6, rowptr.data(), colidx.data(), 2) == 3, "blocked example: 3 blocks");
  {
    /* the same matrix with row 0 unsorted (AIJ keeps rows sorted; the build must not rely on it) */
    const std::vector<int>    ucol{4, 1, 0, 1, 5, 2, 3, 3};
    const std::vector<double> ucsr{3, 2, 1, 4, 5, 6, 7, 8};
    Format                    u;
    std::vector<double>       uv, uy(4);

    JAGGED_CHECK(BuildFormat(4, 6, rowptr.data(), ucol.data(), {Kind::PJDS, 2, LongRowMode::Auto, 0, 2}, &u) == Status::Success, "unsorted blocked example builds");
    uv.resize(u.nslots);
    FillValues(u, ucsr.data(), uv.data());
    host::Mult(u, uv.data(), x.data(), uy.data());
    JAGGED_CHECK(uy == y, "unsorted blocked example product");
  }
  JAGGED_CHECK(!BlocksPay(2, 8, 3, 2, sizeof(double)) && BlocksPay(2, 12, 3, 2, sizeof(double)), "blocks of 2 pay from 3 nonzeros of 4 on");
  JAGGED_CHECK(BlocksPay(96, 48 * 96 * 9 / 3, 32 * 32, 3, sizeof(double)) && !BlocksPay(96, 48 * 96 * 9 / 3, 33 * 32, 3, sizeof(double)) &&
                 BlocksPay(kFewRows + 3, 99LL * (kFewRows + 3), 11LL * (kFewRows + 3), 3, sizeof(double)),
               "a small matrix keeps blocks up to 32 a block row on average, a large one beyond");
}

} // namespace

/*
   SumCOO() (COO values into CSR order, scattered, or a gather) against adding each COO entry to where it lands, inserting and
   adding: each value within 4 ulps of the sum of the magnitudes it adds (the two add in different orders)
*/
template <typename T>
void CheckSumCOO(std::mt19937 &rng)
{
  for (long long n : {0LL, 1LL, 17LL, 1000LL})
    for (bool one : {false, true})
      for (bool scatter : {false, true}) {
        const CooMap         m   = RandomCooMap(n, one, scatter, rng);
        const std::vector<T> coo = RandomVector<T>(m.ncoo, rng), out0 = RandomVector<T>(m.nout, rng);
        std::vector<double>  acoo(m.ncoo), aout0(m.nout);
        for (long long c = 0; c < m.ncoo; ++c) acoo[c] = std::abs(coo[c]);
        for (long long t = 0; t < m.nout; ++t) aout0[t] = std::abs(out0[t]);
        for (bool add : {false, true}) {
          std::vector<T>            out = out0;
          const std::vector<T>      ref = ReferenceSumCOO(m, coo, out0, add);
          const std::vector<double> mag = ReferenceSumCOO(m, acoo, aout0, add);
          long long                 bad = 0;
          SumCOO(m.n, scatter ? m.imap.data() : nullptr, one ? nullptr : m.jmap.data(), m.perm.data(), coo.data(), out.data(), add);
          for (long long t = 0; t < m.nout; ++t) bad += std::abs(out[t] - ref[t]) > 4 * std::numeric_limits<double>::epsilon() * mag[t];
          JAGGED_CHECK(bad == 0, "SumCOO (%lld slots, %lld COO entries, %s, %s, %s): %lld of %lld values differ from the reference", n, m.ncoo, one ? "one a slot" : "0-3 a slot", scatter ? "scattered" : "in order", add ? "add" : "insert", bad, m.nout);
        }
      }
}

int main()
{
  std::mt19937 rng(20240611);
  int          nbuilt = 0, nblocked = 0;

  CheckValidation();
  CheckHalf();
  CheckLongRowRule(rng);
  CheckKnownLayouts(rng);
  for (const CSR &a : TestMatrices(rng)) {
    for (const Options &o : TestOptions()) {
      CheckMatrix(a, o, rng);
      nbuilt++;
    }
  }
  for (int bs = 2; bs <= kMaxBlockSize; ++bs)
    for (const CSR &a : BlockedTestMatrices(bs, rng))
      for (const Options &o : BlockedTestOptions(bs)) {
        CheckMatrix(a, o, rng);
        nblocked++;
      }
  CheckBlockedLayout();
  CheckPacked(rng);
  CheckSumCOO<double>(rng);
  CheckSumCOO<std::complex<double>>(rng);
  std::printf("test_jaggedformat: %d matrix/format combinations, %d blocked ones, %d failures\n", nbuilt, nblocked, failures);
  return failures ? 1 : 0;
}
