/*
   The device bitmap of a DIA search (diafind.cu, matpowersdiaentries.cu): bit b stands for the offset
   b - bias; MatDIACollectDiagonals() reads it back.
*/
#pragma once

/* sets bit b of bits; most entries find their bit set already and need no atomic */
__device__ inline void MatDIAMarkBit(unsigned *bits, long long b)
{
  const unsigned bit = 1u << (b % 32);

  if (!(__ldcg(bits + b / 32) & bit)) atomicOr(bits + b / 32, bit);
}
