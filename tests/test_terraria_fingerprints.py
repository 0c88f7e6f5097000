"""Terraria records stay byte for byte the same across refactors (fixed seed, presets, modes).

Each cell (preset x mode x bot x players, with a few setting overrides) plays a fixed number
of games on one seed and hashes the records field by field (sha1 over each column's bytes,
in the record's field order). The cells cover every preset (easy, medium, hard) with every
mode (standard, the three variants and one combination of two) and every scripted bot at
2 players, players 1 and 4 on medium with the builder, the ``mob_debuff`` reading's
alternative with a fixed evil biome, and the search bot at a small budget. The stored
digests were computed on the code before Terraria was put in the common shape (settings,
compile, state, engine/ a module per phase, bots, search; commit 6e31a61); a change to any
record of any game in any cell changes its digest. A deliberate rule or bot change that
moves the records must say so and store new digests (``python
tests/test_terraria_fingerprints.py`` prints them).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from simlib.games.registry import get_game

SEED = 3141
GAMES = 300  # scripted bots: about half a second of play a cell
SEARCH_GAMES = 12  # the search bot plays every turn forward: fewer games
SEARCH_BUDGET = 1
PRESETS = ("easy", "medium", "hard")
MODES = ("standard", "journey", "lucky_horseshoe", "enchanted_sundial",
         "lucky_horseshoe+enchanted_sundial")
BOTS = ("builder", "explorer", "fighter")

# (preset, mode, bot, players, overrides) of every cell
CELLS = (
    [(p, m, b, 2, ()) for p in PRESETS for m in MODES for b in BOTS]
    + [("medium", "standard", "builder", n, ()) for n in (1, 4)]
    + [("medium", "standard", "builder", 3,
        (("mob_debuff", "each_die"), ("evil_biome", "crimson")))]
    + [("medium", "standard", "search", 2, ())]
)

# cell id -> sha1 of the records of games 0..n-1 of seed SEED
FINGERPRINTS = {
    "easy-standard-builder-2p": "cf7347d04474a76e40c963899da8629a06469a02",
    "easy-standard-explorer-2p": "42867e7fc8eb173da721f4b11521e61e08fabf9b",
    "easy-standard-fighter-2p": "6093bea9d945fa45a38997fe6020d60974773a7e",
    "easy-journey-builder-2p": "c5e60d6bbcde188769bd1e41b665f447a9f38b14",
    "easy-journey-explorer-2p": "cf1e23e220b6ba99b2b387d788299f92027f76fb",
    "easy-journey-fighter-2p": "fadb6816a32cd2b61c50893970f4ca044c30ed71",
    "easy-horseshoe-builder-2p": "1590d0295326da1acd1709557da32ef1913562d9",
    "easy-horseshoe-explorer-2p": "2278f5658f65c52f4c41c64ae8eedce26ca78df7",
    "easy-horseshoe-fighter-2p": "5ab85f7ed6e9c16a0c7125756d4df6248001c6fe",
    "easy-sundial-builder-2p": "b89088f4e4e45c9b69eacdd71173a3acabe2428a",
    "easy-sundial-explorer-2p": "7fc727a15dd083ac1668b1ebc785f65c05e557c8",
    "easy-sundial-fighter-2p": "abc3df1f14655a267fea62c01e6357f1d8150948",
    "easy-horseshoe+sundial-builder-2p": "fe21adfc37017c3a27f684d9c05dd8a16f266ff6",
    "easy-horseshoe+sundial-explorer-2p": "aeaeb00177596533dc54d15e2090378104304314",
    "easy-horseshoe+sundial-fighter-2p": "f6ec64285de60ec4f2ed4674274aaf422b708250",
    "medium-standard-builder-2p": "afec874b748877f3056f72dbc0198be0c0d52d30",
    "medium-standard-explorer-2p": "42771734619104a70929f3587da4307eb7be6a7d",
    "medium-standard-fighter-2p": "67ecf349bafe0f7d1c12d8bac0e61407036071ac",
    "medium-journey-builder-2p": "86245f1348660325645817f23976bedd707226e1",
    "medium-journey-explorer-2p": "16f6547829cc46d25e02a8041b111df78964c08d",
    "medium-journey-fighter-2p": "3bd1a27371d8c5ffcfe7869cc5125bef412e9743",
    "medium-horseshoe-builder-2p": "4a0e515be8a5c8b5618950e79a423871eb4c5286",
    "medium-horseshoe-explorer-2p": "88fac854d21dbbadec1e9b8db561d3456c2bf18e",
    "medium-horseshoe-fighter-2p": "90a75898d38a9c3a585d52bc55b87d78265d17d5",
    "medium-sundial-builder-2p": "7711929dbb4859ca76d7752f81f4bf3b550597f7",
    "medium-sundial-explorer-2p": "56e81862a82605d3ffb91e116010126a3372247b",
    "medium-sundial-fighter-2p": "6c2d4970d90a921da155af8e7404d59efc33f1ab",
    "medium-horseshoe+sundial-builder-2p": "21e11d36fb6f17210f7eac2466e37dbff0208290",
    "medium-horseshoe+sundial-explorer-2p": "74bee6da057b33b582ba33aa4e55c4023b056e2e",
    "medium-horseshoe+sundial-fighter-2p": "f44dde1371d17682c8a01aadbabe23e050a67cd2",
    "hard-standard-builder-2p": "d6a8ee1c16fff95f06c75a5626d39e398e60df4c",
    "hard-standard-explorer-2p": "2fec586b4440b579b8fa9d8b51892c58edfaa01e",
    "hard-standard-fighter-2p": "e12f5d62136df14bbcb016ecd9fc27efafa90be7",
    "hard-journey-builder-2p": "8e6f948bdfbf2f7c8a00c92d37cde344cb7b4885",
    "hard-journey-explorer-2p": "e10506203db3ac891050d1fc559f07769f2dd433",
    "hard-journey-fighter-2p": "5a9e5f2244bb86ad2c01f1dbe95b6ff610fbc4f2",
    "hard-horseshoe-builder-2p": "1478c79d46189d8045e6f87c43f3bbab6d23f4bd",
    "hard-horseshoe-explorer-2p": "2ba965d57a0914e5334f829fc56bb3e23765a04e",
    "hard-horseshoe-fighter-2p": "56df559c0bd3e99948169e2138bceea730467219",
    "hard-sundial-builder-2p": "6802c4ebfbb6a56d7ccc3e4f097b4b2ffb587914",
    "hard-sundial-explorer-2p": "a09eb45ee25586f458649afea2c8121819ac1e6a",
    "hard-sundial-fighter-2p": "9ae3eb0c5325706e5b4f3d046770353c515201a6",
    "hard-horseshoe+sundial-builder-2p": "d939058231311831edb20c6a1a1036412298d12a",
    "hard-horseshoe+sundial-explorer-2p": "878f05a59f1a78422cd95b9480aad7c2eba3f9ce",
    "hard-horseshoe+sundial-fighter-2p": "51050738744b0d2ecccb7ae1ee0d65dcb2100cdd",
    "medium-standard-builder-1p": "319f53e8f91e0e2d6bd4d02a10e61ada59897c6c",
    "medium-standard-builder-4p": "6937c8ab6630278d02a15bd5d46da76416297f1e",
    "medium-standard-builder-3p-each_die-crimson": "4b342aa3adc11700521baf6f82fbc405cda218dd",
    "medium-standard-search-2p": "b44649e1b8772ca8e6f61c425dfae3dc7f5922d2",
}


# the cells' names shorten the modes' and settings' values
SHORT = {"lucky_horseshoe": "horseshoe", "enchanted_sundial": "sundial"}


def cell_id(preset: str, mode: str, bot: str, players: int, overrides: tuple) -> str:
    """The cell's name in the stored digests and in pytest's ids."""
    mode = "+".join(SHORT.get(m, m) for m in mode.split("+"))
    extra = "".join(f"-{v}" for _, v in overrides)
    return f"{preset}-{mode}-{bot}-{players}p{extra}"


def fingerprint(preset: str, mode: str, bot: str, players: int, overrides: tuple) -> str:
    """The sha1 of the records of one cell's games (each field's bytes in turn)."""
    game = get_game("terraria")
    values = game.resolve(preset, {"mode": mode, "players": players, **dict(overrides)})
    compiled = game.compile(values)
    spec = game.bot(bot)
    params = {"budget": SEARCH_BUDGET} if bot == "search" else {}
    bp = np.array(list(spec.resolve_params(params).values()), dtype=np.float64)
    games = SEARCH_GAMES if bot == "search" else GAMES
    records = game.play_batch(compiled, spec.id, bp, SEED, 0, games)
    return digest(records)


def digest(records: np.ndarray) -> str:
    """sha1 over the records' fields, one after another (padding bytes left out)."""
    h = hashlib.sha1()
    for name in records.dtype.names or ():
        h.update(name.encode())
        h.update(np.ascontiguousarray(records[name]).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize(("preset", "mode", "bot", "players", "overrides"), CELLS,
                         ids=[cell_id(*c) for c in CELLS])
def test_records_match_the_stored_fingerprint(preset, mode, bot, players, overrides):
    cell = cell_id(preset, mode, bot, players, overrides)
    assert fingerprint(preset, mode, bot, players, overrides) == FINGERPRINTS[cell]


def test_the_cells_differ():
    # every cell plays games of its own: a setting that failed to reach the kernels would
    # give two cells one digest
    assert len(set(FINGERPRINTS.values())) == len(CELLS) == len(FINGERPRINTS)


def test_digest_sees_a_change_in_any_record():
    # the check can fail: one field of one game changed changes the digest
    game = get_game("terraria")
    compiled = game.compile(game.resolve("medium", {}))
    spec = game.bot("builder")
    bp = np.array(list(spec.params.values()), dtype=np.float64)
    records = game.play_batch(compiled, spec.id, bp, SEED, 0, 20)
    before = digest(records)
    assert digest(records.copy()) == before
    changed = records.copy()
    changed["kills"][17] += 1
    assert digest(changed) != before


if __name__ == "__main__":  # print the digests of the code as it stands
    for c in CELLS:
        print(f'    "{cell_id(*c)}": "{fingerprint(*c)}",')
