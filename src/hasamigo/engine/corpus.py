"""A corpus of labelled positions on disk: NPZ shards and the manifest that vouches for them.

A corpus is a directory (``hasamigo corpus build``, :mod:`hasamigo.jobs.corpus`):

- ``corpus.json``, the manifest: the format's name and version, the *builds* that made
  it (each build's parameters under its id, the first 12 hex digits of their SHA-256) and
  the finished *shards*, each with its file name, build, number of positions and the
  SHA-256 of its bytes;
- the shards ``<build>-<number>.npz`` (numpy, uncompressed: ``np.load`` reads them with
  no hasamigo), each with the arrays of :data:`ARRAYS`, one row a position: ``p`` and
  ``o`` (uint64 bitboards of the side to move and of its opponent, a1 = bit 0),
  ``empties`` (int8), ``score`` (int8: the label, a disc difference from the side to
  move, empties to the winner), ``depth`` (int8: :data:`EXACT_DEPTH` for an exact
  score, else the plies of the search that gave it) and ``source`` (int8, a code of
  :data:`SOURCES`);
- the build's plan ``<build>.plan.npz`` (the positions chosen, in shard order) and, for
  sources sampled by the workers, the journal of the sampling (``<build>.sample.jsonl``).

Every file is written to a temporary name, flushed to the disk (``fsync``), then renamed
over its own name (:func:`write_atomic`): a writer killed at any point leaves the old file
or the new one, never half of one. A shard is named in the manifest only once its file is
whole, so a killed build loses at most the shards being labelled, which a rerun makes
again. :func:`read_shard` checks a shard against its manifest line (size and checksum,
arrays, their types and lengths, and that each position's empties are its empty squares)
and raises :class:`CorpusError` naming the file; :func:`read_corpus` reads the others all
the same when asked to skip the damaged ones.

Positions are one per *key*, their canonical image under the 8 symmetries of the board
(:func:`~hasamigo.engine.symmetry.canonical`): a position turned or mirrored is the same
position. :func:`holdout_bucket` hashes the key, so a held-out split by key never puts a
position and its symmetric image on both sides.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hasamigo.engine.symmetry import canonical
from hasamigo.errors import ParseError

FORMAT = "hasamigo-corpus"
VERSION = 1
MANIFEST = "corpus.json"
#: the arrays of a shard and their types
ARRAYS: dict[str, np.dtype[Any]] = {
    "p": np.dtype(np.uint64), "o": np.dtype(np.uint64), "empties": np.dtype(np.int8),
    "score": np.dtype(np.int8), "depth": np.dtype(np.int8), "source": np.dtype(np.int8),
}
#: ``depth`` of an exact label
EXACT_DEPTH = 64
#: the codes of ``source``
SOURCES = {"wthor": 0, "selfplay": 1, "trees": 2}

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)


class CorpusError(ParseError):
    """A corpus directory, manifest or shard that cannot be read as one; the message
    names the file and says what is wrong with it."""

    code = "corpus_damaged"


@dataclass(slots=True)
class Positions:
    """Labelled positions: the arrays of a shard (:data:`ARRAYS`), any number of rows."""

    p: np.ndarray
    o: np.ndarray
    empties: np.ndarray
    score: np.ndarray
    depth: np.ndarray
    source: np.ndarray

    def __len__(self) -> int:
        return int(self.p.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(getattr(self, name), dtype=dtype)
                for name, dtype in ARRAYS.items()}

    @classmethod
    def empty(cls) -> Positions:
        return cls(**{name: np.zeros(0, dtype=dtype) for name, dtype in ARRAYS.items()})

    @classmethod
    def concat(cls, parts: Iterable[Positions]) -> Positions:
        parts = list(parts)
        if not parts:
            return cls.empty()
        return cls(**{name: np.concatenate([getattr(x, name) for x in parts]).astype(dtype)
                      for name, dtype in ARRAYS.items()})


@dataclass(slots=True)
class Manifest:
    """``corpus.json``: the builds (id -> parameters) and the finished shards."""

    builds: dict[str, dict[str, Any]] = field(default_factory=dict)
    shards: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "builds": self.builds,
                "shards": self.shards}


# ---- keys ---------------------------------------------------------------------------

def empties_of(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """The empty squares of positions ``(p, o)`` (uint64 arrays)."""
    both = np.asarray(p, dtype=np.uint64) | np.asarray(o, dtype=np.uint64)
    count = np.zeros(both.shape, dtype=np.int64)
    for shift in range(0, 64, 8):
        byte = ((both >> np.uint64(shift)) & np.uint64(0xFF)).astype(np.int64)
        count += _POPCOUNT[byte]
    out: np.ndarray = 64 - count
    return out


_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def keys_of(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """The canonical keys of positions ``(p, o)``: an ``(n, 2)`` uint64 array, the same
    for a position and its 7 symmetric images."""
    cp, co, _ = canonical(np.asarray(p, dtype=np.uint64), np.asarray(o, dtype=np.uint64))
    return np.stack([cp, co], axis=1) if len(cp) else np.zeros((0, 2), dtype=np.uint64)


def key_set(p: np.ndarray, o: np.ndarray) -> set[tuple[int, int]]:
    """The canonical keys of positions ``(p, o)`` as a set of int pairs."""
    return {(int(a), int(b)) for a, b in keys_of(p, o)}


def unique_by_key(p: np.ndarray, o: np.ndarray,
                  exclude: set[tuple[int, int]] | None = None) -> np.ndarray:
    """Indices of the first position of each canonical key among ``(p, o)``, in order,
    leaving out the keys in ``exclude``."""
    seen = set(exclude or ())
    keep = []
    for i, (a, b) in enumerate(keys_of(p, o)):
        key = (int(a), int(b))
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return np.asarray(keep, dtype=np.int64)


def holdout_bucket(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """A hash of each position's canonical key, 0 .. 2^31-1: ``bucket % n == 0`` holds
    out one position in ``n``, the same one in every run and for every symmetric image."""
    keys = keys_of(p, o)
    with np.errstate(over="ignore"):
        h = keys[:, 0] * _K1 ^ (keys[:, 1] + np.uint64(1)) * _K2
        h ^= h >> np.uint64(29)
        h *= _K1
        h ^= h >> np.uint64(32)
    out: np.ndarray = (h & np.uint64(0x7FFFFFFF)).astype(np.int64)
    return out


def tree_positions(engine: Any) -> tuple[np.ndarray, np.ndarray]:
    """The positions ``(p, o)`` in ``engine``'s transposition table: the nodes its last
    searches visited and kept (:mod:`hasamigo._kernels.hashtable` keeps each row's whole
    position, xored with its data word), side to move first."""
    from hasamigo._kernels.hashtable import DATA, KEY_O, KEY_P

    table = engine._table  # the table the engine searches with (its own, not a copy)
    data = table[:, DATA]
    used = data != 0
    return table[used, KEY_P] ^ data[used], table[used, KEY_O] ^ data[used]


# ---- files --------------------------------------------------------------------------

def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - a system whose directories cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, write: Callable[[Any], None]) -> None:
    """Write ``path`` by ``write(binary file)`` to a temporary name beside it, fsync it,
    rename it over ``path`` and fsync the directory."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0o600 would keep the corpus from its other readers
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``arrays`` as an uncompressed ``.npz`` at ``path``, atomically."""
    write_atomic(path, lambda f: np.savez(f, **arrays))  # type: ignore[arg-type]


def write_shard(directory: Path, name: str, positions: Positions) -> dict[str, Any]:
    """Write ``positions`` as the shard ``name`` of the corpus at ``directory``
    (atomically); its manifest line."""
    path = directory / name
    write_npz(path, positions.arrays())
    return {"file": name, "positions": len(positions), "bytes": path.stat().st_size,
            "sha256": sha256_of(path)}


def _damaged(path: Path, why: str) -> CorpusError:
    return CorpusError(f"damaged corpus shard: {why}", source=str(path))


def read_shard(path: Path, line: dict[str, Any] | None = None) -> Positions:
    """The positions of the shard at ``path``, checked against its manifest ``line``
    (size, SHA-256, number of positions) when given, and in itself (the arrays of
    :data:`ARRAYS` with their types, of one length, each position's empties its empty
    squares, no square both sides', scores within ±64). :class:`CorpusError` naming
    the file if any check fails."""
    if not path.is_file():
        raise _damaged(path, "the file is missing")
    if line is not None:
        size = path.stat().st_size
        if "bytes" in line and size != line["bytes"]:
            raise _damaged(path, f"{size} bytes where the manifest says {line['bytes']} "
                                 "(truncated or overwritten)")
        if sha256_of(path) != line.get("sha256"):
            raise _damaged(path, "its checksum (SHA-256) is not the manifest's")
    try:
        with np.load(path, allow_pickle=False) as data:
            names = set(data.files)
            if names != set(ARRAYS):
                missing = sorted(set(ARRAYS) - names)
                extra = sorted(names - set(ARRAYS))
                raise _damaged(path, "wrong arrays" + (f", missing {missing}" if missing else "")
                               + (f", unexpected {extra}" if extra else ""))
            arrays = {name: data[name] for name in ARRAYS}
    except CorpusError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise _damaged(path, f"not a readable .npz ({type(exc).__name__}: {exc})") from None
    n = len(arrays["p"])
    for name, dtype in ARRAYS.items():
        a = arrays[name]
        if a.dtype != dtype or a.ndim != 1:
            raise _damaged(path, f"array {name!r} is {a.dtype}{list(a.shape)}, not a row "
                                 f"of {dtype}")
        if len(a) != n:
            raise _damaged(path, f"array {name!r} has {len(a)} rows, 'p' has {n}")
    if line is not None and n != line.get("positions"):
        raise _damaged(path, f"{n} positions where the manifest says {line.get('positions')}")
    if np.any(arrays["p"] & arrays["o"]):
        raise _damaged(path, "a square holds both sides' discs")
    if np.any(empties_of(arrays["p"], arrays["o"]) != arrays["empties"]):
        raise _damaged(path, "an 'empties' is not its position's empty squares")
    if np.any(np.abs(arrays["score"].astype(np.int64)) > 64):
        raise _damaged(path, "a score beyond ±64")
    return Positions(**arrays)


def manifest_path(directory: Path) -> Path:
    return Path(directory) / MANIFEST


def load_manifest(directory: Path) -> Manifest:
    """The manifest of the corpus at ``directory`` (an empty one when there is none yet);
    :class:`CorpusError` when it is not one."""
    path = manifest_path(directory)
    if not path.exists():
        return Manifest()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT!r}")
        if data.get("version") != VERSION:
            raise ValueError(f"version {data.get('version')!r}; this hasamigo reads {VERSION}")
        builds = dict(data["builds"])
        shards = [dict(s) for s in data["shards"]]
        for s in shards:
            if not {"file", "build", "positions", "sha256"} <= set(s):
                raise ValueError(f"a shard line lacks a field: {s}")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CorpusError(f"not a corpus manifest: {exc}", source=str(path)) from None
    return Manifest(builds, shards)


def save_manifest(directory: Path, manifest: Manifest) -> None:
    text = json.dumps(manifest.to_json(), indent=1) + "\n"
    write_atomic(manifest_path(directory), lambda f: f.write(text.encode("utf-8")))


@dataclass(slots=True)
class CorpusRead:
    """What :func:`read_corpus` read: the positions of the good shards and the errors of
    the damaged ones (empty when every shard is whole)."""

    positions: Positions
    shards: int
    damaged: list[CorpusError]


def read_corpus(directory: str | os.PathLike[str], *, skip_damaged: bool = False) -> CorpusRead:
    """Every position of the corpus at ``directory``. A damaged shard raises its
    :class:`CorpusError`, or with ``skip_damaged`` is left out (and listed) while the
    others are read."""
    directory = Path(directory)
    if not directory.is_dir():
        raise CorpusError("no corpus directory there", source=str(directory))
    manifest = load_manifest(directory)
    if not manifest_path(directory).exists():
        raise CorpusError(f"no {MANIFEST}: not a corpus (hasamigo corpus build makes one)",
                          source=str(directory))
    parts: list[Positions] = []
    damaged: list[CorpusError] = []
    for line in manifest.shards:
        try:
            parts.append(read_shard(directory / line["file"], line))
        except CorpusError as exc:
            if not skip_damaged:
                raise
            damaged.append(exc)
    return CorpusRead(Positions.concat(parts), len(parts), damaged)


__all__ = [
    "ARRAYS",
    "EXACT_DEPTH",
    "FORMAT",
    "MANIFEST",
    "SOURCES",
    "VERSION",
    "CorpusError",
    "CorpusRead",
    "Manifest",
    "Positions",
    "empties_of",
    "holdout_bucket",
    "key_set",
    "keys_of",
    "load_manifest",
    "manifest_path",
    "read_corpus",
    "read_shard",
    "save_manifest",
    "sha256_of",
    "tree_positions",
    "unique_by_key",
    "write_atomic",
    "write_npz",
    "write_shard",
]
