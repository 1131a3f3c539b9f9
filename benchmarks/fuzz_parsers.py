"""Long fuzz run of every parser: mutated real files and random bytes, as fast as it goes.

    .venv/bin/python benchmarks/fuzz_parsers.py [--inputs 1000000] [--seed 0]
        [--parser NAME] [--jobs 1]

Each input is one of the reference files of ``../shared/data`` (or ``tests/data``), cut
small and mutated 1-4 times by a seeded :class:`random.Random` (byte flips, set bytes and
words, truncations, insertions, deleted and duplicated chunks, planted tokens such as
non-UTF-8 bytes, ``²``, ``inf`` or a 5,000-digit number, a field's value replaced), or
plain random bytes (one input in ten). Inputs go to the parsers in turn (or to the one
``--parser`` names). Only the project's errors may escape, and:

* a ParseError from a file reader names the file and a line or byte offset;
* a record's ``problem`` names the file; a valid record replays;
* no error message is longer than 600 characters (a huge input is never echoed).

Anything else is reported (type, parser, the input's repr cut short) and the exit status
is 1. Printed: per parser the inputs, the share accepted (read without an error), the CPU
seconds spent in it (``time.process_time``: the machine may be shared) and inputs per CPU
second, then the total inputs, wall seconds and inputs per wall second (all jobs).
The tests in ``tests/fuzz`` check the same properties with hypothesis, bounded for the
default test run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hasamigo import Board, HasamigoError, IllegalMoveError, InvalidSquareError, Move
from hasamigo.errors import ParseError
from hasamigo.notation import (
    parse_ggf,
    parse_obf,
    parse_transcript,
    read_ggf,
    read_obf,
    read_transcripts,
    read_wthor,
    write_transcript,
)
from hasamigo.notation.wthor import (
    GAME_SIZE,
    HEADER_SIZE,
    PLAYER_NAME_SIZE,
    TOURNAMENT_NAME_SIZE,
    read_names,
)
from hasamigo.squares import parse_square
from hasamigo.variants import VARIANTS

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

ROOT = Path(__file__).resolve().parent.parent
ROOTS = (ROOT / ".." / "shared" / "data", ROOT / "tests" / "data")
MAX_MESSAGE = 600
T = TypeVar("T")
SHOWN_BYTES = 120

TOKENS: list[bytes] = [
    b"\xff", b"\x80", b"\xc3", b"\xe3\x81", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
    b"\x00", b"\r", b"\n", b"\r\n", b"\t", b" ", b"\xef\xbb\xbf",
    "²".encode(), "٣".encode(), "é".encode(), "İ".encode(), "\u212a".encode(), "\u3000".encode(),
    b"[", b"]", b"\\", b"(;", b";)", b";", b":", b"%", b"#", b"/", b"*", b"-", b"X", b"O",
    b"pass", b"PA", b"inf", b"nan", b"-inf", b"1e999", b"+99", b"-0", b"9" * 5000,
    b"B[", b"W[", b"TY[", b"BO[8 ", b"KM[", b"RE[", b"# variant: ", b"a9", b"i1", b"h8",
    b"8kr20", b"a" + b"1" * 5000, b"# variant: 4x4\n", b"# variant: zz\n",
]
BYTES = [0, 1, 8, 9, 10, 11, 18, 19, 60, 64, 65, 88, 89, 90, 99, 100, 127, 128, 254, 255]


def data_file(relative: str) -> Path:
    for root in ROOTS:
        if (root / relative).is_file():
            return (root / relative).resolve()
    raise SystemExit(f"{relative} is in neither {ROOTS[0]} nor {ROOTS[1]}")


# ---- the mutator ----------------------------------------------------------------------
def mutate(data: bytes, rng: random.Random) -> bytes:
    """``data`` after 1..4 random mutations (one most often: small changes of a good file
    reach deeper into a parser than wrecks)."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        kind = rng.randrange(9)
        at = rng.randint(0, len(out))
        inside = min(at, len(out) - 1)
        if kind == 0 and out:
            out[inside] ^= rng.randint(1, 255)
        elif kind == 1 and out:
            out[inside] = rng.choice(BYTES)
        elif kind == 2 and len(out) >= 4:
            at = rng.randint(0, len(out) - 4)
            out[at:at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\0\0\0\0", b"\x10\0\0\0"])
        elif kind == 3:
            del out[at:]
        elif kind == 4:
            out[at:at] = rng.randbytes(rng.randint(1, 8))
        elif kind == 5:
            out[at:at] = rng.choice(TOKENS)
        elif kind == 6:
            del out[at:at + rng.randint(1, 80)]
        elif kind == 7:
            chunk = out[at:at + rng.randint(1, 200)]
            to = rng.randint(0, len(out))
            out[to:to] = chunk
        else:
            _replace_field(out, rng)
    return bytes(out)


def _replace_field(out: bytearray, rng: random.Random) -> None:
    starts = [i + 1 for i, byte in enumerate(out) if byte in b"[:;"]
    if not starts:
        return
    at = rng.choice(starts)
    end = at
    while end < len(out) and out[end] not in b"];/\n":
        end += 1
    out[at:end] = rng.choice(TOKENS)


def as_text(data: bytes, rng: random.Random) -> str:
    return data.decode("utf-8", rng.choice(["replace", "surrogateescape"]))


# ---- the parsers and their checks ------------------------------------------------------
class Finding(Exception):
    """A property broken without an exception escaping (e.g. a message too long)."""


def check_message(exc: BaseException) -> None:
    if len(str(exc)) > MAX_MESSAGE:
        raise Finding(f"message of {len(str(exc))} characters: {str(exc)[:200]!r}…")


def check_file_error(exc: ParseError, path: Path) -> None:
    check_message(exc)
    if exc.source != str(path) or (exc.line is None and exc.offset is None):
        raise Finding(f"ParseError without the file or a place: {str(exc)[:200]!r}")


def check_problem(problem: str | None, path: Path) -> None:
    if problem is not None and (str(path) not in problem or len(problem) > MAX_MESSAGE):
        raise Finding(f"problem without the file, or too long: {problem[:200]!r}")


def feed_squares(data: bytes, rng: random.Random, folder: Path) -> bool:
    text = as_text(data, rng)
    accepted = False  # by some variant
    for variant in VARIANTS:
        for cut_ok in (False, True):
            try:
                sq = variant.parse_square(text, cut_ok=cut_ok)
            except InvalidSquareError as exc:
                check_message(exc)
                continue
            accepted = True
            if not cut_ok and variant.parse_square(variant.square_name(sq)) != sq:
                raise Finding(f"{variant.name}: {text!r} does not round-trip")
    try:
        parse_square(text)
    except InvalidSquareError as exc:
        check_message(exc)
    return accepted


def feed_moves(data: bytes, rng: random.Random, folder: Path) -> bool:
    text = as_text(data, rng)
    try:
        Move.from_str(text)
    except InvalidSquareError as exc:
        check_message(exc)
    variant = rng.choice(VARIANTS)
    accepted = True
    try:
        variant.parse_move(text)
    except InvalidSquareError as exc:
        check_message(exc)
        accepted = False
    try:
        variant().play(text)
    except HasamigoError as exc:
        check_message(exc)
        return accepted
    return True


def feed_transcript(data: bytes, rng: random.Random, folder: Path) -> bool:
    text = as_text(data, rng)
    board = rng.choice(VARIANTS)() if rng.random() < 0.3 else Board()
    try:
        for move in parse_transcript(text, board):
            board.push(move)
    except ParseError as exc:
        check_message(exc)
        return False
    return True


def feed_records(read: Any, path: Path, data: bytes, rng: random.Random) -> bool:
    """A game file read by ``read`` (strictly, sometimes): refused as a whole with a
    ParseError naming the file, or read with each bad game's problem named."""
    path.write_bytes(data)
    try:
        records = list(read(path, strict=rng.random() < 0.3))
    except ParseError as exc:
        check_file_error(exc, path)
        return False
    for record in records:
        check_problem(record.problem, path)
        if record.problem is None:
            record.replay()
    return all(record.problem is None for record in records)


def feed_transcript_file(data: bytes, rng: random.Random, folder: Path) -> bool:
    return feed_records(read_transcripts, folder / "transcript" / "games.txt", data, rng)


def feed_board_string(data: bytes, rng: random.Random, folder: Path) -> bool:
    text = as_text(data, rng)
    cells = len("".join(text.split()[:1]))
    fitting = [v for v in VARIANTS
               if v.rows * v.cols == cells and bool(v.cut) == ("#" in text)] or VARIANTS
    variant = rng.choice(fitting if rng.random() < 0.8 else VARIANTS)
    try:
        board = variant.from_string(text)
    except ParseError as exc:
        check_message(exc)
        return False
    if variant.from_string(board.to_string()) != board:
        raise Finding(f"{variant.name}: {text!r} does not round-trip")
    return True


def feed_obf(data: bytes, rng: random.Random, folder: Path) -> bool:
    try:
        parse_obf(as_text(data, rng))
    except ParseError as exc:
        check_message(exc)
        return False
    return True


def feed_obf_file(data: bytes, rng: random.Random, folder: Path) -> bool:
    path = folder / "obf" / "suite.obf"
    path.write_bytes(data)
    try:
        list(read_obf(path))
    except ParseError as exc:
        check_file_error(exc, path)
        return False
    return True


def feed_ggf(data: bytes, rng: random.Random, folder: Path) -> bool:
    try:
        parse_ggf(as_text(data, rng))
    except ParseError as exc:
        check_message(exc)
        return False
    return True


def feed_ggf_file(data: bytes, rng: random.Random, folder: Path) -> bool:
    return feed_records(read_ggf, folder / "ggf" / "games.ggf", data, rng)


def feed_wthor(data: bytes, rng: random.Random, folder: Path) -> bool:
    path = folder / "wthor" / "games.wtb"  # no WTHOR.JOU/TRN beside it
    path.write_bytes(data)
    try:
        records = list(read_wthor(path))
    except ParseError as exc:
        check_file_error(exc, path)
        if exc.offset is None:
            raise Finding(f"WTHOR error without a byte offset: {exc}") from None
        return False
    accepted = True
    for record in records:
        check_problem(record.problem, path)
        try:
            record.replay()
        except IllegalMoveError:
            accepted = False
        except ParseError:
            if record.problem is None:
                raise
            accepted = False
    return accepted


def feed_names(data: bytes, rng: random.Random, folder: Path) -> bool:
    size = PLAYER_NAME_SIZE if rng.random() < 0.5 else TOURNAMENT_NAME_SIZE
    path = folder / "names" / ("WTHOR.JOU" if size == PLAYER_NAME_SIZE else "WTHOR.TRN")
    path.write_bytes(data)
    try:
        read_names(path, size)
    except ParseError as exc:
        check_file_error(exc, path)
        if exc.offset is None:
            raise Finding(f"WTHOR error without a byte offset: {exc}") from None
        return False
    return True


def _seeds() -> dict[str, list[bytes]]:
    ggf = [data_file(f"ggf/{n}").read_bytes() for n in ("nboard-test.ggf", "nboard-test2.ggf")]
    obf = [b"".join(data_file(f"ffo/{n}").read_bytes().splitlines(keepends=True)[:6])
           for n in ("fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf")]
    obf_lines = [line for chunk in obf for line in chunk.splitlines()]
    wtb = bytearray(data_file("wthor/WTH_1977.wtb").read_bytes()[:HEADER_SIZE + 3 * GAME_SIZE])
    struct.pack_into("<I", wtb, 4, 3)
    names = []
    for name, size in (("WTHOR.JOU", PLAYER_NAME_SIZE), ("WTHOR.TRN", TOURNAMENT_NAME_SIZE)):
        chunk = bytearray(data_file(f"wthor/{name}").read_bytes()[:HEADER_SIZE + 6 * size])
        struct.pack_into("<H", chunk, 8, 6)
        names.append(bytes(chunk))
    try:
        xot = data_file("xot/xot-large.txt").read_bytes().splitlines()[:40]
    except SystemExit:
        xot = data_file("xot-sample.txt").read_bytes().splitlines()
    games = list(read_wthor(data_file("wthor/WTH_1977.wtb"), players=[], tournaments=[]))[:4]
    for seed in ggf:
        games += parse_ggf(seed.decode())
    lines, current = [], Board
    for record in games:
        if record.start is not None:
            continue
        if record.variant is not current:
            current = record.variant
            lines.append(f"# variant: {current.name}".encode())
        lines.append(write_transcript(record.moves, record.variant).encode())
    standard = [write_transcript(r.moves).encode() for r in games
                if r.start is None and r.variant is Board]
    transcripts = standard + xot
    squares = sorted({variant.square_name(sq).encode() for variant in VARIANTS
                      for sq in range(64) if variant.playable() >> sq & 1})
    boards = [b" ".join(line.split()[:2]).rstrip(b";") for line in obf_lines]
    boards += [variant().to_string().encode() for variant in VARIANTS]
    return {
        "squares": [*squares, b"a01", b" F5 "],
        "moves": [*squares, b"pass", b"PA", b"--", b"black:f5", b"b:d3"],
        "transcript": transcripts,
        "transcript-file": [b"\n".join([b"# openings", *xot[:8], *lines]) + b"\n"],
        "board-string": boards,
        "obf": obf_lines,
        "obf-file": obf,
        "ggf": ggf,
        "ggf-file": ggf,
        "wthor": [bytes(wtb)],
        "wthor-names": names,
    }


#: Each feed gives one input to a parser, checks what comes out and says whether the input
#: was accepted (read without an error or a record's problem).
FEEDS: dict[str, Callable[[bytes, random.Random, Path], bool]] = {
    "squares": feed_squares,
    "moves": feed_moves,
    "transcript": feed_transcript,
    "transcript-file": feed_transcript_file,
    "board-string": feed_board_string,
    "obf": feed_obf,
    "obf-file": feed_obf_file,
    "ggf": feed_ggf,
    "ggf-file": feed_ggf_file,
    "wthor": feed_wthor,
    "wthor-names": feed_names,
}


# ---- the run --------------------------------------------------------------------------
class Plain(random.Random):
    """The seed check's "random" choices: always the first option, the plainest reading
    (the standard board, strict readers, replacement of bad bytes)."""

    def random(self) -> float:
        return 0.0

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[0]


@dataclass
class Tally:
    """What one job saw: inputs, accepted inputs and seconds per parser, the findings."""

    inputs: dict[str, int] = field(default_factory=dict)
    accepted: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    #: (parser, exception type, message, input) of the first ``max_findings``.
    findings: list[tuple[str, str, str, str]] = field(default_factory=list)
    unexpected: int = 0

    def add(self, finding: tuple[str, str, str, str], max_findings: int) -> None:
        self.unexpected += 1
        if len(self.findings) < max_findings:
            self.findings.append(finding)


def shown(data: bytes) -> str:
    text = repr(data[:SHOWN_BYTES])
    return text if len(data) <= SHOWN_BYTES else f"{text}… ({len(data)} bytes)"


def run_job(names: list[str], inputs: int, seed: int, max_findings: int) -> Tally:
    """Check that the real inputs read, then feed ``inputs`` inputs to the parsers in turn."""
    rng = random.Random(seed)
    seeds = _seeds()
    tally = Tally({n: 0 for n in names}, {n: 0 for n in names}, {n: 0.0 for n in names})
    with tempfile.TemporaryDirectory(prefix="hasamigo-fuzz-") as tmp:
        folder = Path(tmp)
        for sub in ("transcript", "obf", "ggf", "wthor", "names"):
            (folder / sub).mkdir()
        for name in names:  # this also compiles the kernels before the clock starts
            for data in seeds[name]:
                try:
                    if not FEEDS[name](data, Plain(), folder):
                        tally.add((name, "refused", "a real input did not read", shown(data)),
                                  max_findings)
                except Exception as exc:
                    tally.add((name, type(exc).__name__, str(exc)[:300], shown(data)),
                              max_findings)
        for index in range(inputs):
            name = names[index % len(names)]
            if rng.random() < 0.1:
                data = rng.randbytes(rng.randint(0, 300))
            else:
                data = mutate(rng.choice(seeds[name]), rng)
            start = time.process_time()
            try:
                tally.accepted[name] += FEEDS[name](data, rng, folder)
            except Exception as exc:  # any escape (or a Finding) is reported
                tally.add((name, type(exc).__name__, str(exc)[:300], shown(data)),
                          max_findings)
            tally.seconds[name] += time.process_time() - start
            tally.inputs[name] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="Inputs in all.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the mutator.")
    parser.add_argument("--parser", choices=sorted(FEEDS), help="Fuzz only this parser.")
    parser.add_argument("--jobs", type=int, default=1, help="Worker processes.")
    parser.add_argument("--max-findings", type=int, default=1000,
                        help="Findings printed per job (all are counted).")
    args = parser.parse_args()
    names = [args.parser] if args.parser else list(FEEDS)
    jobs = max(1, args.jobs)
    shares = [args.inputs // jobs + (1 if j < args.inputs % jobs else 0) for j in range(jobs)]
    print(f"fuzzing {', '.join(names)}: {args.inputs:,} inputs, seed {args.seed}, "
          f"{jobs} job(s); Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores", flush=True)
    start = time.perf_counter()
    if jobs == 1:
        tallies = [run_job(names, shares[0], args.seed, args.max_findings)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(run_job, names, share, args.seed * 1000 + j,
                                   args.max_findings) for j, share in enumerate(shares)]
            tallies = [f.result() for f in futures]
    wall = time.perf_counter() - start
    print(f"{'parser':<16} {'inputs':>10} {'accepted':>9} {'CPU s':>9} {'inputs/s':>10}")
    for name in names:
        count = sum(t.inputs[name] for t in tallies)
        accepted = sum(t.accepted[name] for t in tallies)
        seconds = sum(t.seconds[name] for t in tallies)
        rate = count / seconds if seconds > 0 else 0.0
        print(f"{name:<16} {count:>10,} {accepted / max(count, 1):>9.1%} {seconds:>9.1f} "
              f"{rate:>10,.0f}")
    total = sum(sum(t.inputs.values()) for t in tallies)
    print(f"{'all':<16} {total:>10,} {'':>9} {wall:>9.1f} {total / wall:>10,.0f}  "
          "(wall seconds, with the set-up)")
    for t in tallies:
        for name, kind, message, data in t.findings:
            print(f"UNEXPECTED {kind} in {name}: {message}\n    input: {data}")
    unexpected = sum(t.unexpected for t in tallies)
    print(f"{unexpected} unexpected exception(s)")
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
