"""Password hashes (:mod:`hasamigo.passwords`): argon2id for new ones; the PBKDF2 hashes
written before still verify and are replaced at the next successful login, for a
tournament's director and a study's researcher."""

from __future__ import annotations

from pathlib import Path

import pytest

from hasamigo.passwords import (
    LegacyPbkdf2Hasher,
    hash_password,
    verify_and_update,
    verify_password,
)
from hasamigo.storage import Database, GameRepository
from hasamigo.storage.models import StudyRow
from hasamigo.study.service import StudyService, StudySettings
from hasamigo.study.store import StudyRepository
from hasamigo.tournament import Settings
from hasamigo.tournament.service import TournamentService

#: written by the hand-made ``hash_password`` this module replaced (200,000 iterations, its
#: default, and 1,000), for "correct horse" and "hunter22"
OLD = "pbkdf2_sha256$200000$64661fa903aa929dca73135253dfb8f8$" \
      "04cca849b50e4b319ffe3870db47394dc3b4a264c8ffe0e727b621f6bb644e1a"
OLD_1000 = "pbkdf2_sha256$1000$f045a5ee4a8a813ed78ac319e95f9084$" \
           "0caff07f6c4a14ac61757f3d16e79d357196f96bad28ad6493d823f846248248"


def test_a_new_hash_is_argon2id_salted_and_verifies() -> None:
    stored = hash_password("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert len(stored) <= 200  # the column
    assert stored != hash_password("correct horse")  # salted
    assert verify_password("correct horse", stored)
    assert not verify_password("correct hors", stored)
    assert verify_and_update("correct horse", stored) == (True, None)  # nothing to upgrade
    assert verify_and_update("wrong", stored) == (False, None)


def test_an_old_pbkdf2_hash_verifies_and_comes_back_as_argon2id() -> None:
    assert verify_password("correct horse", OLD) and verify_password("hunter22", OLD_1000)
    assert not verify_password("correct horsE", OLD)
    ok, upgraded = verify_and_update("hunter22", OLD_1000)
    assert ok and upgraded is not None and upgraded.startswith("$argon2id$")
    assert verify_password("hunter22", upgraded)
    assert verify_and_update("hunter23", OLD_1000) == (False, None)
    with pytest.raises(NotImplementedError):
        LegacyPbkdf2Hasher().hash("x")  # the old format is only read


@pytest.mark.parametrize("stored", ["", "not a hash", "pbkdf2_sha256$x$y$z",
                                    "pbkdf2_sha256$1000$zz$00", "$argon2id$v=19$broken"])
def test_a_spoilt_or_unknown_hash_matches_nothing(stored: str) -> None:
    assert not verify_password("hunter22", stored)
    assert verify_and_update("hunter22", stored) == (False, None)


def test_a_directors_old_hash_is_replaced_at_the_next_login(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'g.db'}")
    service = TournamentService.open(db)
    info = service.create("Spring open", Settings("swiss"), password="hunter22")
    repo = service.repo
    repo.set_password_hash(info.id, OLD_1000)  # as stored before argon2
    audit = len(repo.audit(info.id))
    assert not service.check_password(info.id, "hunter23")
    assert repo.password_hash(info.id) == OLD_1000  # a wrong password changes nothing
    assert service.check_password(info.id, "hunter22")
    upgraded = repo.password_hash(info.id)
    assert upgraded is not None and upgraded.startswith("$argon2id$")
    assert service.check_password(info.id, "hunter22")
    assert repo.password_hash(info.id) == upgraded  # once
    assert len(repo.audit(info.id)) == audit  # the same password: no audit entry
    # a password changed meanwhile is not overwritten by a late upgrade
    assert not repo.replace_password_hash(info.id, OLD_1000, "$argon2id$stale")
    db.close()


def test_a_researchers_old_hash_is_replaced_at_the_next_login(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'g.db'}")
    db.open()
    service = StudyService(StudyRepository(db), GameRepository(db))
    info = service.create("Pilot", StudySettings(), "correct horse")
    with db.session() as session, session.begin():
        row = session.get(StudyRow, info.id)
        assert row is not None and row.password_hash.startswith("$argon2id$")
        row.password_hash = OLD
    assert not service.check_password(info.id, "wrong")
    assert service.repo.password_hash(info.id) == OLD
    assert service.check_password(info.id, "correct horse")
    upgraded = service.repo.password_hash(info.id)
    assert upgraded is not None and upgraded.startswith("$argon2id$")
    assert service.check_password(info.id, "correct horse")
    db.close()
