/*
   The one launch-size helper of the project's kernels: thread blocks for n units of work (threads, or rows when a block
   takes several) of `per` a block, at least one, at most `cap` (kernels with a grid-stride loop pass a cap: enough blocks
   to fill the GPU, few enough for their per-block atomics or partial sums; one unit a thread passes none)
*/
#pragma once

#include <algorithm>

static inline unsigned JaggedBlocks(long long n, long long per, long long cap = 2147483647LL)
{
  return static_cast<unsigned>(std::max(1LL, std::min((n + per - 1) / per, cap)));
}
