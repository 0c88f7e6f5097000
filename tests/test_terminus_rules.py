"""Terminus Breach TD rule scenarios: one hand-made situation per rule, citing TB-nnn.

The checklist is ``shared/rules/terminus-checklist.md``; the readings of its open items are
in ``simlib/games/terminus/__init__.py``. The movement kernel has its own property tests
(``test_terminus_move.py``).
"""

import numpy as np
import pytest
from terminus_helpers import GAME, compiled, drakka, empty, fresh, pile, site_near, tower

from simlib.errors import SimlibInputError
from simlib.games.terminus import compile as tc
from simlib.games.terminus import engine, towers
from simlib.games.terminus.state import (
    DKC,
    GSC,
    IMP,
    LINE,
    MAX_BLESS,
    PLC,
    RACE,
    SITE,
    TSC,
    TWC,
    WHERE,
)

DATA = tc.load_data("default")


# --- data and setup -------------------------------------------------------------------
def test_players_one_to_four():
    # TB-001
    for n in (1, 2, 3, 4):
        GAME.resolve("normal", {"players": n})
    for n in (0, 5):
        with pytest.raises(SimlibInputError, match="players"):
            GAME.resolve("normal", {"players": n})


def test_tower_lines_and_printed_towers():
    # TB-008 every race has the three lines; TB-018 Spear and TB-019 Ballista as printed
    p = compiled()
    lv, nlv = p[5], p[6]
    assert (nlv >= 1).all() and nlv.shape == (4, 3)
    h = lv[RACE.HUMANS, LINE.AIR_GROUND]
    assert list(h[0, [TSC.COST, TSC.DMG, TSC.RANGE, TSC.RATE, TSC.FLY]]) == [25, 1, 1, 2, 1]
    assert list(h[1, [TSC.COST, TSC.DMG, TSC.RANGE, TSC.RATE, TSC.FLY]]) == [50, 3, 1, 2, 1]
    assert DATA["towers"]["humans"]["air_ground"]["names"][:2] == ["Spear Tower",
                                                                    "Ballista Tower"]
    # TB-009/010: only Air & Ground levels carry FLYING
    for r in range(4):
        assert (lv[r, LINE.AIR_GROUND, :nlv[r, 0], TSC.FLY] == 1).all()
    assert (lv[:, LINE.HEAVY_GROUND, :, TSC.FLY] == 0).all()


def test_race_specialties_in_the_tower_data():
    # TB-042 Elves range, TB-043 Dwarves damage, TB-044 Humans rate, TB-045 Treefolk poison
    lv = compiled()[5]
    for line in (LINE.AIR_GROUND, LINE.HEAVY_GROUND):
        for k in range(3):
            others = [r for r in range(4)]
            e, d, h, t = (lv[RACE.ELVES, line, k], lv[RACE.DWARVES, line, k],
                          lv[RACE.HUMANS, line, k], lv[RACE.TREEFOLK, line, k])
            assert all(e[TSC.COST] == lv[r, line, k, TSC.COST] for r in others)
            assert e[TSC.RANGE] > t[TSC.RANGE] and e[TSC.RANGE] > d[TSC.RANGE]
            assert d[TSC.DMG] > e[TSC.DMG] and d[TSC.DMG] > t[TSC.DMG]
            assert h[TSC.RATE] > d[TSC.RATE] and h[TSC.RATE] > e[TSC.RATE]
            assert t[TSC.POISON] > 0 or t[TSC.SLOW] > 0
            assert e[TSC.POISON] == d[TSC.POISON] == h[TSC.POISON] == 0


def test_drak_wurm_as_printed_and_five_decks():
    # TB-035 Drak Wurm: Monster, Speed 5, Toughness 54, Bounty 90, Threat 4; TB-027 decks
    w = DATA["drakka"]["drak_wurm"]
    assert w["faction"] == "Monster" and w["stats"][:4] == [5, 54, 90, 4]
    assert sorted(DATA["decks"]) == [f"battle{b}" for b in range(1, 6)]


def test_maps_are_data_with_shorter_paths_and_fewer_spots_when_harder():
    # TB-039 TB-223 TB-224: one chain from A to Z; harder maps shorter with fewer spots
    lens, spots = [], []
    for m in tc.MAPS:
        parsed = tc.parse_map(m, DATA["maps"][m]["grid"])
        path = parsed["path"]
        for (x0, y0), (x1, y1) in zip(path, path[1:], strict=False):
            assert abs(x0 - x1) + abs(y0 - y1) == 1  # TB-230: side-connected squares
        lens.append(len(path))
        spots.append(sum(1 for s in parsed["sites"] if s[2] == SITE.SPOT))
    assert lens[0] > lens[1] > lens[2] and spots[0] > spots[1] > spots[2]


def test_bad_map_is_refused_with_the_key():
    with pytest.raises(SimlibInputError, match="maps.x"):
        tc.parse_map("x", ["A#.", "..#", "..Z"])


def test_range_is_chebyshev():
    # TB-014: diagonals count 1, line of sight never matters
    p = compiled()
    sdist, sites = p[3], p[2]
    parsed = tc.parse_map("normal", DATA["maps"]["normal"]["grid"])
    for s, (x, y, _) in enumerate(parsed["sites"]):
        for q, (px, py) in enumerate(parsed["path"]):
            assert sdist[s, q] == max(abs(px - x), abs(py - y))
    assert sites.shape[1] == 3


def test_war_allowance_split_and_kept():
    # TB-049..052 and TB-060: GP left + GP paid for the setup towers = 480 / players
    for n, share in ((1, 480), (2, 240), (3, 160), (4, 120)):
        races = {f"race{s}": r for s, r in enumerate(("humans", "dwarves", "elves",
                                                       "treefolk"))}
        st = fresh(players=n, **races)
        for s in range(n):
            paid = sum(int(st.tw[t, TWC.PAID]) for t in range(64)
                       if st.tw[t, TWC.ALIVE] and st.tw[t, TWC.OWNER] == s)
            assert st.pl[s, PLC.GP] + paid == share


@pytest.mark.parametrize("n,expected", [(1, [4]), (2, [2, 2]), (3, [1, 1, 2]),
                                        (4, [1, 1, 1, 1])])
def test_setup_build_order(n, expected):
    # TB-055..059: towers built in setup per seat, counted from the first player
    races = {f"race{s}": r for s, r in enumerate(("humans", "dwarves", "elves", "treefolk"))}
    for seed in range(5):
        st = fresh(players=n, seed=seed, **races)
        first = int(st.gs[GSC.ACTIVE])
        built = [int(st.pl[(first + k) % n, PLC.TOWERS_BUILT]) for k in range(n)]
        assert built == expected
        assert st.gs[GSC.BATTLE] == 1 and st.gs[GSC.PANIC] == 0  # TB-061 TB-038


def test_initiative_favours_no_seat():
    # TB-054: ties are rolled again, never given to a seat, so each of 4 seats goes first
    # a quarter of the time (the highest-roll rule itself, TB-053, and the re-roll of only
    # the tied players are checked against the dice in test_terminus_turns.py)
    counts = np.zeros(4)
    for i in range(4000):
        st = fresh(players=4, seed=3, game_index=i, race0="humans", race1="dwarves",
                   race2="elves", race3="treefolk")
        counts[st.gs[GSC.ACTIVE]] += 1
    # each seat wins with probability 1/4: 4 sigma band on 4000 games (false alarm ~1e-4)
    assert np.all(np.abs(counts - 1000) < 4 * np.sqrt(4000 * 0.25 * 0.75))


def test_distinct_races_setting():
    # TB-041
    with pytest.raises(SimlibInputError, match="race1"):
        GAME.resolve("normal", {"race0": "elves", "race1": "elves"})
    GAME.resolve("normal", {"race0": "elves", "race1": "elves", "distinct_races": False})


def test_seats_take_race_and_class():
    # TB-040 TB-016: each seat's race and class; a seat builds only its race's towers
    st = fresh(players=3, race0="elves", race1="treefolk", race2="dwarves",
               class0="political", class1="spiritual", class2="military")
    assert list(st.pl[:3, PLC.RACE]) == [RACE.ELVES, RACE.TREEFOLK, RACE.DWARVES]
    assert list(st.pl[:3, PLC.CLASS]) == [1, 2, 0]
    for t in range(64):
        if st.tw[t, TWC.ALIVE]:
            assert st.tw[t, TWC.RACE] == st.pl[st.tw[t, TWC.OWNER], PLC.RACE]


def test_battle_one_deck_shuffled_at_the_start_of_the_path():
    # TB-048 TB-027: the deck holds only Battle 1 cards, in a seed-dependent order
    a, b = fresh(seed=1), fresh(seed=2)
    for st in (a, b):
        ids = st.deck[:st.gs[GSC.DECK_N]]
        assert (st.dk[ids, DKC.BATTLE] == 1).all() and (st.dk[ids, DKC.WHERE] == WHERE.DECK).all()
        assert st.gs[GSC.DECK_N] == sum(DATA["decks"]["battle1"].values())
    assert not np.array_equal(a.dk[a.deck[:18], DKC.CARD], b.dk[b.deck[:18], DKC.CARD])


def test_class_weights_follow_the_tactics():
    # TB-046 TB-047: Military counts kills, Political petitions/favors, Spiritual towers
    w = {c: DATA["classes"][c]["weights"] for c in ("military", "political", "spiritual")}
    assert w["military"]["kills"] > 0 and w["military"]["petitions"] == 0
    assert w["political"]["petitions"] > 0 and w["political"]["favors"] > 0
    assert w["spiritual"]["tower_levels"] > 0 and w["spiritual"]["bounty_tens"] > 0


# --- holy tower placement ---------------------------------------------------------------
def test_holy_tower_sites():
    # TB-020 TB-021 TB-022 TB-023 TB-024 TB-109
    p = compiled()
    sites = p[2]
    sp = [s for s in range(18) if sites[s, 2] == SITE.SPOT][0]
    rk = [s for s in range(18) if sites[s, 2] == SITE.ROCK][0]
    tr = [s for s in range(18) if sites[s, 2] == SITE.TREE][0]
    allow = towers.site_allows_nb
    for race in range(4):
        assert not allow(sites, sp, race, LINE.HOLY)  # never on a Build Spot
        assert allow(sites, sp, race, LINE.AIR_GROUND)
        assert not allow(sites, rk, race, LINE.AIR_GROUND)
    assert allow(sites, rk, RACE.DWARVES, LINE.HOLY) and not allow(sites, tr, RACE.DWARVES,
                                                                    LINE.HOLY)
    assert allow(sites, tr, RACE.ELVES, LINE.HOLY) and not allow(sites, rk, RACE.ELVES,
                                                                  LINE.HOLY)
    for race in (RACE.HUMANS, RACE.TREEFOLK):
        assert allow(sites, rk, race, LINE.HOLY) and allow(sites, tr, race, LINE.HOLY)
    lv = p[5]
    base = lv[RACE.HUMANS, LINE.HOLY, 0, TSC.COST]
    # TB-023: the Human clearing fee, TB-026: flat, whatever the Battle
    assert towers.build_cost_nb(lv, sites, RACE.HUMANS, LINE.HOLY, rk, 25) == base + 25
    assert towers.build_cost_nb(lv, sites, RACE.TREEFOLK, LINE.HOLY, rk, 25) == \
        lv[RACE.TREEFOLK, LINE.HOLY, 0, TSC.COST]


def test_treefolk_holy_tower_blesses_two_waves_later():
    # TB-024 TB-025: built in Wave N, its blessing counts from Wave N+2
    st = empty(race0="treefolk", race1="humans")
    p = st.params
    rock = [s for s in range(18) if p[2][s, 2] == SITE.ROCK][0]
    spot = site_near(st, 8)
    tower(st, 0, spot, LINE.AIR_GROUND)
    st.gs[GSC.WAVE_INDEX] = 4
    st.pl[0, PLC.GP] = 500
    engine.do_build_nb(st.tw, st.bl, st.pl, st.gs, p, 0, LINE.HOLY, rock)
    assert st.tw[rock, TWC.READY] == 6
    lv, bless = p[5], p[8]
    base = towers.tower_stats_nb(st.tw, st.bl, lv, bless, spot, 1, 4)[0]
    for wi, extra in ((4, 0), (5, 0), (6, bless[RACE.TREEFOLK, 0])):
        dmg = towers.tower_stats_nb(st.tw, st.bl, lv, bless, spot, 1, wi)[0]
        assert dmg == base + extra


# --- towers, blessings, defend ----------------------------------------------------------
def _defend(st):
    engine.defend_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                           st.params, st.bot_id, st.bp, st.rng)


def test_heavy_ground_never_targets_flyers_air_ground_does():
    # TB-009 TB-010 TB-093 TB-034
    st = empty(race0="dwarves", race1="humans")
    s = site_near(st, 10)
    tower(st, 0, s, LINE.HEAVY_GROUND)
    f = drakka(st, 10, fly=1, tough=50)
    _defend(st)
    assert st.dk[f, DKC.DMG] == 0
    tower(st, 0, s, LINE.AIR_GROUND)
    _defend(st)
    assert st.dk[f, DKC.DMG] == st.params[5][RACE.DWARVES, 0, 0, TSC.DMG] * \
        st.params[5][RACE.DWARVES, 0, 0, TSC.RATE]


def test_damage_rate_and_kill_to_the_shooter():
    # TB-012 TB-013 TB-091 TB-092 TB-096 TB-097 TB-017: a Ballista (level 2) fires its 2
    # shots of 3 damage; a kill goes face-up to the shooter's Dead Drakka area (the greedy
    # killer bot shoots the Drakka it can kill first)
    st = empty(race0="humans", race1="dwarves", bot_name="killer")
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, level=2)
    d = drakka(st, 12, tough=100)
    _defend(st)
    assert st.dk[d, DKC.DMG] == 6
    k = drakka(st, 12, tough=3, fly=1, bounty=7)
    st.dk[d, DKC.DMG] = 0
    _defend(st)
    assert st.dk[k, DKC.WHERE] == WHERE.DEAD and st.dk[k, DKC.KILLER] == 0
    assert st.dk[k, DKC.FACEUP] == 1 and st.pl[0, PLC.KILLED_WAVE] == 1
    # TB-098: the second shot went to the other target, the overkill was lost
    assert st.dk[d, DKC.DMG] == 3


def test_every_tower_that_can_shoot_fires_all_its_shots():
    # TB-091 every tower able to shoot must; TB-092 it uses every shot of its Rate; TB-090
    # each player fires all their towers. Four level-1 towers of two players (Air & Ground
    # and Heavy Ground of each), each with a tough ground Drakka in range: the damage dealt
    # is the sum of Damage x Rate of all four, whatever the targets chosen.
    st = empty(race0="humans", race1="dwarves")
    sites, sdist, lv = st.params[2], st.params[3], st.params[5]
    layout = ((0, LINE.AIR_GROUND, 8), (0, LINE.HEAVY_GROUND, 11), (1, LINE.AIR_GROUND, 20),
              (1, LINE.HEAVY_GROUND, 23))
    want = 0
    used = set()
    for seat, line, q in layout:
        s = next(s for s in range(int(st.cfg[engine.CFG_SITES])) if s not in used and
                 sites[s, 2] == SITE.SPOT and sdist[s, q] <= 1)
        used.add(s)
        tower(st, seat, s, line)
        race = st.pl[seat, PLC.RACE]
        want += int(lv[race, line, 0, TSC.DMG] * lv[race, line, 0, TSC.RATE])
    prey = [drakka(st, q, tough=1000) for _, _, q in layout]
    _defend(st)
    assert sum(int(st.dk[d, DKC.DMG]) for d in prey) == want


def test_out_of_range_and_holy_towers_do_not_shoot():
    # TB-011 TB-093 TB-014
    st = empty(race0="humans", race1="dwarves")
    far = site_near(st, 20, dist=3)
    tower(st, 0, far, LINE.AIR_GROUND)
    d = drakka(st, 20, tough=50)
    _defend(st)
    assert st.dk[d, DKC.DMG] == 0
    # a Holy tower with a Drakka next to it (the old test looked beside square 20, where
    # no terrain is, and so never placed the tower)
    st.tw[:, :] = 0
    rock, q = next((s, q) for s in range(18) for q in range(34)
                   if st.params[2][s, 2] == SITE.ROCK and st.params[3][s, q] <= 1)
    tower(st, 0, rock, LINE.HOLY)
    e = drakka(st, q, tough=50)
    _defend(st)
    assert st.dk[e, DKC.DMG] == 0


def test_active_player_fires_first():
    # TB-090 TB-064: a 3-toughness Drakka both can kill goes to the active player
    for active in (0, 1):
        st = empty(race0="humans", race1="dwarves")
        s1 = site_near(st, 12)
        s2 = [s for s in range(18) if st.params[2][s, 2] == 0 and st.params[3][s, 12] <= 1
              and s != s1][0]
        tower(st, 0, s1, LINE.AIR_GROUND, 2)
        tower(st, 1, s2, LINE.AIR_GROUND, 2)
        d = drakka(st, 12, tough=3)
        st.gs[GSC.ACTIVE] = active
        _defend(st)
        assert st.dk[d, DKC.KILLER] == active


def test_bot_target_choice_front_most_or_greedy():
    # TB-094 TB-095: the builder shoots the front-most, the killer the richest kill
    st = empty(race0="dwarves", race1="humans")
    s = site_near(st, 12)
    cover = st.params[1][s, 2, :st.params[4][s, 2]]
    front, back = int(cover[0]), int(cover[-1])
    assert front > back
    tower(st, 0, s, LINE.AIR_GROUND, 3)  # range 2
    rich = drakka(st, back, tough=1, bounty=90)
    lead = drakka(st, front, tough=100, bounty=1)
    from terminus_helpers import bot
    bid, bp = bot("builder", greed=0.0)
    d = engine.bots.target_nb(st.dk, st.occ, st.params[1], st.params[4], st.params[3], s, 2, 1,
                              9, int(st.cfg[engine.CFG_PATH_LEN]), 0, bp)
    assert d == lead
    bid, bp = bot("killer")
    d = engine.bots.target_nb(st.dk, st.occ, st.params[1], st.params[4], st.params[3], s, 2, 1,
                              9, int(st.cfg[engine.CFG_PATH_LEN]), 0, bp)
    assert d == rich


def test_blessings_stack_scale_with_battle_and_any_owner():
    # TB-225 TB-226 TB-228 TB-229 TB-007
    st = empty(race0="dwarves", race1="humans")
    s = site_near(st, 12)
    tower(st, 1, s, LINE.AIR_GROUND)  # a Human tower, blessed by the Dwarf player
    lv, bless = st.params[5], st.params[8]
    base = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 3, 0)
    towers.add_blessing_nb(st.bl, -1, s, RACE.DWARVES)
    one = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 3, 0)
    towers.add_blessing_nb(st.bl, -1, s, RACE.DWARVES)
    two = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 3, 0)
    per = bless[RACE.DWARVES, 0]
    assert one[0] == base[0] + per * 3 and two[0] == base[0] + 2 * per * 3
    towers.add_blessing_nb(st.bl, -1, s, RACE.HUMANS)
    three = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 3, 0)
    assert three[2] == base[2] + bless[RACE.HUMANS, 2]


def test_holy_upgrade_reassigns_and_selling_removes_blessings():
    # TB-227 TB-115 TB-113 TB-114
    st = empty(race0="dwarves", race1="humans")
    p = st.params
    rock = [s for s in range(18) if p[2][s, 2] == SITE.ROCK][0]
    a = site_near(st, 12)
    tower(st, 0, a, LINE.AIR_GROUND, 2)
    st.pl[0, PLC.GP] = 1000
    engine.do_build_nb(st.tw, st.bl, st.pl, st.gs, p, 0, LINE.HOLY, rock)
    assert engine.blessings_from_nb(st.bl, rock) == p[5][0, 2, 0, TSC.BLESS]
    engine.do_upgrade_nb(st.tw, st.bl, st.pl, st.gs, p, 0, rock)
    assert engine.blessings_from_nb(st.bl, rock) == p[5][0, 2, 1, TSC.BLESS]
    # selling the blessed tower: half the level's cost, down to 5; its blessings go
    gp = st.pl[0, PLC.GP]
    got = towers.sell_nb(st.tw, st.bl, st.pl, p[5], a, 0)
    assert got == 25 and st.pl[0, PLC.GP] == gp + 25 and st.tw[a, TWC.ALIVE] == 0
    assert not any(st.bl[j, 0] and st.bl[j, 2] == a for j in range(MAX_BLESS))
    # the printed example: value 75 sells for 35; the 'paid' reading sums what was paid
    st.tw[a, :] = 0
    tower(st, 0, a, LINE.AIR_GROUND, 1)
    st.tw[a, TWC.PAID] = 75
    assert towers.sell_value_nb(st.tw, p[5], a, 1) == 35
    assert towers.sell_value_nb(st.tw, p[5], a, 0) == 10  # level 1 costs 25 -> 12 -> 10


def test_build_and_upgrade_costs():
    # TB-015 TB-109 TB-111 TB-112: build pays level 1; an upgrade pays the next level's full
    # Cost; several levels in one phase if GP allows
    st = empty(race0="humans", race1="dwarves")
    p = st.params
    s = site_near(st, 12)
    st.pl[0, PLC.GP] = 200
    towers.build_nb(st.tw, st.pl, p[5], p[2], 0, LINE.AIR_GROUND, s, 25, 0)
    assert st.pl[0, PLC.GP] == 175 and st.tw[s, TWC.LEVEL] == 1
    towers.upgrade_nb(st.tw, st.pl, p[5], p[6], s, 0, 0)
    towers.upgrade_nb(st.tw, st.pl, p[5], p[6], s, 0, 0)
    assert st.pl[0, PLC.GP] == 175 - 50 - 100 and st.tw[s, TWC.LEVEL] == 3
    assert not towers.upgrade_nb(st.tw, st.pl, p[5], p[6], s, 0, 0)  # top level


# --- resolve ----------------------------------------------------------------------------
def test_bounty_or_petition():
    # TB-032 TB-099 TB-100 TB-101
    st = empty()
    d = drakka(st, 3, bounty=12)
    engine.kill_nb(st.dk, st.occ, st.pl, st.gs, d, 0, 1)
    gp0, gp1 = st.pl[0, PLC.GP], st.pl[1, PLC.GP]
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    engine.collect_nb(st.dk, st.pl, st.gs, 1)
    assert st.pl[0, PLC.GP] == gp0 + 12 and st.pl[0, PLC.PETITIONS] == 0
    assert st.dk[d, DKC.FACEUP] == 0
    assert st.pl[1, PLC.GP] == gp1 and st.pl[1, PLC.PETITIONS] == 1


@pytest.mark.parametrize("row,need,favors,sanction", [(0, 2, 1, 0), (1, 3, 3, 0), (2, 5, 5, 0),
                                                      (3, 5, 0, 1)])
def test_petition_trades(row, need, favors, sanction):
    # TB-102 TB-103 TB-104 TB-105 TB-106 TB-107 TB-122
    st = empty()
    st.pl[0, PLC.PETITIONS] = need - 1
    assert not engine.trade_nb(st.hand, st.fdeck, st.pl, st.gs, 0, row, IMP.CARNAGE, st.rng)
    st.pl[0, PLC.PETITIONS] = need
    assert engine.trade_nb(st.hand, st.fdeck, st.pl, st.gs, 0, row, IMP.CARNAGE, st.rng)
    cards = list(st.hand[0, :st.pl[0, PLC.HAND_N], 0])
    assert st.pl[0, PLC.PETITIONS] == 0
    assert sum(c <= IMP.APATHY for c in cards) == favors
    assert cards.count(IMP.CARNAGE) == sanction


def test_sanction_supply_two_each_and_returned():
    # TB-122 TB-123 TB-116
    st = empty()
    for _ in range(2):
        assert engine.gain_sanction_nb(st.hand, st.pl, st.gs, 0, IMP.RENOVATE)
    assert not engine.gain_sanction_nb(st.hand, st.pl, st.gs, 1, IMP.RENOVATE)
    st.gs[GSC.WAVE_INDEX] = 5
    engine.play_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 0)
    assert engine.gain_sanction_nb(st.hand, st.pl, st.gs, 1, IMP.RENOVATE)


def test_favor_price_and_one_per_wave():
    # TB-117 TB-118: 25 GP x Battle, once per Wave
    st = empty()
    bid, bp = st.bot_id, st.bp.copy()
    bp[engine.bots.P_FAVOR] = 1.0
    for b in (1, 3, 5):
        st.gs[GSC.BATTLE] = b
        st.pl[0, PLC.GP] = 1000
        st.pl[0, PLC.PETITIONS] = 0  # no Petition trade in this test
        st.pl[0, PLC.BOUGHT_WAVE] = 0
        n0 = st.pl[0, PLC.HAND_N]
        engine.resolve_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                                st.params, bid, bp, st.rng)
        assert st.pl[0, PLC.HAND_N] == n0 + 1 and st.pl[0, PLC.GP] == 1000 - 25 * b
        st.pl[0, PLC.PETITIONS] = 0
        engine.resolve_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                                st.params, bid, bp, st.rng)
        assert st.pl[0, PLC.HAND_N] == n0 + 1  # not twice in one Wave


def test_favor_deck_blind_with_reshuffle():
    # TB-119: the discards come back when the draw pile runs out
    st = empty()
    total = int(st.gs[GSC.FD_N])
    assert total == sum(DATA["favors"].values())
    st.gs[GSC.WAVE_INDEX] = 0
    for _ in range(total):
        assert engine.gain_favor_nb(st.hand, st.fdeck, st.pl, st.gs, 0, st.rng) >= 0
    assert engine.gain_favor_nb(st.hand, st.fdeck, st.pl, st.gs, 1, st.rng) == -1
    st.gs[GSC.WAVE_INDEX] = 1
    engine.play_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 0)
    assert engine.gain_favor_nb(st.hand, st.fdeck, st.pl, st.gs, 1, st.rng) >= 0


def test_cards_wait_a_wave():
    # TB-120 TB-196
    st = empty()
    st.gs[GSC.WAVE_INDEX] = 3
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.SPY, 3)
    assert engine.playable_nb(st.hand, st.pl, 0, IMP.SPY, 3) == -1
    assert engine.playable_nb(st.hand, st.pl, 0, IMP.SPY, 4) == 0


def test_discard_and_redraw_once_per_battle():
    # TB-121: discard N, draw N - 1, once per Battle
    st = empty()
    st.gs[GSC.WAVE_INDEX] = 2
    for c in (IMP.FALCONRY, IMP.APATHY, IMP.FALCONRY, IMP.SPY):
        engine.hand_add_nb(st.hand, st.pl, 0, c, 0)
    drawn = engine.redraw_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 3, st.rng)
    assert drawn == 2 and st.pl[0, PLC.HAND_N] == 3
    assert engine.redraw_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 1, st.rng) == 0
    st.gs[GSC.BATTLE] = 2
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.APATHY, 0)
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.APATHY, 0)
    n = st.pl[0, PLC.HAND_N]
    assert engine.redraw_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 2, st.rng) == 1
    assert st.pl[0, PLC.HAND_N] == n - 1


# --- Imperial cards ---------------------------------------------------------------------
def test_spy_execute_no_bounty_but_a_kill():
    # TB-125 TB-126 TB-128 TB-133
    st = empty(race0="humans", race1="dwarves")
    s = site_near(st, 8)
    tower(st, 0, s, LINE.AIR_GROUND)
    d = drakka(st, 8, bounty=40)
    engine.spy_execute_nb(st.dk, st.occ, st.pl, st.gs, 0, d, 0)
    assert st.dk[d, DKC.WHERE] == WHERE.DEAD and st.dk[d, DKC.FACEUP] == 0
    gp = st.pl[0, PLC.GP]
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    assert st.pl[0, PLC.GP] == gp and st.pl[0, PLC.PETITIONS] == 0
    assert st.pl[0, PLC.KILLS] == 1
    # the bot's Spy target is within 1 square of one of its towers
    e = drakka(st, 30)
    f = drakka(st, 8)
    t = engine.bots.spy_target_nb(st.dk, st.occ, st.tw, st.params[3], 18, 34, 0)
    assert t == f and e != t
    st.gs[GSC.WAVE_INDEX] = 5
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.SPY, 0)
    engine.play_nb(st.hand, st.fdeck, st.pl, st.gs, 0, 0)
    assert st.pl[0, PLC.SPY_PLAYED] == 1


def test_spy_on_a_boss_deals_spy_damage():
    # TB-127 TB-166..170 (values as printed)
    spy = {n: DATA["bosses"][n]["spy"] for n in DATA["bosses"]}
    car = {n: DATA["bosses"][n]["carnage"] for n in DATA["bosses"]}
    assert spy == {"ork_chieftain": 10, "lich_king": 20, "demon_prince": 30,
                   "drakkon_queen": 40, "drak_lord": 50}  # TB-166..170: Spy column
    assert car == {"ork_chieftain": 15, "lich_king": 30, "demon_prince": 45,
                   "drakkon_queen": 60, "drak_lord": 75}  # TB-166..170: Carnage column
    assert [DATA["bosses"][n]["battle"] for n in spy] == [1, 2, 3, 4, 5]  # TB-164
    st = empty()
    b = int(engine.boss_row_nb(st.gs, 2))
    from simlib.games.terminus.move import put_nb
    put_nb(st.dk, st.occ, b, 5)
    engine.spy_execute_nb(st.dk, st.occ, st.pl, st.gs, 0, b, 0)
    assert st.dk[b, DKC.DMG] == 20 and st.dk[b, DKC.WHERE] == WHERE.PATH


def test_sabotage_and_counter_spy():
    # TB-129 TB-130 TB-131 TB-132 TB-176
    st = empty(race0="humans", race1="dwarves", bot_over={"sabotage": 1.0})
    s = site_near(st, 12)
    tower(st, 1, s, LINE.AIR_GROUND)
    drakka(st, 12, tough=100)
    st.gs[GSC.WAVE_INDEX] = 3
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.SPY, 0)
    engine.sabotage_nb(st.dk, st.occ, st.tw, st.pl, st.hand, st.fdeck, st.gs, st.params, 1,
                       st.bot_id, st.bp, st.rng)
    assert st.tw[s, TWC.SABOTAGED] == 1 and st.pl[0, PLC.SPY_PLAYED] == 1
    dmg, rng_, rate = towers.tower_stats_nb(st.tw, st.bl, st.params[5], st.params[8], s, 1,
                                            3)[:3]
    assert rate == 0
    # the victim counters with its own Spy; both count toward networks
    st.tw[s, TWC.SABOTAGED] = 0
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.SPY, 0)
    engine.hand_add_nb(st.hand, st.pl, 1, IMP.SPY, 0)
    engine.sabotage_nb(st.dk, st.occ, st.tw, st.pl, st.hand, st.fdeck, st.gs, st.params, 1,
                       st.bot_id, st.bp, st.rng)
    assert st.tw[s, TWC.SABOTAGED] == 0 and st.pl[1, PLC.SPY_PLAYED] == 1
    # a Petrified tower cannot fire, so it is no Sabotage target
    st.tw[s, TWC.PETRIFY] = 1
    assert engine.bots.sabotage_target_nb(st.tw, st.dk, st.occ, st.params[3], st.params[5], 18,
                                          34, 1) == -1


def test_tax_collector_by_battle_and_war_chests():
    # TB-138..143 TB-144..147 TB-202
    st = empty(tax_battle5=400)
    for b, gp in zip(range(1, 6), (50, 100, 150, 200, 400), strict=True):
        st.gs[GSC.BATTLE] = b
        st.gs[GSC.WAVE_INDEX] = 10
        engine.hand_add_nb(st.hand, st.pl, 0, IMP.TAX, 0)
        g0 = st.pl[0, PLC.GP]
        assert engine.play_tax_nb(st.hand, st.fdeck, st.pl, st.gs, st.cfg, 0, 0) == gp
        assert st.pl[0, PLC.GP] == g0 + gp
    st = empty(tax_battle5=250)
    st.gs[GSC.BATTLE] = 5
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.TAX, 0)
    st.gs[GSC.WAVE_INDEX] = 1
    assert engine.play_tax_nb(st.hand, st.fdeck, st.pl, st.gs, st.cfg, 0, 0) == 250
    for played, chest in ((2, 0), (3, 150), (5, 250), (7, 400), (9, 400)):
        st.pl[0, PLC.TAX_PLAYED] = played
        st.pl[0, PLC.GP] = 0
        st.pl[0, PLC.BATTLE_KILLS] = 0
        st.tw[:, :] = 0
        bp = st.bp.copy()
        bp[engine.bots.P_VP] = 0.0
        engine.tally_nb(st.tw, st.pl, st.gs, st.cfg, 0, bp)
        assert st.pl[0, PLC.GP] == chest


def test_spy_networks_vp():
    # TB-134 TB-135 TB-136 TB-137 TB-201
    st = empty()
    st.tw[:, :] = 0
    bp = st.bp.copy()
    bp[engine.bots.P_VP] = 0.0
    for played, vp in ((2, 0), (3, 10), (4, 10), (5, 15), (7, 20), (12, 20)):
        st.pl[0, PLC.SPY_PLAYED] = played
        st.pl[0, PLC.VP] = 0
        st.pl[0, PLC.GP] = 0
        engine.tally_nb(st.tw, st.pl, st.gs, st.cfg, 0, bp)
        assert st.pl[0, PLC.VP] == vp


def test_combust_and_falconry_scale_with_battle_for_one_defend():
    # TB-148 TB-149 TB-150 TB-151 TB-152 TB-124
    st = empty(race0="humans", race1="elves")
    lv, bless = st.params[5], st.params[8]
    h = site_near(st, 12)
    e = [s for s in range(18) if st.params[2][s, 2] == 0 and s != h][0]
    tower(st, 0, h, LINE.AIR_GROUND)
    tower(st, 1, e, LINE.AIR_GROUND)
    for s, per in ((h, 1), (e, 2)):
        base = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 4, 0)
        st.tw[s, TWC.COMBUST] = 1
        st.tw[s, TWC.FALCONRY] = 1
        boosted = towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 4, 0)
        assert boosted[0] == base[0] + per * 4 and boosted[1] == base[1] + 4
    _defend(st)
    assert st.tw[h, TWC.COMBUST] == 0 and st.tw[e, TWC.FALCONRY] == 0


def test_apathy_slows_one_square_not_bosses():
    # TB-153 TB-162
    st = empty()
    g = drakka(st, 5, speed=4)
    f = drakka(st, 5, speed=4, fly=1)
    b = drakka(st, 9, speed=4, boss=1)
    assert engine.apathy_nb(st.dk, st.occ, 5) == 2
    assert engine.apathy_nb(st.dk, st.occ, 9) == 0
    engine.advance_all_nb(st.dk, st.occ, st.pl, st.gs, 34, st.params[18], 0, 1, 99)
    assert st.dk[g, DKC.POS] == 6 and st.dk[f, DKC.POS] == 6 and st.dk[b, DKC.POS] == 13
    # TB-154: Apathy wins over a Slow token, which is still downgraded
    st.dk[g, DKC.SLOW] = 2
    st.dk[g, DKC.SPEED] = 9
    engine.apathy_nb(st.dk, st.occ, 6)
    engine.advance_all_nb(st.dk, st.occ, st.pl, st.gs, 34, st.params[18], 0, 1, 99)
    assert st.dk[g, DKC.POS] == 7 and st.dk[g, DKC.SLOW] == 1


def test_renovate_free_upgrade_not_at_top():
    # TB-155
    st = empty(race0="humans", race1="dwarves")
    s = site_near(st, 12)
    tower(st, 1, s, LINE.AIR_GROUND, 2)
    gp = st.pl[0, PLC.GP]
    assert engine.renovate_nb(st.tw, st.bl, st.pl, st.params[5], st.params[6], st.params[4], 18,
                              0, s)
    assert st.tw[s, TWC.LEVEL] == 3 and st.pl[0, PLC.GP] == gp and st.tw[s, TWC.OWNER] == 1
    assert not engine.renovate_nb(st.tw, st.bl, st.pl, st.params[5], st.params[6],
                                  st.params[4], 18, 0, s)


def test_carnage_three_connected_squares():
    # TB-156 TB-157 TB-158 TB-171 TB-230 TB-231
    from simlib.games.terminus.move import put_nb

    st = empty()
    inside = [drakka(st, q, fly=f, bounty=5) for q in (11, 12) for f in (0, 1)]
    outside = drakka(st, 13)
    b = int(engine.boss_row_nb(st.gs, 3))
    st.dk[b, DKC.TOUGH] = 100
    put_nb(st.dk, st.occ, b, 10)
    kills = engine.carnage_nb(st.dk, st.occ, st.pl, st.gs, 0, 10, 3, 34, 0)
    assert kills == 4
    assert all(st.dk[d, DKC.WHERE] == WHERE.DEAD and st.dk[d, DKC.FACEUP] == 1
               for d in inside)
    assert st.dk[outside, DKC.WHERE] == WHERE.PATH
    assert st.dk[b, DKC.WHERE] == WHERE.PATH and st.dk[b, DKC.DMG] == 45
    gp = st.pl[0, PLC.GP]
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    assert st.pl[0, PLC.GP] == gp + 20
    # the bot's window: 3 consecutive path squares worth the most (here the boss's)
    w = engine.bots.carnage_window_nb(st.dk, st.occ, 34, 3)
    assert w[0] == 8 and w[1] == pytest.approx(4.5)


def test_invocation_blesses_any_tower():
    # TB-159
    st = empty(race0="dwarves", race1="humans")
    s = site_near(st, 12)
    tower(st, 1, s, LINE.AIR_GROUND, 2)
    st.gs[GSC.WAVE_INDEX] = 3
    engine.hand_add_nb(st.hand, st.pl, 0, IMP.INVOCATION, 0)
    st.pl[0, PLC.GP] = 0
    engine.develop_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                            st.params, st.bot_id, st.bp, st.rng)
    assert st.bl[0, 0] == 1 and st.bl[0, 2] == s and st.bl[0, 3] == RACE.DWARVES
    assert st.bl[0, 1] == -1


# --- bosses -----------------------------------------------------------------------------
def test_boss_enters_in_wave_three_first():
    # TB-085 TB-086
    st = empty()
    st.gs[GSC.WAVE] = 3
    engine.draw_phase_nb(st.dk, st.occ, st.gs, st.deck, st.params, st.rng)
    b = int(engine.boss_row_nb(st.gs, 1))
    assert st.dk[b, DKC.WHERE] == WHERE.PATH
    assert st.dk[b, DKC.POS] == st.dk[b, DKC.SPEED] - 1  # entered first, moved its Speed


def test_boss_d20_fear_and_petrify():
    # TB-065 TB-163 TB-172 TB-174 TB-175 TB-177
    st = empty(race0="dwarves", race1="humans")
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, 2)
    b = int(engine.boss_row_nb(st.gs, 1))
    from simlib.games.terminus.move import put_nb
    put_nb(st.dk, st.occ, b, 12)
    d20 = st.params[13]
    seen = set()
    for _ in range(400):
        st.tw[s, TWC.FEAR] = 0
        st.tw[s, TWC.PETRIFY] = 0
        st.dk[b, DKC.DMG] = 10
        st.dk[b, DKC.HASTE] = 0
        state = st.rng.copy()
        roll = engine.randint_nb(20, state)
        fx, n = d20[0, roll]
        engine.boss_rolls_nb(st.dk, st.occ, st.tw, st.gs, st.params, st.rng)
        seen.add(int(fx))
        if fx == 1:
            assert st.tw[s, TWC.FEAR] == 1
        elif fx == 2:
            assert st.tw[s, TWC.PETRIFY] == 1
        elif fx == 3:
            assert st.dk[b, DKC.DMG] == max(0, 10 - n)
        elif fx == 4:
            assert st.dk[b, DKC.HASTE] == n
        else:
            assert st.tw[s, TWC.FEAR] == 0 and st.tw[s, TWC.PETRIFY] == 0
    assert seen == {0, 1, 2, 3, 4}
    lv, bless = st.params[5], st.params[8]
    st.tw[s, TWC.FEAR] = 1
    st.tw[s, TWC.PETRIFY] = 0
    full = lv[0, 0, 1, TSC.DMG]
    assert towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 1, 0)[0] == full // 2
    st.tw[s, TWC.COMBUST] = 1  # TB-173: halved after the bonus
    assert towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 1, 0)[0] == (full + 2) // 2
    st.tw[s, TWC.PETRIFY] = 1
    assert towers.tower_stats_nb(st.tw, st.bl, lv, bless, s, 1, 0)[2] == 0
    _defend(st)
    assert st.tw[s, TWC.FEAR] == 0 and st.tw[s, TWC.PETRIFY] == 0


def test_boss_follows_drakka_rules():
    # TB-165: a boss is poisoned and leaks with its Threat like any Drakka
    st = empty()
    b = int(engine.boss_row_nb(st.gs, 1))
    from simlib.games.terminus.move import put_nb
    put_nb(st.dk, st.occ, b, 33)
    st.dk[b, DKC.POISON] = 1
    engine.advance_all_nb(st.dk, st.occ, st.pl, st.gs, 34, st.params[18], 0, 1, 99)
    assert st.dk[b, DKC.WHERE] == WHERE.LEAKED and st.dk[b, DKC.DMG] == 1
    assert st.gs[GSC.PANIC] == st.dk[b, DKC.THREAT]


# --- poison and slow --------------------------------------------------------------------
def test_poison_and_slow_tokens_on_hits():
    # TB-178 TB-179 TB-180 TB-181 TB-182 TB-185 TB-188 TB-189
    st = empty()
    d = drakka(st, 5, tough=1000)
    hit = engine.hit_nb
    hit(st.dk, st.occ, st.pl, st.gs, d, 0, 0, 3, 2, 0, 0, st.cfg)
    assert st.dk[d, DKC.POISON] == 3 and st.dk[d, DKC.SLOW] == 2
    hit(st.dk, st.occ, st.pl, st.gs, d, 1, 0, 1, 1, 0, 0, st.cfg)
    assert st.dk[d, DKC.POISON] == 3 and st.dk[d, DKC.POISON_SRC] == 0  # lower: no change
    assert st.dk[d, DKC.SLOW] == 2
    hit(st.dk, st.occ, st.pl, st.gs, d, 1, 0, 1, 4, 1, 0, st.cfg)  # blessed: one step up
    assert st.dk[d, DKC.POISON] == 10 and st.dk[d, DKC.POISON_SRC] == 1
    assert st.dk[d, DKC.SLOW] == 4  # replenished to the higher value
    hit(st.dk, st.occ, st.pl, st.gs, d, 0, 0, 10, 0, 0, 0, st.cfg)
    assert st.dk[d, DKC.POISON] == 10  # never stacks past the top token
    assert set(tc.load_data()["towers"]["treefolk"]["air_ground"]["levels"][2][4:5]) <= {1, 3,
                                                                                     10}
    alt = empty(slow_ladder="421")
    e = drakka(alt, 5, tough=1000)
    engine.hit_nb(alt.dk, alt.occ, alt.pl, alt.gs, e, 0, 0, 0, 3, 0, 0, alt.cfg)
    assert alt.dk[e, DKC.SLOW] == 2  # no 3 token on the 1/2/4 ladder


def test_treefolk_shots_put_poison_and_slow_tokens():
    # TB-045: the Treefolk specialty: a shot of a Treefolk tower (the Spore Tower, level 2 of
    # its Air & Ground line) puts its Poison and Slow tokens on the Drakka it hits; TB-180:
    # the token records the poisoner (TB-077)
    st = empty(race0="treefolk", race1="humans")
    lv = st.params[5][RACE.TREEFOLK, LINE.AIR_GROUND, 1]
    assert lv[TSC.POISON] > 0 and lv[TSC.SLOW] > 0
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, 2)
    d = drakka(st, 12, tough=100)
    _defend(st)
    assert st.dk[d, DKC.DMG] == lv[TSC.DMG] * lv[TSC.RATE]
    assert st.dk[d, DKC.POISON] == lv[TSC.POISON] and st.dk[d, DKC.POISON_SRC] == 0
    assert st.dk[d, DKC.SLOW] == lv[TSC.SLOW]
    # a Human tower of the same level leaves no token
    st = empty(race0="humans", race1="dwarves")
    tower(st, 0, s, LINE.AIR_GROUND, 2)
    d = drakka(st, 12, tough=100)
    _defend(st)
    assert st.dk[d, DKC.POISON] == 0 and st.dk[d, DKC.SLOW] == 0


def test_toughness_reached_kills():
    # TB-029 TB-030 TB-031: damage stays across Waves until it reaches Toughness
    st = empty()
    d = drakka(st, 5, tough=6)
    assert not engine.hit_nb(st.dk, st.occ, st.pl, st.gs, d, 0, 5, 0, 0, 0, 0, st.cfg)
    engine.advance_all_nb(st.dk, st.occ, st.pl, st.gs, 34, st.params[18], 0, 1, 99)
    assert st.dk[d, DKC.DMG] == 5
    assert engine.hit_nb(st.dk, st.occ, st.pl, st.gs, d, 0, 1, 0, 0, 0, 0, st.cfg)
    st2 = empty(toughness_rule="exceed")
    e = drakka(st2, 5, tough=6)
    assert not engine.hit_nb(st2.dk, st2.occ, st2.pl, st2.gs, e, 0, 6, 0, 0, 0, 1, st2.cfg)


# --- draw -------------------------------------------------------------------------------
def test_draw_count_modifier():
    # TB-078..084 TB-036: d6 + the Battle's modifier (2, 2, 4, 4, 6 by default)
    cfg = compiled()[0]
    assert [engine.draw_count_nb(cfg, b, 1) for b in range(1, 6)] == [3, 3, 5, 5, 7]
    assert [engine.draw_count_nb(cfg, b, 6) for b in range(1, 6)] == [8, 8, 10, 10, 12]
    alt = compiled(draw_modifier="2,4,6,8,10")[0]
    assert [engine.draw_count_nb(alt, b, 0) for b in range(1, 6)] == [2, 4, 6, 8, 10]
    with pytest.raises(SimlibInputError, match="draw_modifier"):
        GAME.resolve("normal", {"draw_modifier": "2,4"})


def test_draw_phase_draws_d6_plus_modifier_one_by_one():
    # TB-078 TB-086: Battle 1 draws 3..8, each count often (the deck of 18 never runs short,
    # so TB-088 is not exercised here)
    counts = np.zeros(9, int)
    for i in range(600):
        st = fresh(seed=11, game_index=i)
        st.gs[GSC.WAVE] = 1
        drawn = engine.draw_phase_nb(st.dk, st.occ, st.gs, st.deck, st.params, st.rng)
        counts[drawn] += 1
        assert st.gs[GSC.DRAW_PTR] == drawn
        placed = len(pile(st, WHERE.PATH)) + len(pile(st, WHERE.TRAMPLED)) + \
            len(pile(st, WHERE.LEAKED))
        assert placed == drawn
    assert counts[:3].sum() == 0 and counts[3:].min() > 60  # P(<=60 of 600 at 1/6) < 1e-4


# --- the wave, the Lull and the end -----------------------------------------------------
def test_active_player_rotates_and_rerolls():
    # TB-062 TB-063: the active role passes clockwise; a new initiative winner is active next
    # (which Lulls re-roll, TB-210, is in test_terminus_turns.py)
    st = fresh(players=3, race0="humans", race1="dwarves", race2="elves")
    first = int(st.gs[GSC.FIRST])
    seq = []
    for _ in range(4):
        engine.start_wave_nb(st.gs)
        seq.append(int(st.gs[GSC.ACTIVE]))
    assert seq == [(first + k) % 3 for k in range(4)] and st.gs[GSC.WAVE_INDEX] == 3
    engine.initiative_nb(st.gs, 3, st.rng)
    new = int(st.gs[GSC.FIRST])
    engine.start_wave_nb(st.gs)
    assert st.gs[GSC.ACTIVE] == new


def test_lull_tally_piles_and_next_battle():
    # TB-198 TB-199 TB-200 TB-203 TB-204 TB-205 TB-206 TB-207 TB-208 TB-209 (the Lull is
    # called directly: when it comes, TB-006, is not exercised here)
    st = empty(race0="humans", race1="dwarves")
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, 3)
    stay = drakka(st, 20, dmg=2)
    st.dk[stay, DKC.POISON] = 3
    dead = drakka(st, 5)
    engine.kill_nb(st.dk, st.occ, st.pl, st.gs, dead, 0, 1)
    leak = drakka(st, -1)
    st.dk[leak, DKC.WHERE] = WHERE.LEAKED
    tramp = drakka(st, -1)
    st.dk[tramp, DKC.WHERE] = WHERE.TRAMPLED
    undrawn = int(st.deck[0])
    st.pl[0, PLC.GP] = 250
    bp = st.bp.copy()
    bp[engine.bots.P_VP] = 1.0
    engine.lull_nb(st.dk, st.tw, st.pl, st.deck, st.gs, st.params, 1, bp, st.rng)
    # 1 VP per kill + 3 VP for a level-3 tower + 2 VP bought with 200 of 250 GP
    assert st.pl[0, PLC.VP] == 1 + 3 + 2 and st.pl[0, PLC.GP] == 50
    assert st.dk[dead, DKC.WHERE] == WHERE.GRAVE
    for d in (leak, tramp, undrawn):
        assert st.dk[d, DKC.WHERE] == WHERE.BOX
    assert st.dk[stay, DKC.WHERE] == WHERE.PATH and st.dk[stay, DKC.DMG] == 2
    assert st.dk[stay, DKC.POISON] == 3
    assert st.gs[GSC.BATTLE] == 2
    ids = st.deck[:st.gs[GSC.DECK_N]]
    assert (st.dk[ids, DKC.BATTLE] == 2).all() and st.gs[GSC.DRAW_PTR] == 0
    # TB-007/198: prices follow the new Battle
    assert st.cfg[engine.CFG_FAVOR_PRICE] * st.gs[GSC.BATTLE] == 50


def test_final_scoring_and_level_vp():
    # TB-215 TB-216 TB-217 TB-218: the level VP, not cumulative (final_scoring_nb called
    # directly, so neither the end after Battle 5, TB-211, nor a retreat, TB-219)
    st = empty()
    st.tw[:, :] = 0
    for lvl, vp in ((0, 0), (1, 25), (2, 50), (3, 75)):
        st.pl[0, PLC.LEVEL] = lvl
        st.pl[0, PLC.VP] = 0
        st.pl[0, PLC.GP] = 99
        st.pl[0, PLC.BATTLE_KILLS] = 0
        engine.final_scoring_nb(st.tw, st.pl, st.gs, st.cfg, st.bp)
        assert st.pl[0, PLC.VP] == vp


def test_winner_most_vp_then_gp_then_shared():
    # TB-220 TB-221 TB-222
    st = empty(players=3, race0="humans", race1="dwarves", race2="elves")
    st.pl[:3, PLC.VP] = [10, 12, 12]
    st.pl[:3, PLC.GP] = [500, 20, 30]
    assert engine.winners_nb(st.pl, 3) == 0b100
    st.pl[2, PLC.GP] = 20
    assert engine.winners_nb(st.pl, 3) == 0b110


def test_retreat_at_panic_limit():
    # TB-213 TB-212 TB-002 TB-003
    st = empty(start_panic=9)
    drakka(st, 33, speed=3, threat=1)
    engine.advance_phase_nb(st.dk, st.occ, st.tw, st.pl, st.gs, st.params, st.rng)
    assert engine.over_nb(st.gs, st.cfg) and st.gs[GSC.RETREAT] == 1
    g = GAME
    p = compiled(clear_board=True)  # the TB-214 alternative: the board is cleared
    from terminus_helpers import bot
    bid, bp = bot()
    r = g.play_batch(p, bid, bp, 5, 0, 300)
    won = r["win"]
    assert won.any() and (~won).any()
    assert (r["battle_reached"][won] == 5).all()
    assert (r["rounds"][won] == 15 + r["extra_waves"][won]).all()
    assert (r["panic"][~won] >= 10).all() and (r["panic"][won] < 10).all()
    assert (r["drakka_left"][won] == 0).all()  # TB-214: the board was cleared


def test_clear_board_setting():
    # TB-214: without clearing, a game ends after Battle 5's third Wave; TB-004 TB-003:
    # 5 Battles of 3 Waves are 15 Waves
    p = compiled(clear_board=False)
    from terminus_helpers import bot
    bid, bp = bot()
    r = GAME.play_batch(p, bid, bp, 5, 0, 200)
    assert (r["extra_waves"] == 0).all()
    assert (r["rounds"][r["win"]] == 15).all()


def test_clear_board_reading_default_is_literal_and_the_alternative_clears():
    # TB-214 (reading): the End Game section ends the game once all 5 Battles are survived
    # (ruling TB-212), so no Wave follows Battle 5 by default; clear_board=true plays
    # Waves without a Draw until the path is clear
    from terminus_helpers import bot
    bid, bp = bot()
    r = GAME.play_batch(compiled("legendary"), bid, bp, 5, 0, 200)
    assert (r["extra_waves"] == 0).all() and (r["rounds"][r["win"]] == 15).all()
    assert (r["drakka_left"][r["win"]] > 0).any()  # the path was not cleared
    r = GAME.play_batch(compiled("legendary", clear_board=True), bid, bp, 5, 0, 200)
    assert (r["extra_waves"] > 0).any()
    assert (r["drakka_left"][r["win"]] == 0).all()
    assert (r["rounds"] == 15 + r["extra_waves"])[r["win"]].all()


def test_poison_credit_setting():
    # TB-077 nobody: a poison kill is boxed, no player's kill
    st = empty(poison_kill="nobody")
    d = drakka(st, 3, tough=1)
    st.dk[d, DKC.POISON] = 1
    st.dk[d, DKC.POISON_SRC] = 0
    engine.advance_phase_nb(st.dk, st.occ, st.tw, st.pl, st.gs, st.params, st.rng)
    assert st.dk[d, DKC.WHERE] == WHERE.DEAD and st.dk[d, DKC.KILLER] == -1
    assert st.pl[0, PLC.KILLS] == 0
    engine.clear_piles_nb(st.dk, st.gs)
    assert st.dk[d, DKC.WHERE] == WHERE.BOX


def test_crystals_and_levels():
    # TB-190 TB-191 TB-192 TB-193 TB-194 TB-195 TB-197 TB-232
    st = empty(class0="military")
    cls = st.params[15]
    st.pl[0, PLC.KILLS] = 1000
    st.gs[GSC.WAVE_INDEX] = 2
    assert engine.level_due_nb(st.tw, st.pl, st.cfg, cls, 0)
    engine.level_up_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                       st.params, 0, st.bot_id, st.bp, st.rng)
    assert st.pl[0, PLC.LEVEL] == 3 and st.pl[0, PLC.CRYSTALS] == 3
    # no danger and no tower: White -> 1 Favor, Pink -> 3 Favors, Red -> 5 Favors
    assert st.pl[0, PLC.HAND_N] == 9
    assert engine.playable_nb(st.hand, st.pl, 0, st.hand[0, 0, 0], 2) == -1  # TB-196
    # a Red crystal with a Drakka about to get through casts a 3-square Carnage
    st2 = empty(class0="military")
    d = drakka(st2, 33, speed=3)
    engine.use_crystal_nb(st2.dk, st2.occ, st2.tw, st2.bl, st2.pl, st2.hand, st2.fdeck,
                          st2.gs, st2.params, 0, 2, st2.bot_id, st2.bp, st2.rng)
    assert st2.dk[d, DKC.WHERE] == WHERE.DEAD and st2.pl[0, PLC.KILLS] == 1
    # a Red crystal with an upgradable tower and no danger renovates
    st3 = empty(class0="military", race0="humans", race1="dwarves")
    s = site_near(st3, 12)
    tower(st3, 0, s, LINE.AIR_GROUND, 1)
    engine.use_crystal_nb(st3.dk, st3.occ, st3.tw, st3.bl, st3.pl, st3.hand, st3.fdeck,
                          st3.gs, st3.params, 0, 2, st3.bot_id, st3.bp, st3.rng)
    assert st3.tw[s, TWC.LEVEL] == 2
    # the petitioner takes Petitions from White and Pink crystals
    st4 = empty(bot_name="petitioner")
    engine.use_crystal_nb(st4.dk, st4.occ, st4.tw, st4.bl, st4.pl, st4.hand, st4.fdeck,
                          st4.gs, st4.params, 0, 0, st4.bot_id, st4.bp, st4.rng)
    engine.use_crystal_nb(st4.dk, st4.occ, st4.tw, st4.bl, st4.pl, st4.hand, st4.fdeck,
                          st4.gs, st4.params, 0, 1, st4.bot_id, st4.bp, st4.rng)
    assert st4.pl[0, PLC.PETITIONS] == 5


def test_conservation_and_invariants_over_whole_games():
    # every card in exactly one pile at the end; no invariant breach in any phase
    p = compiled(check_invariants=True, players=4, race0="humans", race1="dwarves",
                 race2="elves", race3="treefolk")
    from terminus_helpers import bot
    for name in ("builder", "killer", "petitioner"):
        bid, bp = bot(name)
        r = GAME.play_batch(p, bid, bp, 9, 0, 300)
        assert (r["invariant_violations"] == 0).all()
        assert (r["vp"][:, :4] >= 0).all() and (r["gp"][:, :4] >= 0).all()
        assert (r["kills"] == r["seat_kills"][:, :4].sum(1)).all()
        assert (r["trampled"] == r["trampled_b"].sum(1)).all()
        assert (r["leaks"] == r["leaks_b"].sum(1)).all()


def test_records_sum_kills_by_seat():
    # TB-232: a player's Kills are the cards in their Graveyard and Dead Drakka area
    p = compiled(players=2)
    from terminus_helpers import bot
    bid, bp = bot()
    r = GAME.play_batch(p, bid, bp, 3, 0, 200)
    # with 'poisoner' credit every kill belongs to a seat
    assert (r["kills"] == r["seat_kills"][:, :2].sum(1)).all()
    assert (r["seat_kills"][:, 2:] == -1).all()


def test_waves_are_advance_draw_defend_resolve_develop():
    # TB-005: after one Wave the drawn Drakka were shot (Defend after Draw) and the kills
    # paid in the same Wave (Resolve after Defend), then GP spent (Develop last)
    st = fresh(seed=4)
    st.gs[GSC.WAVE] = 1
    engine.play_wave_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.deck,
                        st.gs, st.params, 1, st.bot_id, st.bp, st.rng)
    dead = pile(st, WHERE.DEAD)
    assert st.gs[GSC.DRAW_PTR] > 0
    assert all(st.dk[d, DKC.FACEUP] == 0 for d in dead)  # collected in Resolve
    assert st.pl[0, PLC.KILLED_WAVE] == 0  # the Wave's markers ended


def test_favor_windows_played_by_bots_in_games():
    # TB-124: over whole games the petitioner plays every kind of Imperial card (with the
    # clear-the-board Waves of the TB-214 alternative, where Carnage finds its Drakka)
    p = compiled(players=2, clear_board=True)
    from terminus_helpers import bot
    bid, bp = bot("petitioner")
    r = GAME.play_batch(p, bid, bp, 1, 0, 200)
    assert r["favors_played"].mean() > 5 and r["sanctions_played"].sum() > 0
    assert r["spy_kills"].sum() > 0 and r["carnage_kills"].sum() > 0


def test_speed_is_path_squares_when_drawn():
    # TB-028: a drawn Drakka enters and moves its Speed
    st = empty()
    d = drakka(st, -1, speed=4)
    st.deck[0] = d
    st.gs[GSC.DECK_N] = 1
    st.gs[GSC.DRAW_PTR] = 0
    engine.draw_moves_nb(st.dk, st.occ, st.gs, st.deck, 1, -1, 34, 99)
    assert st.dk[d, DKC.POS] == 3


def test_gp_and_vp_move_in_exact_amounts():
    # TB-037: GP and VP are exact integers, not rounded to the counters in the box (GP
    # 10/50/100, VP 5/25/100): a tower worth 75 GP (the 'paid' reading of TB-114) sells for
    # exactly 35 GP (TB-113), a Favor costs exactly 25 GP in Battle 1 (TB-117) and one kill
    # scores exactly 1 VP at the Lull (TB-199)
    st = empty(race0="humans", race1="dwarves", sell_value="paid")
    s = site_near(st, 12)
    tower(st, 0, s, LINE.AIR_GROUND, 2)
    st.tw[s, TWC.PAID] = 75
    st.pl[0, PLC.GP] = 240
    st.pl[0, PLC.VP] = 0
    assert towers.sell_nb(st.tw, st.bl, st.pl, st.params[5], s, st.cfg[engine.CFG_SELL_RULE]) \
        == 35
    assert st.pl[0, PLC.GP] == 275
    bp = st.bp.copy()
    bp[engine.bots.P_FAVOR] = 1.0
    bp[engine.bots.P_VP] = 0.0
    engine.resolve_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                            st.params, st.bot_id, bp, st.rng)
    assert st.pl[0, PLC.HAND_N] == 1 and st.pl[0, PLC.GP] == 250
    engine.kill_nb(st.dk, st.occ, st.pl, st.gs, drakka(st, 5), 0, 1)
    engine.tally_nb(st.tw, st.pl, st.gs, st.cfg, 0, bp)
    assert st.pl[0, PLC.VP] == 1 and st.pl[0, PLC.GP] == 250


def test_lull_after_battle_five_is_only_the_tally():
    # TB-211: the final tally pays War Chests and VP but deals no new deck
    st = empty(final_vp_buy="all")
    st.gs[GSC.BATTLE] = 5
    st.pl[0, PLC.TAX_PLAYED] = 3
    st.pl[0, PLC.GP] = 0
    st.pl[0, PLC.VP] = 0
    n = st.gs[GSC.DECK_N]
    engine.final_scoring_nb(st.tw, st.pl, st.gs, st.cfg, st.bp)
    # the 150 GP War Chest (TB-144), then all GP to VP at 100 GP each (TB-203)
    assert st.pl[0, PLC.VP] == 1 and st.pl[0, PLC.GP] == 50
    assert st.gs[GSC.BATTLE] == 5 and st.gs[GSC.DECK_N] == n


def test_final_vp_buy_reading():
    # TB-211 / TB-203 (reading): "You can buy VPs for 100GP/VP" is a choice at the final
    # tally as at every Lull: by default the bot buys its vp_buy share (builder 0.1) and
    # keeps the rest for the GP tiebreak (TB-221); final_vp_buy="all" converts every 100 GP
    for mode, vp, gp in (("share", 2, 1800), ("all", 20, 0)):
        st = empty(final_vp_buy=mode)
        st.gs[GSC.BATTLE] = 5
        st.pl[0, PLC.GP] = 2000
        st.pl[0, PLC.VP] = 0
        engine.final_scoring_nb(st.tw, st.pl, st.gs, st.cfg, st.bp)
        # 'share': 0.1 x 2000 = 200 GP buys 2 VP; 'all': 2000 GP buy 20
        assert (st.pl[0, PLC.VP], st.pl[0, PLC.GP]) == (vp, gp), mode


def test_develop_active_player_first():
    # TB-108: with GP for one tower each and one build spot left, the active player gets it
    for active in (0, 1):
        st = empty(race0="humans", race1="dwarves")
        sites = st.params[2]
        spots = [s for s in range(18) if sites[s, 2] == SITE.SPOT]
        for s in spots[1:]:
            tower(st, 1 - active, s, LINE.HOLY)  # filler: occupied sites
            st.tw[s, TWC.OWNER] = 3
        st.pl[0, PLC.GP] = 30
        st.pl[1, PLC.GP] = 30
        st.gs[GSC.ACTIVE] = active
        engine.develop_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                                st.params, st.bot_id, st.bp, st.rng)
        assert st.tw[spots[0], TWC.ALIVE] == 1 and st.tw[spots[0], TWC.OWNER] == active


def test_bounty_paid_once_even_past_the_kill_log():
    # TB-099: more face-up kills in a Wave than the kill log holds are still all paid, once
    from simlib.games.terminus.state import KLOG_MAX

    st = empty()
    n = 0
    for d in range(int(st.gs[GSC.N_DRAKKA]) - 5):
        if st.dk[d, DKC.WHERE] == WHERE.UNUSED and n < KLOG_MAX + 6:
            st.dk[d, DKC.BOUNTY] = 2
            engine.kill_nb(st.dk, st.occ, st.pl, st.gs, d, 0, 1)
            n += 1
    assert n == KLOG_MAX + 6 and st.gs[GSC.KLOG_N] == n
    gp = st.pl[0, PLC.GP]
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    assert st.pl[0, PLC.GP] == gp + 2 * n
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    assert st.pl[0, PLC.GP] == gp + 2 * n
    # a kill after its owner's Resolve stays face-up and pays in the next Wave's Resolve
    late = [d for d in range(int(st.gs[GSC.N_DRAKKA]) - 5)
            if st.dk[d, DKC.WHERE] == WHERE.UNUSED][0]
    st.dk[late, DKC.BOUNTY] = 9
    engine.kill_nb(st.dk, st.occ, st.pl, st.gs, late, 0, 1)
    engine.end_wave_nb(st.dk, st.tw, st.pl, st.gs, 18)
    st.pl[0, PLC.KILLED_WAVE] = 1
    engine.collect_nb(st.dk, st.pl, st.gs, 0)
    assert st.pl[0, PLC.GP] == gp + 2 * n + 9


def test_crystals_reading_keep_holds_until_drakka_threaten():
    # TB-191 (reading): "Can be used immediately" (default: spent as received, see
    # test_crystals_and_levels); crystals="keep" holds them until Drakka threaten to get
    # through, then spends them all as the holder's Defend turn starts
    st = empty(class0="military", crystals="keep")
    st.pl[0, PLC.KILLS] = 1000
    st.gs[GSC.WAVE_INDEX] = 2
    engine.level_up_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                       st.params, 0, st.bot_id, st.bp, st.rng)
    assert st.pl[0, PLC.LEVEL] == 3 and st.pl[0, PLC.CRYSTALS] == 3
    held = [int(st.pl[0, PLC.HELD + c]) for c in range(3)]
    assert sum(held) == 3 and st.pl[0, PLC.HAND_N] == 0  # nothing spent yet
    # no danger: a Defend phase keeps them
    engine.defend_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                           st.params, st.bot_id, st.bp, st.rng)
    assert [int(st.pl[0, PLC.HELD + c]) for c in range(3)] == held
    # a Drakka next to the breach: the Defend turn starts with a Carnage on it
    end = int(st.cfg[engine.CFG_PATH_LEN]) - 1
    d = drakka(st, end, speed=3, tough=1)
    engine.defend_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                           st.params, st.bot_id, st.bp, st.rng)
    assert sum(int(st.pl[0, PLC.HELD + c]) for c in range(3)) == 0
    assert st.dk[d, DKC.WHERE] == WHERE.DEAD and st.gs[GSC.CARNAGE_KILLS] == 1


def test_terminus_readings_are_listed():
    got = {s.name: s.reading for s in GAME.readings()}
    assert got == {"clear_board": "TB-214", "final_vp_buy": "TB-211", "crystals": "TB-191"}
    defaults = {s.name: s.default for s in GAME.readings()}
    assert defaults == {"clear_board": False, "final_vp_buy": "share", "crystals": "at_once"}
