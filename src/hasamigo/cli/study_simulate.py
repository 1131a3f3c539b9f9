"""``hasamigo study simulate``: the amusement paper's study with simulated subjects (a
panel of simple players, :mod:`hasamigo.study.simulate`), its tables of wins, direction
tests and treatment fidelity."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from hasamigo.cli import JsonOpt, console, emit_json, fail
from hasamigo.cli.match import SeedOpt, _progress
from hasamigo.cli.study import study_app
from hasamigo.cli.workers import (
    CoresOpt,
    JobsOpt,
    RayAddressOpt,
    RayOpt,
    backend_for,
    workers_of,
)

if TYPE_CHECKING:
    from hasamigo.study.simulate import Simulation


def _names(text: str | None, known: tuple[str, ...], option: str, what: str) -> tuple[str, ...]:
    """A comma-separated selection from ``known`` (all of it when ``text`` is None)."""
    if text is None:
        return known
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise typer.BadParameter(
            f"unknown {what} {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"known: {', '.join(known)}", param_hint=option)
    return names


def _one(text: str, known: tuple[str, ...], option: str, what: str) -> str:
    """One of ``known`` (typer's usage error naming ``option`` otherwise)."""
    name = text.strip().lower()
    if name not in known:
        raise typer.BadParameter(f"unknown {what} {text[:30]!r}; known: {', '.join(known)}",
                                 param_hint=option)
    return name


#: how the human output names each surprise window, and whose it is
WINDOW_WORDS = {"moves": "the paper's: moves 30-35 of the game",
                "midgame": "the project's reading: moves 30-35 in the midgame phase only"}


@study_app.command("simulate")
def study_simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="Games per (panel player, program) pair.")] = 10,
    seed: SeedOpt = 0,
    programs: Annotated[str | None, typer.Option(
        "--programs", help="Comma-separated programs (default: victory, amusement, "
                           "amusement:swing, entertainer).")] = None,
    players: Annotated[str | None, typer.Option(
        "--players", help="Comma-separated panel players (default: the whole panel).")] = None,
    protocol: Annotated[str, typer.Option(
        "--protocol", help="When the simulated subjects answer (with --out) and the default "
                           "surprise window: paper (after each of their own moves; the "
                           "paper's window) or extended (after each program move; the "
                           "midgame window).")] = "paper",
    window: Annotated[str | None, typer.Option(
        "--window", help="The amusement programs' surprise window: moves (the paper's: "
                         "moves 30-35 of the game) or "
                         "midgame (the project's reading: those moves in the midgame phase "
                         "only). Default: the protocol's.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Also simulate the subjects' answers and write the study's exports "
                      "(subjects.csv, games.csv, answers.csv, study.json) and report.html "
                      "into this directory, as for a real study.", file_okay=False)] = None,
    workers: CoresOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    jobs: JobsOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Simulated weak players against the victory, amusement(:swing) and entertainer
    programs.

    The paper: weak humans won 0/6 against victory and 4/6 against amusement. Its claim is
    a direction, tested here per panel player (the paper names no test): Fisher's exact
    test, one-sided, that the player
    wins more often against each amusement program than against victory (a draw is a
    non-win). Treatment fidelity: the share of games in which each program played its
    expectation move, its surprise move and (the entertainer) a gift, over all games and
    per panel player. JSON: {protocol, surprise_window, rows: [{player, program, games,
    player_win_pct, naturalness_violations}], tests: [{player, program, baseline, test,
    wins, games, baseline_wins, baseline_games, player_win_pct, baseline_win_pct,
    odds_ratio, p_value, direction_holds}], fidelity: {program: {games, expectation_pct,
    surprise_pct, gift_pct}}, fidelity_by_member: {program: {player: {…}}}} (win % counts
    a draw as half); with --out also written: ["path", …].
    """
    from hasamigo.jobs import JobError
    from hasamigo.jobs.games import study_player
    from hasamigo.study.protocol import PROTOCOLS, SURPRISE_WINDOWS, default_window
    from hasamigo.study.simulate import PANEL, PROGRAMS, run_simulation, write_study

    chosen_programs = _names(programs, PROGRAMS, "--programs", "program")
    panel = _names(players, tuple(PANEL), "--players", "panel player")
    protocol = _one(protocol, PROTOCOLS, "--protocol", "protocol")
    window = (default_window(protocol) if window is None
              else _one(window, SURPRISE_WINDOWS, "--window", "surprise window"))
    backend = backend_for(workers_of(workers, jobs), ray, ray_address)
    progress = _progress(not as_json)
    try:
        with progress:
            task = progress.add_task("study", total=games * len(panel) * len(chosen_programs))
            sim = run_simulation(games, seed=seed, play=study_player(backend), panel=panel,
                                 programs=chosen_programs, answers=out is not None,
                                 protocol=protocol, window=window,
                                 on_game=lambda _: progress.advance(task))
    except JobError as exc:  # a game whose workers kept dying
        raise fail(str(exc), code=1) from None
    finally:
        backend.close()
    written = [] if out is None else write_study(sim, out, title=f"Simulated study (seed {seed})")
    if as_json:
        data = sim.as_json()
        if out is not None:
            data["written"] = [str(p) for p in written]
        emit_json(data)
        return
    table = Table("player", "program", "games", "player win %", "naturalness violations",
                  title="Simulated weak players (paper: 0/6 vs victory, 4/6 vs amusement)")
    for r in sim.rows:
        table.add_row(r.player, r.program, str(r.games), f"{r.player_win_pct:.1f}",
                      str(r.naturalness_violations))
    console.print(table)
    if sim.tests:
        tests = Table("player", "program", "wins", "vs victory", "score % (vs victory)",
                      "p (one-sided)", title="Does the player win more often than against "
                      "victory? Fisher's exact test, one-sided; a draw is a non-win")
        for t in sim.tests:
            tests.add_row(t.player, t.program, f"{t.wins}/{t.games}",
                          f"{t.baseline_wins}/{t.baseline_games}",
                          f"{t.score_pct:.1f} ({t.baseline_score_pct:.1f})", f"{t.p_value:.3g}")
        console.print(tests)
    _print_fidelity(sim)
    for path in written:
        console.print(f"wrote {path}")


def _print_fidelity(sim: Simulation) -> None:
    """The treatment fidelity table: per program, all games then each panel player."""
    fidelity, by_member = sim.fidelity(), sim.fidelity_by_member()
    table = Table("program", "player", "games", "expectation %", "surprise %", "gift %",
                  title=f"Treatment fidelity: games in which each was played (surprise "
                        f"window: {sim.window}, {WINDOW_WORDS.get(sim.window, sim.window)})")
    for program, overall in fidelity.items():
        for player, f in (("all", overall), *by_member[program].items()):
            table.add_row(program, player, str(f.games), f"{f.expectation_pct:.1f}",
                          f"{f.surprise_pct:.1f}", f"{f.gift_pct:.1f}",
                          end_section=player == list(by_member[program])[-1])
    console.print(table)
    console.print(f"protocol: {sim.protocol}; surprise window: {sim.window} "
                  f"({WINDOW_WORDS.get(sim.window, sim.window)})", highlight=False)


__all__ = ["WINDOW_WORDS", "study_simulate"]
