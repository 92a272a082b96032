"""Reads a PETSc binary matrix (MatView() to a binary viewer, bench/firstsolve -save) into SciPy CSR, for the models in bench/"""
import numpy as np
import scipy.sparse as sp


def load(path, values=True):
    """The matrix of path (real, 32-bit indices); values=False: its pattern only, ones in single precision"""
    with open(path, "rb") as f:
        _, m, n, nz = np.frombuffer(f.read(16), dtype=">i4")
        rl = np.frombuffer(f.read(4 * m), dtype=">i4").astype(np.int64)
        cols = np.frombuffer(f.read(4 * nz), dtype=">i4").astype(np.int64)
        vals = np.frombuffer(f.read(8 * nz), dtype=">f8").astype(np.float64) if values else np.ones(nz, dtype=np.float32)
    return sp.csr_matrix((vals, cols, np.concatenate([[0], np.cumsum(rl)])), shape=(m, n))
