/*
   Index structure of the jagged-diagonal GPU formats (JDS and padded JDS), built from CSR on the
   host (BuildFormat()) or on the GPU (jaggedbuild.cuh, same arrays).

   Rows are sorted by decreasing length (stable). Entry j of sorted row i is stored at slot
   diagstart[j] + i, so consecutive threads (rows) read consecutive slots of one jagged diagonal.
     JDS : rowlen[i] is the true row length; each diagonal is padded to a multiple of 32 slots so
           that every diagonal starts aligned (Cevahir et al., "CSR-like" JDS kernel).
     pJDS: rows are grouped into blocks of block_rows sorted rows and each row is padded to the
           longest row of its block, so a warp iterates one count (Kreutzer et al., Listing 2);
           each diagonal holds whole blocks.
   Rows much longer than the rest are kept apart in a small CSR part (see LongRowThreshold()), so
   one dense row cannot make the jagged part wide.

   Blocked (block size bs of 2..kMaxBlockSize, Options::block_size): the matrix is read as bs x bs
   blocks, and the jagged structure above is that of its block rows and block columns: a row of the
   jagged part is a block row (nrows / bs of them), a slot a stored block with one column index (its
   first scalar column), and the slot's bs^2 values lie a slot count apart, entry (r, c) of slot s at
   vals[(r * bs + c) * nstored + s], so that the threads of a warp read each entry of their blocks
   coalesced. A block that is partly zero is stored whole (its missing entries: zero values, valmap -1).
   Blocked formats have no long-row part. One 4-byte index per block: a double entry of a 3 x 3 block
   moves 8 + 4/9 bytes, a scalar format's 12.

   The structure holds indices only: the value arrays (one per precision) have nslots entries,
   slots [0, nstored) for the jagged part and [nstored, nslots) for the long-row CSR part, and are
   filled from CSR values by one gather through valmap (FillValues(), and its GPU twin).
*/
#pragma once

#include <climits>
#include <cstddef>
#include <vector>

#include <petscjagged/private/jaggedhalf.hpp>

namespace jagged {

enum class Kind { JDS, PJDS };

/* How rows much longer than the rest are treated */
enum class LongRowMode {
  Auto,       /* split at LongRowThreshold() */
  JaggedOnly, /* no split: every row is in the jagged part */
  Split       /* split at Options::long_row_threshold */
};

enum class Status { Success, InvalidBlockRows, InvalidThreshold, InvalidBlockSize, InvalidCSR, TooLarge, OutOfMemory, DeviceError };

constexpr int kDefaultBlockRows  = 32;   /* pJDS b_r: one warp */
constexpr int kJDSDiagonalAlign  = 32;   /* JDS diagonals start at multiples of 32 slots */
constexpr int kLongRowMeanFactor = 8;    /* Auto: long rows have more than 8x the mean length... */
constexpr int kLongRowMinLength  = 64;   /* ...and more than 64 entries (see LongRowThreshold()) */
constexpr int kFewRows            = 65536; /* Auto: matrices with at most this many rows... */
constexpr int kWarpRowMinMean     = 16;    /* ...and more entries per row on average run rows longer than this by warps */
constexpr int kBlockRowMaxBlocks  = 32;    /* Auto blocks: no blocks for such a small matrix whose block rows hold more blocks than this on average (BlocksPay()) */
constexpr int kBlockRowMinLength = 1024; /* long rows this long are split over thread blocks, not given a warp */
constexpr int kMaxBlockSize      = 6;    /* blocked formats: bs from 2 to this (GAMG's coarse levels of 3D elasticity: 6) */
constexpr long long kMaxSlots    = INT_MAX - 65536LL; /* stored entries: slot indices, and a warp's or block's stride past them, fit an int on the GPU */

struct Options {
  Kind        kind               = Kind::PJDS;
  int         block_rows         = kDefaultBlockRows; /* pJDS only; must be positive */
  LongRowMode long_rows          = LongRowMode::Auto;
  int         long_row_threshold = 0; /* Split only: rows with more entries go to the CSR part; >= 0 */
  int         block_size         = 1; /* 1: scalar; 2..kMaxBlockSize: blocked (see above), dividing the rows and columns; long_rows then ignored */
  int         block_auto_bytes   = 0; /* with block_size > 1: blocked only where BlocksPay() for values of this many bytes, else scalar (0: always blocked) */
};

/*
   A format. Built on the GPU, only its scalar fields are set (the summary) and its vectors stay
   empty: the arrays exist on the device only.
*/
struct Format {
  Kind kind       = Kind::PJDS;
  int  block_rows = 1; /* rows padded together: b_r for pJDS, 1 for JDS */
  int  bs         = 1; /* 1: scalar; else the block size of a blocked format: rows of the jagged part are block rows */
  int  nrows = 0, ncols = 0, nnz = 0, maxrowlen = 0; /* scalar rows, columns, entries; maxrowlen in blocks when blocked */

  /* jagged part: the nsorted rows not in the long-row part (blocked: all block rows; colidx the first column of each block) */
  int              nsorted = 0, ndiag = 0, nstored = 0;
  std::vector<int> perm;      /* [nsorted] sorted position -> original row */
  std::vector<int> rowlen;    /* [nsorted] entries the kernel iterates (pJDS: block-padded) */
  std::vector<int> diagstart; /* [ndiag+1] first slot of each jagged diagonal */
  std::vector<int> colidx;    /* [nstored] column of each slot; padding repeats a real column */

  /* long-row CSR part: rows with more than long_threshold entries, longest first */
  int              long_threshold = 0; /* INT_MAX when the split is off */
  int              nlong = 0, nlong_block = 0, long_nnz = 0; /* first nlong_block rows: over thread blocks */
  std::vector<int> long_rows;   /* [nlong] original row numbers */
  std::vector<int> long_rowptr; /* [nlong+1] from 0 */
  std::vector<int> long_colidx; /* [long_nnz] */

  /* values: slot -> CSR position, -1 for padding (blocked: value entry -> CSR position, -1 for padding and missing entries) */
  int              nslots = 0; /* values: nstored + long_nnz; blocked: bs * bs * nstored */
  std::vector<int> valmap;     /* [nslots] */
};

/* Memory use of a format (compare pJDS paper, Table I) */
struct Stats {
  long long nnz;               /* entries of the CSR matrix */
  long long nslots;            /* stored entries, padding included */
  long long padding;           /* nslots - nnz */
  double    padding_ratio;     /* padding / nnz (0 for an empty matrix) */
  long long ellpack_slots;     /* nrows * maxrowlen: what ELLPACK would store */
  double    ellpack_reduction; /* 1 - nslots / ellpack_slots: data reduction vs ELLPACK */
  size_t    index_bytes;       /* device index arrays, valmap excluded */
  size_t    valmap_bytes;      /* device slot -> CSR map used by the values refresh */
  size_t    value_bytes;       /* one value array of the given scalar size */
  size_t    device_bytes;      /* index_bytes + valmap_bytes + value_bytes */
  double    product_bytes;     /* bytes a product reads a nonzero: values and column indices (one a slot, or a block), padding included */
};

/* Message for a Status, for the caller's error report */
const char *StatusString(Status status);

/*
   Row length above which Auto puts a row in the long-row CSR part:
     max(kLongRowMeanFactor * mean row length, kLongRowMinLength), mean = nnz / nrows;
   kWarpRowMinMean for small matrices (nrows <= kFewRows) whose mean exceeds it.
   One thread walks a whole row, so the jagged kernel lasts at least as long as its longest row,
   and pJDS pads that row's block of b_r rows to it; a warp (or for >= kBlockRowMinLength entries,
   several thread blocks) takes such a row 32 times faster.
   - 8 x mean: by Markov's inequality at most nrows/8 rows exceed it, and rows of regular matrices
     (stencils, FEM), which vary within a small factor of the mean, are never split. Splitting rows
     near the mean costs: on an H100 (bench_jaggedkernels.cu), banded matrices ran 12% slower split
     at 32 (mean 30) and 7% slower split at 128 (mean 120) than unsplit.
   - 64: a warp per row needs at least two entries per lane to pay off. On the H100 a power-law
     matrix (mean 7.8) ran 1.27x faster split at 64 than at 256, 1.7x than at 512.
*/
int LongRowThreshold(int nrows, long long nnz);

/* InvalidBlockRows or InvalidThreshold for bad options, else Success */
Status CheckOptions(const Options &options);

/* Row length above which a row goes to the long-row part: LongRowThreshold(), the option, or INT_MAX for no split */
int ResolveLongThreshold(const Options &options, int nrows, long long nnz);

/*
   diagstart[ndiag+1] and *nstored of a format from count[j], the rows of the jagged part with
   rowlen > j (j < ndiag): diagonal j holds count[j] rounded up to a multiple of align slots.
   TooLarge past kMaxSlots.
*/
Status DiagonalStarts(const std::vector<int> &count, int align, std::vector<int> *diagstart, int *nstored);

/*
   Builds the format of the CSR pattern (rowptr[nrows+1] from 0, colidx[rowptr[nrows]] in [0, ncols)),
   blocked where options.block_size > 1 (and, with options.block_auto_bytes, where the blocks pay: BlocksPay(); the format's bs
   says which was built; each scalar row sorted by column, as AIJ keeps them, builds fastest).
   Returns InvalidBlockRows, InvalidThreshold, InvalidBlockSize or InvalidCSR for bad input, TooLarge when the stored
   entries would overflow the GPU's 32-bit slot indices (about 2^31), OutOfMemory when an allocation
   failed; *format is then unspecified.
*/
Status BuildFormat(int nrows, int ncols, const int rowptr[], const int colidx[], const Options &options, Format *format);

/* The bs x bs blocks holding the entries of the CSR pattern (nrows and ncols multiples of bs): what a blocked format stores, padding apart */
long long CountBlocks(int nrows, int ncols, const int rowptr[], const int colidx[], int bs);

/*
   Whether a blocked format of nblocks bs x bs blocks of a matrix of nrows rows is faster in a product than the scalar format
   of its nnz entries, values of scalar_bytes. Where it moves fewer bytes: nblocks (bs^2 scalar_bytes + 4) against
   nnz (scalar_bytes + 4), padding of both apart (a 3 x 3 block pays when more than 6.3 of its 9 entries are nonzeros, in
   double precision); but not for a small matrix (at most kFewRows rows) whose block rows hold more than kBlockRowMaxBlocks
   blocks on average: one thread walks a whole block row, where the scalar format runs such rows by warps
   (LongRowThreshold()), and the product waits on the longest loops (GAMG's coarse levels of elasticity, 40 to 100 blocks
   a block row: their blocked single-precision V-cycle ran 30 % slower than the scalar one)
*/
bool BlocksPay(int nrows, long long nnz, long long nblocks, int bs, size_t scalar_bytes);

/*
   Fills vals[nslots] from the CSR values csr_vals[nnz] of the pattern the format was built from,
   padding with zeros: vals[s] = csr_vals[valmap[s]]. CsrT -> MatT: double, float -> same or float;
   double, Half -> Half; std::complex<double>, std::complex<float> -> same or std::complex<float>.
*/
template <typename CsrT, typename MatT>
void FillValues(const Format &format, const CsrT csr_vals[], MatT vals[]);

/*
   The inverse of FillValues() in one precision: csr_vals[valmap[s]] = vals[s] for every slot that holds an entry of the
   CSR pattern (each entry lies in exactly one slot), padding skipped: the CSR values again from the jagged ones.
*/
template <typename MatT>
void ScatterValues(const Format &format, const MatT vals[], MatT csr_vals[]);

#if defined(__CUDACC__)
  #define JAGGED_HOST_DEVICE __host__ __device__
#else
  #define JAGGED_HOST_DEVICE
#endif

/*
   The column of value slot s of a format of block size bs, nstored stored slots (or blocks), its colidx and long_colidx:
   scalar, the slot's column (jagged part) or its long row's; blocked, the first column of its block plus the entry's
   column within it (entry (r, c) of stored block t is value slot (r * bs + c) * nstored + t). Shared by ScatterColumns()
   and its GPU twin.
*/
JAGGED_HOST_DEVICE inline int SlotColumn(int s, int bs, int nstored, const int *colidx, const int *long_colidx)
{
  if (bs > 1) return colidx[s % nstored] + (s / nstored) % bs;
  return s < nstored ? colidx[s] : long_colidx[s - nstored];
}

/*
   The CSR column indices again from the format, as ScatterValues() gives the values: csr_cols[valmap[s]] = SlotColumn(s)
   for every slot that holds an entry of the CSR pattern: with the row starts, the CSR the format was built from.
*/
void ScatterColumns(const Format &format, int csr_cols[]);

/*
   COO values summed into CSR order, through a map as PETSc's MatSetPreallocationCOO() makes them: for i < n, out[t] = (add ?
   out[t] : 0) + the sum of coo_vals[perm[k]] for k in [jmap[i], jmap[i+1]), t = imap[i] (imap NULL: t = i; the t distinct),
   jmap NULL: k = i alone (a gather, as for packing what is sent to other processes). Repeated entries are summed in the order
   of perm, so the sum does not depend on the thread that makes it.
*/
template <typename MatT>
void SumCOO(long long n, const long long imap[], const long long jmap[], const long long perm[], const MatT coo_vals[], MatT out[], bool add);

/* Storage statistics of the format with values of scalar_bytes bytes (from its scalar fields: a summary will do) */
Stats GetStats(const Format &format, size_t scalar_bytes);

} // namespace jagged
