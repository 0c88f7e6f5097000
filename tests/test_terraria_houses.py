"""Terraria: the placed bottle house, the cooking pot house and mana regained mid-day.

Rows: TR-253 (one bottle potion a day for the team, if one is left), TR-254 (open: the
bottle's token is one flag, "used today", cleared at sunrise), TR-255 (each player one food
token a day, its bonus at once), TR-257 (open: neither house needs the character near it),
TR-086 / TR-087 (the sunrise resets), TR-357 (mana regained mid-day by house bonus tokens and
armor sets, as their data says), TR-355 (never above the maximum), TR-388 (no copy left:
nothing). Scenario tests on a game set up by ``setup.setup_nb`` from the default content,
the state edited by hand; then the bots' use of both houses, whole games, the record
columns, and plain Python against numba.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simlib.games.terraria import GAME, bots, state
from simlib.games.terraria.compile import compile_tables, table_names
from simlib.games.terraria.engine import (
    checks,
    cleanup,
    enemy_turn,
    magic,
    preparation,
    rewards,
    setup,
)
from simlib.games.terraria.state import AR, CC, CH, CNT, CO, HA, PC, RK, RW, STATION, SUP, TT, G

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def _compiled(players=2):
    return GAME.compile(GAME.resolve(None, {"players": players}))


def ident(table, name):
    return table_names()[table].index(name)


HEALING = ident("consumables", "healing_potion")
LUCK = ident("consumables", "greater_luck_potion")
MAGIC = ident("consumables", "magic_power_potion")
RECALL = ident("consumables", "recall_potion")
JUNGLE = ident("armor", "jungle")
WAND = ident("equipment", "wand_of_sparking")


def new_game(players=2, time=1):
    """A fresh game, the time token on space ``time`` (1: a day space, not a sunrise)."""
    tab, cfg = _compiled(players)
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(11), 0)
    st.g[G.ROUND] = 2
    st.g[G.TIME] = time
    return st, tab


def stand(st, tab, hid_name, bit):
    """The house stands far from every character (TR-257: nobody needs to be near it)."""
    hid = ident("houses", hid_name)
    n = st.g[G.HOUSES]
    st.house_at[n, HA.ID] = hid
    st.house_at[n, HA.ROW] = st.grid.shape[1] - 3  # the Underworld, far from the Surface
    st.house_at[n, HA.COL] = 0
    st.g[G.HOUSES] = n + 1
    st.g[G.STATIONS] |= bit
    for p in range(st.g[G.PLAYERS]):
        assert abs(st.pieces[p, PC.ROW] - st.house_at[n, HA.ROW]) > 1
    if bit == STATION.COOKING_POT:
        st.g[G.COOK_LEFT] = 15  # "When built, place the 4 food buff tokens, uneaten side up"


def sunrise(st, tab):
    """Preparation on the sunrise space (TR-080..089)."""
    st.g[G.TIME] = 0
    assert tab.time_track[0, TT.SUNRISE]
    preparation.preparation_nb(st, tab, 0, np.zeros(bots.BP.N))
    st.g[G.TIME] = 1


def food(tab, kind):
    """The food token of reward ``kind`` in the default data (one of each here)."""
    hits = [t for t in range(tab.food.shape[0]) if tab.food[t, RW.KIND] == kind]
    assert len(hits) == 1
    return hits[0]


def weights(name="builder", **over):
    """A bot's turn weights (``bots.BP``), parameters overridden by name."""
    w = np.zeros(bots.BP.N)
    _, defaults, _ = bots.BOTS[name]
    w[: len(defaults)] = defaults
    for key, v in over.items():
        w[bots.PARAM_NAMES.index(key)] = v
    return w


# --- the placed bottle house --------------------------------------------------------------------
def test_the_bottle_gives_one_potion_a_day_to_the_whole_team():  # TR-253, TR-254, TR-257
    st, tab = new_game(players=3)
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 0  # no house: nothing
    assert st.g[G.BOTTLE] == 0 and st.held[0, HEALING] == 0
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    left = st.supply[SUP.CONSUMABLE, HEALING]
    assert magic.use_bottle_nb(st, tab, 1, HEALING) == 1  # far from the house (TR-257)
    assert st.held[1, HEALING] == 1 and st.supply[SUP.CONSUMABLE, HEALING] == left - 1
    assert st.g[G.BOTTLE] == 1 and st.chars[1, CH.BOTTLED] == 1
    for p in range(3):  # once a day for the team, whoever asks and for whatever potion
        for c in (HEALING, LUCK, MAGIC):
            assert magic.use_bottle_nb(st, tab, p, c) == 0
    assert st.held[:3, [HEALING, LUCK, MAGIC]].sum() == 1
    assert st.chars[:3, CH.BOTTLED].sum() == 1


def test_the_bottle_gives_only_its_three_potions():  # TR-253
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    bottle = [c for c in range(tab.consumables.shape[0]) if tab.consumables[c, CO.BOTTLE]]
    assert bottle == [HEALING, LUCK, MAGIC]
    for c in range(tab.consumables.shape[0]):
        if c not in bottle:
            assert magic.use_bottle_nb(st, tab, 0, c) == 0
    assert magic.use_bottle_nb(st, tab, 0, -1) == 0
    assert magic.use_bottle_nb(st, tab, 0, tab.consumables.shape[0]) == 0
    assert st.g[G.BOTTLE] == 0 and st.held[0].sum() == 0  # refusals flip nothing
    assert magic.use_bottle_nb(st, tab, 0, RECALL) == 0
    assert magic.use_bottle_nb(st, tab, 0, MAGIC) == 1 and st.held[0, MAGIC] == 1


def test_the_bottle_gives_a_potion_only_if_one_is_left():  # TR-253, TR-388
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    st.supply[SUP.CONSUMABLE, HEALING] = 0  # every Healing potion is held
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 0
    assert st.g[G.BOTTLE] == 0 and st.held[0, HEALING] == 0  # still unused today
    n = st.supply[SUP.CONSUMABLE, LUCK]
    assert magic.use_bottle_nb(st, tab, 0, LUCK) == 1
    assert st.held[0, LUCK] == 1 and st.supply[SUP.CONSUMABLE, LUCK] == n - 1


def test_the_bottle_resets_at_sunrise_only():  # TR-254, TR-086
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 1
    for space in range(1, tab.time_track.shape[0]):  # preparation on the other spaces
        assert not tab.time_track[space, TT.SUNRISE]
        st.g[G.TIME] = space
        preparation.preparation_nb(st, tab, 0, np.zeros(bots.BP.N))
        assert st.g[G.BOTTLE] == 1
        assert magic.use_bottle_nb(st, tab, 1, HEALING) == 0
    sunrise(st, tab)
    assert st.g[G.BOTTLE] == 0 and st.g[G.DAY] == 2
    assert magic.use_bottle_nb(st, tab, 1, HEALING) == 1  # a new day: a new potion
    assert st.held[0, HEALING] == 1 and st.held[1, HEALING] == 1
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 0


def test_the_bottle_serves_only_a_character_on_the_world():  # TR-253
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    st.chars[0, CH.IN_WORLD] = 0  # dead, waiting to respawn
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 0 and st.g[G.BOTTLE] == 0
    st.chars[0, CH.IN_WORLD] = 1
    st.g[G.OVER] = 1
    assert magic.use_bottle_nb(st, tab, 0, HEALING) == 0 and st.g[G.BOTTLE] == 0


# --- the cooking pot house -----------------------------------------------------------------------
def test_the_default_food_tokens():  # TR-255, TR-357
    tab, _ = _compiled()
    assert tab.food.tolist() == [
        [RK.HEAL, 0, 3],
        [RK.MANA, 0, 2],
        [RK.COINS, 0, 3],
        [RK.ROPE, 0, 1],
    ]


def test_each_player_eats_one_token_a_day_and_gets_its_bonus_at_once():
    # TR-255, TR-257, TR-357
    st, tab = new_game(players=3)
    heal, mana, coins, rope = (food(tab, k) for k in (RK.HEAL, RK.MANA, RK.COINS, RK.ROPE))
    st.chars[0, CH.HP] = 1
    assert magic.eat_food_nb(st, tab, 0, heal) == 0  # no house: nothing
    assert st.chars[0, CH.HP] == 1 and st.g[G.COOKED] == 0
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    assert magic.eat_food_nb(st, tab, 0, heal) == 1  # far from the house (TR-257)
    assert st.chars[0, CH.HP] == 4 and st.chars[0, CH.HEALED] == 3
    assert st.g[G.COOK_LEFT] == 15 & ~(1 << heal) and st.g[G.COOKED] == 1
    assert st.chars[0, CH.EATEN] == 1
    assert magic.eat_food_nb(st, tab, 0, mana) == 0  # one token a player a day
    assert magic.eat_food_nb(st, tab, 1, heal) == 0  # that token is eaten today
    st.chars[1, CH.MANA] = 0
    assert magic.eat_food_nb(st, tab, 1, mana) == 1
    assert st.chars[1, CH.MANA] == 2  # mana regained mid-day (TR-357)
    coins0 = st.cnt[CNT.COINS]
    assert magic.eat_food_nb(st, tab, 2, coins) == 1
    assert st.chars[2, CH.COINS] == 3 and st.cnt[CNT.COINS] == coins0 + 3
    assert st.g[G.COOK_LEFT] == 1 << rope and st.g[G.COOKED] == 0b111
    for p in range(3):
        assert magic.eat_food_nb(st, tab, p, rope) == 0
    assert st.chars[:3, CH.EATEN].tolist() == [1, 1, 1]
    for bad in (-1, tab.food.shape[0]):
        assert magic.eat_food_nb(st, tab, 0, bad) == 0


def test_a_fourth_player_eats_the_last_token():  # TR-255
    st, tab = new_game(players=4)
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    for p in range(4):
        assert magic.eat_food_nb(st, tab, p, 3 - p) == 1
    assert st.g[G.COOK_LEFT] == 0 and st.g[G.COOKED] == 0b1111
    assert st.chars[0, CH.ROPES] == 1  # token 3: a rope token to place


def test_food_mana_and_health_stop_at_the_maximum():  # TR-357, TR-355
    st, tab = new_game()
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    st.chars[0, CH.MANA] = st.chars[0, CH.MAXMANA] - 1
    assert magic.eat_food_nb(st, tab, 0, food(tab, RK.MANA)) == 1
    assert st.chars[0, CH.MANA] == st.chars[0, CH.MAXMANA]
    st.chars[1, CH.HP] = st.chars[1, CH.MAXHP] - 1
    assert magic.eat_food_nb(st, tab, 1, food(tab, RK.HEAL)) == 1
    assert st.chars[1, CH.HP] == st.chars[1, CH.MAXHP] and st.chars[1, CH.HEALED] == 1


def test_the_food_tokens_reset_at_sunrise_only():  # TR-087, TR-255
    st, tab = new_game()
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    assert magic.eat_food_nb(st, tab, 0, 0) == 1 and magic.eat_food_nb(st, tab, 1, 1) == 1
    for space in range(1, tab.time_track.shape[0]):
        st.g[G.TIME] = space
        preparation.preparation_nb(st, tab, 0, np.zeros(bots.BP.N))
        assert st.g[G.COOK_LEFT] == 0b1100 and st.g[G.COOKED] == 0b11
    sunrise(st, tab)
    assert st.g[G.COOK_LEFT] == 15 and st.g[G.COOKED] == 0
    assert magic.eat_food_nb(st, tab, 0, 0) == 1 and st.chars[0, CH.EATEN] == 2


def test_a_mana_reward_in_a_designers_file(tmp_path):  # TR-357
    f = tmp_path / "food.toml"
    f.write_text("[food]\ntokens = [['mana', 4], ['heal', 1], ['coins', 1], ['none']]\n")
    tab = compile_tables(str(f))
    assert tab.food[0].tolist() == [RK.MANA, 0, 4]


# --- armor sets (TR-357) ------------------------------------------------------------------------
def test_armor_mana_regen_is_data_jungle_armor_only():  # TR-357
    tab, _ = _compiled()
    regen = {n: int(tab.armor[i, AR.REGEN]) for i, n in enumerate(table_names()["armor"])}
    assert regen == {n: (1 if n == "jungle" else 0) for n in regen}


def test_the_worn_set_regains_mana_up_to_the_maximum():  # TR-357, TR-355
    st, tab = new_game()
    assert magic.armor_mana_nb(st, tab, 0) == 0  # no armor
    rewards.wear_armor_nb(st, tab, 0, JUNGLE)
    top = st.chars[0, CH.MAXMANA]
    assert top == tab.characters[st.chars[0, CH.CARD], CC.MANA] + tab.armor[JUNGLE, AR.MANA]
    st.chars[0, CH.MANA] = 0
    assert magic.armor_mana_nb(st, tab, 0) == 1 and st.chars[0, CH.MANA] == 1
    st.chars[0, CH.MANA] = top
    assert magic.armor_mana_nb(st, tab, 0) == 0 and st.chars[0, CH.MANA] == top
    st.chars[0, CH.MANA] = 0
    st.chars[0, CH.IN_WORLD] = 0
    assert magic.armor_mana_nb(st, tab, 0) == 0 and st.chars[0, CH.MANA] == 0


def test_the_turn_starts_with_the_armor_mana():  # TR-357
    # the same turn twice, once with the data's mana_regen and once with none: mana differs
    # by exactly the regen (nothing in these turns spends mana)
    out = []
    for regen in (1, 0):
        st, tab = new_game()
        armor = tab.armor.copy()
        armor[JUNGLE, AR.REGEN] = regen
        tab = state.replace(tab, armor=armor)
        st.owned[0, tab.equip.shape[0] + JUNGLE] = 1
        st.chars[0, CH.MANA] = 0
        bots.player_turn_nb(st, tab, 0, 1, weights())
        assert st.chars[0, CH.ARMOR] == JUNGLE
        out.append(int(st.chars[0, CH.MANA]))
    assert out[0] == out[1] + 1


# --- the bots ------------------------------------------------------------------------------------
def test_a_hurt_bot_takes_a_healing_potion_and_drinks_it():  # TR-253, TR-386
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    st.chars[0, CH.HP] = 1
    left = st.supply[SUP.CONSUMABLE, HEALING]
    bots.free_actions_nb(st, tab, 0, weights())
    assert st.g[G.BOTTLE] == 1 and st.chars[0, CH.BOTTLED] == 1
    assert st.chars[0, CH.HP] == 1 + tab.consumables[HEALING, CO.HEAL]  # drunk at once
    assert st.held[0, HEALING] == 0 and st.supply[SUP.CONSUMABLE, HEALING] == left
    bots.free_actions_nb(st, tab, 1, weights())  # the teammate: none left today
    assert st.held[1].sum() == 0


def test_a_bot_without_a_healing_potion_keeps_one_in_reserve():  # TR-253
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    bots.house_bonuses_nb(st, tab, 0, weights())
    assert st.held[0, HEALING] == 1 and st.chars[0, CH.HP] == st.chars[0, CH.MAXHP]
    sunrise(st, tab)
    bots.house_bonuses_nb(st, tab, 0, weights())  # it holds one: leaves it to a teammate
    assert st.g[G.BOTTLE] == 0
    bots.house_bonuses_nb(st, tab, 1, weights())
    assert st.held[1, HEALING] == 1 and st.g[G.BOTTLE] == 1


def test_a_mana_hungry_bot_takes_magic_power_and_drinks_it():  # TR-253, TR-357, TR-354
    st, tab = new_game()
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    st.held[0, HEALING] = 1  # a reserve already
    st.supply[SUP.CONSUMABLE, HEALING] -= 1
    st.owned[0, WAND] = 1
    st.chars[0, CH.WEAPON] = WAND  # a magic weapon: mana per attack
    st.chars[0, CH.MANA] = 0
    assert bots.mana_hungry_nb(st, tab, 0)
    bots.house_bonuses_nb(st, tab, 0, weights())
    assert st.chars[0, CH.BOTTLED] == 1 and st.held[0, MAGIC] == 0  # taken and drunk
    assert st.chars[0, CH.MANA] == min(st.chars[0, CH.MAXMANA], tab.consumables[MAGIC, CO.MANA])
    assert st.chars[0, CH.ATK] == tab.consumables[MAGIC, CO.ATK]


def test_greater_luck_waits_for_the_days_last_turn_and_a_fight():  # TR-253, TR-386
    st, tab = new_game(time=1)
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    st.held[0, HEALING] = 1
    st.supply[SUP.CONSUMABLE, HEALING] -= 1
    bots.house_bonuses_nb(st, tab, 0, weights(guard_range=0))
    assert st.g[G.BOTTLE] == 0  # no need yet, and the day goes on
    last = tab.time_track.shape[0] - 1
    assert tab.time_track[(last + 1) % tab.time_track.shape[0], TT.SUNRISE]
    st.g[G.TIME] = last
    bots.house_bonuses_nb(st, tab, 0, weights(guard_range=0))  # nothing in sight
    assert st.held[0, LUCK] == 1 and st.g[G.BOTTLE] == 1
    bots.house_bonuses_nb(st, tab, 0, weights(guard_range=100))  # every enemy is near
    assert st.held[0, LUCK] == 0
    assert st.chars[0, CH.ATK] == tab.consumables[LUCK, CO.ATK]
    assert st.chars[0, CH.DEF] == tab.consumables[LUCK, CO.DEF]


def test_a_bot_eats_the_token_that_helps_most():  # TR-255
    st, tab = new_game(time=1)
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    heal, coins = food(tab, RK.HEAL), food(tab, RK.COINS)
    bots.house_bonuses_nb(st, tab, 0, weights())  # unhurt: keeps its meal for later today
    assert st.g[G.COOKED] == 0
    st.chars[0, CH.HP] = st.chars[0, CH.MAXHP] - 3  # the heal token heals in full: at once
    bots.house_bonuses_nb(st, tab, 0, weights())
    assert st.g[G.COOKED] == 1 and st.g[G.COOK_LEFT] == 15 & ~(1 << heal)
    assert st.chars[0, CH.HP] == st.chars[0, CH.MAXHP]
    st.g[G.TIME] = tab.time_track.shape[0] - 1  # the day's last turn: the best that is left
    bots.house_bonuses_nb(st, tab, 1, weights())
    assert st.g[G.COOKED] == 0b11 and st.chars[1, CH.COINS] == 3
    assert st.g[G.COOK_LEFT] == 15 & ~(1 << heal) & ~(1 << coins)


def test_a_mana_hungry_bot_eats_the_mana_token():  # TR-255, TR-357
    st, tab = new_game(time=1)
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    st.chars[0, CH.OTHER] = ident("equipment", "slime_staff")  # a minion it cannot pay for
    st.chars[0, CH.MANA] = 1
    assert bots.mana_hungry_nb(st, tab, 0)
    bots.house_bonuses_nb(st, tab, 0, weights())
    assert st.g[G.COOK_LEFT] == 15 & ~(1 << food(tab, RK.MANA))
    assert st.chars[0, CH.MANA] == st.chars[0, CH.MAXMANA]


@pytest.mark.parametrize("players", [1, 3])
def test_bots_use_both_houses_day_after_day(players):  # TR-253, TR-254, TR-255, TR-087
    # rounds as play.play_one_nb plays them, both houses standing from the start: each day
    # the team takes at most one bottle potion and each player eats at most one token
    tab, cfg = GAME.compile(GAME.resolve("medium", {"players": players}))
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(7), 1)
    stand(st, tab, "placed_bottle", STATION.BOTTLE)
    stand(st, tab, "cooking_pot", STATION.COOKING_POT)
    bot = GAME.bot("builder")
    bp = np.array(list(bot.params.values()), dtype=np.float64)
    per_day: dict[int, list[int]] = {}
    for _ in range(4 * tab.time_track.shape[0]):
        st.g[G.ROUND] += 1
        if st.g[G.ROUND] > 1:
            preparation.preparation_nb(st, tab, bot.id, bp)
        day = int(st.g[G.DAY])
        for p in range(players):
            bots.player_turn_nb(st, tab, p, bot.id, bp)
            checks.check_invariants_nb(st, tab)
            if st.g[G.OVER]:
                break
        if st.g[G.OVER]:
            break
        per_day[day] = [int(st.chars[:players, CH.BOTTLED].sum()),
                        int(st.chars[:players, CH.EATEN].sum())]
        assert bin(int(st.g[G.COOKED])).count("1") == 4 - bin(int(st.g[G.COOK_LEFT])).count("1")
        enemy_turn.enemy_turn_nb(st, tab)
        if st.g[G.OVER]:
            break
        cleanup.cleanup_nb(st, tab)
    days = sorted(per_day)
    assert len(days) >= 2
    prev = [0, 0]
    for d in days:
        bottled, eaten = per_day[d][0] - prev[0], per_day[d][1] - prev[1]
        assert 0 <= bottled <= 1 and 0 <= eaten <= players
        prev = per_day[d]
    assert prev[0] >= 1 and prev[1] >= 1  # the bots took potions and ate


def test_whole_games_record_both_houses():  # TR-253, TR-255
    vals = GAME.resolve("medium", {"players": 2, "check_invariants": True})
    comp = GAME.compile(vals)
    bot = GAME.bot("builder")
    bp = np.array(list(bot.params.values()), dtype=np.float64)
    df = GAME.records_to_frame(GAME.play_batch(comp, bot.id, bp, 7, 0, 40))
    assert (df["bottle_potions"] <= df["day"]).all()  # at most one a day for the team
    assert (df["food_eaten"] <= 2 * df["day"]).all()  # one a player a day
    assert (df.loc[df["houses"] < 3, ["bottle_potions", "food_eaten"]] == 0).all().all()


def test_the_record_columns():  # TR-428
    assert state.MEASURES[-2:] == ("bottle_potions", "food_eaten")
    assert set(state.MEASURES) <= set(state.record_dt.names)
    assert GAME.measure_columns == state.MEASURES


# --- plain Python against numba ---------------------------------------------------------------
SCENARIO = """
import json, warnings
warnings.filterwarnings("ignore")
import numpy as np
from simlib.games.terraria import GAME, bots
from simlib.games.terraria.engine import checks, cleanup, enemy_turn, magic
from simlib.games.terraria.engine import preparation, rewards, setup
from simlib.games.terraria.state import CH, STATION, G
tab, cfg = GAME.compile(GAME.resolve(None, {"players": 2}))
st = setup.alloc_state_nb(tab)
setup.setup_nb(st, tab, cfg, np.uint64(5), 3)
w = np.zeros(bots.BP.N)
w[:len(bots.BOTS["builder"][1])] = bots.BOTS["builder"][1]
st.g[G.STATIONS] |= STATION.BOTTLE | STATION.COOKING_POT
st.g[G.COOK_LEFT] = 15
st.g[G.TIME] = 1
st.chars[0, CH.HP] = 2
out = []
for t in range(8):
    p = t % 2
    st.g[G.TIME] = 1 + t % 7
    bots.house_bonuses_nb(st, tab, p, w)
    out.append([int(x) for x in st.g[28:31]] + st.chars[:2, :].ravel().tolist()
               + st.held[:2].ravel().tolist())
print(json.dumps(out))
"""


def test_plain_python_matches_numba():  # TR-253, TR-255
    def run(disable):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("NUMBA_DISABLE_JIT", None)
        if disable:
            env["NUMBA_DISABLE_JIT"] = "1"
        res = subprocess.run([sys.executable, "-c", SCENARIO], env=env, cwd=ROOT,
                             capture_output=True, text=True, timeout=900, check=True)
        return json.loads(res.stdout.strip().splitlines()[-1])

    plain = run(True)
    assert plain == run(False)
    assert plain[-1][0] == 1 and plain[-1][2] != 15  # the bottle and the pot were used
