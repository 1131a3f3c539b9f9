"""The engine's speed on this machine: ``hasamigo bench`` (perft, an FFO suite solved, a
midgame search; on one thread or several)."""

from __future__ import annotations

import time
from importlib import resources
from typing import Annotated, Any

import typer

from hasamigo.cli import JsonOpt, ThreadsOpt, app, console, emit_json, fail, ready_kernels


@app.command()
def bench(
    perft_depth: Annotated[int, typer.Option(min=1, max=14, help="Perft depth.")] = 10,
    midgame_depth: Annotated[int, typer.Option(min=1, max=20, help="Midgame depth.")] = 12,
    suite: Annotated[str, typer.Option(help="FFO suite: '1-19' or '20-39'.")] = "1-19",
    threads: ThreadsOpt = 1,
    as_json: JsonOpt = False,
) -> None:
    """Speed figures on this machine: perft leaves/s, exact endgame solving of an FFO suite,
    midgame search nodes/s (CPU time; the searches on --threads threads, then with their
    elapsed time too, which is what the threads shorten).

    JSON: {threads, perft: {depth, leaves, seconds, leaves_per_second}, endgame: {suite,
    positions, all_ok, seconds, wall, nodes, nodes_per_second}, midgame: {depth, positions,
    seconds, wall, nodes, nodes_per_second}}.
    """
    from hasamigo import Board
    from hasamigo.engine import Engine, Limit, solve_obf_file
    from hasamigo.notation.transcript import parse_transcript

    if suite not in ("1-19", "20-39"):
        raise fail("--suite must be '1-19' or '20-39'")
    ready_kernels("rules", "perft", "engine")
    report: dict[str, Any] = {"threads": threads}

    board = Board()
    board.perft(1)
    t0 = time.process_time()
    leaves = board.perft(perft_depth)
    sec = time.process_time() - t0
    report["perft"] = {
        "depth": perft_depth,
        "leaves": leaves,
        "seconds": round(sec, 4),
        "leaves_per_second": round(leaves / sec) if sec > 0 else None,
    }

    obf = resources.files("hasamigo") / "data" / "ffo" / f"fforum-{suite}.obf"
    with resources.as_file(obf) as path:
        solve_obf_file(path, "exact", table_size=1 << 16, first=1)  # weights, caches: warm
        result = solve_obf_file(path, "exact", table_size=1 << 22, threads=threads)
    nodes = sum(p["nodes"] for p in result["positions"])
    sec = result["total_seconds"]
    report["endgame"] = {
        "suite": suite,
        "positions": len(result["positions"]),
        "all_ok": result["all_ok"],
        "seconds": round(sec, 3),
        "wall": round(result["total_wall"], 3),
        "nodes": nodes,
        "nodes_per_second": round(nodes / sec) if sec > 0 else None,
    }

    # Four balanced 8-move openings (XOT list, M. Berg).
    openings = ["f5d6c4d3c2b3b4b5", "f5f4g3g6f3g4e3e2", "f5f6d3c5d6c7b5e3", "f5f6d3c5c6e3c4b4"]
    engine = Engine(threads=threads)
    engine.analyse(Board(), Limit(depth=2))  # the engine's entry points: warm
    nodes = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    for line in openings:
        start = Board()
        for move in parse_transcript(line):
            start.push(move)
        engine.clear()
        nodes += engine.analyse(start, Limit(depth=midgame_depth)).nodes
    sec = time.process_time() - t0
    wall = time.perf_counter() - w0
    report["midgame"] = {
        "depth": midgame_depth,
        "positions": len(openings),
        "seconds": round(sec, 3),
        "wall": round(wall, 3),
        "nodes": nodes,
        "nodes_per_second": round(nodes / sec) if sec > 0 else None,
    }
    if as_json:
        emit_json(report)
        return
    p, e, m = report["perft"], report["endgame"], report["midgame"]

    def elapsed(wall: float) -> str:
        return "" if threads == 1 else f" ({wall:.2f} s elapsed on {threads} threads)"

    console.print(
        f"perft {p['depth']}: {p['leaves']:,} leaves in {p['seconds']:.2f} CPU s = "
        f"{(p['leaves_per_second'] or 0) / 1e6:.1f} M leaves/s",
        highlight=False,
    )
    console.print(
        f"FFO {e['suite']}: {e['positions']} positions {'all right' if e['all_ok'] else 'WRONG'} "
        f"in {e['seconds']:.2f} CPU s{elapsed(e['wall'])}, "
        f"{(e['nodes_per_second'] or 0) / 1e6:.1f} M nodes/s",
        highlight=False, soft_wrap=True,
    )
    console.print(
        f"midgame depth {m['depth']}: {m['nodes']:,} nodes in {m['seconds']:.2f} CPU s"
        f"{elapsed(m['wall'])} = "
        f"{(m['nodes_per_second'] or 0) / 1e6:.1f} M nodes/s",
        highlight=False, soft_wrap=True,
    )
    if not e["all_ok"]:
        raise typer.Exit(1)
