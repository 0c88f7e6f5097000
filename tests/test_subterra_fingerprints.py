"""Sub Terra records stay byte for byte the same across refactors (fixed seed, every preset).

Each cell (preset x bot x cavers) plays a fixed number of games on one seed and hashes the
records field by field (sha1 over each column's bytes, in the record's field order). The
stored digests were computed on the code before the bots and searches were split into
named steps and the searches moved to ``simlib.core.paths`` (commit ad50ae1); a change to
any record of any game in any cell changes its digest. A deliberate rule or bot change that
moves the records must say so and store new digests (``python
tests/test_subterra_fingerprints.py`` prints them).
"""

from __future__ import annotations

import numpy as np
import pytest
from frames import records_digest as digest

from simlib.games.registry import get_game

SEED = 2718
GAMES = 300  # scripted bots: a few hundred games a cell
SEARCH_GAMES = 60  # the search bot plays every decision forward: fewer games a cell
PRESETS = ("normal", "advanced", "expert")
BOTS = (("explorer", {}), ("cautious", {}), ("racer", {}), ("search", {"budget": 2}))
CAVERS = (4, 5, 6)

# (preset, bot, cavers) -> sha1 of the records of games 0..n-1 of seed SEED
FINGERPRINTS = {
    ("normal", "explorer", 4): "2a060cf3bfe831633bc2e3461c93fbf485dd537c",
    ("normal", "explorer", 5): "6ed4447f8fa3077d907a106202e05e5d3657fa8c",
    ("normal", "explorer", 6): "00a1a1fa8d136a1edec4dd8dea81418fa7438101",
    ("normal", "cautious", 4): "0119e82ff2ff717a2f540c4b8bd1c2632bf7ba2c",
    ("normal", "cautious", 5): "994818e17cebe874d5067029ca203c2bbc073fd8",
    ("normal", "cautious", 6): "b88574592e92242099bada641ff1adb4f714502d",
    ("normal", "racer", 4): "c74b788429cf3ef41255bdd9add1a581c7502723",
    ("normal", "racer", 5): "8b46c9b4a09c68c39b56d3c764ae337a8a956387",
    ("normal", "racer", 6): "d6420cde2d08fccabe1243a2d9c4d14740e5af61",
    ("normal", "search", 4): "084c9fb6e1038d66e119fee82424a6ba23d7185d",
    ("normal", "search", 5): "37ee77cd28857d78e9e168b84774aa8ccccd6880",
    ("normal", "search", 6): "8a59029c80d1ec84913dd3929ede839fb0f666df",
    ("advanced", "explorer", 4): "4563e27835bb7895dc207c28ca98704a59c65d0e",
    ("advanced", "explorer", 5): "4e6a89bcfde945de74d52014c8e5eacf8a24c8e3",
    ("advanced", "explorer", 6): "8c1327ad23efb3062563564f90d92370588b31b9",
    ("advanced", "cautious", 4): "2d54c52db6a51a4458e7497eb12c3aa060acea2f",
    ("advanced", "cautious", 5): "462b05138072be96e84d371da66d43a8af50163d",
    ("advanced", "cautious", 6): "8e4a0e0ebb9c7c6f3e99c1bbc7cdaf0a295f6909",
    ("advanced", "racer", 4): "a79610e346ae57c726781706a90712a33471c11a",
    ("advanced", "racer", 5): "4ac5a0f89cc3418996b1c7339891f0a0dd779844",
    ("advanced", "racer", 6): "ec1cdf2bb8fe09682fafd0e5373bafeeb321cb9a",
    ("advanced", "search", 4): "b82555fd50f60da1d4fd126a3cc311901c08d424",
    ("advanced", "search", 5): "b7cecb69becb9606456836043e14230e310da481",
    ("advanced", "search", 6): "a0a480892cd83102b0b26de296d4c78007f4b74d",
    ("expert", "explorer", 4): "d43234a0cfe2f4f1041dc02bdd7bd4fa302ebc29",
    ("expert", "explorer", 5): "c7a7b5276f0b1a55d910fa6365e1bee8c2e75eee",
    ("expert", "explorer", 6): "0f97d9202f824e7ea1927c925ae20639ad473a3a",
    ("expert", "cautious", 4): "dbb7dc35ad6aeb57b5bee5f8ff2cf05cc6414029",
    ("expert", "cautious", 5): "fbde4e461c716f5bba0c9ae6c334cc507b24feaa",
    ("expert", "cautious", 6): "2f080e62c208ee019abcad8ceb178e8467beda23",
    ("expert", "racer", 4): "f5a214b7fabef366bcaa7b34fb8d7d90bedc24b7",
    ("expert", "racer", 5): "d157abbb5ff8429215692038a17a00d7c7ace9a9",
    ("expert", "racer", 6): "e35df30029cafd33f41feb5edd61d82538fa035a",
    ("expert", "search", 4): "8335a7aa23d01c80f15d55134b82efff8968a7b8",
    ("expert", "search", 5): "d4103ec6838ce25b4d73c845a84f9324d26e585d",
    ("expert", "search", 6): "f05c9bd753a94aa88a043e5ccad470b667b5853f",
}


def fingerprint(preset: str, bot: str, overrides: dict, cavers: int) -> str:
    """The sha1 of the records of one cell's games (each field's bytes in turn)."""
    game = get_game("subterra")
    compiled = game.compile(game.resolve(preset, {"cavers": cavers}))
    spec = game.bot(bot)
    bp = np.array(list(spec.resolve_params(overrides).values()), dtype=np.float64)
    games = SEARCH_GAMES if bot == "search" else GAMES
    records = game.play_batch(compiled, spec.id, bp, SEED, 0, games)
    return digest(records)


CELLS = [(p, b, o, c) for p in PRESETS for b, o in BOTS for c in CAVERS]


@pytest.mark.parametrize(("preset", "bot", "overrides", "cavers"), CELLS,
                         ids=[f"{p}-{b}-{c}" for p, b, _, c in CELLS])
def test_records_match_the_stored_fingerprint(preset, bot, overrides, cavers):
    assert fingerprint(preset, bot, overrides, cavers) == FINGERPRINTS[(preset, bot, cavers)]


def test_digest_sees_a_change_in_any_record():
    # the check can fail: one field of one game changed changes the digest
    game = get_game("subterra")
    compiled = game.compile(game.resolve("normal", {"cavers": 4}))
    spec = game.bot("explorer")
    bp = np.array(list(spec.params.values()), dtype=np.float64)
    records = game.play_batch(compiled, spec.id, bp, SEED, 0, 20)
    before = digest(records)
    assert digest(records.copy()) == before
    changed = records.copy()
    changed["heals"][17] += 1
    assert digest(changed) != before


if __name__ == "__main__":  # print the digests of the code as it stands
    for p, b, o, c in CELLS:
        print(f'    ("{p}", "{b}", {c}): "{fingerprint(p, b, o, c)}",')
