"""Variations over the web API: moves tried from any position of a game, checked on the
server with the rules core, stored as a tree (no duplicates, a limit per game, a node
deleted with its subtree), exported as JSON and any line as GGF; every refusal in the
project's one error shape."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_api import Seat, create, error_of
from test_web_review import finished_game, make_client

from hasamigo import Board, find_variant
from hasamigo.analysis import variations as pure
from hasamigo.analysis.variations import build_tree, tree_from_json, tree_to_json
from hasamigo.notation import parse_ggf
from hasamigo.squares import bits


def add(me: Seat, **body: Any) -> Any:
    return me.post("/variations", body)


def node_of(view: dict[str, Any], node_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(n for n in view["nodes"] if n["id"] == node_id)
    return found


def test_a_variation_grows_from_a_main_line_position_and_is_exported(tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        game, me = finished_game(client)
        moves = game["moves"]
        empty = me.get("/variations").json()
        assert empty["count"] == 0 and empty["variations"] == [] and empty["nodes"] == []
        assert len(empty["main"]) == len(moves) + 1
        assert sorted(empty["main"][0]["legal"]) == ["c4", "d3", "e6", "f5"]
        assert empty["main"][-1]["over"]

        own = add(me, ply=0, move=moves[0])  # the game's own move is no variation
        assert own.status_code == 400 and error_of(own)["code"] == "invalid_variation"
        other = next(m for m in empty["main"][0]["legal"] if m != moves[0])
        first = add(me, ply=0, move=other)
        assert first.status_code == 201, first.text
        view = first.json()
        root = view["node"]
        again = add(me, ply=0, move=f" {other.upper()} ")  # the same move, written loosely
        assert again.status_code == 200 and again.json()["node"] == root
        assert again.json()["count"] == 1

        # four more moves down the line, each the first legal one there
        line = [root]
        board = Board()
        board.play(other)
        for _ in range(4):
            here = node_of(view, line[-1])["here"]
            response = add(me, parent=line[-1], move=here["legal"][0])
            assert response.status_code == 201, response.text
            view = response.json()
            board.play(here["legal"][0])
            line.append(view["node"])
        last = node_of(view, line[-1])
        assert last["line"] == line and last["ply"] == 4
        assert last["cells"] == board.to_string().split()[0]
        assert (last["black"], last["white"]) == board.counts()
        assert sorted(last["here"]["legal"]) == sorted(
            board.square_name(sq) for sq in bits(board.legal_moves_mask()))
        # a branch off the line's second move
        second = node_of(view, line[1])
        alt = next(m for m in node_of(view, line[0])["here"]["legal"]
                   if m != second["move"])
        view = add(me, parent=line[0], move=alt).json()
        branch = view["node"]
        assert view["variations"] == [{
            "from_ply": 0, "moves": [node_of(view, n)["move"] for n in line], "ids": line,
            "children": [{"from_ply": 1, "moves": [alt], "ids": [branch], "children": []}]}]

        # GGF of the whole line: the main line to the branch (none here), then the line
        ggf = me.get(f"/variations/{line[-1]}/ggf")
        assert ggf.status_code == 200 and "attachment" in ggf.headers["content-disposition"]
        [record] = parse_ggf(ggf.text)
        assert [Board.move_name(m) for m in record.moves] == [
            node_of(view, n)["move"] for n in line]
        assert record.recorded_score is None  # the line does not end the game
        assert record.black == game["seats"]["black"]["name"]

        # the JSON tree: the file, and read back to the same tree
        download = me.get("/variations.json")
        assert download.status_code == 200
        assert "variations.json" in download.headers["content-disposition"]
        data = download.json()
        assert data["game"] == game["id"] and data["main_line"] == moves
        assert data["variations"] == view["variations"]
        start = Board()
        main = [start.parse_move(m) for m in moves]
        assert tree_to_json(game["id"], build_tree(start, main, tree_from_json(data))) == data

        # deleting the line's third move takes the rest of the line with it
        gone = me.client.delete(f"/api/games/{me.id}/variations/{line[2]}",
                                headers=me.headers())
        assert gone.status_code == 200, gone.text
        left = gone.json()
        assert left["count"] == 3 and {n["id"] for n in left["nodes"]} == {*line[:2], branch}
        again_gone = me.client.delete(f"/api/games/{me.id}/variations/{line[2]}",
                                      headers=me.headers())
        assert again_gone.status_code == 404 and error_of(again_gone)["code"] == "not_found"


def test_bad_variations_are_refused_in_the_projects_error_shape(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(tmp_path / "games.db") as client:
        game, me = finished_game(client)
        _other_game, them = finished_game(client)
        theirs = add(them, ply=0, move="d3").json()["node"]
        root = add(me, ply=0, move="d3").json()["node"]
        cases: list[tuple[dict[str, Any], int, str]] = [
            ({"ply": 0, "move": "d4"}, 422, "illegal_move"),  # occupied
            ({"ply": 0, "move": "a1"}, 422, "illegal_move"),  # flips nothing
            ({"parent": root, "move": "pass"}, 422, "illegal_move"),  # white has moves
            ({"ply": 0, "move": "z9"}, 400, "invalid_square"),
            ({"ply": 0, "move": "c4(d4"}, 400, "parse_error"),
            ({"parent": 999_999, "move": "c3"}, 404, "not_found"),  # unknown node
            ({"parent": theirs, "move": "c3"}, 404, "not_found"),  # another game's
            ({"ply": len(game["moves"]) + 1, "move": "c3"}, 400, "invalid_variation"),
            ({"move": "c3"}, 400, "invalid_variation"),  # neither parent nor ply
            ({"ply": 0, "move": "x" * 161}, 422, "invalid_request"),
            ({"ply": 0, "move": "d3", "extra": 1}, 422, "invalid_request"),
            ({"ply": -1, "move": "d3"}, 422, "invalid_request"),
        ]
        for body, status, code in cases:
            response = add(me, **body)
            assert response.status_code == status, (body, response.text)
            assert error_of(response)["code"] == code, body
        occupied = add(me, ply=0, move="d4")
        assert error_of(occupied)["reason"] == "occupied"
        for path in (f"/variations/{theirs}/ggf", "/variations/424242/ggf"):
            response = me.get(path)
            assert response.status_code == 404 and error_of(response)["code"] == "not_found"
        bad_id = me.get("/variations/abc/ggf")
        assert bad_id.status_code == 422 and error_of(bad_id)["code"] == "invalid_request"
        assert add(me, ply=0, move="d3").json()["count"] == 1  # nothing else was stored

        # too many moves in a game, too long a line
        monkeypatch.setattr("hasamigo.web.services.variations.MAX_NODES", 3)
        assert add(me, parent=root, move="c3").status_code == 201
        assert add(me, ply=0, move="c4").status_code == 201
        full = add(me, ply=0, move="e6")
        assert full.status_code == 409 and error_of(full)["code"] == "variation_limit"
        monkeypatch.setattr("hasamigo.web.services.variations.MAX_NODES", 500)
        monkeypatch.setattr(pure, "MAX_LINE", 2)
        view = me.get("/variations").json()
        two = next(n for n in view["nodes"] if len(n["line"]) == 2)
        long = add(me, parent=two["id"], move=two["here"]["legal"][0])
        assert long.status_code == 400 and error_of(long)["code"] == "invalid_variation"


def test_who_may_read_the_game_may_use_its_variations_and_nobody_else(
        tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        _game, me = finished_game(client)
        root = add(me, ply=0, move="d3").json()["node"]
        stranger = Seat(client, me.id, None)
        forged = Seat(client, me.id, "f" * 40)
        for who, status, code in [(stranger, 401, "unauthorized"), (forged, 403, "forbidden")]:
            for response in (who.get("/variations"), add(who, ply=0, move="c4"),
                             who.get("/variations.json"),
                             who.get(f"/variations/{root}/ggf"),
                             client.delete(f"/api/games/{me.id}/variations/{root}",
                                           headers=who.headers())):
                assert response.status_code == status, response.text
                assert error_of(response)["code"] == code
        missing = client.get("/api/games/nosuchgame/variations")
        assert missing.status_code == 404 and error_of(missing)["code"] == "not_found"
        assert me.post("/public", {"public": True}).json()["public"]
        assert stranger.get("/variations").json()["count"] == 1  # a spectator reads it

        _official, strict = create(client, casual=False)
        for response in (strict.get("/variations"), add(strict, ply=0, move="d3")):
            assert response.status_code == 403
            assert error_of(response)["code"] == "official_game"
        strict.post("/resign")
        assert add(strict, ply=0, move="d3").status_code == 201  # once it is over


def test_a_flip_rule_variation_names_the_disc_it_turns(tmp_path: Path) -> None:
    with make_client(tmp_path / "games.db") as client:
        _game, me = create(client, opponent="person", variant="hasegawa-8x9",
                           flip_rule="one", clock_minutes=None)
        board = find_variant("hasegawa-8x9+one")()
        view = me.get("/variations").json()
        parent: int | None = None
        here = view["main"][0]
        while not here["picks"]:  # down a line (each position's last choice) to a choice
            move = list(board.move_choices())[-1]
            body = {"move": board.move_name(move)} | (
                {"parent": parent} if parent else {"ply": 0})
            response = add(me, **body)
            assert response.status_code == 201, response.text
            board.push(move)
            view = response.json()
            parent = view["node"]
            here = node_of(view, parent)["here"]
        square, discs = next(iter(here["picks"].items()))
        assert len(discs) > 1
        bare = add(me, parent=parent, move=square)
        assert bare.status_code == 422 and error_of(bare)["code"] == "illegal_move"
        chosen = add(me, parent=parent, move=f"{square}({discs[-1]})")
        assert chosen.status_code == 201, chosen.text
        node = node_of(chosen.json(), chosen.json()["node"])
        assert node["move"] == f"{square}({discs[-1]})" and node["flipped"] == [discs[-1]]


def test_every_text_the_variation_scripts_use_exists_in_both_languages() -> None:
    import re

    from hasamigo.web.keyed_text import KEYED, keyed_text

    scripts = Path(__file__).parents[1] / "src" / "hasamigo" / "web" / "static" / "js"
    used = set()
    for name in ("variations.js", "replay.js"):
        used |= set(re.findall(r'T\["(var\.[a-z_.]+)"\]', (scripts / name).read_text()))
    assert used and used <= set(KEYED), used - set(KEYED)
    assert all(keyed_text("en")[key] and keyed_text("ja")[key] for key in used)
