"""JOF rule 21's second sentence (issue 64, item 4): the arbiter's caution (注意), warning
(警告) and removal (退場) of a person who disturbs the tournament, an entrant or anyone
else; kept in the tournament's record (the audit log), shown in the standings, the
director's view, the command line and the director's page."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tournament_penalties import paired, service
from test_tournament_web import NAMES, create, enter_everyone
from test_web_api import make_client
from typer.testing import CliRunner

from hasamigo.cli import app
from hasamigo.tournament import TournamentError
from hasamigo.tournament.sanctions import RULE_21, SanctionKind
from hasamigo.tournament.service import TournamentService

__all__ = ["service"]  # the fixture, shared with the penalties' tests

SEED = Path("/work/shared/seeds/meijin-sen-43-tournament-rules.txt")


def test_the_rule_is_quoted_as_the_seed_writes_it() -> None:
    assert "注意、警告を与え、退場を命じることができる" in RULE_21
    if SEED.exists():  # the seeds are shared, not in a plain clone
        assert RULE_21 in SEED.read_text(encoding="utf-8").replace("- 21 ", "")
    assert [k.japanese for k in SanctionKind] == ["注意", "警告", "退場"]
    assert SanctionKind.parse("警告") is SanctionKind.WARNING
    assert SanctionKind.parse(" Removal ") is SanctionKind.REMOVAL


def test_a_caution_a_warning_and_a_removal_are_kept_and_shown(
        service: TournamentService) -> None:
    tid, boards = paired(service)
    board, a, _b = boards[0]
    ann = service.tournament(tid).name(a)
    caution = service.sanction(tid, "caution", entrant=a, reason="talking at the board",
                               round_number=1, board=board, who="Mori")
    assert (caution.kind, caution.person, caution.entrant, caution.round, caution.board,
            caution.who) == (SanctionKind.CAUTION, ann, a, 1, board, "Mori")
    service.sanction(tid, "警告", person="  a  spectator in red ", reason="advice (rule 24)")
    removal = service.sanction(tid, "removal", entrant=ann, reason="advice again",
                               round_number=1)
    given = service.sanctions(tid)
    assert [(s.kind.value, s.person) for s in given] == [
        ("caution", ann), ("warning", "a spectator in red"), ("removal", ann)]
    assert given[-1] == removal and removal.at.tzinfo is not None
    # the removal withdraws the entrant from the next round (the project's reading)
    assert service.tournament(tid).entrant(a).withdrawn
    row = next(r for r in service.standings(tid) if r.number == a)
    assert row.sanctions == (f"注意 (caution), round 1 board {board}: talking at the board",
                             "退場 (removal), round 1: advice again")
    actions = [e.action for e in service.audit(tid)]
    assert actions.count("sanction") == 3 and actions[-1] == "withdraw"


@pytest.mark.parametrize(("fields", "says"), [
    ({"kind": "ban", "entrant": 1, "reason": "x"}, "no sanction"),
    ({"kind": "caution", "entrant": 1, "reason": "  "}, "needs its reason"),
    ({"kind": "caution", "reason": "x"}, "names an entrant or another person"),
    ({"kind": "caution", "entrant": 1, "person": "Zed", "reason": "x"}, "(one)"),
    ({"kind": "caution", "person": "x" * 41, "reason": "x"}, "at most 40"),
    ({"kind": "caution", "entrant": 99, "reason": "x"}, "99"),
    ({"kind": "caution", "entrant": 1, "reason": "x", "round_number": 2}, "not paired"),
    ({"kind": "caution", "entrant": 1, "reason": "x", "board": 1}, "with its round"),
    ({"kind": "caution", "entrant": 1, "reason": "x", "round_number": 1, "board": 9},
     "no board 9"),
])
def test_a_sanction_that_says_too_little_is_refused_and_nothing_kept(
        service: TournamentService, fields: dict[str, object], says: str) -> None:
    tid, _boards = paired(service)
    kind = str(fields.pop("kind"))
    with pytest.raises((TournamentError, KeyError), match=says):
        service.sanction(tid, kind, **fields)  # type: ignore[arg-type]
    assert service.sanctions(tid) == []


def test_the_command_line_gives_and_lists_sanctions(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, ["tournament", *args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.output

    run("new", "Club night", "--format", "swiss", "--rounds", "3")
    for name in ("Ann", "Ben", "Cho", "Dai"):
        run("enter", "Club night", name)
    run("pair", "Club night")
    out = run("sanction", "Club night", "warning", "--entrant", "Ben", "--reason",
              "kept talking", "--round", "1")
    assert "警告 (warning)" in out and "Ben" in out
    run("sanction", "Club night", "注意", "--person", "a parent", "--reason", "advice")
    listed = run("sanctions", "Club night")
    assert "kept talking" in listed and "a parent" in listed and "注意" in listed
    assert "警告 (warning), round 1: kept talking" in run("standings", "Club night")
    run("sanction", "Club night", "removal", "--person", "=HYPERLINK(\"x\")",
        "--reason", "+formula")
    run("export", "Club night", "--sanctions", str(tmp_path / "sanctions.csv"))
    lines = (tmp_path / "sanctions.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "at,kind,kind_ja,person,entrant,round,board,reason,given_by"
    assert ",warning,警告,Ben,2,1,,kept talking," in lines[1]
    assert len(lines) == 4 and "'=HYPERLINK" in lines[3] and "'+formula" in lines[3]
    refused = runner.invoke(app, ["tournament", "sanction", "Club night", "caution",
                                  "--reason", "x", "--db", db])
    assert refused.exit_code != 0 and "names an entrant or another person" in refused.output


def test_the_director_gives_them_on_the_web_and_only_the_director(tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        d = create(client)
        enter_everyone(d, NAMES[:4])
        d.post("/rounds", status=201)
        given = d.post("/sanctions", {"kind": "warning", "entrant": 2, "round": 1,
                                      "board": 1, "reason": "advice to a player"},
                       status=201)
        assert (given["kind"], given["kind_ja"], given["person"], given["who"]) == \
            ("warning", "警告", "Ben", "Mori")
        d.post("/sanctions", {"kind": "removal", "person": "a spectator",
                              "reason": "would not stop talking"}, status=201)
        # a stranger, another tournament's director: refused, nothing kept
        other = create(client, name="Other open")
        body = {"kind": "caution", "entrant": 1, "reason": "x"}
        for headers, status in (({}, 401), (other.headers, 403)):
            refused = client.post(f"/api/tournaments/{d.id}/sanctions", json=body,
                                  headers=headers)
            assert refused.status_code == status, refused.text
        assert client.get(f"/api/tournaments/{d.id}/sanctions").status_code == 401
        assert [s["person"] for s in d.get("/sanctions")] == ["Ben", "a spectator"]
        view = d.get("/director")
        assert [s["kind"] for s in view["sanctions"]] == ["warning", "removal"]
        assert d.refused("/sanctions", {"kind": "caution", "reason": "x"},
                         status=409)["code"] == "tournament"
        assert d.refused("/sanctions", {"kind": "ban", "entrant": 1, "reason": "x"},
                         status=422)["code"] == "invalid_request"
        standings = d.get("/standings", auth=False)["standings"]  # public, as penalties
        ben = next(r for r in standings if r["name"] == "Ben")
        assert ben["sanctions"] == ["警告 (warning), round 1 board 1: advice to a player"]
        page = client.get(f"/tournaments/{d.id}/standings").text
        assert 'class="tag penalty sanction"' in page and "警告 (warning)" in page
        assert "sanction" in [e["action"] for e in d.get("/audit")]
        csv = client.get(f"/api/tournaments/{d.id}/sanctions.csv", headers=d.headers)
        assert csv.status_code == 200 and csv.text.count("\n") == 3
        assert "a spectator" in csv.text
        assert client.get(f"/api/tournaments/{d.id}/sanctions.csv").status_code == 401


def test_the_director_page_has_the_tools_in_both_languages() -> None:
    from hasamigo.web.keyed_text import keyed_text

    script = (Path(__file__).parents[1] / "src/hasamigo/web/static/js/"
              "tournament_director.js").read_text(encoding="utf-8")
    assert '"/sanctions"' in script and "renderSanctions" in script
    english, japanese = keyed_text("en"), keyed_text("ja")
    for key in ("tournament.director.sanctions.title", "tournament.director.penalty_rated",
                "tournament.director.sanctions.removal_note"):
        assert key in script
        assert english[key] != japanese[key]
    assert "project's reading" in english["tournament.director.penalty_rated"]
    assert "本プロジェクトの解釈" in japanese["tournament.director.penalty_rated"]
