/*
   Shared by the jagged-format tests (test_jaggedformat.cpp on the host, test_jaggedkernels.cu on a
   GPU): random CSR matrices covering the edge cases, random values, CSR reference products in long
   double, and error measures. Header-only, test use only.
*/
#pragma once

#include <petscjagged/private/jaggedformat.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace jagged {
namespace test {

extern int failures;

#define JAGGED_CHECK(cond, ...) \
  do { \
    if (!(cond)) { \
      ++jagged::test::failures; \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__); \
      std::printf("\n"); \
    } \
  } while (0)

struct CSR {
  std::string      name;
  int              nrows = 0, ncols = 0;
  std::vector<int> rowptr{0}, colidx;
  bool             zero_values = false; /* the explicit all-zero-values case */

  int Length(int r) const { return rowptr[r + 1] - rowptr[r]; }
};

/* CSR of the given row lengths, distinct sorted random columns; with_diagonal puts (r, r) in most rows */
inline CSR MakeCSR(std::string name, int ncols, const std::vector<int> &lengths, std::mt19937 &rng, bool with_diagonal)
{
  CSR              a;
  std::vector<int> all(ncols);

  std::iota(all.begin(), all.end(), 0);
  a.name  = std::move(name);
  a.nrows = static_cast<int>(lengths.size());
  a.ncols = ncols;
  for (int r = 0; r < a.nrows; ++r) {
    std::vector<int> cols;
    const int        len = std::min(lengths[r], ncols);
    if (with_diagonal && r < ncols && len > 0 && rng() % 5) cols.push_back(r);
    std::vector<int> pool;
    for (int c : all)
      if (cols.empty() || c != cols[0]) pool.push_back(c);
    std::sample(pool.begin(), pool.end(), std::back_inserter(cols), len - static_cast<int>(cols.size()), rng);
    std::sort(cols.begin(), cols.end());
    a.colidx.insert(a.colidx.end(), cols.begin(), cols.end());
    a.rowptr.push_back(static_cast<int>(a.colidx.size()));
  }
  return a;
}

/* Row lengths uniform in [lo, hi] */
inline std::vector<int> UniformLengths(int nrows, int lo, int hi, std::mt19937 &rng)
{
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int>                   len(nrows);
  for (int &l : len) l = dist(rng);
  return len;
}

/* Row lengths of a power law (Pareto, shape 1.2) from 1, capped at cap */
inline std::vector<int> PowerLawLengths(int nrows, int cap, std::mt19937 &rng)
{
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int>                       len(nrows);
  for (int &l : len) l = std::min(cap, static_cast<int>(1.0 / std::pow(1.0 - u(rng), 1.0 / 1.2)));
  return len;
}

/* The test matrices: edge cases, rectangular, long rows of both long-row kernels */
inline std::vector<CSR> TestMatrices(std::mt19937 &rng)
{
  std::vector<CSR> m;
  std::vector<int> len;

  m.push_back(MakeCSR("0x0", 0, {}, rng, false));
  m.push_back(MakeCSR("0x5", 5, {}, rng, false));
  m.push_back(MakeCSR("5x0 no columns", 0, std::vector<int>(5, 0), rng, false));
  m.push_back(MakeCSR("1x1", 1, {1}, rng, true));
  m.push_back(MakeCSR("1x1 empty row", 1, {0}, rng, true));
  m.push_back(MakeCSR("1x9 row", 9, {6}, rng, true));
  m.push_back(MakeCSR("9x1 column", 1, std::vector<int>{1, 0, 1, 1, 0, 0, 1, 1, 1}, rng, false));
  m.push_back(MakeCSR("40x40 all rows empty", 40, std::vector<int>(40, 0), rng, true));
  m.push_back(MakeCSR("33x33 lengths 0..5", 33, UniformLengths(33, 0, 5, rng), rng, true));
  m.push_back(MakeCSR("64x64 all length 4", 64, std::vector<int>(64, 4), rng, true));
  m.push_back(MakeCSR("100x70 rectangular", 70, UniformLengths(100, 0, 9, rng), rng, true));
  m.push_back(MakeCSR("70x130 rectangular", 130, UniformLengths(70, 0, 12, rng), rng, true));
  m.push_back(MakeCSR("1000x1000 lengths 0..40", 1000, UniformLengths(1000, 0, 40, rng), rng, true));
  m.push_back(MakeCSR("3000x3000 power law", 3000, PowerLawLengths(3000, 3000, rng), rng, true));
  len    = UniformLengths(2000, 1, 3, rng);
  len[7] = 2000;
  m.push_back(MakeCSR("2000x2000 arrow (dense row 7)", 2000, len, rng, true));
  len      = UniformLengths(301, 0, 3, rng);
  len[123] = 5000;
  m.push_back(MakeCSR("301x5000 one very long row", 5000, len, rng, true));
  len = UniformLengths(517, 2, 6, rng);
  for (int r : {3, 100, 101, 260, 516}) len[r] = 300 + 700 * (r % 5);
  m.push_back(MakeCSR("517x4000 long rows of both kinds", 4000, len, rng, true));
  m.push_back(MakeCSR("200x200 all-zero values", 200, UniformLengths(200, 0, 7, rng), rng, true));
  m.back().zero_values = true;
  return m;
}

/* A CSR of the given rows (each a list of columns, sorted here) */
inline CSR RowsCSR(std::string name, int ncols, std::vector<std::vector<int>> rows)
{
  CSR a;
  a.name  = std::move(name);
  a.nrows = static_cast<int>(rows.size());
  a.ncols = ncols;
  for (std::vector<int> &cols : rows) {
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    a.colidx.insert(a.colidx.end(), cols.begin(), cols.end());
    a.rowptr.push_back(static_cast<int>(a.colidx.size()));
  }
  return a;
}

/*
   Matrices for packed storage (jaggedpacked.hpp): distances at the 16-bit limit and past it by one, two and many escapes, rows
   starting at column 0 or at the last column, empty rows; and wide random rows of clusters far apart, as a finite-element
   matrix numbered by kind of point has them
*/
inline std::vector<CSR> PackedTestMatrices(std::mt19937 &rng)
{
  constexpr int    M = 65535, n = 300000;
  std::vector<CSR> m;

  m.push_back(RowsCSR("9 x 300000 at the distance limit", n, {{0, M}, {0, M + 1}, {5, 5 + 2 * M}, {5, 5 + 2 * M + 1}, {}, {n - 1}, {0, 1, 2, n - 1}, {3, M + 3, 2 * M + 3, 2 * M + 4}, {7, 7 + 4 * M + 17}}));
  for (int rows : {1000, 4099}) {
    std::uniform_int_distribution<int> start(0, n - 64), clusters(0, 5), width(1, 12);
    std::vector<std::vector<int>>      r(rows);
    for (std::vector<int> &cols : r)
      for (int c = clusters(rng); c > 0; --c) {
        const int s = start(rng);
        for (int w = width(rng); w > 0; --w) cols.push_back(s + static_cast<int>(rng() % 48));
      }
    m.push_back(RowsCSR(std::to_string(rows) + " x 300000 clusters far apart", n, std::move(r)));
  }
  m.push_back(MakeCSR("1000x1000 lengths 0..40 (no escapes)", 1000, UniformLengths(1000, 0, 40, rng), rng, true));
  return m;
}

/*
   A CSR of bs x bs blocks: block row b holds blengths[b] distinct random block columns (the diagonal block in most of
   them), each block's entries present with probability fill (at least one); scalar rows sorted by column
*/
inline CSR MakeBlockedCSR(const std::string &name, int nbcols, int bs, const std::vector<int> &blengths, double fill, std::mt19937 &rng)
{
  const CSR                      pattern = MakeCSR(name, nbcols, blengths, rng, true);
  std::bernoulli_distribution    keep(fill);
  std::vector<std::vector<char>> present(pattern.colidx.size(), std::vector<char>(static_cast<size_t>(bs) * bs));
  CSR                            a;

  for (std::vector<char> &p : present) {
    bool any = false;
    for (char &e : p) any |= (e = keep(rng));
    if (!any) p[rng() % p.size()] = 1;
  }
  a.name  = name + ", bs " + std::to_string(bs);
  a.nrows = pattern.nrows * bs;
  a.ncols = nbcols * bs;
  for (int b = 0; b < pattern.nrows; ++b)
    for (int r = 0; r < bs; ++r) {
      for (int k = pattern.rowptr[b]; k < pattern.rowptr[b + 1]; ++k)
        for (int c = 0; c < bs; ++c)
          if (present[k][r * bs + c]) a.colidx.push_back(pattern.colidx[k] * bs + c);
      a.rowptr.push_back(static_cast<int>(a.colidx.size()));
    }
  return a;
}

/* The blocked test matrices of block size bs: edge cases, empty block rows, whole and partly zero blocks, rectangular, a long block row */
inline std::vector<CSR> BlockedTestMatrices(int bs, std::mt19937 &rng)
{
  std::vector<CSR> m;
  std::vector<int> len;

  m.push_back(MakeBlockedCSR("0x0 blocks", 0, bs, {}, 1.0, rng));
  m.push_back(MakeBlockedCSR("1x1 block", 1, bs, {1}, 1.0, rng));
  m.push_back(MakeBlockedCSR("33x33 blocks, lengths 0..5, whole", 33, bs, UniformLengths(33, 0, 5, rng), 1.0, rng));
  m.push_back(MakeBlockedCSR("100x100 blocks, lengths 1..9, partly zero", 100, bs, UniformLengths(100, 1, 9, rng), 0.6, rng));
  m.push_back(MakeBlockedCSR("40x70 blocks, rectangular", 70, bs, UniformLengths(40, 0, 8, rng), 0.8, rng));
  m.push_back(MakeBlockedCSR("70x40 blocks, rectangular", 40, bs, UniformLengths(70, 0, 8, rng), 0.8, rng));
  len      = UniformLengths(500, 5, 27, rng);
  len[300] = 100; /* more diagonals than the constant table holds */
  m.push_back(MakeBlockedCSR("500x600 blocks, a long block row", 600, bs, len, 0.9, rng));
  m.push_back(MakeBlockedCSR("60x60 blocks, all-zero values", 60, bs, UniformLengths(60, 0, 4, rng), 0.7, rng));
  m.back().zero_values = true;
  return m;
}

/* Options the blocked matrices of block size bs are built with: both kinds, two b_r, blocks only where they pay (8- and 4-byte values) */
inline std::vector<Options> BlockedTestOptions(int bs)
{
  return {{Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0, bs}, {Kind::PJDS, 7, LongRowMode::Auto, 0, bs}, {Kind::JDS, kDefaultBlockRows, LongRowMode::Auto, 0, bs}, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0, bs, 8}, {Kind::PJDS, kDefaultBlockRows, LongRowMode::Auto, 0, bs, 4}};
}

/* Options the tests build every matrix with: both kinds, several b_r, all long-row modes */
inline std::vector<Options> TestOptions()
{
  std::vector<Options> opts;
  for (LongRowMode mode : {LongRowMode::Auto, LongRowMode::JaggedOnly}) {
    opts.push_back({Kind::JDS, kDefaultBlockRows, mode, 0});
    for (int br : {1, 7, 32, 64}) opts.push_back({Kind::PJDS, br, mode, 0});
  }
  for (int t : {0, 3, 50}) {
    opts.push_back({Kind::JDS, kDefaultBlockRows, LongRowMode::Split, t});
    opts.push_back({Kind::PJDS, kDefaultBlockRows, LongRowMode::Split, t});
  }
  return opts;
}

inline std::string Describe(const Options &o)
{
  const char *mode = o.long_rows == LongRowMode::Auto ? "auto" : o.long_rows == LongRowMode::JaggedOnly ? "jagged-only" : "split";
  return std::string(o.kind == Kind::JDS ? "JDS" : "pJDS") + " b_r " + std::to_string(o.block_rows) + " " + mode + " " + std::to_string(o.long_row_threshold) + (o.block_size > 1 ? " blocks of " + std::to_string(o.block_size) : "") + (o.block_auto_bytes ? " where they pay" : "");
}

template <typename T>
struct Real {
  using type = T;
};
template <typename T>
struct Real<std::complex<T>> {
  using type = T;
};
/* Double precision type of the same kind (the master copy PETSc would hold) */
template <typename T>
struct Master {
  using type = double;
};
template <typename T>
struct Master<std::complex<T>> {
  using type = std::complex<double>;
};
/* Long double type of the same kind, for references */
template <typename T>
struct Wide {
  using type = long double;
};
template <typename T>
struct Wide<std::complex<T>> {
  using type = std::complex<long double>;
};

/* Relative tolerance of results accumulated in VecT */
template <typename VecT>
double Tolerance()
{
  return sizeof(typename Real<VecT>::type) == sizeof(float) ? 1e-5 : 1e-12;
}

/* Random non-zero scalar, parts in [-1, -0.1] U [0.1, 1] */
template <typename T>
T RandomScalar(std::mt19937 &rng)
{
  std::uniform_real_distribution<double> u(0.1, 1.0);
  const auto part = [&]() { return (rng() & 1 ? 1.0 : -1.0) * u(rng); };
  if constexpr (std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::complex<float>>) return T(part(), part());
  else return static_cast<T>(part());
}

template <typename T>
std::vector<T> RandomVector(size_t n, std::mt19937 &rng)
{
  std::vector<T> v(n);
  for (T &e : v) e = RandomScalar<T>(rng);
  return v;
}

/* Master (double) CSR values: random non-zero, or zero for the all-zero-values matrix */
template <typename T>
std::vector<T> MasterValues(const CSR &a, std::mt19937 &rng)
{
  return a.zero_values ? std::vector<T>(a.colidx.size(), T(0)) : RandomVector<T>(a.colidx.size(), rng);
}

template <typename To, typename From>
std::vector<To> Convert(const std::vector<From> &v)
{
  std::vector<To> out(v.size());
  for (size_t k = 0; k < v.size(); ++k) out[k] = static_cast<To>(v[k]);
  return out;
}

/* A reference result and, per entry, the scale its error is measured against (sum |a||x| + |w|) */
template <typename VecT>
struct Reference {
  std::vector<typename Wide<VecT>::type> value;
  std::vector<long double>               scale;
};

/* ref = op(A) x + w in long double; transpose selects A^T; w may be empty */
template <typename MatT, typename VecT>
Reference<VecT> CSRMult(const CSR &a, const std::vector<MatT> &vals, const std::vector<VecT> &x, const std::vector<VecT> &w, bool transpose)
{
  using W = typename Wide<VecT>::type;
  const size_t    n = transpose ? a.ncols : a.nrows;
  Reference<VecT> ref{std::vector<W>(n, W(0)), std::vector<long double>(n, 0.0L)};

  for (int r = 0; r < a.nrows; ++r) {
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k) {
      const int out = transpose ? a.colidx[k] : r, in = transpose ? r : a.colidx[k];
      const W   av  = static_cast<W>(vals[k]), xv = static_cast<W>(x[in]);
      ref.value[out] += av * xv;
      ref.scale[out] += std::abs(av) * std::abs(xv);
    }
  }
  for (size_t i = 0; i < w.size(); ++i) {
    ref.value[i] += static_cast<W>(w[i]);
    ref.scale[i] += std::abs(static_cast<W>(w[i]));
  }
  return ref;
}

/* Largest |y - ref| / scale; an entry with scale 0 must match exactly (else the result is infinite) */
template <typename VecT>
double RelativeError(const std::vector<VecT> &y, const Reference<VecT> &ref)
{
  using W = typename Wide<VecT>::type;
  long double worst = 0.0L;
  if (y.size() != ref.value.size()) return INFINITY;
  for (size_t i = 0; i < y.size(); ++i) {
    const long double err = std::abs(static_cast<W>(y[i]) - ref.value[i]);
    if (err == 0.0L) continue;
    worst = std::max(worst, ref.scale[i] > 0.0L ? err / ref.scale[i] : static_cast<long double>(INFINITY));
  }
  return static_cast<double>(worst);
}

/* Largest |a - b| / max(|b|, tiny), for two computed results */
template <typename T>
double RelativeDifference(const std::vector<T> &a, const std::vector<T> &b)
{
  long double worst = 0.0L;
  if (a.size() != b.size()) return INFINITY;
  for (size_t i = 0; i < a.size(); ++i) {
    const long double err = std::abs(static_cast<typename Wide<T>::type>(a[i]) - static_cast<typename Wide<T>::type>(b[i]));
    if (err > 0.0L) worst = std::max(worst, err / std::max(std::abs(static_cast<typename Wide<T>::type>(b[i])), 1e-30L));
  }
  return static_cast<double>(worst);
}

/* A(r, r) of the CSR matrix, 0 where absent, for r < nrows */
template <typename MatT>
std::vector<MatT> CSRDiagonal(const CSR &a, const std::vector<MatT> &vals)
{
  std::vector<MatT> d(a.nrows, MatT(0));
  for (int r = 0; r < a.nrows; ++r)
    for (int k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k)
      if (a.colidx[k] == r) d[r] += vals[k];
  return d;
}

/* A random map of COO entries as PETSc's MatSetPreallocationCOO() makes them (SumCOO()): n slots, each the target of 0 to 3 of the
   ncoo COO entries (some entries target none: negative indices), or of one each (one: jmap the identity, SumCOO() given NULL
   for it, as for packing what is sent); with scatter the slots land at distinct places imap[i] of nout values (the entries
   received from other processes), else at i (nout = n); perm in random order; target[c] is where entry c lands, or -1 */
struct CooMap {
  long long              n, ncoo, nout;
  std::vector<long long> imap, jmap, perm, target;
};

inline CooMap RandomCooMap(long long n, bool one, bool scatter, std::mt19937 &rng)
{
  CooMap m{n, 0, n, {}, std::vector<long long>(n + 1, 0), {}, {}};
  for (long long i = 0; i < n; ++i) m.jmap[i + 1] = m.jmap[i] + (one ? 1 : static_cast<long long>(rng() % 4));
  m.ncoo = m.jmap[n] + static_cast<long long>(rng() % 5);
  std::vector<long long> order(m.ncoo);
  for (long long c = 0; c < m.ncoo; ++c) order[c] = c;
  std::shuffle(order.begin(), order.end(), rng);
  m.perm.assign(order.begin(), order.begin() + m.jmap[n]);
  if (scatter) {
    m.nout = 2 * n + 1;
    std::vector<long long> places(m.nout);
    for (long long t = 0; t < m.nout; ++t) places[t] = t;
    std::shuffle(places.begin(), places.end(), rng);
    m.imap.assign(places.begin(), places.begin() + n);
  }
  m.target.assign(m.ncoo, -1);
  for (long long i = 0; i < n; ++i)
    for (long long k = m.jmap[i]; k < m.jmap[i + 1]; ++k) m.target[m.perm[k]] = scatter ? m.imap[i] : i;
  return m;
}

/* The reference of SumCOO(): each COO entry added to where it lands, in the order of the COO entries (out zeroed first where it
   lands when not adding) */
template <typename T>
std::vector<T> ReferenceSumCOO(const CooMap &m, const std::vector<T> &coo, const std::vector<T> &out, bool add)
{
  std::vector<T> r = out;
  if (!add)
    for (long long i = 0; i < m.n; ++i) r[m.imap.empty() ? i : m.imap[i]] = T(0);
  for (long long c = 0; c < m.ncoo; ++c)
    if (m.target[c] >= 0) r[m.target[c]] += coo[c];
  return r;
}

} // namespace test
} // namespace jagged
