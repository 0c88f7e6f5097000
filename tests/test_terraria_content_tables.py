"""Terraria compiled content tables: shapes, printed numbers, references, validation.

Checklist ids (``shared/rules/terraria-checklist.md``) are cited beside each rule tested.
"""

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simlib.core.dice import duel_distribution
from simlib.core.jit import njit
from simlib.errors import SimlibInputError
from simlib.games.terraria.compile import (
    CHAIN_LEN,
    DATA_DIR,
    compile_tables,
    compile_world,
    load_content,
    load_tables,
    load_world,
    table_names,
)
from simlib.games.terraria.state import (
    AR,
    BH,
    BO,
    BOSS_SPAWN,
    CC,
    CF,
    CHAINS,
    CNT,
    CO,
    COUNTER_NAMES,
    DEBUFF,
    DICE,
    EN,
    EQ,
    HO,
    KIND,
    MAX_HOUSES,
    MAX_TOKENS,
    OB,
    RANGE,
    REWARD_SLOTS,
    RK,
    RU,
    RW,
    SECTIONS,
    SHOP,
    SLOT,
    STATION,
    TOKEN,
    TT,
    TablesFields,
    TablesRef,
    fields_of,
)

RULEBOOK = (
    Path(__file__).resolve().parent.parent
    / ".."
    / "shared"
    / "rules"
    / "terraria-the-board-game.txt"
)
NEW_FILES = (
    "cards.toml",
    "gear.toml",
    "characters.toml",
    "consumables.toml",
    "houses.toml",
    "objectives.toml",
    "chests.toml",
    "bosses.toml",
    "rules.toml",
    "bestiary.toml",
    "weapons.toml",
    "armor.toml",
)


@pytest.fixture(scope="module")
def tab():
    return compile_tables()


@pytest.fixture(scope="module")
def names():
    return table_names()


def ids(names, table):
    return {n: i for i, n in enumerate(names[table])}


# --- shapes and dtypes --------------------------------------------------------------------------
def test_every_field_is_an_int16_array_of_the_layout_shape(tab, names):
    assert isinstance(tab, TablesRef)
    for field, a in fields_of(tab).items():
        assert isinstance(a, np.ndarray), field
        assert a.dtype == np.int16, field
        assert a.flags.c_contiguous, field
    n = {k: len(v) for k, v in names.items()}
    assert tab.rules.shape == (RU.N,)
    assert tab.cards.shape == (n["cards"], CF.N)
    assert tab.start_deck.shape == (8,)
    assert tab.equip.shape == (n["equipment"], EQ.N)
    assert tab.equip_recipe.shape == (n["equipment"], 4, 2)
    assert tab.start_equip.shape == (2, 3)
    assert tab.armor.shape == (n["armor"], AR.N)
    assert tab.armor_recipe.shape == (n["armor"], 4, 2)
    assert tab.minions.shape == (n["minions"],)
    assert tab.characters.shape == (n["characters"], CC.N)
    assert tab.consumables.shape == (n["consumables"], CO.N)
    assert tab.houses.shape == (n["houses"], HO.N)
    assert tab.house_recipe.shape == (n["houses"], 4, 2)
    assert tab.food.shape == (4, RW.N)
    assert tab.objectives.shape == (40, OB.N)
    assert tab.enemies.shape == (n["bestiary"], EN.N)
    assert tab.tray_tok.shape == tab.tray_night.shape == (SECTIONS, MAX_TOKENS)
    assert tab.tray_n.shape == (SECTIONS,)
    assert tab.chest_biome.shape == (n["chests"],)
    assert tab.chest_reward.shape == (n["chests"], 5, RW.N)
    assert tab.bosses.shape == (n["bosses"], BO.N)
    assert tab.behaviour.shape == (n["bosses"], 3, BH.N)
    assert tab.boss_loot.shape == (n["bosses"], REWARD_SLOTS, RW.N)
    assert tab.time_track.shape[1] == TT.N
    # the world arrays are compile_world's
    wc = compile_world(load_world())
    for a, b in zip(list(fields_of(tab).values())[:7], wc, strict=True):
        np.testing.assert_array_equal(a, b)


def test_compile_returns_fresh_arrays(tab):
    t1 = compile_tables()
    t1.cards[:] = 99
    t1.tpl[:] = 99
    t2 = compile_tables()
    np.testing.assert_array_equal(t2.cards, tab.cards)
    np.testing.assert_array_equal(t2.tpl, tab.tpl)


def test_resource_ids_are_the_worlds_then_the_loot_resources(tab, names):
    # TR-020 / TR-021: the 14 resource token types (paired faces count once) all exist
    res = names["resources"]
    wres = list(load_world()["resources"])
    assert res[0] == "none" and res[1 : 1 + len(wres)] == wres
    assert res[1 + len(wres) :] == ["wood", "gel", "cobweb", "lens"]
    tokens = {"gel", "wood", "stone", "cobweb", "iron", "copper", "silver", "gold", "ice"}
    tokens |= {"hardened_sand", "gem", "demonite", "crimtane", "ebonstone", "crimstone"}
    tokens |= {"hellstone"}
    assert tokens <= set(res)
    assert len(res) - 1 <= 31  # resource_collected counter columns
    r = ids(names, "resources")
    assert tab.rules[RU.LENS] == r["lens"] and tab.rules[RU.WOOD] == r["wood"]
    assert tab.rules[RU.COBWEB] == r["cobweb"] and tab.rules[RU.GEL] == r["gel"]
    assert len(tab.res_dig) == 1 + len(wres)


# --- printed numbers ---------------------------------------------------------------------------
def test_rules_hold_the_printed_numbers(tab):
    # TR-371: Nurse 15 coins; TR-372: Merchant at 10 coins; TR-370: Nurse at 6 maximum
    # health; TR-186: slots 15 and 25 coins; TR-391 / TR-076: King Slime at 8 slimes;
    # TR-393: 3 lenses
    r = tab.rules
    assert r[RU.NURSE_PRICE] == 15 and r[RU.MERCHANT_COINS] == 10 and r[RU.NURSE_HP] == 6
    assert r[RU.SLOT5_PRICE] == 15 and r[RU.SLOT6_PRICE] == 25
    assert r[RU.KING_SLIME] == 8 and r[RU.LENSES] == 3
    # TR-306 (open): one crystal adds 1; TR-019: 8 extension pieces of each kind exist, so
    # a maximum can rise by at most 8 over the starting 5 health
    assert r[RU.CRYSTAL_HP] == 1 and 5 < r[RU.MAX_HP] <= 5 + 8
    assert r[RU.STAR_MANA] >= 1 and r[RU.DRYAD_DIE] in (4, 6, 8, 12)  # TR-378: a character die


def test_starting_deck_and_dodge(tab, names):
    # TR-046 / TR-052: 3 Explore, 2 Dodge, 1 Assist, 1 Rest, 1 Explore More
    deck = Counter(names["cards"][c] for c in tab.start_deck)
    assert deck == {"explore": 3, "dodge": 2, "assist": 1, "rest": 1, "explore_more": 1}
    # TR-102: Dodge offers either 1 action point or 2 defence, never both
    d = tab.cards[ids(names, "cards")["dodge"]]
    assert d[CF.CHOICE] == 1 and d[CF.AP] == 1 and d[CF.DEF] == 0
    assert d[CF.DEF_B] == 2 and d[CF.AP_B] == 0


def test_guide_and_merchant_piles(tab, names):
    c = ids(names, "cards")
    guide = tab.cards[tab.cards[:, CF.SHOP] == SHOP.GUIDE]
    # TR-009 / TR-071: 30 Guide cards, 10 Explore More, 10 Somersault, 10 Second Wind
    assert guide[:, CF.COPIES].sum() == 30
    for name in ("explore_more", "somersault", "second_wind"):
        assert tab.cards[c[name], CF.SHOP] == SHOP.GUIDE and tab.cards[c[name], CF.COPIES] == 10
    assert (guide[:, CF.PRICE] > 0).all()  # TR-369: prices are data
    # TR-010 / TR-072 / TR-373: 12 Merchant cards in an 8-coin and a 15-coin pile
    m8 = tab.cards[tab.cards[:, CF.SHOP] == SHOP.MERCHANT_8]
    m15 = tab.cards[tab.cards[:, CF.SHOP] == SHOP.MERCHANT_15]
    assert m8[:, CF.COPIES].sum() + m15[:, CF.COPIES].sum() == 12
    assert (m8[:, CF.PRICE] == 8).all() and (m15[:, CF.PRICE] == 15).all()
    assert len(m8) and len(m15)


def test_chest_action_and_debuff_cards(tab, names):
    chest = tab.cards[tab.cards[:, CF.SHOP] == SHOP.CHEST]
    # TR-014: 35 chest action cards, 7 per level 1..5
    assert chest[:, CF.COPIES].sum() == 35
    for level in range(1, 6):
        assert chest[chest[:, CF.LEVEL] == level, CF.COPIES].sum() == 7
    # TR-389: the Magic Mirror action card recalls
    mirror = tab.cards[ids(names, "cards")["magic_mirror"]]
    assert mirror[CF.RECALL] == 1 and mirror[CF.SHOP] == SHOP.CHEST
    # TR-016: 8 Poisoned, 8 On Fire!, 8 Frozen, one card per type; TR-342: their type
    deb = tab.cards[tab.cards[:, CF.SHOP] == SHOP.DEBUFF]
    assert sorted(deb[:, CF.DEBUFF]) == [DEBUFF.POISONED, DEBUFF.ON_FIRE, DEBUFF.FROZEN]
    assert (deb[:, CF.COPIES] == 8).all()
    # debuff effects are data: no icons; Poisoned costs 1 health when played
    icons = [CF.AP, CF.DEF, CF.HEAL, CF.COIN, CF.ATK, CF.DRAW, CF.MANA]
    assert (deb[:, icons] == 0).all()
    assert deb[deb[:, CF.DEBUFF] == DEBUFF.POISONED, CF.HURT][0] == 1
    # every other card gives at least one icon (no dead card outside the debuffs)
    live = tab.cards[tab.cards[:, CF.SHOP] != SHOP.DEBUFF]
    assert (live[:, icons].sum(axis=1) + live[:, CF.RECALL] > 0).all()
    assert (tab.cards[tab.cards[:, CF.SHOP] != SHOP.DEBUFF, CF.HURT] == 0).all()


def test_characters(tab, names):
    # TR-011: 8 character cards; TR-047 / TR-092: hand limit 4; TR-284: a base defence of
    # 1 die; TR-048 / TR-287: 5 health; TR-049: the starting maximum mana is data
    assert len(names["characters"]) == 8
    cc = tab.characters
    assert (cc[:, CC.HAND] == 4).all() and (cc[:, CC.NDEF] == 1).all()
    assert (cc[:, CC.HP] == 5).all() and (cc[:, CC.MANA] >= 1).all()
    # the default cards use the bare character card's die of armor.toml
    bare = load_content()["armor"]["none"]["defense"]
    assert (cc[:, CC.DEF0] == bare[0]).all()


def test_starting_equipment_and_tool_rates(tab, names):
    e = ids(names, "equipment")
    eq = tab.equip
    # TR-046 / TR-051: Copper Shortsword, Axe, Pickaxe; TR-432 / TR-433: Journey iron set
    std = [names["equipment"][i] for i in tab.start_equip[0]]
    jrn = [names["equipment"][i] for i in tab.start_equip[1]]
    assert std == ["copper_shortsword", "copper_axe", "copper_pickaxe"]
    assert jrn == ["iron_shortsword", "iron_axe", "iron_pickaxe"]
    assert list(eq[tab.start_equip[0], EQ.SLOT]) == [SLOT.WEAPON, SLOT.AXE, SLOT.PICK]
    # TR-161: Copper Axe 1 chop per action point, Iron Axe 2; TR-170: pickaxes 1 and 2 dig
    assert eq[e["copper_axe"], EQ.CHOP] == 1 and eq[e["iron_axe"], EQ.CHOP] == 2
    assert eq[e["copper_pickaxe"], EQ.DIG] == 1 and eq[e["iron_pickaxe"], EQ.DIG] == 2
    # TR-258: the Copper Shortsword rolls 1 attack die
    assert eq[e["copper_shortsword"], EQ.NATK] == 1
    # TR-204: the Iron Axe costs 1 Wood and 2 Iron and needs an anvil
    r = ids(names, "resources")
    rec = {int(a): int(b) for a, b in tab.equip_recipe[e["iron_axe"]] if a}
    assert rec == {r["wood"]: 1, r["iron"]: 2}
    assert eq[e["iron_axe"], EQ.STATION] == STATION.ANVIL
    # TR-252: the Nightmare (Corruption) and Deathbringer (Crimson) pickaxes gate the hellforge
    assert eq[e["nightmare_pickaxe"], EQ.GATE] == 1 and eq[e["nightmare_pickaxe"], EQ.EVIL] == 1
    dbp = e["deathbringer_pickaxe"]
    assert eq[dbp, EQ.GATE] == 1 and eq[dbp, EQ.EVIL] == 2
    assert eq[:, EQ.GATE].sum() == 2


def test_equipment_columns(tab, names):
    eq = tab.equip
    # TR-205: each card has one slot; weapons attack, axes chop, pickaxes dig
    assert set(eq[:, EQ.SLOT]) == {SLOT.WEAPON, SLOT.AXE, SLOT.PICK, SLOT.OTHER}
    weapon = eq[:, EQ.SLOT] == SLOT.WEAPON
    assert (eq[weapon, EQ.NATK] >= 1).all() and (eq[~weapon, EQ.NATK] == 0).all()
    assert (eq[weapon, EQ.RANGE] > 0).all() and (eq[weapon, EQ.RANGE] < 8).all()
    assert (eq[eq[:, EQ.SLOT] == SLOT.AXE, EQ.CHOP] >= 1).all()
    assert (eq[eq[:, EQ.SLOT] == SLOT.PICK, EQ.DIG] >= 1).all()
    # TR-012: character dice only (sizes 4, 6, 8, 12), at most DICE columns
    for n_col, cols in ((EQ.NATK, (EQ.ATK0, EQ.ATK1, EQ.ATK2)),):
        for row in eq:
            dice = [int(row[c]) for c in cols[: row[n_col]]]
            assert all(d in (4, 6, 8, 12) for d in dice)
            assert all(row[c] == 0 for c in cols[row[n_col] :])
    # TR-354: magic weapons spend mana; TR-360 / TR-361: minion staffs summon a minion
    # card with attack icons for mana
    assert ((eq[:, EQ.MANA] > 0) & weapon).any()
    staffs = eq[eq[:, EQ.MINION] >= 0]
    assert len(staffs) and (staffs[:, EQ.MANA] > 0).all()
    assert (staffs[:, EQ.MINION] < len(tab.minions)).all() and (tab.minions > 0).all()
    # TR-207: some equipment raises the hand limit
    assert (eq[:, EQ.DRAW] > 0).any()
    # TR-202: some recipes need no station; TR-203: some cards are not craftable
    craft = eq[:, EQ.CRAFTABLE] == 1
    assert (craft & (eq[:, EQ.STATION] == 0)).any() and (~craft).any()
    has_recipe = (tab.equip_recipe[:, :, 0] > 0).any(axis=1)
    np.testing.assert_array_equal(has_recipe, craft)
    # TR-018: at most the printed 155 advanced equipment and 47 armor set cards; 12 minions
    start = np.zeros(len(eq), bool)
    start[tab.start_equip[0]] = True
    assert eq[~start, EQ.COPIES].sum() <= 155
    assert tab.armor[:, AR.COPIES].sum() <= 47
    mins = load_tables()["minions"]
    assert sum(m["copies"] for m in mins.values()) == 12


def test_armor(tab, names):
    a = ids(names, "armor")
    ar = tab.armor
    assert "none" not in a  # the bare character card is in `characters`
    # TR-213: Wood Armor costs 1 Wood and needs a workbench
    r = ids(names, "resources")
    rec = {int(x): int(y) for x, y in tab.armor_recipe[a["wood"]] if x}
    assert rec == {r["wood"]: 1} and ar[a["wood"], AR.STATION] == STATION.WORKBENCH
    # TR-212: every craftable armor set needs a station
    assert (ar[ar[:, AR.CRAFTABLE] == 1, AR.STATION] > 0).all()
    # TR-216 / TR-217: bonuses and debuff immunity are data
    assert (ar[:, AR.HP] > 0).any() and (ar[:, AR.ATK] > 0).any() and (ar[:, AR.DRAW] > 0).any()
    assert ar[a["jungle"], AR.IMMUNE] == 1 << DEBUFF.POISONED
    assert ar[a["molten"], AR.IMMUNE] == 1 << DEBUFF.ON_FIRE
    # defence icons on a set (rulebook, Defence Icons): the key ``def``, none unless given
    assert (ar[:, AR.DEF] >= 0).all()
    # TR-215 / TR-012: character dice
    for row in ar:
        assert 1 <= row[AR.NDEF] <= DICE
        assert all(row[c] in (4, 6, 8, 12) for c in (AR.DEF0, AR.DEF1, AR.DEF2)[: row[AR.NDEF]])


def test_consumables(tab, names):
    c = ids(names, "consumables")
    co = tab.consumables
    # TR-017: 64 consumable cards in one deck
    assert co[:, CO.COPIES].sum() == 64
    # TR-253: the placed bottle gives a Healing, Greater Luck or Magic Power potion
    bottle = {names["consumables"][i] for i in np.flatnonzero(co[:, CO.BOTTLE])}
    assert bottle == {"healing_potion", "greater_luck_potion", "magic_power_potion"}
    # TR-382: the Demolitionist sells a bomb for 10 coins and a red potion for 15
    assert co[c["bomb"], CO.DEMOLITION] == 10 and co[c["red_potion"], CO.DEMOLITION] == 15
    assert co[:, CO.DEMOLITION].astype(bool).sum() == 2
    # TR-389: the Recall Potion recalls; TR-390 / TR-396: the Guide Voodoo Doll
    assert co[c["recall_potion"], CO.RECALL] == 1
    assert co[c["guide_voodoo_doll"], CO.VOODOO] == 1
    assert co[c["bomb"], CO.DIG] > 0
    # every consumable does something
    effects = [CO.HEAL, CO.MANA, CO.DEF, CO.ATK, CO.AP, CO.DIG, CO.RECALL, CO.VOODOO, CO.CURE]
    assert (co[:, effects].sum(axis=1) > 0).all()


def test_houses_and_food(tab, names):
    h = ids(names, "houses")
    ho = tab.houses
    # TR-023 / TR-234: 10 tiles: 4 bed houses and one of each other kind
    assert ho[:, HO.COPIES].sum() == MAX_HOUSES == 10
    assert ho[h["bed"], HO.COPIES] == 4 and (np.delete(ho[:, HO.COPIES], h["bed"]) == 1).all()
    # TR-248: the workbench house provides a workbench and needs nothing
    assert (
        ho[h["workbench"], HO.PROVIDES] == STATION.WORKBENCH and ho[h["workbench"], HO.NEEDS] == 0
    )
    # TR-249: the anvil/furnace house needs a workbench and provides anvil and furnace
    af = ho[h["anvil_furnace"]]
    assert af[HO.NEEDS] == STATION.WORKBENCH and af[HO.PROVIDES] == STATION.ANVIL | STATION.FURNACE
    # TR-250: placed bottle, cooking pot, loom and hellforge need the anvil/furnace
    for name in ("placed_bottle", "cooking_pot", "loom", "hellforge"):
        assert ho[h[name], HO.NEEDS] == STATION.ANVIL
    # TR-251: the loom house provides a loom; bed houses need it
    assert ho[h["loom"], HO.PROVIDES] == STATION.LOOM and ho[h["bed"], HO.NEEDS] == STATION.LOOM
    assert ho[h["bed"], HO.PROVIDES] == STATION.BED
    # TR-252: the hellforge is gated by the pickaxe and provides the hellforge
    assert ho[h["hellforge"], HO.GATED] == 1 and ho[:, HO.GATED].sum() == 1
    assert ho[h["hellforge"], HO.PROVIDES] == STATION.HELLFORGE
    assert ho[h["placed_bottle"], HO.PROVIDES] == STATION.BOTTLE
    assert ho[h["cooking_pot"], HO.PROVIDES] == STATION.COOKING_POT
    # footprints fit a tile and the sky above the surface ground (TR-239: anywhere with room)
    wd = load_world()
    rows, cols = wd["world"]["tile_rows"], wd["world"]["tile_cols"]
    sky = rows - wd["terrain"]["surface"]["ground"] - 1  # a bump may raise the ground by 1
    assert (ho[:, HO.W] <= cols).all() and (ho[:, HO.H] <= sky).all()
    assert (tab.house_recipe[:, :, 0] > 0).any(axis=1).all()  # every house costs something
    # TR-024 / TR-255: 4 food buff tokens, each a reward
    assert tab.food.shape == (4, 3) and (tab.food[:, RW.KIND] != RK.NONE).all()


def test_tray_sections(tab, names):
    tok, night, n = tab.tray_tok, tab.tray_night, tab.tray_n
    nb = len(names["bestiary"])
    # TR-025: 162 enemy tokens (enemies, life crystals and fallen stars)
    assert n.sum() == 162
    for s in range(SECTIONS):  # TR-029: 6 biomes x 5 layers
        k = n[s]
        used = tok[s, :k]
        assert ((used >= 0) & (used < nb) | np.isin(used, [TOKEN.CRYSTAL, TOKEN.STAR])).all()
        assert (tok[s, k:] == -1).all() and (night[s, k:] == 0).all()
        # TR-031: every section holds day AND night tokens (the world reaches all of them)
        assert 0 < night[s, :k].sum() < k, s
        layer = s % 5
        crystals = used == TOKEN.CRYSTAL
        stars = used == TOKEN.STAR
        # TR-304: life crystals only below the Surface; TR-358: fallen stars only at night
        assert layer > 0 or not crystals.any()
        assert (night[s, :k][stars] == 1).all()
        # a bestiary token is in the pool its entry's time allows
        for t, ni in zip(used, night[s, :k], strict=True):
            if t >= 0:
                assert tab.enemies[t, EN.NIGHT] in (ni, 2)
    assert (tok == TOKEN.CRYSTAL).sum() > 0 and (tok == TOKEN.STAR).sum() > 0


def test_bestiary_columns(tab, names):
    b = ids(names, "bestiary")
    en = tab.enemies
    r = ids(names, "resources")
    # TR-075: slimes are flagged, and slimes drop Gel; Demon Eyes drop the Lens (TR-397)
    assert en[b["green_slime"], EN.SLIME] == 1 and en[b["green_slime"], EN.LOOT_RES] == r["gel"]
    assert en[b["demon_eye"], EN.LOOT_RES] == r["lens"] and en[b["demon_eye"], EN.LOOT_N] >= 1
    # TR-390: the Voodoo Demon drops the Guide Voodoo Doll
    assert en[b["voodoo_demon"], EN.VOODOO] == 1 and en[:, EN.VOODOO].sum() == 1
    assert set(en[:, EN.KIND]) <= {KIND.WALKER, KIND.FLYER, KIND.WORM}
    assert (en[:, EN.WOUNDS] >= 1).all() and (en[:, EN.RANGE] > 0).all()
    # the demon eyes and the voodoo demon are in every world (both evil biomes' sections)
    lens_secs = {s for s in range(SECTIONS) if (tab.tray_tok[s] == b["demon_eye"]).any()}
    assert {s // 5 for s in lens_secs} == set(range(6))
    voodoo_secs = {s for s in range(SECTIONS) if (tab.tray_tok[s] == b["voodoo_demon"]).any()}
    assert voodoo_secs == {bio * 5 + 4 for bio in range(6)}


def test_objectives(tab, names):
    ob = tab.objectives
    # TR-008 / TR-055 / TR-056: 4 chains of 10, in chain order Dig, Fight, Explore, Build
    assert CHAINS == ("dig", "fight", "explore", "build") and CHAIN_LEN == 10
    np.testing.assert_array_equal(ob[:, OB.CHAIN], np.repeat(np.arange(4), 10))
    # TR-057: counters from the vocabulary; TR-058: rewards and ALL/SHARED are data
    assert set(ob[:, OB.COUNTER]) <= set(COUNTER_NAMES.values())
    assert set(ob[:, OB.SHARED]) == {0, 1}
    assert (ob[:, OB.REWARD + RW.KIND] != RK.NONE).all()
    assert (ob[:, OB.AMOUNT] >= 1).all()
    # within a chain, a counter asked for again asks for more (rising difficulty)
    for c in range(4):
        seen: dict = {}
        for row in ob[c * 10 : c * 10 + 10]:
            key = (int(row[OB.COUNTER]), int(row[OB.PARAM]))
            assert row[OB.AMOUNT] > seen.get(key, 0)
            seen[key] = row[OB.AMOUNT]
    # TR-417: bosses have Fight objectives: King Slime mid-chain, Eye of Cthulhu late
    bo = ids(names, "bosses")
    fight = ob[10:20]
    boss_rows = [k for k, row in enumerate(fight) if row[OB.COUNTER] == CNT.BOSS]
    assert [int(fight[k, OB.PARAM]) for k in boss_rows] == [bo["king_slime"], bo["eye_of_cthulhu"]]
    assert boss_rows[0] in range(3, 8) and boss_rows[1] >= 7
    # the first objectives of each chain are day-1 work: small amounts of basic counters
    for c in range(4):
        first = ob[c * 10]
        assert first[OB.COUNTER] < CNT.RES and first[OB.AMOUNT] <= 6
    # TR-040: every objective can be met in a Corruption world and in a Crimson world
    data = load_tables()
    res = ids(names, "resources")
    evil_res = {res["demonite"], res["crimtane"], res["ebonstone"], res["crimstone"]}
    for row in ob:
        if row[OB.COUNTER] == CNT.RES:
            assert row[OB.PARAM] not in evil_res
        if row[OB.COUNTER] == CNT.BOSS:
            assert tab.bosses[row[OB.PARAM], BO.EVIL] == 0
    # TR-066 (open): Still Hungry stands for defeating Wall of Flesh
    sh = data["still_hungry"]
    assert sh["counter"] == "boss_defeated" and sh["param"] == "wall_of_flesh"


def test_chests(tab, names):
    # TR-013: 30 chest cards, 5 per biome (none for the ocean)
    assert Counter(tab.chest_biome.tolist()) == {b: 5 for b in range(6)}
    # TR-156: one reward per layer; the deeper, the better: coins grow with the layer
    rw = tab.chest_reward
    assert (rw[:, :, RW.KIND] != RK.NONE).all()
    coins = rw[:, :, RW.KIND] == RK.COINS
    for la in range(4):
        lo, hi = rw[:, la][coins[:, la], RW.AMOUNT], rw[:, la + 1][coins[:, la + 1], RW.AMOUNT]
        if len(lo) and len(hi):
            assert lo.mean() <= hi.mean()
    lv = rw[:, :, RW.KIND] == RK.CHEST_CARD
    assert rw[:, 0][lv[:, 0], RW.ID].mean() < rw[:, 4][lv[:, 4], RW.ID].mean()
    # TR-040: a Corruption chest never gives a Crimson-only card and vice versa
    for i, b in enumerate(tab.chest_biome):
        for r in rw[i]:
            evil = (
                tab.equip[r[RW.ID], EQ.EVIL]
                if r[RW.KIND] == RK.EQUIP
                else tab.armor[r[RW.ID], AR.EVIL]
                if r[RW.KIND] == RK.ARMOR
                else 0
            )
            assert not (b == 4 and evil == 2) and not (b == 5 and evil == 1)


def test_bosses(tab, names):
    bo = ids(names, "bosses")
    B = tab.bosses
    # TR-391..396: the six bosses and their spawn criteria
    assert list(B[:, BO.SPAWN]) == [
        BOSS_SPAWN.SLIMES,
        BOSS_SPAWN.BEE_LARVA,
        BOSS_SPAWN.LENSES,
        BOSS_SPAWN.SHADOW_ORB,
        BOSS_SPAWN.CRIMSON_HEART,
        BOSS_SPAWN.VOODOO,
    ]
    # TR-394 / TR-395: Eater of Worlds only in Corruption worlds, Brain only in Crimson
    assert B[bo["eater_of_worlds"], BO.EVIL] == 1 and B[bo["brain_of_cthulhu"], BO.EVIL] == 2
    # TR-425: defeating Wall of Flesh wins; no other boss does
    assert list(B[:, BO.WIN]) == [0, 0, 0, 0, 0, 1]
    # TR-401 / TR-413 / TR-404: Form A and Form B each have wound tokens (12 exist, TR-022)
    fb = BO.FORM_B - BO.WOUNDS
    for off in (0, fb):
        assert ((B[:, BO.WOUNDS + off] >= 1) & (B[:, BO.WOUNDS + off] <= 12)).all()
        assert ((B[:, BO.NATK + off] >= 1) & (B[:, BO.NATK + off] <= DICE)).all()
        assert (B[:, BO.RANGE + off] > 0).all()
        assert set(B[:, BO.KIND + off]) <= {KIND.WALKER, KIND.FLYER, KIND.WORM}
    assert BO.N == BO.FORM_B + (BO.DEBUFF - BO.WOUNDS + 1)
    # TR-402 / TR-405..408: 3 Behaviour cards each; every card does something
    bh = tab.behaviour
    assert (bh.sum(axis=2) > 0).all() and set(bh[:, :, BH.RANGED].ravel()) <= {0, 1, 2}
    # TR-417: every boss has loot
    assert (tab.boss_loot[:, 0, RW.KIND] != RK.NONE).all()
    # the wound tokens of both forms fit the printed 12 (a form at a time)
    assert (B[:, BO.WOUNDS] <= 12).all() and (B[:, BO.WOUNDS + fb] <= 12).all()


def test_time_track(tab):
    tt = tab.time_track
    # TR-041 / TR-353: the first space shows the sunrise, and only it
    assert tt[0, TT.SUNRISE] == 1 and tt[:, TT.SUNRISE].sum() == 1 and tt[0, TT.NIGHT] == 0
    # TR-045: day and night spaces, skulls among both
    assert tt[:, TT.NIGHT].any() and not tt[:, TT.NIGHT].all()
    assert tt[tt[:, TT.NIGHT] == 0, TT.SKULL].any() and tt[tt[:, TT.NIGHT] == 1, TT.SKULL].any()


def test_every_reference_points_at_an_entry(tab, names):
    n = {k: len(v) for k, v in names.items()}
    limit = {
        RK.RESOURCE: n["resources"],
        RK.EQUIP: n["equipment"],
        RK.ARMOR: n["armor"],
        RK.CONSUMABLE: n["consumables"],
    }
    rewards = np.concatenate(
        [
            tab.objectives[:, OB.REWARD : OB.REWARD + 3],
            tab.chest_reward.reshape(-1, 3),
            tab.boss_loot.reshape(-1, 3),
            tab.food,
        ]
    )
    levels = set(tab.cards[tab.cards[:, CF.SHOP] == SHOP.CHEST, CF.LEVEL])
    for kind, rid, amount in rewards:
        assert RK.NONE <= kind <= max(RK)  # every kind of the vocabulary
        if kind in limit:
            assert 0 <= rid < limit[kind] and amount >= 1
            if kind == RK.RESOURCE:
                assert rid >= 1
        elif kind == RK.CHEST_CARD:
            assert rid in levels
        elif kind != RK.NONE:
            assert rid == 0 and amount >= 1
    for rec in (tab.equip_recipe, tab.armor_recipe, tab.house_recipe):
        assert ((rec[:, :, 0] >= 0) & (rec[:, :, 0] < n["resources"])).all()
        assert ((rec[:, :, 0] == 0) == (rec[:, :, 1] == 0)).all()
        used = rec[:, :, 0][rec[:, :, 0] > 0]
        assert not tab.res_struct[used[used < len(tab.res_struct)]].any()  # TR-177
    assert ((tab.start_deck >= 0) & (tab.start_deck < n["cards"])).all()
    assert ((tab.start_equip >= 0) & (tab.start_equip < n["equipment"])).all()
    assert (tab.equip[:, EQ.MINION] < n["minions"]).all()
    loot = tab.enemies[:, EN.LOOT_RES]
    assert ((loot >= 0) & (loot < n["resources"])).all()
    params = {
        CNT.RES: n["resources"],
        CNT.BOSS: n["bosses"],
        CNT.HOUSE: n["houses"],
        CNT.NPC: 6,
    }
    for row in tab.objectives:
        if row[OB.COUNTER] in params:
            assert 0 <= row[OB.PARAM] < params[row[OB.COUNTER]]
        else:
            assert row[OB.PARAM] == 0
    assert RANGE.SHORT | RANGE.MEDIUM | RANGE.LONG == 7


# --- the data files ---------------------------------------------------------------------------
def _comments(name):
    text = (DATA_DIR / name).read_text(encoding="utf-8")
    parts = [line.split("#", 1)[1] for line in text.splitlines() if "#" in line]
    return " ".join(" ".join(parts).split())


def test_data_files_say_illustrative_and_quote_the_rulebook():
    # TR-004: the content the rulebook does not print is illustrative data, marked as such
    if not RULEBOOK.is_file():
        pytest.skip(f"rulebook not found at {RULEBOOK}")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    quotes = []
    for name in NEW_FILES:
        head = _comments(name)[:1500]
        assert "ILLUSTRATIVE" in head and "NOT the publisher's" in head, name
        quotes += [(name, q) for q in re.findall(r'"([^"]+)"', _comments(name)) if len(q) >= 13]
    assert len(quotes) >= 40
    for name, q in quotes:
        assert q in book, (name, q)


# --- validation of a designer's file --------------------------------------------------------
def _write(tmp_path, text):
    f = tmp_path / "mine.toml"
    f.write_text(text, encoding="utf-8")
    return f


BEAST = "[bestiary.x]\n" + (
    "name='X'\nbiome='forest'\nlayer='surface'\ntime='day'\nattack=[6]\nranges=['short']\n"
    "defense=[6]\nwounds=1\nmovement=1\nmove='walking'\ndebuff='none'\nslime=false\ncoins=1\n"
)
BOSS = (
    "[bosses.x]\nname='X'\nspawn='slimes'\nevil='any'\nwin=true\n"
    "behaviour=[['move'], ['move'], ['fly']]\nloot=[]\n"
)
FORM = (
    "wounds=3\nattack=[6]\nranges=['short']\ndefense=[6]\nmovement=1\nmove='walking'\n"
    "special='none'\nspecial_n=0\ndebuff='none'\n"
)
FORM_A = "[bosses.x.form_a]\n" + FORM
FORM_B = "[bosses.x.form_b]\n" + FORM
TRAY = (
    "[tray]\ncrystals_day = [0, 1, 1, 1, 0]\ncrystals_night = [0, 0, 0, 0, 0]\n"
    "stars_night = [1, 0, 0, 0, 0]\n"
)


def chest(biome, last):
    coins = "['coins', 1], " * 4
    return f"[chests.x]\nbiome='{biome}'\nrewards=[{coins}{last}]\n"


BAD = [
    (
        "[start_deck]\ncards = ['explore', 'teleport']\n",
        r"start_deck\.cards: card 'teleport' does not exist",
    ),
    (
        "[cards.x]\nname='X'\nshop='merchant_8'\nprice=9\nap=1\n"
        "[cards.p]\nname='P'\nshop='debuff'\ndebuff='poisoned'\n"
        "[cards.o]\nname='O'\nshop='debuff'\ndebuff='on_fire'\n"
        "[cards.f]\nname='F'\nshop='debuff'\ndebuff='frozen'\n"
        "[start_deck]\ncards=['x']\n",
        r"cards\.x\.price must be 8",
    ),
    (
        "[cards.x]\nname='X'\nshop='bazaar'\n",
        r"cards\.x\.shop: 'bazaar' is not allowed; one of start",
    ),
    ("[cards.x]\nname='X'\nshop='chest'\nap=1\n", r"cards\.x: missing key 'level'"),
    ("[cards.x]\nname='X'\nshop='start'\nap=1\nwings=2\n", r"cards\.x: unknown key 'wings'"),
    ("[cards.x]\nname='X'\nshop='start'\nap=12\n", r"cards\.x\.ap must be an integer from 0 to 9"),
    (
        "[gear.copper_axe]\nname='A'\nslot='axe'\nchop=0\n",
        r"gear\.copper_axe\.chop: an axe converts 1 action point",
    ),
    (
        "[gear.a]\nname='A'\nslot='pickaxe'\ndig=2\nrecipe=[['mithril', 2]]\nstation=['anvil']\n",
        r"gear\.a\.recipe: resource 'mithril' does not exist",
    ),
    (
        "[gear.a]\nname='A'\nslot='pickaxe'\ndig=2\nrecipe=[['ebonstone', 2]]\nstation=['anvil']\n",
        r"gear\.a\.recipe: 'ebonstone' is structural",
    ),
    (
        "[gear.a]\nname='A'\nslot='pickaxe'\ndig=2\nrecipe=[['iron', 2]]\nstation=['forge']\n",
        r"gear\.a\.station: 'forge' is not allowed",
    ),
    (
        "[gear.a]\nname='A'\nslot='other'\nminion='dragon'\ncraftable=false\n",
        r"gear\.a\.minion: 'dragon' is not allowed",
    ),
    (
        "[start_equipment]\nstandard=['copper_axe', 'copper_axe', 'copper_pickaxe']\n"
        "journey=['iron_shortsword', 'iron_axe', 'iron_pickaxe']\n",
        r"start_equipment\.standard: 'copper_axe' is not a weapon",
    ),
    (
        "[weapons.x]\nname='X'\nattack=[6]\nranges=['short']\nlos=true\n",
        r"weapons\.x\.recipe: a craftable card needs a recipe",
    ),
    (
        "[armor.x]\nname='X'\ndefense=[6]\nrecipe=[['wood', 1]]\n",
        r"armor\.x\.station: every craftable armor set needs a crafting station",
    ),
    (
        "[armor.x]\nname='X'\ndefense=[6]\ncraftable=false\nimmune=['sleepy']\n",
        r"armor\.x\.immune: 'sleepy' is not allowed",
    ),
    (
        "[armor.x]\nname='X'\ndefense=[6]\ncraftable=false\ndef=21\n",
        r"armor\.x\.def must be from 0 to 20",
    ),
    (
        "[characters.x]\nname='X'\nhand=4\ndefense=[10]\nhealth=5\nmana=2\n",
        r"characters\.x\.defense: a d10 is not allowed",
    ),
    (
        "[characters.x]\nname='X'\nhand=4\ndefense=[4]\nhealth=5\n",
        r"characters\.x: missing key 'mana'",
    ),
    (
        "[consumables.x]\nname='X'\ncopies=65\n",
        r"consumables\.x\.copies must be an integer from 0 to 64",
    ),
    (
        "[houses.bed]\nname='Bed'\nsize=[2, 2]\ncost=[['wood', 2]]\nneeds=['loom']\n"
        "provides=['bed']\n",
        r"houses\.bed\.needs: no house provides 'loom'",
    ),
    (
        "[houses.a]\nname='A'\nsize=[2, 2]\ncost=[['wood', 2]]\nneeds=[]\nprovides=[]\ncopies=11\n",
        r"houses\.a\.copies must be an integer from 1 to 10",
    ),
    ("[food]\ntokens = [['heal', 2]]\n", r"food\.tokens must be 4 rewards"),
    (
        "[food]\ntokens = [['heal', 2], ['heal', 2], ['heal', 2], ['cake', 1]]\n",
        r"food\.tokens\[3\]: 'cake' is not allowed",
    ),
    (
        "[objectives]\ndig = []\n",
        r"objectives must have exactly the chains dig, fight, explore, build",
    ),
    (
        TRAY.replace("crystals_day = [0", "crystals_day = [1"),
        r"tray: life crystals lie below the Surface only",
    ),
    (
        TRAY.replace("[0, 1, 1, 1, 0]", "[0, 1]"),
        r"tray\.crystals_day must be 5 integers",
    ),
    (
        "[chests.x]\nbiome='ocean'\nrewards=[['none']]\n",
        r"chests\.x\.biome: 'ocean' is not allowed",
    ),
    (
        chest("forest", "['equip', 'excalibur']"),
        r"chests\.x\.rewards\[4\]: equip 'excalibur' does not exist",
    ),
    (
        chest("corruption", "['armor', 'crimson']"),
        r"chests\.x\.rewards\[4\]: that card exists only in crimson worlds",
    ),
    (
        chest("forest", "['chest_card', 6]"),
        r"chests\.x\.rewards\[4\] \(chest card level\) must be an integer from 1 to 5",
    ),
    ("[rules]\nnurse_price = 15\n", r"rules: missing key 'merchant_coins'"),
    (
        "[time_track]\nspaces = [['day'], ['day', 'sunrise']]\n",
        r"time_track\.spaces: the first space, and only it, shows the sunrise",
    ),
    (
        "[time_track]\nspaces = [['day', 'sunrise'], ['dusk']]\n",
        r"time_track\.spaces\[1\]: 'dusk' is not allowed",
    ),
    (
        "[loot_resources]\nnames = ['wood', 'gel', 'cobweb']\n",
        r"loot_resources\.names must include 'lens'",
    ),
    (
        "[loot_resources]\nnames = ['wood', 'gel', 'cobweb', 'lens', 'iron']\n",
        r"loot_resources\.names: 'iron' is already a world resource",
    ),
    (
        BEAST.replace("'forest'", "['forest', 'moon']"),
        r"bestiary\.x\.biome: 'moon' is not allowed",
    ),
    (
        BEAST + "loot=['mithril', 1]\n",
        r"bestiary\.x\.loot: resource 'mithril' does not exist",
    ),
    (
        BEAST.replace("attack=[6]", "attack=[6, 6, 6, 6]"),
        r"bestiary\.x\.attack must be a list of 1 to 3 die sizes",
    ),
    (
        BEAST + "copies=25\n",
        r"puts \d+ tokens in the forest surface tray section; at most 24",
    ),
    (
        "[bosses.x]\nname='X'\nspawn='slimes'\nevil='any'\nwin=true\n",
        r"bosses\.x: missing key 'form_a'",
    ),
    (
        BOSS + FORM_A + FORM_B.replace("wounds=3", "wounds=13"),
        r"bosses\.x\.form_b\.wounds must be an integer from 1 to 12",
    ),
    (
        BOSS + FORM_A + FORM_B,
        r"bosses\.x\.behaviour\[2\]: 'fly' is not allowed",
    ),
    (
        "[objectives]\n" + "".join(f"{c} = []\n" for c in ("dig", "fight", "explore", "build")),
        r"objectives\.dig must hold exactly 10 objectives",
    ),
    (
        "[still_hungry]\ncounter = 'boss_defeated'\nparam = 'moon_lord'\namount = 1\n",
        r"still_hungry\.param: 'moon_lord' is not allowed",
    ),
    (
        "[still_hungry]\ncounter = 'naps_taken'\namount = 1\n",
        r"still_hungry\.counter: 'naps_taken' is not allowed",
    ),
    ("[treasure]\nx = 1\n", r"unknown table 'treasure'"),
]


@pytest.mark.parametrize(("text", "match"), BAD)
def test_bad_files_are_refused_with_one_line(tmp_path, text, match):
    # TR-004: a designer's data file is validated like any other input
    f = _write(tmp_path, text)
    with pytest.raises(SimlibInputError, match=match) as err:
        compile_tables(f)
    assert "\n" not in str(err.value) and "mine.toml" in str(err.value)


def _objectives_text(edit=None):
    """The default [objectives] as TOML text, ``edit(chain, k, dict)`` changing entries."""
    data = load_tables()["objectives"]
    lines = []
    for chain in CHAINS:
        for k, o in enumerate(data[chain]):
            o = dict(o)
            if edit:
                edit(chain, k, o)
            lines.append(f"[[objectives.{chain}]]")
            for key, v in o.items():
                lines.append(f"{key} = {_toml(v)}")
    return "\n".join(lines) + "\n"


def _toml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)


def test_objective_errors_name_the_chain_and_card(tmp_path):
    fight = load_tables()["objectives"]["fight"]
    k_slime = next(k for k, o in enumerate(fight) if o.get("param") == "king_slime")

    def bad_param(chain, k, o):
        if chain == "fight" and k == k_slime:
            o["param"] = "moon_lord"

    f = _write(tmp_path, _objectives_text(bad_param))
    card = rf"objectives\.fight\[{k_slime + 1}\]\.param: 'moon_lord' is not allowed"
    with pytest.raises(SimlibInputError, match=card):
        compile_tables(f)

    def bad_reward(chain, k, o):
        if chain == "build" and k == 0:
            o["reward"] = ["resource", "iron"]

    f = _write(tmp_path, _objectives_text(bad_reward))
    with pytest.raises(SimlibInputError, match=r"objectives\.build\[1\]\.reward must be"):
        compile_tables(f)


def test_designer_file_replaces_one_table_whole(tmp_path, tab, names):
    f = _write(
        tmp_path,
        "[characters.tank]\nname='Tank'\nhand=5\ndefense=[8, 4]\nhealth=7\nmana=1\n"
        "[world]\ntile_rows = 5\ntile_cols = 6\ntile_seed = 86\n",
    )
    t2 = compile_tables(f)
    assert t2.characters.shape == (1, CC.N)
    np.testing.assert_array_equal(t2.characters[0], [5, 2, 8, 4, 0, 7, 1])
    for field in TablesFields._fields:
        if field != "characters":
            np.testing.assert_array_equal(getattr(t2, field), getattr(tab, field), err_msg=field)
    assert table_names(f)["characters"] == ["tank"]
    # the same file still loads with the other loaders (they skip the tables not theirs)
    assert load_content(f)["armor"] == load_content()["armor"]
    assert load_world(f)["world"]["tile_seed"] == 86


def test_designer_objectives_and_world_from_separate_files(tmp_path, tab):
    def more(chain, k, o):
        if chain == "dig" and k == 0:
            o["amount"] = 5

    f = _write(tmp_path, _objectives_text(more))
    t2 = compile_tables(f)
    assert t2.objectives[0, OB.AMOUNT] == 5
    np.testing.assert_array_equal(t2.objectives[1:], tab.objectives[1:])
    g = tmp_path / "w.toml"
    g.write_text("[world]\ntile_rows = 5\ntile_cols = 6\ntile_seed = 7\n", encoding="utf-8")
    t3 = compile_tables(f, world=g)
    assert t3.objectives[0, OB.AMOUNT] == 5
    assert t3.tpl.shape == tab.tpl.shape and not np.array_equal(t3.tpl, tab.tpl)


def test_an_armor_sets_defence_icons_are_read_and_default_to_none(tmp_path):  # TR-286
    import simlib.games.terraria as pkg

    default = (Path(pkg.__file__).parent / "data" / "armor.toml").read_text(encoding="utf-8")
    extra = "\n[armor.spiked]\nname='Spiked'\ndefense=[6]\ncraftable=false\ndef=2\n"
    f = _write(tmp_path, default + extra)
    tab = compile_tables(f)
    a = {n: i for i, n in enumerate(table_names(f)["armor"])}
    assert tab.armor[a["spiked"], AR.DEF] == 2
    plain = [i for n, i in a.items() if n != "spiked" and "def" not in load_tables(f)["armor"][n]]
    assert plain and (tab.armor[plain, AR.DEF] == 0).all()  # no key: no icons


def test_the_refusal_check_can_fail(tmp_path):
    # a valid designer file passes (so the BAD cases fail for their stated reason)
    f = _write(tmp_path, "[food]\ntokens = [['heal', 2], ['coins', 2], ['rope', 1], ['none']]\n")
    t = compile_tables(f)
    assert list(t.food[3]) == [RK.NONE, 0, 0]
    assert list(t.food[1]) == [RK.COINS, 0, 2]


@njit(cache=False)  # a test helper: nothing to keep on disk
def _read_tables_nb(tab):
    # what kernels do: read whole tables out of the NamedTuple
    s = 0
    for i in range(tab.enemies.shape[0]):
        s += tab.enemies[i, EN.WOUNDS]
    return s + tab.rules[RU.KING_SLIME] + tab.tray_n.sum() + tab.tpl.shape[1]


def test_tables_pass_whole_into_a_kernel(tab):
    expected = int(tab.enemies[:, EN.WOUNDS].sum()) + 8 + 162 + tab.tpl.shape[1]
    assert _read_tables_nb(tab) == expected


# the gear a team has when each boss comes (bots' expected progress): weapon, armor, and
# the attack icons in play (cards and armor). Two players attack 3 times a round each.
BOSS_TEAMS = {
    "king_slime": ("iron_broadsword", "iron", 1),
    "queen_bee": ("gold_broadsword", "gold", 2),
    "eye_of_cthulhu": ("gold_broadsword", "gold", 2),
    "eater_of_worlds": ("lights_bane", "gold", 2),
    "brain_of_cthulhu": ("blood_butcherer", "gold", 2),
    "wall_of_flesh": ("fiery_greatsword", "molten", 3),
}


@pytest.mark.parametrize("boss", list(BOSS_TEAMS))
def test_bosses_are_beatable_by_two_geared_players(tab, names, boss):
    # exact expected wounds per attack (TR-276..279) and health lost per boss attack
    # (TR-337..341): two geared players defeat each boss in 1.5 to 4 rounds on average and
    # each loses less than the 5 starting health doing it (TR-404: the forms are data)
    weapon, armor, icons = BOSS_TEAMS[boss]
    data = load_content()
    atk = data["weapons"][weapon]["attack"]
    dfn = data["armor"][armor]["defense"]
    row = tab.bosses[ids(names, "bosses")[boss]]
    rounds = lost = 0.0
    for off in (0, BO.FORM_B - BO.WOUNDS):
        b_atk = [int(x) for x in row[BO.ATK0 + off : BO.ATK0 + off + row[BO.NATK + off]]]
        b_def = [int(x) for x in row[BO.DEF0 + off : BO.DEF0 + off + row[BO.NDEF + off]]]
        dealt = duel_distribution(atk, b_def, icons, 0)
        taken = duel_distribution(b_atk, dfn, 0, 0)
        r = row[BO.WOUNDS + off] / (6 * float(np.arange(len(dealt)) @ dealt))
        rounds += r
        lost += r * float(np.arange(len(taken)) @ taken)
    assert 1.5 <= rounds <= 4.0, rounds
    assert 1.0 <= lost < 5.0, lost
