"""Terraria records stay byte for byte the same across refactors (fixed seed, presets, modes).

Each cell (preset x mode x bot x players, with a few setting overrides) plays a fixed number
of games on one seed and hashes the records field by field (sha1 over each column's bytes,
in the record's field order). The cells cover every preset (easy, medium, hard) with every
mode (standard, the three variants and one combination of two) and every scripted bot at
2 players, players 1 and 4 on medium with the builder, the ``mob_debuff`` reading's
alternative with a fixed evil biome, and the search bot at a small budget. The stored
digests were computed on the code before Terraria was put in the common shape (settings,
compile, state, engine/ a module per phase, bots, search; commit 6e31a61) and stored again
when a played Magic Mirror started to recall (TR-389, engine version 4); a change to any
record of any game in any cell changes its digest. A deliberate rule or bot change that
moves the records must say so and store new digests (``python
tests/test_terraria_fingerprints.py`` prints them).
"""

from __future__ import annotations

import numpy as np
import pytest
from frames import records_digest as digest

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
    "easy-standard-fighter-2p": "7bf03666ba5b9ab1026f1691fda81ba0e5946dc8",
    "easy-journey-builder-2p": "77ba00d8e99f2db78313b9f6c057abad9da1daa9",
    "easy-journey-explorer-2p": "0f49c17f842e593b19dcdc802b297f610795791c",
    "easy-journey-fighter-2p": "fadb6816a32cd2b61c50893970f4ca044c30ed71",
    "easy-horseshoe-builder-2p": "1590d0295326da1acd1709557da32ef1913562d9",
    "easy-horseshoe-explorer-2p": "2278f5658f65c52f4c41c64ae8eedce26ca78df7",
    "easy-horseshoe-fighter-2p": "26233c8801f98edff2ad5736d02f76610552da4e",
    "easy-sundial-builder-2p": "b89088f4e4e45c9b69eacdd71173a3acabe2428a",
    "easy-sundial-explorer-2p": "7fc727a15dd083ac1668b1ebc785f65c05e557c8",
    "easy-sundial-fighter-2p": "9ae050d928f0b349d081fda7cabdd9ca076849f8",
    "easy-horseshoe+sundial-builder-2p": "fe21adfc37017c3a27f684d9c05dd8a16f266ff6",
    "easy-horseshoe+sundial-explorer-2p": "aeaeb00177596533dc54d15e2090378104304314",
    "easy-horseshoe+sundial-fighter-2p": "15724fb599627fd4508bcaf0235d2a2e2a598599",
    "medium-standard-builder-2p": "2bd37b47d8e1d4ebc333b0cbf2c41eba53c60919",
    "medium-standard-explorer-2p": "a04f725121bea4a76f9075e9dc10bb92684e5f78",
    "medium-standard-fighter-2p": "02c36e0bbef1a41c6e22d2ab07109cf989f39f0f",
    "medium-journey-builder-2p": "ca16c959bba4f6381b191f8a613eb343d1fd34aa",
    "medium-journey-explorer-2p": "6b112a9cc3c2ccc70266fbbb4d0c74cfd8480298",
    "medium-journey-fighter-2p": "675702f83c55a43d77532a3be72b15528d3a677b",
    "medium-horseshoe-builder-2p": "a1ff2bbfbdadb411295d68e436fc346ad87cf947",
    "medium-horseshoe-explorer-2p": "79f8698de0b31dfc6506437af491ef56d199a142",
    "medium-horseshoe-fighter-2p": "041876bcfc6c228ce654402d814b75ab39259bb5",
    "medium-sundial-builder-2p": "7d21a7c305b3d7e42050483e25881b82d370998f",
    "medium-sundial-explorer-2p": "b8cf4a849b3f2bfd9cdbb0769ec1655a3784230c",
    "medium-sundial-fighter-2p": "bf1c4157be8e1499e0dc21e1a6d1b068bf30bde1",
    "medium-horseshoe+sundial-builder-2p": "361003bc6d59d6932895ae6798520f18923a788b",
    "medium-horseshoe+sundial-explorer-2p": "fd384cfe6f34e0e2e74c100960125213a11833d7",
    "medium-horseshoe+sundial-fighter-2p": "775916751fd2570b7bec3a4b527d01918043a672",
    "hard-standard-builder-2p": "7827c5bc4e71653785513a765e327ebb7f013635",
    "hard-standard-explorer-2p": "acc0d2d8ed5bf7b8692b4ec0bb7159da96e95e1b",
    "hard-standard-fighter-2p": "302c7d66b13ab91848bb068f7deed5843201e0b5",
    "hard-journey-builder-2p": "51f1864441432d537c04d4242931a821702ae4a4",
    "hard-journey-explorer-2p": "951578d2b18bffb6681ec8b774dd5b9c476e6969",
    "hard-journey-fighter-2p": "64df27d96dddd8d1f34be4a6600b3f646ec0a681",
    "hard-horseshoe-builder-2p": "57a723171329d4cbf48ac7a9521e71a2613ae3ad",
    "hard-horseshoe-explorer-2p": "f31a12f78e94c47930b951eb7a1d6f8bca0119ae",
    "hard-horseshoe-fighter-2p": "3bb9aec91255c7276d8acb974431f7ecd386be0e",
    "hard-sundial-builder-2p": "3f3a91eda60f63b705b3b9c69c6417261f2e1b5e",
    "hard-sundial-explorer-2p": "19904909de220dd610546d84ef12e6ba4908acfd",
    "hard-sundial-fighter-2p": "e4f558956cf24ed15fd756e074fbce62badf89fc",
    "hard-horseshoe+sundial-builder-2p": "94557496dc70b2ff36436994b03112b75dbec360",
    "hard-horseshoe+sundial-explorer-2p": "9c1d0370395d25ceaf2b76f1f7a17dd3ce2553f1",
    "hard-horseshoe+sundial-fighter-2p": "775adb77b00dc954526146aae66a858f5113da09",
    "medium-standard-builder-1p": "319f53e8f91e0e2d6bd4d02a10e61ada59897c6c",
    "medium-standard-builder-4p": "6937c8ab6630278d02a15bd5d46da76416297f1e",
    "medium-standard-builder-3p-each_die-crimson": "5c61e49d85994cee8b6ddae7a6f94e9fe8da5a98",
    "medium-standard-search-2p": "c7fa61b0605385f099247bfce9da78da8ec9fe27",
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
