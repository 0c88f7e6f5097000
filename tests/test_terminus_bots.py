"""Terminus Breach TD bots: the anti-air check, selling towers, survival by player count.

The flight-blind valuation the bots used to have filled the shared Build Spots with Heavy
Ground towers, which can never shoot a flyer (TB-010); flyers then caused nearly all the
panic, and survival fell from 2 to 3 players (see the package docstring for the numbers).
These scenarios show the choices that fix it, and the survival table that results.
"""

from pathlib import Path

import numpy as np
from terminus_helpers import bot, empty, tower

import simlib
from simlib.core.stats import wilson_interval
from simlib.games.terminus import bots, engine
from simlib.games.terminus.state import GSC, LINE, PLC, SITE, TWC

RH = 3  # Humans
#: The default data version 1 (Drakka, maps, tower lines), which the findings below were
#: measured on.
V1_DATA = str(Path(__file__).parent / "data" / "terminus_v1.toml")


def ns(st):
    """Number of sites of the map."""
    return int(st.cfg[engine.CFG_SITES])


def spots(st):
    """Build Spot sites of the map (shooting towers stand only there, TB-020)."""
    return [s for s in range(ns(st)) if st.params[2][s, 2] == SITE.SPOT]


def choice(st, seat, bp):
    p = st.params
    cheap = int(st.cfg[engine.CFG_CHEAP + st.pl[seat, PLC.RACE]])
    return bots.develop_choice_nb(st.tw, st.pl, p[19], p[20], p[21], p[5], p[6], p[7],
                                  ns(st), seat, cheap, int(st.gs[GSC.N_PLAYERS]), bp)


def crowded(players=3):
    """Heroic, 3 Humans, all Build Spots but two taken by Heavy Ground; seat 0 rich.

    Seats 1 and 2 own the Heavy Ground towers but the last one, seat 0's.
    """
    st = empty("heroic", players=players, distinct_races=False, race0="humans",
               race1="humans", race2="humans")
    sp = spots(st)
    for i, s in enumerate(sp[:-2]):
        tower(st, 1 + i % 2 if i < len(sp) - 3 else 0, s, LINE.HEAVY_GROUND)
    tower(st, 0, sp[0], LINE.AIR_GROUND)  # one anti-air tower, seat 0's
    st.pl[0, PLC.GP] = 60
    return st, sp


def test_flight_blind_choice_builds_heavy_ground_on_the_last_spots():
    # TB-010: the old valuation (air 0) prefers a Catapult to a Spear Tower per GP even
    # though Heavy Ground can never shoot the flyers
    st, sp = crowded()
    _, bp = bot("builder", air=0.0)
    kind, site, line = choice(st, 0, bp)
    assert kind == 1 and line == LINE.HEAVY_GROUND and site in sp[-2:]


def test_builder_keeps_the_last_spots_for_anti_air():
    # TB-009 TB-010: with the table short of anti-air and the spots short, the default
    # builder builds Air & Ground (or raises its own anti-air), never Heavy Ground
    st, sp = crowded()
    bid, bp = bot("builder")
    assert bp[bots.P_AIR] > 0
    share, _ = bots.anti_air_share_nb(st.tw, st.params[19], st.params[5], ns(st))
    assert 0 < share < bp[bots.P_AIR]
    kind, site, line = choice(st, 0, bp)
    assert kind != 0
    assert (kind == 1 and line == LINE.AIR_GROUND) or \
        (kind == 2 and st.tw[site, TWC.LINE] == LINE.AIR_GROUND)


def test_anti_air_check_leaves_free_spots_and_lone_players_alone():
    # a lone character's 4 + 3 tower cards fit on every shipped map: no spot shortage, so
    # its choice is the flight-blind one whatever ``air``
    st = empty("heroic", players=1, race0="humans")
    sp = spots(st)
    tower(st, 0, sp[0], LINE.HEAVY_GROUND)
    st.pl[0, PLC.GP] = 60
    p = st.params
    assert not bots.spots_short_nb(st.tw, st.pl, p[20], p[7], ns(st), 1)
    _, on = bot("builder", air=1.0)
    _, off = bot("builder", air=0.0)
    assert choice(st, 0, on) == choice(st, 0, off)


def test_anti_air_share_counts_every_owner_and_skips_holy():
    st, sp = crowded()
    p = st.params
    share, total = bots.anti_air_share_nb(st.tw, p[19], p[5], ns(st))
    w = p[19]
    heavy = sum(w[RH, LINE.HEAVY_GROUND, 0, s] for s in sp[1:-2])
    air = w[RH, LINE.AIR_GROUND, 0, sp[0]]
    np.testing.assert_allclose([share, total], [air / (air + heavy), air + heavy])
    st.tw[:, :] = 0
    assert bots.anti_air_share_nb(st.tw, p[19], p[5], ns(st))[0] == -1.0


def develop(st, bp):
    engine.develop_phase_nb(st.dk, st.occ, st.tw, st.bl, st.pl, st.hand, st.fdeck, st.gs,
                            st.params, 0, bp, st.rng)


def full_table():
    """Every Build Spot taken, seat 0 owns a level-1 and a level-2 Heavy Ground tower."""
    st, sp = crowded()
    tower(st, 1, sp[-2], LINE.HEAVY_GROUND)
    tower(st, 0, sp[-1], LINE.HEAVY_GROUND)
    own = [s for s in sp if st.tw[s, TWC.OWNER] == 0 and st.tw[s, TWC.LINE] == 1]
    st.tw[own[0], TWC.LEVEL] = 2
    return st, own


def test_builder_sells_its_weakest_heavy_tower_to_rebuild_anti_air():
    # TB-113 TB-114: the builder destroys its level-1 Heavy Ground tower (half of 40 GP,
    # rounded down to 5: 20 back) and builds a Spear Tower (25 GP) on that spot
    st, own = full_table()
    _, bp = bot("builder", reserve=0.0)
    st.pl[0, PLC.GP] = 5
    st.pl[1, PLC.GP] = st.pl[2, PLC.GP] = 0
    s = bots.sell_choice_nb(st.tw, st.pl, st.params[19], st.params[20], st.params[5],
                            st.params[7], ns(st), 0, bp)
    assert s == own[1] and st.tw[s, TWC.LEVEL] == 1
    develop(st, bp)
    assert st.tw[s, TWC.ALIVE] == 1 and st.tw[s, TWC.OWNER] == 0
    assert st.tw[s, TWC.LINE] == LINE.AIR_GROUND and st.tw[s, TWC.LEVEL] == 1
    assert st.pl[0, PLC.GP] == 0 and st.gs[GSC.SOLD] == 1 and st.pl[0, PLC.SOLD_WAVE] == 1
    assert st.tw[own[0], TWC.LINE] == LINE.HEAVY_GROUND  # the level-2 tower stays


def test_no_sale_when_off_poor_a_spot_is_free_or_already_sold():
    for change in ("off", "poor", "free", "sold", "enough_air"):
        st, own = full_table()
        _, bp = bot("builder", reserve=0.0)
        st.pl[0, PLC.GP] = 5
        st.pl[1, PLC.GP] = st.pl[2, PLC.GP] = 0
        if change == "off":
            bp[bots.P_SELL] = 0.0
        elif change == "poor":
            st.pl[0, PLC.GP] = 0  # 0 + 20 < 25: it could not rebuild
        elif change == "free":
            st.tw[spots(st)[-2], :] = 0  # seat 1's
        elif change == "sold":
            st.pl[0, PLC.SOLD_WAVE] = 1  # TB-113: one tower per Develop phase
        else:
            bp[bots.P_SELL] = 0.01  # the table's anti-air share is above it
        before = st.tw.copy()
        s = bots.sell_choice_nb(st.tw, st.pl, st.params[19], st.params[20], st.params[5],
                                st.params[7], ns(st), 0, bp)
        assert s == -1, change
        develop(st, bp)
        assert st.gs[GSC.SOLD] == 0, change
        assert all(st.tw[q, TWC.LINE] == before[q, TWC.LINE] for q in own), change


def test_default_bots_sell_in_whole_games():
    # the reason to sell comes up in play: 3 players on the Legendary map
    res = simlib.run("terminus", preset="legendary", settings={"players": 3}, games=300,
                     seed=5, progress=False)
    assert res.df["towers_sold"].sum() > 0
    assert (res.df["invariant_violations"] == 0).all()


def test_survival_rises_with_players_for_the_default_builder():
    # finding 1: with the anti-air check, Heroic survival rises from 1 to 2 to 3 players
    # (before it, 43% / 14% / 8%; clear_board=true and the version-1 data, the reading
    # and data it was found under). 2,000 games a cell, fixed seed: an exact check of the
    # shipped engine and bot; 95% Wilson intervals apart.
    lo_hi = []
    for n in (1, 2, 3):
        df = simlib.run("terminus", preset="heroic", settings={"players": n,
                                                               "clear_board": True,
                                                               "data": V1_DATA},
                        games=2000, seed=11, progress=False).df
        lo_hi.append(wilson_interval(int(df["win"].sum()), len(df)))
    assert lo_hi[0][1] < lo_hi[1][0] and lo_hi[1][1] < lo_hi[2][0], lo_hi


def _favor_bought(bot_name, battle, gp=400):
    st = empty("normal")
    _, bp = bot(bot_name)
    st.gs[GSC.BATTLE] = battle
    st.pl[0, PLC.GP] = gp
    st.pl[0, PLC.BOUGHT_WAVE] = 0
    hand_before = int(st.pl[0, PLC.HAND_N])
    engine.resolve.favor_rule_nb(st.hand, st.fdeck, st.pl, st.gs, st.cfg, 0, bp, st.rng)
    bought = int(st.pl[0, PLC.BOUGHT_WAVE])
    if bought:  # TB-117: 25 GP x Battle, the card drawn into the hand
        assert st.pl[0, PLC.GP] == gp - 25 * battle
        assert st.pl[0, PLC.HAND_N] == hand_before + 1
    else:
        assert st.pl[0, PLC.GP] == gp and st.pl[0, PLC.HAND_N] == hand_before
    return bought


def test_builder_saves_gp_in_battles_1_to_4_and_buys_favors_from_battle_5():
    # the fix the search bot showed (README, headroom): favor_buy 0 and favor_late 1
    for battle in (1, 2, 3, 4):
        assert _favor_bought("builder", battle) == 0
    assert _favor_bought("builder", 5) == 1
    assert _favor_bought("builder", 5, gp=124) == 0  # cannot pay 125 GP
    # the other bots keep one chance for the whole game
    assert _favor_bought("petitioner", 2) == 1 and _favor_bought("petitioner", 5) == 1
    assert _favor_bought("killer", 2) == 0 and _favor_bought("killer", 5) == 0


def test_builder_buys_no_favor_before_battle_5_in_whole_games():
    # whole games: the builder with the fix plays more Favors than with the old 10% chance
    # (means over 400 paired Legendary games; 17.2 -> 23.9 at 20,000 games, README)
    # the TB-214 alternative and the version-1 data the fix was measured under
    cb = {"clear_board": True, "data": V1_DATA}
    old = simlib.run("terminus", preset="legendary", bot="builder", games=400, seed=3,
                     settings=cb, bot_params={"favor_buy": 0.1, "favor_late": 0.1},
                     progress=False).df
    new = simlib.run("terminus", preset="legendary", bot="builder", games=400, seed=3,
                     settings=cb, progress=False).df
    assert new["favors_played"].mean() > old["favors_played"].mean() + 3
