"""Which static evaluation the engine runs: the parameter arrays the search kernel takes.

* ``"trained"`` (the default): the pattern weights of :mod:`hasamigo._kernels.patterns`,
  fitted by :mod:`hasamigo.engine.training` and shipped as ``hasamigo/data/eval-v2.npz``;
  boards other than the full 8×8 fall back to the hand-set features.
* ``"hand"``: evaluation v1, the hand-set features alone.

The weights file is an ``.npz`` with ``weights`` (int16, ``(STAGES, N_WEIGHTS)``, 1/SCALE
disc), ``format`` and a free-text ``source``. A file whose shape does not match the
pattern layout of this version is refused with a message naming it.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from hasamigo._kernels.evaluate import HAND_SIZE, default_params
from hasamigo._kernels.patterns import N_WEIGHTS, SCALE, STAGES
from hasamigo.errors import InvalidOptionError, ParseError

FORMAT = "hasamigo-patterns-1"
EVALUATIONS = ("trained", "hand")


def weights_path() -> Path:
    """The shipped weights file."""
    return Path(str(resources.files("hasamigo") / "data" / "eval-v2.npz"))


def save_weights(path: str | os.PathLike[str], weights: np.ndarray, source: str) -> None:
    """Write int16 weights (``(STAGES, N_WEIGHTS)``, 1/SCALE disc) to ``path`` atomically."""
    if weights.shape != (STAGES, N_WEIGHTS) or weights.dtype != np.int16:
        raise ValueError(f"weights must be int16 of shape {(STAGES, N_WEIGHTS)}, "
                         f"not {weights.dtype} {weights.shape}")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as handle:
        np.savez_compressed(handle, weights=weights, format=np.array(FORMAT),
                            scale=np.array(SCALE), source=np.array(source))
    tmp.replace(path)


def load_weights(path: str | os.PathLike[str]) -> np.ndarray:
    """The int16 weights of a file written by :func:`save_weights`."""
    name = str(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            fmt = str(data["format"]) if "format" in data else None
            if fmt != FORMAT:
                raise ParseError(f"not a pattern-weights file (format {fmt!r}, expected "
                                 f"{FORMAT!r})", source=name)
            weights = np.asarray(data["weights"])
            scale = int(data["scale"])
    except ParseError:
        raise
    except ValueError as exc:  # numpy's text for a file that is no .npz suggests unpickling
        raise ParseError("cannot read pattern weights: not an .npz file", source=name) from exc
    except (OSError, KeyError) as exc:
        raise ParseError(f"cannot read pattern weights: {exc}", source=name) from exc
    if weights.shape != (STAGES, N_WEIGHTS) or scale != SCALE:
        raise ParseError(f"weights of shape {weights.shape} at scale {scale}; this version "
                         f"needs {(STAGES, N_WEIGHTS)} at {SCALE}", source=name)
    return weights.astype(np.int16)


def params_from_weights(weights: np.ndarray) -> np.ndarray:
    """The kernel's parameter array: the hand-set weights, then the pattern tables."""
    params: np.ndarray = np.concatenate((default_params(), weights.astype(np.int16).reshape(-1)))
    return params


def kernel_params(params: object) -> np.ndarray:
    """``params`` as the search kernel reads it (1-d C-contiguous int16), or
    :class:`InvalidOptionError`: the kernel reads the pattern tables by address without
    bounds checks, so only the two layouts it knows pass, the hand-set weights alone
    (``HAND_SIZE``) or followed by every stage's tables, with whole numbers that fit int16."""
    array = np.asarray(params)
    sizes = (HAND_SIZE, HAND_SIZE + STAGES * N_WEIGHTS)
    if array.ndim != 1 or array.shape[0] not in sizes:
        raise InvalidOptionError(f"evaluation parameters must be a flat array of {sizes[0]} or "
                                 f"{sizes[1]} entries, not of shape {array.shape}")
    low, high = np.iinfo(np.int16).min, np.iinfo(np.int16).max
    if array.dtype.kind not in "iu" or int(array.min()) < low or int(array.max()) > high:
        raise InvalidOptionError(f"evaluation parameters must be whole numbers from {low} to "
                                 f"{high}, not {array.dtype} values")
    return np.ascontiguousarray(array, dtype=np.int16)


@cache
def _shipped() -> np.ndarray:
    params = params_from_weights(load_weights(weights_path()))
    return params


def evaluation_params(name: str = "trained") -> np.ndarray:
    """The parameter array of the evaluation ``name`` (one of :data:`EVALUATIONS`)."""
    if name == "trained":
        return _shipped()
    if name == "hand":
        hand: np.ndarray = default_params()
        return hand
    raise InvalidOptionError(
        f"evaluation must be one of {', '.join(EVALUATIONS)}, not {str(name)[:20]!r}")


__all__ = [
    "EVALUATIONS",
    "evaluation_params",
    "kernel_params",
    "load_weights",
    "params_from_weights",
    "save_weights",
    "weights_path",
]
