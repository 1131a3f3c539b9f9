"""Building a corpus of labelled positions across workers: :func:`build_corpus`.

The corpus's files and their checks are :mod:`hasamigo.engine.corpus`'s. A build is
named by its parameters (:class:`BuildSpec`; its id is a hash of them) and runs in three
steps, each resumed where a killed run left it:

1. **Sample** positions with ``empties`` empties (inclusive range) from a *source*:
   ``wthor:FILE[,FILE...]`` (every position before a move of the archives' games),
   ``selfplay`` (games of the engine against itself, depth :data:`SELFPLAY_DEPTH` with
   one move in :data:`SELFPLAY_RANDOM` random and the first :data:`SELFPLAY_OPENING`
   plies random, every position with a move to play in the band) or ``trees`` (the nodes
   a depth-:data:`TREE_DEPTH` search from a self-play position keeps in its
   transposition table, up to :data:`TREE_PER_ROOT` a root). Self-play and trees are
   sampled by the workers, a task a few games, into a journal beside the corpus. Each
   game and root has its own seed (the build's seed and its number), so the sample is
   the same whatever the workers and the stops.
2. **Plan**: one position per canonical key (the 8 symmetries of the board), none
   already in the corpus (its shards or another build's plan), then ``count`` of them
   drawn by the seed; written once to ``<build>.plan.npz`` and read from there after.
3. **Label** the plan shard by shard (``shard`` positions a task): the exact score
   (``exact``) or the score of a ``D``-ply search (``deep:D``; exact where ``D`` reaches
   the end). Each shard is written as its task finishes and named in the manifest; a
   rerun checks the build's shards, makes again any missing or damaged one, and labels
   only the rest.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hasamigo.board import Board
from hasamigo.engine.corpus import (
    EXACT_DEPTH,
    SOURCES,
    CorpusError,
    Manifest,
    Positions,
    empties_of,
    key_set,
    load_manifest,
    manifest_path,
    read_shard,
    save_manifest,
    tree_positions,
    unique_by_key,
    write_npz,
    write_shard,
)
from hasamigo.engine.limits import Limit
from hasamigo.engine.training import (
    EXACT_TABLE_SIZE,
    exact_score,
    position_board,
    read_archives,
    samples_from_records,
)
from hasamigo.errors import InvalidOptionError
from hasamigo.jobs.runner import Backend, Journal, run_job
from hasamigo.jobs.solve import warm_solver, worker_engine

SHARD = 100  # positions a shard (and a labelling task): at 26 empties, minutes of solving
SELFPLAY_DEPTH = 2
SELFPLAY_RANDOM = 5  # one move in this many is random
SELFPLAY_OPENING = 6  # the first plies, all random
SELFPLAY_GAMES = 20  # games a sampling task
TREE_DEPTH = 8
TREE_PER_ROOT = 8
TREE_ROOTS = 10  # roots a sampling task
TREE_TABLE = 1 << 16  # rows of the table whose nodes are harvested
OVERSAMPLE = 1.5  # sample this many times the positions asked for (some are repeats)
EMPTIES_RANGE = (1, 60)

#: what the build says as it goes: (phase, done, total)
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class BuildSpec:
    """What a build makes (its id is a hash of these): the source (``wthor:...``,
    ``selfplay`` or ``trees``), the empties (inclusive), how many positions, the label
    (``exact`` or ``deep:D``), the seed and the positions a shard."""

    source: str
    empties: tuple[int, int]
    count: int
    label: str = "exact"
    seed: int = 0
    shard: int = SHARD

    def params(self) -> dict[str, Any]:
        out = asdict(self)
        out["empties"] = list(self.empties)
        return out

    @property
    def id(self) -> str:
        text = json.dumps(self.params(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @property
    def kind(self) -> str:
        return self.source.partition(":")[0]

    @property
    def depth(self) -> int:
        """The label's search depth (:data:`EXACT_DEPTH` for exact labels)."""
        return EXACT_DEPTH if self.label == "exact" else int(self.label.partition(":")[2])


def parse_empties(text: str) -> tuple[int, int]:
    """``LO-HI`` (or one number) of empties, within 1..60."""
    parts = text.strip().split("-")
    try:
        if len(parts) not in (1, 2):
            raise ValueError
        lo, hi = int(parts[0]), int(parts[-1])
    except ValueError:
        raise InvalidOptionError(f"empties must be LO-HI, e.g. 14-26, not {text[:20]!r}") from None
    if lo > hi:
        raise InvalidOptionError(f"empties {lo}-{hi}: LO is above HI")
    if not EMPTIES_RANGE[0] <= lo <= hi <= EMPTIES_RANGE[1]:
        raise InvalidOptionError(f"empties {lo}-{hi}: need 1 <= LO <= HI <= 60")
    return lo, hi


def check_label(label: str) -> str:
    """``exact`` or ``deep:D`` (D plies, 1..30)."""
    text = label.strip().lower()
    if text == "exact":
        return text
    kind, _, depth = text.partition(":")
    if kind == "deep" and depth.isdigit() and 1 <= int(depth) <= 30:
        return f"deep:{int(depth)}"
    raise InvalidOptionError(f"label must be 'exact' or 'deep:D' (D plies, 1-30), "
                             f"not {label[:20]!r}")


def check_source(source: str) -> str:
    """``selfplay``, ``trees`` or ``wthor:FILE[,FILE...]`` (the files must exist)."""
    kind, _, rest = source.strip().partition(":")
    kind = kind.lower()
    if kind in ("selfplay", "trees") and not rest:
        return kind
    if kind == "wthor" and rest:
        files = [f for f in rest.split(",") if f]
        for f in files:
            if not Path(f).is_file():
                raise InvalidOptionError(f"source wthor: no file {f!r}")
        return "wthor:" + ",".join(files)
    raise InvalidOptionError(f"source must be 'wthor:FILE[,FILE...]', 'selfplay' or 'trees', "
                             f"not {source[:40]!r}")


# ---- sampling (in the workers) ----------------------------------------------------------

def _seeded(seed: int, what: str, number: int) -> random.Random:
    return random.Random(f"{seed}:{what}:{number}")


def _selfplay_game(engine: Any, rng: random.Random, stop_at: int,
                   keep: Callable[[Board], None]) -> Board:
    """Play one game from the start until ``stop_at`` empties (or its end), calling
    ``keep`` on each position with a move to play; the last board."""
    board = Board()
    ply = 0
    while not board.is_game_over() and board.empties.bit_count() > stop_at:
        moves = list(board.legal_moves)
        if not board.must_pass():
            keep(board)
        if len(moves) == 1:
            move = moves[0]
        elif ply < SELFPLAY_OPENING or rng.randrange(SELFPLAY_RANDOM) == 0:
            move = rng.choice(moves)
        else:
            move = engine.analyse(board, Limit(depth=SELFPLAY_DEPTH)).move
        board.push(move)
        ply += 1
    return board


def selfplay_task(task: tuple[int, int, int, int, int]) -> list[list[int]]:
    """Positions ``[p, o]`` of self-play games ``first .. first + n - 1`` with ``lo..hi``
    empties, by this worker's engine: ``task = (seed, first, n, lo, hi)``."""
    seed, first, n, lo, hi = task
    engine = worker_engine(TREE_TABLE)
    out: list[list[int]] = []

    def keep(board: Board) -> None:
        if lo <= board.empties.bit_count() <= hi:
            out.append(list(board.pair()))

    for game in range(first, first + n):
        engine.clear()
        _selfplay_game(engine, _seeded(seed, "selfplay", game), lo - 1, keep)
    return out


def trees_task(task: tuple[int, int, int, int, int]) -> list[list[int]]:
    """Positions ``[p, o]`` with ``lo..hi`` empties from the trees of searches at roots
    ``first .. first + n - 1``: each root a self-play position with empties drawn from
    ``lo + 2 .. hi + 6``, searched ``TREE_DEPTH`` plies in a cleared table whose rows are
    then read (:func:`~hasamigo.engine.corpus.tree_positions`)."""
    seed, first, n, lo, hi = task
    engine = worker_engine(TREE_TABLE)
    out: list[list[int]] = []
    for root in range(first, first + n):
        rng = _seeded(seed, "trees", root)
        at = min(59, rng.randint(lo + 2, hi + 6))
        engine.clear()
        board = _selfplay_game(engine, rng, at, lambda _b: None)
        if board.is_game_over():
            continue
        engine.clear()
        engine.analyse(board, Limit(depth=TREE_DEPTH))
        p, o = tree_positions(engine)
        e = empties_of(p, o)
        found = sorted(pair for pair in {(int(a), int(b)) for a, b, x in zip(p, o, e, strict=True)
                                         if lo <= x <= hi}
                       if not position_board(*pair).is_game_over())
        out.extend(list(pair) for pair in rng.sample(found, min(TREE_PER_ROOT, len(found))))
    return out


def sampling_tasks(spec: BuildSpec) -> tuple[Callable[[Any], Any], dict[str, Any]]:
    """The work and the tasks that sample ``spec``'s self-play or tree positions."""
    lo, hi = spec.empties
    wanted = int(spec.count * OVERSAMPLE) + 1
    if spec.kind == "selfplay":
        per_game = max(1, (hi - lo + 1) // 2)  # about one ply in two is a side's
        games = -(-wanted // per_game)
        return selfplay_task, {
            str(i // SELFPLAY_GAMES + 1): (spec.seed, i, min(SELFPLAY_GAMES, games - i), lo, hi)
            for i in range(0, games, SELFPLAY_GAMES)}
    roots = -(-wanted // TREE_PER_ROOT)
    return trees_task, {str(i // TREE_ROOTS + 1): (spec.seed, i, min(TREE_ROOTS, roots - i), lo, hi)
                        for i in range(0, roots, TREE_ROOTS)}


# ---- labelling (in the workers) ---------------------------------------------------------

def label_position(engine: Any, p: int, o: int, depth: int) -> int:
    """The label of ``(p, o)``: its exact score, or with ``depth`` < the empties the
    score of a ``depth``-ply search from a cleared table (the same whatever came before)."""
    if depth >= EXACT_DEPTH or depth >= 64 - (p | o).bit_count():
        return exact_score(engine, p, o)
    engine.clear()
    return int(engine.analyse(position_board(p, o), Limit(depth=depth)).score)


def label_task(task: tuple[tuple[int, ...], tuple[int, ...], int, int]) -> list[int]:
    """The labels of one shard's positions: ``task = (ps, os, depth, table_size)``."""
    ps, os_, depth, table_size = task
    engine = worker_engine(table_size)
    return [label_position(engine, p, o, depth) for p, o in zip(ps, os_, strict=True)]


# ---- the build (in this process) --------------------------------------------------------

@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Hold the corpus's lock: one build at a time writes a corpus."""
    with (directory / ".lock").open("a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise CorpusError("another build is writing this corpus",
                              source=str(directory)) from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _plan_path(directory: Path, spec: BuildSpec) -> Path:
    return directory / f"{spec.id}.plan.npz"


def _taken_keys(directory: Path, manifest: Manifest, spec: BuildSpec) -> set[tuple[int, int]]:
    """The keys the corpus holds already: its shards' and the other builds' plans."""
    taken: set[tuple[int, int]] = set()
    for line in manifest.shards:
        if line["build"] != spec.id:
            try:
                shard = read_shard(directory / line["file"], line)
            except CorpusError:
                continue  # its build remakes it; its plan (below) holds its positions
            taken |= key_set(shard.p, shard.o)
    for build in manifest.builds:
        plan = directory / f"{build}.plan.npz"
        if build != spec.id and plan.is_file():
            with np.load(plan, allow_pickle=False) as data:
                taken |= key_set(data["p"], data["o"])
    return taken


def _candidates(directory: Path, spec: BuildSpec, backend: Backend,
                progress: Progress | None) -> tuple[np.ndarray, np.ndarray]:
    """Every sampled position of ``spec``'s source (repeats and all)."""
    lo, hi = spec.empties
    if spec.kind == "wthor":
        files = spec.source.partition(":")[2].split(",")
        samples, _ = samples_from_records(read_archives(files))
        band = (samples.empties >= lo) & (samples.empties <= hi)
        return samples.p[band], samples.o[band]
    work, tasks = sampling_tasks(spec)
    journal = Journal(directory / f"{spec.id}.sample.jsonl",
                      {"job": "corpus-sample", **spec.params()})
    done = 0

    def step(_key: str, _result: Any) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(f"sampling {spec.kind}", done, len(tasks))

    def started(n: int) -> None:
        nonlocal done
        done = n
        if progress is not None:
            progress(f"sampling {spec.kind}", done, len(tasks))

    results = run_job(tasks, work, backend=backend,
                      setup=functools.partial(warm_solver, TREE_TABLE), journal=journal,
                      on_result=step, on_start=started)
    pairs = [pair for key in tasks for pair in results[key]]
    return (np.array([a for a, _ in pairs], dtype=np.uint64),
            np.array([b for _, b in pairs], dtype=np.uint64))


def plan_build(directory: Path, spec: BuildSpec, manifest: Manifest, backend: Backend,
               progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The positions ``(p, o)`` the build labels, in shard order: read from its plan
    file, else sampled, made unique by key, drawn and written there."""
    path = _plan_path(directory, spec)
    if path.is_file():
        try:
            with np.load(path, allow_pickle=False) as data:
                return data["p"].astype(np.uint64), data["o"].astype(np.uint64)
        except (OSError, ValueError, KeyError) as exc:
            raise CorpusError(f"damaged build plan ({exc}); remove it to sample again",
                              source=str(path)) from None
    p, o = _candidates(directory, spec, backend, progress)
    keep = unique_by_key(p, o, _taken_keys(directory, manifest, spec))
    rng = np.random.default_rng(spec.seed)
    keep = keep[rng.permutation(len(keep))[:spec.count]]
    p, o = p[keep], o[keep]
    write_npz(path, {"p": p, "o": o})
    return p, o


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did: the build's id, positions planned, labelled in this run, found
    done already, shards made again (missing or damaged) and the seconds labelling."""

    build: str
    planned: int
    labelled: int
    resumed: int
    remade: list[str]
    seconds: float


def build_corpus(directory: str | os.PathLike[str], spec: BuildSpec, *, backend: Backend,
                 table_size: int = EXACT_TABLE_SIZE,
                 progress: Progress | None = None) -> BuildReport:
    """Make (or finish) the build ``spec`` of the corpus at ``directory`` with
    ``backend``'s workers (see the module)."""
    import time

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    if spec.count < 1 or spec.shard < 1:
        raise InvalidOptionError("count and shard must be at least 1")
    with _locked(directory):
        for left in directory.glob(".*.tmp"):  # what a killed writer left half written
            left.unlink(missing_ok=True)
        manifest = load_manifest(directory)
        manifest.builds.setdefault(spec.id, spec.params())
        save_manifest(directory, manifest)
        p, o = plan_build(directory, spec, manifest, backend, progress)
        starts = list(range(0, len(p), spec.shard))
        names = {str(n + 1): f"{spec.id}-{n + 1:05d}.npz" for n in range(len(starts))}
        remade: list[str] = []
        whole: set[str] = set()
        kept = []
        for line in manifest.shards:
            if line["build"] == spec.id:
                try:
                    read_shard(directory / line["file"], line)
                except CorpusError:
                    remade.append(line["file"])
                    continue
                whole.add(line["file"])
            kept.append(line)
        manifest.shards = kept
        save_manifest(directory, manifest)
        tasks = {key: (tuple(int(x) for x in p[s:s + spec.shard]),
                       tuple(int(x) for x in o[s:s + spec.shard]), spec.depth, table_size)
                 for key, s in zip(names, starts, strict=True) if names[key] not in whole}
        total = len(p)
        resumed = total - sum(len(t[0]) for t in tasks.values())
        done = resumed
        if progress is not None:
            progress("labelling", done, total)
        started = time.monotonic()

        def finish(key: str, scores: Any) -> None:
            nonlocal done
            ps, os_ = tasks[key][0], tasks[key][1]
            pa = np.array(ps, dtype=np.uint64)
            oa = np.array(os_, dtype=np.uint64)
            shard = Positions(
                p=pa, o=oa, empties=empties_of(pa, oa).astype(np.int8),
                score=np.array(scores, dtype=np.int8),
                depth=np.array([EXACT_DEPTH if spec.depth >= e else spec.depth
                                for e in empties_of(pa, oa)], dtype=np.int8),
                source=np.full(len(ps), SOURCES[spec.kind], dtype=np.int8))
            line = write_shard(directory, names[key], shard)
            manifest.shards.append({**line, "build": spec.id})
            save_manifest(directory, manifest)
            done += len(ps)
            if progress is not None:
                progress("labelling", done, total)

        run_job(tasks, label_task, backend=backend,
                setup=functools.partial(warm_solver, table_size), on_result=finish)
        return BuildReport(spec.id, total, total - resumed, resumed, remade,
                           time.monotonic() - started)


def corpus_summary(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """What ``corpus info`` prints: the builds, and per shard whether it reads."""
    directory = Path(directory)
    if not manifest_path(directory).is_file():
        raise CorpusError("no corpus.json: not a corpus (hasamigo corpus build makes one)",
                          source=str(directory))
    manifest = load_manifest(directory)
    shards = []
    for line in manifest.shards:
        try:
            shard = read_shard(directory / line["file"], line)
            shards.append({"file": line["file"], "build": line["build"],
                           "positions": len(shard), "ok": True, "error": None,
                           "empties": sorted({int(x) for x in shard.empties})})
        except CorpusError as exc:
            shards.append({"file": line["file"], "build": line["build"],
                           "positions": line.get("positions"), "ok": False, "error": str(exc),
                           "empties": []})
    return {"directory": str(directory), "builds": manifest.builds, "shards": shards,
            "positions": sum(s["positions"] for s in shards if s["ok"]),
            "damaged": sum(not s["ok"] for s in shards)}
