"""A tiny multilayer perceptron in numpy: the learned face classifier's inference.

Weights live in a small ``.npz`` file (see ``scripts/vision_train.py``); inference is two matrix
products, so it needs nothing beyond numpy on the Pi.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


class Mlp:
    """input -> (x - mean) / std -> ReLU(hidden) -> softmax(classes)."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array, mean: Array, std: Array):
        if w1.shape[1] != w2.shape[0] or w1.shape[0] != mean.shape[0]:
            raise ValueError(f"Mlp weight shapes do not fit: {w1.shape}, {w2.shape}, {mean.shape}")
        self.w1, self.b1, self.w2, self.b2 = (a.astype(np.float32) for a in (w1, b1, w2, b2))
        self.mean = mean.astype(np.float32)
        self.std = std.astype(np.float32)

    @property
    def n_inputs(self) -> int:
        return int(self.w1.shape[0])

    def proba(self, x: Array) -> Array:
        """Class probabilities (rows sum to 1) for feature rows ``x`` (N x n_inputs)."""
        z = (np.atleast_2d(x).astype(np.float32) - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0.0)
        o = h @ self.w2 + self.b2
        o = o - o.max(axis=1, keepdims=True)
        e = np.exp(o)
        out: Array = e / e.sum(axis=1, keepdims=True)
        return out

    def save(self, path: Path) -> None:
        np.savez_compressed(path, w1=self.w1.astype(np.float16), b1=self.b1, w2=self.w2,
                            b2=self.b2, mean=self.mean, std=self.std)

    @classmethod
    def load(cls, path: Path) -> Mlp:
        with np.load(path) as z:
            return cls(z["w1"], z["b1"], z["w2"], z["b2"], z["mean"], z["std"])
