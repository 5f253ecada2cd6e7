"""A small multilayer perceptron in numpy: space features to piece colour probabilities."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CLASSES = ("empty", "red", "blue", "green", "yellow", "black")
WEIGHTS = Path(__file__).with_name("weights.json")


@dataclass(frozen=True)
class Mlp:
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Softmax over CLASSES for each feature row."""
        hidden = np.maximum(((features - self.mean) / self.std) @ self.w1 + self.b1, 0.0)
        return softmax(hidden @ self.w2 + self.b2)

    def to_json(self) -> dict:
        return {k: np.asarray(getattr(self, k)).round(6).tolist()
                for k in ("mean", "std", "w1", "b1", "w2", "b2")}

    @classmethod
    def from_json(cls, data: dict) -> Mlp:
        return cls(**{k: np.asarray(v, dtype=np.float32) for k, v in data.items()})


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


_LOADED: dict[str, Mlp] = {}


def load_model(path: Path = WEIGHTS) -> Mlp:
    """The trained model shipped with the package (``python -m scorer.vision.train`` makes it)."""
    key = str(path)
    if key not in _LOADED:
        _LOADED[key] = Mlp.from_json(json.loads(path.read_text(encoding="utf-8")))
    return _LOADED[key]


def fit_ensemble(x: np.ndarray, y: np.ndarray, members: int = 5, **options) -> Mlp:
    """``fit`` from ``members`` seeds, their logits averaged (``average``): one training lands
    in a different place from each seed (on the renders 5 to 7 lanes wrong of 1,206 by seed
    alone), the average of a few does not."""
    return average([fit(x, y, seed=seed, **options) for seed in range(members)])


def average(nets: list[Mlp]) -> Mlp:
    """One network whose logits are the average of ``nets``' logits: their hidden units side
    by side, each net's standardisation folded into its first layer (nets trained on other
    data standardise their features otherwise), the output weights divided by their number."""
    mean, std = nets[0].mean, nets[0].std
    w1 = [(std / n.std)[:, None] * n.w1 for n in nets]
    b1 = [n.b1 + ((mean - n.mean) / n.std) @ n.w1 for n in nets]
    return Mlp(mean, std, np.hstack(w1).astype(np.float32),
               np.concatenate(b1).astype(np.float32),
               np.vstack([n.w2 for n in nets]) / len(nets), np.mean([n.b2 for n in nets], axis=0))


def fit(
    x: np.ndarray, y: np.ndarray, hidden: int = 48, steps: int = 1500, l2: float = 1e-3,
    seed: int = 0,
) -> Mlp:
    """Full-batch Adam on class-balanced cross entropy, in float32 (as the detector runs it,
    and twice as fast as float64)."""
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    xs = ((x - mean) / std).astype(np.float32)
    n, k = len(x), len(CLASSES)
    onehot = np.eye(k, dtype=np.float32)[y]
    counts = np.bincount(y, minlength=k).astype(np.float32)
    weight = ((n / (k * np.maximum(counts, 1)))[y][:, None] / n).astype(np.float32)
    params = [rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, np.sqrt(1 / hidden), (hidden, k)), np.zeros(k)]
    params = [p.astype(np.float32) for p in params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2 = 0.01, 0.9, 0.999
    for t in range(1, steps + 1):
        w1, c1, w2, c2 = params
        pre = xs @ w1 + c1
        h = np.maximum(pre, 0)
        p = softmax(h @ w2 + c2)
        d_logits = (p - onehot) * weight
        grads = [None, None, h.T @ d_logits + l2 * w2, d_logits.sum(0)]
        d_h = d_logits @ w2.T * (pre > 0)
        grads[0] = xs.T @ d_h + l2 * w1
        grads[1] = d_h.sum(0)
        for i, g in enumerate(grads):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            params[i] = params[i] - lr * (m[i] / (1 - b1**t)) / (np.sqrt(v[i] / (1 - b2**t)) + 1e-8)
    return Mlp(mean.astype(np.float32), std.astype(np.float32),
               *(np.asarray(p, dtype=np.float32) for p in params))
