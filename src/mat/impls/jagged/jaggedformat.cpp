#include <petscjagged/private/jaggedformat.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <new>

namespace jagged {

namespace {

/* The CSR arrays are well formed: rowptr from 0 and non-decreasing, columns in range */
bool CSRIsValid(int nrows, int ncols, const int rowptr[], const int colidx[])
{
  if (nrows < 0 || ncols < 0) return false;
  if (nrows == 0) return !rowptr || rowptr[0] == 0;
  if (!rowptr || rowptr[0] != 0) return false;
  for (int r = 0; r < nrows; ++r)
    if (rowptr[r + 1] < rowptr[r]) return false;
  if (rowptr[nrows] > 0 && !colidx) return false;
  for (int k = 0; k < rowptr[nrows]; ++k)
    if (colidx[k] < 0 || colidx[k] >= ncols) return false;
  return true;
}

/* Rows by decreasing length, ties in original order (a stable counting sort) */
std::vector<int> SortRowsByLength(const std::vector<int> &len, int maxlen)
{
  std::vector<int> first(static_cast<size_t>(maxlen) + 2, 0), order(len.size());

  for (int l : len) first[maxlen - l + 1]++;
  for (int key = 0; key <= maxlen; ++key) first[key + 1] += first[key];
  for (size_t r = 0; r < len.size(); ++r) order[first[maxlen - len[r]]++] = static_cast<int>(r);
  return order;
}

long long RoundUp(long long n, long long multiple)
{
  return (n + multiple - 1) / multiple * multiple;
}

/* Row lengths the kernel iterates: pJDS pads each row to the first (longest) row of its block */
void SetIteratedLengths(const std::vector<int> &truelen, int block_rows, Format *f)
{
  f->rowlen.resize(f->nsorted);
  for (int i = 0; i < f->nsorted; ++i) f->rowlen[i] = truelen[i - i % block_rows];
  f->ndiag = f->nsorted > 0 ? f->rowlen[0] : 0;
}

/* Diagonal j holds the rows with rowlen > j: a prefix of the sorted rows */
Status SetDiagonalStarts(int align, Format *f)
{
  std::vector<int> count(f->ndiag);
  int              c = f->nsorted;

  for (int j = 0; j < f->ndiag; ++j) {
    while (c > 0 && f->rowlen[c - 1] <= j) c--;
    count[j] = c;
  }
  return DiagonalStarts(count, align, &f->diagstart, &f->nstored);
}

/*
   Column and CSR position of every jagged slot. A padding slot repeats the column of the slot
   before it in the same diagonal (the neighbouring thread's), so it reads an x entry that the warp
   loads anyway; slot 0 of each diagonal belongs to the longest row and is never padding.
*/
void FillJaggedSlots(const int rowptr[], const int csr_colidx[], const std::vector<int> &truelen, Format *f)
{
  std::vector<int> rowstart(f->nsorted);

  for (int i = 0; i < f->nsorted; ++i) rowstart[i] = rowptr[f->perm[i]];
  f->colidx.assign(f->nstored, 0);
  for (int j = 0; j < f->ndiag; ++j) {
    for (int s = f->diagstart[j]; s < f->diagstart[j + 1]; ++s) {
      const int i = s - f->diagstart[j];
      if (i < f->nsorted && j < truelen[i]) {
        f->valmap[s] = rowstart[i] + j;
        f->colidx[s] = csr_colidx[rowstart[i] + j];
      } else f->colidx[s] = f->colidx[s - 1];
    }
  }
}

/* The first nlong sorted rows, kept as CSR after the jagged slots */
void FillLongRows(const int rowptr[], const int csr_colidx[], const std::vector<int> &order, Format *f)
{
  f->long_rows.assign(order.begin(), order.begin() + f->nlong);
  f->long_rowptr.resize(static_cast<size_t>(f->nlong) + 1);
  f->long_rowptr[0] = 0;
  f->nlong_block    = 0;
  for (int r = 0; r < f->nlong; ++r) {
    const int row = f->long_rows[r], len = rowptr[row + 1] - rowptr[row];
    f->long_rowptr[r + 1] = f->long_rowptr[r] + len;
    if (len >= kBlockRowMinLength) f->nlong_block = r + 1;
  }
  f->long_colidx.resize(f->long_nnz);
  for (int r = 0; r < f->nlong; ++r) {
    const int row = f->long_rows[r];
    for (int k = 0; k < f->long_rowptr[r + 1] - f->long_rowptr[r]; ++k) {
      f->long_colidx[f->long_rowptr[r] + k]         = csr_colidx[rowptr[row] + k];
      f->valmap[f->nstored + f->long_rowptr[r] + k] = rowptr[row] + k;
    }
  }
}

/* Length of each row, and the longest */
std::vector<int> RowLengths(int nrows, const int rowptr[], int *maxrowlen)
{
  std::vector<int> len(nrows);

  *maxrowlen = 0;
  for (int r = 0; r < nrows; ++r) {
    len[r]     = rowptr[r + 1] - rowptr[r];
    *maxrowlen = std::max(*maxrowlen, len[r]);
  }
  return len;
}

/* Rows sorted by length: the first ones, over the threshold, form the long part; perm holds the rest */
std::vector<int> SplitSortedRows(const std::vector<int> &len, const Options &options, Format *f)
{
  const std::vector<int> order = SortRowsByLength(len, f->maxrowlen);

  f->long_threshold = ResolveLongThreshold(options, f->nrows, f->nnz);
  while (f->nlong < f->nrows && len[order[f->nlong]] > f->long_threshold) f->long_nnz += len[order[f->nlong++]];
  f->nsorted = f->nrows - f->nlong;
  f->perm.assign(order.begin() + f->nlong, order.end());
  return order;
}

Status Build(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *f)
{
  *f            = Format();
  f->kind       = options.kind;
  f->block_rows = options.kind == Kind::PJDS ? options.block_rows : 1;
  f->nrows      = nrows;
  f->ncols      = ncols;
  f->nnz        = nrows > 0 ? rowptr[nrows] : 0;

  const std::vector<int> len   = RowLengths(nrows, rowptr, &f->maxrowlen);
  const std::vector<int> order = SplitSortedRows(len, options, f);
  std::vector<int>       truelen(f->nsorted);
  for (int i = 0; i < f->nsorted; ++i) truelen[i] = len[f->perm[i]];
  SetIteratedLengths(truelen, f->block_rows, f);
  const Status status = SetDiagonalStarts(options.kind == Kind::PJDS ? options.block_rows : kJDSDiagonalAlign, f);
  if (status != Status::Success) return status;
  if (static_cast<long long>(f->nstored) + f->long_nnz > kMaxSlots) return Status::TooLarge;
  f->nslots = f->nstored + f->long_nnz;
  f->valmap.assign(f->nslots, -1);
  FillJaggedSlots(rowptr, colidx, truelen, f);
  FillLongRows(rowptr, colidx, order, f);
  return Status::Success;
}

/*
   The block pattern of the bs x bs blocks of a CSR pattern: block row b holds the distinct column / bs of its bs rows,
   sorted; found with a marker a block column (the last block row that met it), one pass over the entries
*/
void BlockPattern(int nrows, int ncols, const int rowptr[], const int colidx[], int bs, std::vector<int> *browptr, std::vector<int> *bcol)
{
  const int        nb = nrows / bs;
  std::vector<int> mark(static_cast<size_t>(ncols / bs), -1);

  browptr->assign(static_cast<size_t>(nb) + 1, 0);
  bcol->clear();
  for (int b = 0; b < nb; ++b) {
    const size_t start = bcol->size();
    for (int k = rowptr[b * bs]; k < rowptr[(b + 1) * bs]; ++k) {
      const int c = colidx[k] / bs;
      if (mark[c] != b) {
        mark[c] = b;
        bcol->push_back(c);
      }
    }
    std::sort(bcol->begin() + start, bcol->end());
    (*browptr)[b + 1] = static_cast<int>(bcol->size());
  }
}

/*
   A blocked format: the scalar format of the block pattern (no long-row part), whose columns become the blocks' first
   scalar columns and whose slots each get bs^2 value entries, entry (r, c) of slot s at (r * bs + c) * nstored + s
*/
Status BuildBlocked(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *f)
{
  const int        bs = options.block_size;
  std::vector<int> browptr, bcol;
  Options          bo = options;

  BlockPattern(nrows, ncols, rowptr, colidx, bs, &browptr, &bcol);
  bo.block_size = 1;
  bo.long_rows  = LongRowMode::JaggedOnly;
  const Status status = Build(nrows / bs, ncols / bs, browptr.data(), bcol.data(), bo, f);
  if (status != Status::Success) return status;
  if (static_cast<long long>(f->nstored) * bs * bs > kMaxSlots) return Status::TooLarge;

  std::vector<int> slotof(bcol.size()); /* block CSR position -> slot */
  for (int s = 0; s < f->nstored; ++s)
    if (f->valmap[s] >= 0) slotof[f->valmap[s]] = s;
  for (int &c : f->colidx) c *= bs;
  f->bs     = bs;
  f->nrows  = nrows;
  f->ncols  = ncols;
  f->nnz    = rowptr[nrows];
  f->nslots = f->nstored * bs * bs;
  f->valmap.assign(f->nslots, -1);
  for (int row = 0; row < nrows; ++row) {
    const int  b = row / bs, r = row % bs;
    const int *first = bcol.data() + browptr[b], *last = bcol.data() + browptr[b + 1], *q = first;
    for (int k = rowptr[row]; k < rowptr[row + 1]; ++k) {
      const int bc = colidx[k] / bs;
      while (q < last && *q < bc) ++q;            /* a row sorted by column: one pass along its block row */
      if (q == last || *q != bc) q = std::lower_bound(first, last, bc); /* an unsorted row */
      f->valmap[static_cast<size_t>(r * bs + colidx[k] % bs) * f->nstored + slotof[q - bcol.data()]] = k;
    }
  }
  return Status::Success;
}

} // namespace

const char *StatusString(Status status)
{
  switch (status) {
  case Status::Success:
    return "success";
  case Status::InvalidBlockRows:
    return "pJDS block size (rows per block) must be positive";
  case Status::InvalidThreshold:
    return "long-row threshold must be non-negative";
  case Status::InvalidBlockSize:
    return "block size must be from 1 to 6 and divide the rows and columns";
  case Status::InvalidCSR:
    return "invalid CSR arrays (row pointers from 0, non-decreasing; columns in [0, ncols))";
  case Status::TooLarge:
    return "jagged format needs more stored entries than a 32-bit index can address";
  case Status::OutOfMemory:
    return "out of host memory building the jagged format";
  case Status::DeviceError:
    return "CUDA error building the jagged format on the GPU";
  }
  return "unknown status";
}

Status CheckOptions(const Options &options)
{
  if (options.kind == Kind::PJDS && options.block_rows <= 0) return Status::InvalidBlockRows;
  if (options.long_rows == LongRowMode::Split && options.long_row_threshold < 0) return Status::InvalidThreshold;
  if (options.block_size < 1 || options.block_size > kMaxBlockSize) return Status::InvalidBlockSize;
  return Status::Success;
}

int ResolveLongThreshold(const Options &options, int nrows, long long nnz)
{
  switch (options.long_rows) {
  case LongRowMode::Auto:
    return LongRowThreshold(nrows, nnz);
  case LongRowMode::Split:
    return options.long_row_threshold;
  case LongRowMode::JaggedOnly:
    break;
  }
  return INT_MAX;
}

Status DiagonalStarts(const std::vector<int> &count, int align, std::vector<int> *diagstart, int *nstored)
{
  long long start = 0;

  diagstart->resize(count.size() + 1);
  (*diagstart)[0] = 0;
  for (size_t j = 0; j < count.size(); ++j) {
    start += RoundUp(count[j], align);
    if (start > kMaxSlots) return Status::TooLarge;
    (*diagstart)[j + 1] = static_cast<int>(start);
  }
  *nstored = static_cast<int>(start);
  return Status::Success;
}

int LongRowThreshold(int nrows, long long nnz)
{
  const double mean = nrows > 0 ? static_cast<double>(nnz) / nrows : 0.0;
  /* few rows of many entries: one thread per row leaves the GPU idle and waits on each row's loop */
  if (nrows <= kFewRows && mean > kWarpRowMinMean) return kWarpRowMinMean;
  const double t = std::max(std::ceil(kLongRowMeanFactor * mean), static_cast<double>(kLongRowMinLength));
  return t >= INT_MAX ? INT_MAX : static_cast<int>(t);
}

Status BuildFormat(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *format)
{
  const Status status = CheckOptions(options);
  if (status != Status::Success) return status;
  if (!CSRIsValid(nrows, ncols, rowptr, colidx)) return Status::InvalidCSR;
  if (nrows % options.block_size || ncols % options.block_size) return Status::InvalidBlockSize;
  try {
    if (options.block_size > 1 && (!options.block_auto_bytes || BlocksPay(nrows, nrows > 0 ? rowptr[nrows] : 0, CountBlocks(nrows, ncols, rowptr, colidx, options.block_size), options.block_size, options.block_auto_bytes))) return BuildBlocked(nrows, ncols, rowptr, colidx, options, format);
    if (options.block_size > 1) {
      Options scalar    = options;
      scalar.block_size = 1;
      return Build(nrows, ncols, rowptr, colidx, scalar, format);
    }
    return Build(nrows, ncols, rowptr, colidx, options, format);
  } catch (const std::bad_alloc &) {
    return Status::OutOfMemory;
  }
}

long long CountBlocks(int nrows, int ncols, const int rowptr[], const int colidx[], int bs)
{
  std::vector<int> mark(static_cast<size_t>(ncols / bs), -1);
  long long        nblocks = 0;

  for (int b = 0; b < nrows / bs; ++b)
    for (int k = rowptr[b * bs]; k < rowptr[(b + 1) * bs]; ++k)
      if (mark[colidx[k] / bs] != b) {
        mark[colidx[k] / bs] = b;
        nblocks++;
      }
  return nblocks;
}

bool BlocksPay(int nrows, long long nnz, long long nblocks, int bs, size_t scalar_bytes)
{
  const long long nbrows = nrows / bs;

  if (nrows <= kFewRows && nblocks > static_cast<long long>(kBlockRowMaxBlocks) * nbrows) return false; /* long block rows of a small matrix */
  return static_cast<double>(nblocks) * (static_cast<double>(bs) * bs * scalar_bytes + sizeof(int)) < static_cast<double>(nnz) * (scalar_bytes + sizeof(int));
}

template <typename CsrT, typename MatT>
void FillValues(const Format &format, const CsrT csr_vals[], MatT vals[])
{
  for (int s = 0; s < format.nslots; ++s) {
    const int pos = format.valmap[s];
    vals[s]       = pos >= 0 ? static_cast<MatT>(csr_vals[pos]) : MatT(0);
  }
}

template <typename MatT>
void ScatterValues(const Format &format, const MatT vals[], MatT csr_vals[])
{
  for (int s = 0; s < format.nslots; ++s) {
    const int pos = format.valmap[s];
    if (pos >= 0) csr_vals[pos] = vals[s];
  }
}

void ScatterColumns(const Format &format, int csr_cols[])
{
  for (int s = 0; s < format.nslots; ++s) {
    const int pos = format.valmap[s];
    if (pos >= 0) csr_cols[pos] = SlotColumn(s, format.bs, format.nstored, format.colidx.data(), format.long_colidx.data());
  }
}

template <typename MatT>
void SumCOO(long long n, const long long imap[], const long long jmap[], const long long perm[], const MatT coo_vals[], MatT out[], bool add)
{
  for (long long i = 0; i < n; ++i) {
    const long long t = imap ? imap[i] : i, end = jmap ? jmap[i + 1] : i + 1;
    MatT            sum = add ? out[t] : MatT(0);
    for (long long k = jmap ? jmap[i] : i; k < end; ++k) sum += coo_vals[perm[k]];
    out[t] = sum;
  }
}

Stats GetStats(const Format &f, size_t scalar_bytes)
{
  Stats        st;
  /* perm, rowlen, diagstart, colidx, long_rows, long_rowptr, long_colidx */
  const size_t nindex = static_cast<size_t>(2LL * f.nsorted + (f.ndiag + 1LL) + f.nstored + f.nlong + (f.nlong + 1LL) + f.long_nnz);

  st.nnz               = f.nnz;
  st.nslots            = f.nslots;
  st.padding           = st.nslots - st.nnz;
  st.padding_ratio     = st.nnz > 0 ? static_cast<double>(st.padding) / st.nnz : 0.0;
  st.ellpack_slots     = static_cast<long long>(f.nrows) * f.maxrowlen * f.bs; /* blocked: maxrowlen blocks of bs^2 entries a block row */
  st.ellpack_reduction = st.ellpack_slots > 0 ? 1.0 - static_cast<double>(st.nslots) / st.ellpack_slots : 0.0;
  st.index_bytes       = nindex * sizeof(int);
  st.valmap_bytes      = static_cast<size_t>(f.nslots) * sizeof(int);
  st.value_bytes       = static_cast<size_t>(f.nslots) * scalar_bytes;
  st.device_bytes      = st.index_bytes + st.valmap_bytes + st.value_bytes;
  st.product_bytes     = st.nnz > 0 ? (static_cast<double>(st.value_bytes) + sizeof(int) * (static_cast<double>(f.nstored) + f.long_nnz)) / st.nnz : 0.0;
  return st;
}

template void FillValues(const Format &, const double[], double[]);
template void FillValues(const Format &, const double[], float[]);
template void FillValues(const Format &, const float[], float[]);
template void FillValues(const Format &, const double[], Half[]);
template void FillValues(const Format &, const Half[], Half[]);
template void FillValues(const Format &, const std::complex<double>[], std::complex<double>[]);
template void FillValues(const Format &, const std::complex<double>[], std::complex<float>[]);
template void FillValues(const Format &, const std::complex<float>[], std::complex<float>[]);
template void ScatterValues(const Format &, const double[], double[]);
template void ScatterValues(const Format &, const float[], float[]);
template void ScatterValues(const Format &, const std::complex<double>[], std::complex<double>[]);
template void ScatterValues(const Format &, const std::complex<float>[], std::complex<float>[]);
template void SumCOO(long long, const long long[], const long long[], const long long[], const double[], double[], bool);
template void SumCOO(long long, const long long[], const long long[], const long long[], const std::complex<double>[], std::complex<double>[], bool);

} // namespace jagged
