"""Terraria rules of the turn: cooperation, the player's icons, attacks, respawn, minions,
consumables, the order of the turns and enemy moves.

Scenario tests on hand-made states: the small tables of ``terraria_foes_helpers`` with a few
weapons, staffs, cards and consumables added here (:func:`arena_tables`), or a real game set
up from the default content where the bots need it. Dice are checked exactly against a
plain-Python roll from a copy of the generator (:func:`ref_duel`, written from the
rulebook's attack steps). Each test cites the checklist lines it checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from terraria_foes_helpers import ENEMIES, ZOMBIE, Game, enemy_row, tables

from simlib.core.dice import duel_nb
from simlib.core.rng import new_state, randint_nb
from simlib.games.terraria import GAME, bots, state
from simlib.games.terraria.engine import (
    actions,
    attack,
    batch,
    cards,
    enemy,
    foes,
    life,
    magic,
    npcs,
    setup,
)
from simlib.games.terraria.engine.sight import sees_nb
from simlib.games.terraria.state import (
    CF,
    CH,
    CNT,
    CO,
    ENEMY_ROW,
    EQ,
    FEAT,
    KIND,
    OB,
    OUT,
    PC,
    PILE,
    RANGE,
    RK,
    RU,
    SLOT,
    SQ,
    SUP,
    G,
    P,
    replace,
)

E0 = ENEMY_ROW

# equipment of the arena (ids into ``equip``)
SWORD, TWIN, BOW, BOOMERANG, STAFF_A, STAFF_B = range(6)
MINIONS = (1, 3)  # attack icons of minion cards 0 and 1
# cards: the helper's ordinary card 0 and its three debuff cards 1..3, then ours
ASSIST, GUARD, DODGE, EXPLORE, PURSE = 0, 4, 5, 6, 7
# consumables: the helper's potion (heal 2) and Voodoo Doll, then a mid-turn boost
POTION, SWIFT = 0, 2
# bestiary rows added to the helper's six
SOFT, TOUGH, BRUTE, WALK4, FLY4, WALK2, POST = range(6, 13)


def arena_tables(objectives=None, enemies=None):
    """The helper's tables with weapons, staffs, cards, consumables and unreachable objectives."""
    eq = np.zeros((6, EQ.N), dtype=np.int16)
    eq[:, EQ.MINION] = -1
    for e, dice, reach, los in (
        (SWORD, (4,), RANGE.SHORT, 1),
        (TWIN, (6, 8), RANGE.SHORT, 1),
        (BOW, (6,), RANGE.MEDIUM, 1),
        (BOOMERANG, (6,), RANGE.MEDIUM, 0),  # no line-of-sight icon
    ):
        eq[e, EQ.SLOT] = SLOT.WEAPON
        eq[e, EQ.NATK] = len(dice)
        eq[e, EQ.ATK0 : EQ.ATK0 + len(dice)] = dice
        eq[e, EQ.RANGE] = reach
        eq[e, EQ.LOS] = los
    for e, m in ((STAFF_A, 0), (STAFF_B, 1)):
        eq[e, EQ.SLOT] = SLOT.OTHER
        eq[e, EQ.MINION] = m
        eq[e, EQ.MANA] = 2
    base = tables(enemies=ENEMIES if enemies is None else enemies)
    c = np.zeros((8, CF.N), dtype=np.int16)
    c[:5] = base.cards
    c[ASSIST, CF.ATK] = 1  # card 0: 1 action point and 1 attack
    c[DODGE, CF.AP] = 1
    c[DODGE, CF.CHOICE] = 1
    c[DODGE, CF.DEF_B] = 2  # "either an action point or 2 defence"
    c[EXPLORE, CF.AP] = 2
    c[PURSE, CF.COIN] = 3
    co = np.zeros((3, CO.N), dtype=np.int16)
    co[:2] = base.consumables
    co[SWIFT, CO.AP] = 2
    co[SWIFT, CO.MANA] = 1
    co[SWIFT, CO.COPIES] = 1
    rules = base.rules.copy()
    rules[RU.SLOT5_PRICE] = 15
    rules[RU.SLOT6_PRICE] = 25
    if objectives is None:  # nothing completes: every objective asks for more than exists
        objectives = np.zeros((40, OB.N), dtype=np.int16)
        objectives[:, OB.AMOUNT] = 30000
    return replace(
        base, equip=eq, minions=np.array(MINIONS, dtype=np.int16), cards=c, consumables=co,
        rules=rules, objectives=objectives,
    )  # fmt: skip


def arena_enemies():
    """The helper's bestiary plus plain targets and movers (rows ``SOFT`` .. ``POST``)."""
    extra = [
        enemy_row([4], RANGE.SHORT, defense=(4,), wounds=1, coins=1),  # SOFT
        enemy_row([4], RANGE.SHORT, defense=(4, 6), wounds=99, movement=0),  # TOUGH
        enemy_row([4], RANGE.SHORT, defense=(8,), wounds=99, movement=0),  # BRUTE
        enemy_row([4], RANGE.SHORT, movement=4),  # WALK4
        enemy_row([4], RANGE.SHORT, movement=4, kind=KIND.FLYER),  # FLY4
        enemy_row([4], RANGE.SHORT, movement=2),  # WALK2
        enemy_row([4], RANGE.SHORT, movement=0),  # POST
    ]
    return np.vstack([ENEMIES] + extra)


def arena(rows=("........", "........", "########"), seed=1, **kw):
    """A Game on the surface (tile columns 7 and 8) with the arena tables."""
    tab = arena_tables(enemies=arena_enemies(), **kw)
    g = Game(list(rows), top=0, left=42, tab=tab, seed=seed)
    g.st.g[G.CHAINS_NEEDED] = 1
    return g


def hand(st, p, ids):
    """Put cards ``ids`` into ``p``'s hand (as if drawn)."""
    for i, c in enumerate(ids):
        st.deck[p, PILE.HAND, i] = c
    st.npile[p, PILE.HAND] = len(ids)


def ref_duel(rng, attack, defense, bonus):
    """Wounds of one attack rolled from a copy of ``rng``, and the copy after the roll.

    The rulebook's steps 3-7: the defence dice and the attack dice are rolled together (here
    the defence dice first, one draw each, as ``core.dice.duel_nb`` documents), all attack
    icons go onto one attack die where they turn a miss into a hit, each attack die at least
    the highest defence die is a wound.
    """
    s = np.array(rng, dtype=np.uint64)
    high = max(int(randint_nb(d, s)) + 1 for d in defense)
    rolls = [int(randint_nb(a, s)) + 1 for a in attack]
    hits = sum(r >= high for r in rolls)
    if any(r < high <= r + bonus for r in rolls):
        hits += 1
    return hits, s


def test_ref_duel_agrees_with_the_library_duel():  # the reference itself is right
    for i in range(200):
        s = new_state(11, i)
        attack, defense = ((4,), (8,)) if i % 2 else ((6, 8), (4, 6))
        bonus = i % 4
        want, after = ref_duel(s, attack, defense, bonus)
        got = duel_nb(np.array(attack), np.array(defense), bonus, 0, s)
        assert got == want
        np.testing.assert_array_equal(s, after)


# --- cooperation ------------------------------------------------------------------------------
def test_the_team_shares_one_outcome():  # TR-005
    # a win: every Fight objective asks for 1 enemy defeated, each rewards 1 coin to ALL
    obj = np.zeros((40, OB.N), dtype=np.int16)
    obj[:, OB.AMOUNT] = 30000
    obj[10:20, OB.COUNTER] = CNT.ENEMIES
    obj[10:20, OB.AMOUNT] = 1
    obj[10:20, OB.REWARD + 0] = RK.COINS
    obj[10:20, OB.REWARD + 2] = 1
    g = arena(objectives=obj)
    st = g.st
    g.character(0, 1, 0)
    g.character(1, 1, 6)
    g.enemy(E0, SOFT, 1, 7)
    st.chars[1, CH.WEAPON] = SWORD
    st.chars[1, CH.AP] = 1
    st.chars[1, CH.ATK] = 10  # the attack cannot fail
    assert attack.attack_action_nb(st, g.tab, 1, E0) == 1  # player 1's kill ...
    assert st.g[G.OVER] == OUT.WON_OBJECTIVES  # ... wins the game for both
    assert st.chars[0, CH.COINS] == 10 and st.chars[1, CH.COINS] == 11  # ALL rewards + loot
    st.chars[0, CH.AP] = 1
    assert not actions.step_action_nb(st, g.tab, 0, 0, 1)  # nobody plays on alone
    rec = np.zeros(1, dtype=state.record_dt)
    batch.record_nb(st, g.tab, 0, rec[0])
    assert rec[0]["win"] and rec[0]["outcome"] == OUT.WON_OBJECTIVES - 1
    # a loss: player 0 dies with no tombstone left; player 1, unhurt, loses with it
    g = arena()
    st = g.st
    g.character(0, 1, 0)
    g.character(1, 1, 6)
    st.g[G.TOMBS] = 0
    assert life.die_nb(st, g.tab, 0) == 1
    assert st.g[G.OVER] == OUT.OUT_OF_RESPAWNS and st.chars[1, CH.HP] == 5
    st.chars[1, CH.AP] = 1
    assert not actions.step_action_nb(st, g.tab, 1, 0, -1)
    batch.record_nb(st, g.tab, 1, rec[0])
    assert not rec[0]["win"] and rec[0]["outcome"] == OUT.OUT_OF_RESPAWNS - 1
    # one record a game: one win and one outcome, no per-player result
    names = state.record_dt.names
    assert names.count("win") == 1 and names.count("outcome") == 1
    assert not [n for n in names if "player" in n or "seat" in n or n.startswith("win_")]


def test_bot_parameters_change_the_bots_decisions():  # TR-003
    # every scripted bot is a policy with the same named, bounded, tunable parameters (the
    # search bot chooses among them each turn; its one parameter is its budget)
    for bot in GAME.bots:
        if bot.name == "search":
            assert tuple(bot.params) == ("budget",)
            continue
        assert tuple(bot.params) == bots.PARAM_NAMES
        assert set(bot.param_bounds) == set(bots.PARAM_NAMES)
    # guard_range decides the option of a choice card: defence when an enemy is that close
    for guard, want in ((3, (0, 2)), (2, (1, 0))):
        g = arena()
        st = g.st
        g.character(0, 1, 1)
        g.enemy(E0, BRUTE, 1, 4)  # 3 squares away
        st.deck[0, PILE.DRAW, 0] = DODGE
        st.npile[0, PILE.DRAW] = 1
        bp = np.zeros(bots.BP.N)
        bp[bots.BP.GUARD] = guard
        assert bots.draw_and_play_nb(st, g.tab, 0, bp)
        assert (st.chars[0, CH.AP], st.chars[0, CH.DEF]) == want
        assert st.npile[0, PILE.PLAY] == 1 and st.deck[0, PILE.PLAY, 0] == DODGE
    # heal_at decides whether a healing potion is drunk
    for heal_at, hp, held in ((3, 5, 0), (2, 3, 1)):
        g = arena()
        st = g.st
        g.character(0, 1, 1, hp=3)
        st.held[0, POTION] = 1
        bp = np.zeros(bots.BP.N)
        bp[bots.BP.HEAL_AT] = heal_at
        bots._heal_nb(st, g.tab, 0, bp)
        assert (st.chars[0, CH.HP], st.held[0, POTION]) == (hp, held)


def test_the_enemy_turn_waits_for_every_player(monkeypatch):  # TR-315, TR-079
    # the real round loop (play_one_nb run as Python) with the phases replaced by loggers
    from simlib.games.terraria.engine import cleanup as cleanup_phase
    from simlib.games.terraria.engine import enemy_turn as enemy_turn_phase
    from simlib.games.terraria.engine import preparation as preparation_phase

    tab, cfg = GAME.compile(GAME.resolve("medium", {"players": 3}))
    st = setup.alloc_state_nb(tab)
    log = []

    def player_turn(st, tab, p, bot_id, bp):
        log.append(("player", int(st.g[G.ROUND]), p))

    def preparation(st, tab, bot_id, bp):
        log.append(("preparation", int(st.g[G.ROUND])))

    def enemy_turn(st, tab):
        log.append(("enemy", int(st.g[G.ROUND])))

    def cleanup(st, tab):
        log.append(("cleanup", int(st.g[G.ROUND])))
        if st.g[G.ROUND] == 2:
            st.g[G.OVER] = OUT.OUT_OF_TIME

    monkeypatch.setattr(bots, "player_turn_nb", player_turn)
    monkeypatch.setattr(preparation_phase, "preparation_nb", preparation)
    monkeypatch.setattr(enemy_turn_phase, "enemy_turn_nb", enemy_turn)
    monkeypatch.setattr(cleanup_phase, "cleanup_nb", cleanup)
    monkeypatch.setattr(batch, "record_nb", lambda *args: None)
    monkeypatch.setattr(batch, "play_on_nb", batch.play_on_nb.py_func)  # the round loop, in Python
    rec = np.zeros(1, dtype=state.record_dt)
    bp = np.array(list(GAME.bot(None).params.values()))
    batch.play_one_nb.py_func(st, tab, cfg, 1, bp, np.uint64(1), 0, rec[0])
    seats = [("player", 1, 0), ("player", 1, 1), ("player", 1, 2)]
    assert log == seats + [("enemy", 1), ("cleanup", 1), ("preparation", 2)] + [
        ("player", 2, p) for p in range(3)
    ] + [("enemy", 2), ("cleanup", 2)]


# --- the player's icons -----------------------------------------------------------------------
def test_action_points_of_several_cards_pool_and_mix():  # TR-099
    g = arena()
    st = g.st
    g.character(0, 1, 1)
    g.enemy(E0, BRUTE, 1, 3)
    st.chars[0, CH.WEAPON] = SWORD
    hand(st, 0, [ASSIST, EXPLORE])
    cards.play_card_nb(st, g.tab, 0, 0, False)
    cards.play_card_nb(st, g.tab, 0, 0, False)
    assert st.chars[0, CH.AP] == 3  # 1 + 2 from two cards, one pool
    assert actions.step_action_nb(st, g.tab, 0, 0, 1) and g.where(0) == (1, 2)
    assert st.chars[0, CH.AP] == 2
    assert attack.attack_action_nb(st, g.tab, 0, E0) >= 0 and st.chars[0, CH.AP] == 1
    assert actions.step_action_nb(st, g.tab, 0, 0, -1) and g.where(0) == (1, 1)
    assert st.chars[0, CH.AP] == 0
    assert not actions.step_action_nb(st, g.tab, 0, 0, 1)  # the pool is spent
    assert attack.attack_action_nb(st, g.tab, 0, E0) == -1


def test_icons_serve_only_their_owner():  # TR-103, TR-079
    g = arena()
    st = g.st
    g.character(0, 1, 0)
    g.character(1, 1, 5)
    hand(st, 0, [ASSIST, GUARD, PURSE])
    for _ in range(3):
        cards.play_card_nb(st, g.tab, 0, 0, False)
    icons = [CH.AP, CH.DEF, CH.ATK, CH.TCOIN]
    assert [st.chars[0, c] for c in icons] == [1, 1, 1, 3]
    assert [st.chars[1, c] for c in icons] == [0, 0, 0, 0]
    assert not actions.step_action_nb(st, g.tab, 1, 0, -1)  # no action point of its own
    st.chars[0, CH.TCOIN] = 25
    assert not npcs.buy_slot_nb(st, g.tab, 1) and st.chars[1, CH.SLOTS] == 4
    assert st.chars[0, CH.TCOIN] == 25
    assert actions.step_action_nb(st, g.tab, 0, 0, 1)  # the owner's point works for the owner


def test_another_players_attack_icons_do_not_help():  # TR-103
    mattered = 0
    for seed in range(40):
        g = arena(seed=seed)
        st = g.st
        g.character(0, 1, 0)
        g.character(1, 1, 5)
        g.enemy(E0, BRUTE, 1, 6)
        st.chars[0, CH.ATK] = 10  # player 0's icons ...
        st.chars[1, CH.WEAPON] = SWORD
        st.chars[1, CH.AP] = 1
        want, after = ref_duel(st.rng, (4,), (8,), 0)  # ... are not on player 1's roll
        mattered += want != ref_duel(st.rng, (4,), (8,), 10)[0]
        assert attack.attack_action_nb(st, g.tab, 1, E0) == want
        np.testing.assert_array_equal(st.rng, after)
    assert mattered >= 10  # P(fewer than 10 of 40) < 1e-4; the seeds are fixed anyway


def test_another_players_defence_icons_do_not_protect():  # TR-103
    hits = 0
    for seed in range(40):
        g = arena(seed=seed)
        st = g.st
        g.character(0, 1, 0)
        g.character(1, 1, 5)
        g.enemy(E0, SOFT, 1, 6)  # short range: reaches player 1 only
        st.chars[0, CH.DEF] = 10  # player 0's defence icons
        want, _ = ref_duel(st.rng, (4,), (4,), 0)  # player 1's d4 against the enemy's d4
        foes.enemy_attacks_nb(st, g.tab, 0, 0)
        assert st.chars[1, CH.HP] == 5 - want and st.chars[0, CH.HP] == 5
        hits += want
    assert hits >= 10  # with player 0's 10 icons no roll could hit


# --- attacks ----------------------------------------------------------------------------------
def test_attack_icons_apply_to_every_attack_of_the_turn():  # TR-107
    mattered = [0, 0]
    for seed in range(40):
        g = arena(seed=seed)
        st = g.st
        g.character(0, 1, 1)
        g.enemy(E0, BRUTE, 1, 2)
        st.chars[0, CH.WEAPON] = SWORD
        st.chars[0, CH.MINION] = 1
        hand(st, 0, [ASSIST, ASSIST])
        cards.play_card_nb(st, g.tab, 0, 0, False)
        cards.play_card_nb(st, g.tab, 0, 0, False)
        assert st.chars[0, CH.ATK] == 2 and st.chars[0, CH.AP] == 2
        bonus = 2 + MINIONS[1]  # the cards in play and the minion, on each attack
        for i in range(2):
            want, after = ref_duel(st.rng, (4,), (8,), bonus)
            mattered[i] += want != ref_duel(st.rng, (4,), (8,), 0)[0]
            assert attack.attack_action_nb(st, g.tab, 0, E0) == want
            np.testing.assert_array_equal(st.rng, after)
            assert st.chars[0, CH.ATK] == 2  # not used up
    assert min(mattered) >= 10  # the icons turned misses into hits on both attacks


def test_each_attack_targets_one_enemy_and_is_resolved_before_the_next():  # TR-259
    g = arena()
    st = g.st
    g.character(0, 1, 1)
    g.enemy(E0, SOFT, 1, 0)  # 1 wound
    g.enemy(E0 + 1, ZOMBIE, 1, 2)  # 2 wounds
    st.chars[0, CH.WEAPON] = SWORD
    st.chars[0, CH.AP] = 4
    st.chars[0, CH.ATK] = 10  # a d4 with 10 icons always scores exactly 1 wound
    assert attack.attack_action_nb(st, g.tab, 0, E0) == 1
    assert st.pieces[E0, PC.KIND] == KIND.NONE  # defeated at once, loot taken at once
    assert st.chars[0, CH.COINS] == 1 and st.pieces[E0 + 1, PC.WOUNDS] == 0
    rng = st.rng.copy()
    assert attack.attack_action_nb(st, g.tab, 0, E0) == -1  # it is gone: no second attack
    np.testing.assert_array_equal(st.rng, rng)
    assert st.chars[0, CH.AP] == 3
    assert attack.attack_action_nb(st, g.tab, 0, E0 + 1) == 1
    assert st.pieces[E0 + 1, PC.WOUNDS] == 1 and st.pieces[E0 + 1, PC.KIND] != KIND.NONE
    assert attack.attack_action_nb(st, g.tab, 0, E0 + 1) == 1
    assert st.pieces[E0 + 1, PC.KIND] == KIND.NONE
    assert st.chars[0, CH.AP] == 1 and st.chars[0, CH.KILLS] == 2


def test_a_character_on_a_defeated_enemy_falls_and_rolls_for_damage():  # TR-126..129
    # standing on a flying Demon Eye 4 squares of air above the floor, the character falls
    # 5 squares when the eye is defeated; a d4 defence always totals 5 or less, so the fall
    # costs 1 health (TR-127/128), and it is counted
    from terraria_foes_helpers import EYE

    g = arena(["......", "......", "......", "......", "......", "......", "######"])
    st = g.st
    g.enemy(E0, EYE, 1, 2)
    g.character(0, 0, 2)
    st.chars[0, CH.WEAPON] = SWORD
    st.chars[0, CH.AP] = 1
    st.chars[0, CH.ATK] = 10  # a d4 with 10 icons always scores exactly 1 wound
    hp = int(st.chars[0, CH.HP])
    assert attack.attack_action_nb(st, g.tab, 0, E0) == 1
    assert st.pieces[E0, PC.KIND] == KIND.NONE and g.where(0) == (5, 2)
    assert st.chars[0, CH.FALLS] == 1 and st.chars[0, CH.FALL_DMG] == 1
    assert st.chars[0, CH.HP] == hp - 1


def test_taking_the_token_a_character_stands_on_is_a_fall():  # TR-126, TR-305
    g = arena(["......", "......", "######"])
    st = g.st
    g.enemy(E0, -2, 1, 2)  # a life crystal on the ground
    g.character(0, 0, 2)  # standing on it
    st.tally[:] = 0
    assert actions.collect_action_nb(st, g.tab, 0, E0)
    assert g.where(0) == (1, 2) and st.chars[0, CH.FALLS] == 1


def test_an_attack_rolls_its_dice_and_the_defence_dice_together():  # TR-275
    seen = set()
    for seed in range(40):
        g = arena(seed=seed)
        st = g.st
        g.character(0, 1, 1)
        g.enemy(E0, TOUGH, 1, 2)
        st.chars[0, CH.WEAPON] = TWIN
        st.chars[0, CH.AP] = 2
        for _ in range(2):  # each attack rolls both pools afresh: 2 defence + 2 attack dice
            want, after = ref_duel(st.rng, (6, 8), (4, 6), 0)
            assert attack.attack_action_nb(st, g.tab, 0, E0) == want
            np.testing.assert_array_equal(st.rng, after)
            seen.add(want)
    assert seen == {0, 1, 2}


WALL = ("..#.....", "..#.....", "########")


@pytest.mark.parametrize("weapon", [BOW, BOOMERANG], ids=["bow", "boomerang"])
def test_line_of_sight_weapons_need_to_see_the_target(weapon):
    # TR-265, TR-272 (BOW has the icon), TR-269 (BOOMERANG has not)
    g = arena(WALL)
    st = g.st
    g.character(0, 1, 0)
    g.enemy(E0, BRUTE, 1, 4)  # same tile, not adjacent: medium range
    assert not sees_nb(st.grid, st.tiles, 1, 42, 1, 46)
    st.chars[0, CH.WEAPON] = weapon
    st.chars[0, CH.AP] = 2
    rng = st.rng.copy()
    if weapon == BOW:
        assert attack.attack_action_nb(st, g.tab, 0, E0) == -1  # step 2: no attack
        assert st.chars[0, CH.AP] == 2 and st.chars[0, CH.DUELS] == 0
        np.testing.assert_array_equal(st.rng, rng)  # nothing rolled
        st.grid[P.SQ, 0:2, 44] = SQ.AIR  # the wall goes: now it sees
        attack.sight_changed_nb(st)  # a hand edit: the remembered answer is out of date
        assert sees_nb(st.grid, st.tiles, 1, 42, 1, 46)
    want, after = ref_duel(st.rng, (6,), (8,), 0)
    assert attack.attack_action_nb(st, g.tab, 0, E0) == want
    assert st.chars[0, CH.AP] == 1 and st.chars[0, CH.DUELS] == 1
    np.testing.assert_array_equal(st.rng, after)


@pytest.mark.parametrize("weapon", [BOW, BOOMERANG], ids=["bow", "boomerang"])
@pytest.mark.parametrize("where", ["across", "inside"])
def test_no_weapon_attacks_through_a_house(weapon, where):
    # TR-243 ("You cannot attack enemies through walls or doors"), with or without the
    # line-of-sight icon (TR-269): not across a house, not from inside one
    g = arena()
    st = g.st
    g.character(0, 1, 0)
    g.enemy(E0, BRUTE, 1, 4)  # same tile, not adjacent: medium range, in sight
    st.chars[0, CH.WEAPON] = weapon
    st.chars[0, CH.AP] = 3
    want, after = ref_duel(st.rng, (6,), (8,), 0)
    assert attack.attack_action_nb(st, g.tab, 0, E0) == want  # in the open: it attacks
    np.testing.assert_array_equal(st.rng, after)
    col = 44 if where == "across" else 42  # a house column up to the sky between, or
    st.grid[P.FEAT, 0:2, col] |= FEAT.HOUSE | FEAT.PLATFORM  # over the character
    attack.sight_changed_nb(st)
    assert not attack.can_attack_nb(st, g.tab, 0, E0)
    rng = st.rng.copy()
    assert attack.attack_action_nb(st, g.tab, 0, E0) == -1
    assert st.chars[0, CH.AP] == 2 and st.chars[0, CH.DUELS] == 1
    np.testing.assert_array_equal(st.rng, rng)  # nothing rolled
    st.grid[P.FEAT, 0:2, col] = 0
    attack.sight_changed_nb(st)
    assert attack.can_attack_nb(st, g.tab, 0, E0)  # the house alone stood in the way


# --- respawn ----------------------------------------------------------------------------------
def test_a_respawned_character_draws_a_new_hand_and_plays():  # TR-301
    tab, cfg = GAME.compile(GAME.resolve("medium", {"players": 2}))
    st = setup.alloc_state_nb(tab)
    setup.setup_nb(st, tab, cfg, np.uint64(5), 0)
    assert life.die_nb(st, tab, 1) == 0
    assert st.chars[1, CH.IN_WORLD] == 0
    limit = cards.hand_limit_nb(st, tab, 1)
    assert limit == 4  # the starting hand limit (TR-092), copper gear, no armor
    n = st.npile[1, PILE.DRAW]
    top = [int(c) for c in st.deck[1, PILE.DRAW, n - limit : n][::-1]]
    bot = GAME.bot("builder")
    bp = np.array(list(bot.params.values()))
    bots.player_turn_nb(st, tab, 1, bot.id, bp)
    assert st.chars[1, CH.IN_WORLD] == 1 and st.chars[1, CH.HP] == st.chars[1, CH.MAXHP]
    played = [int(c) for c in st.deck[1, PILE.PLAY, : st.npile[1, PILE.PLAY]]]
    assert played[:limit] == top  # a new hand, drawn from the top and played
    ap = sum(int(tab.cards[c, CF.AP]) for c in played)
    assert ap > 0 and st.chars[1, CH.AP] < ap  # and it spent action points as usual


# --- minions, consumables, mana -------------------------------------------------------------------
def test_one_minion_at_a_time_and_a_new_type_replaces_it():  # TR-362
    g = arena()
    st = g.st
    g.character(0, 1, 1)
    st.chars[0, CH.MAXMANA] = 6
    st.chars[0, CH.MANA] = 6
    st.chars[0, CH.OTHER] = STAFF_A
    assert magic.summon_nb(st, g.tab, 0)
    assert st.chars[0, CH.MINION] == 0 and st.chars[0, CH.MANA] == 4
    assert not magic.summon_nb(st, g.tab, 0)  # the same type again: nothing, no mana
    assert st.chars[0, CH.MINION] == 0 and st.chars[0, CH.MANA] == 4
    st.chars[0, CH.OTHER] = STAFF_B
    assert magic.summon_nb(st, g.tab, 0)
    assert st.chars[0, CH.MINION] == 1 and st.chars[0, CH.MANA] == 2
    st.chars[0, CH.ATK] = 1
    assert attack.attack_icons_nb(st, g.tab, 0) == 1 + MINIONS[1]  # only the new minion counts


def test_a_consumable_works_when_its_holder_discards_it_during_the_turn():  # TR-386
    g = arena()
    st = g.st
    g.character(0, 1, 1, hp=2)
    g.character(1, 1, 6)
    st.chars[0, CH.MAXMANA] = 6
    st.held[0, SWIFT] = 1
    st.held[0, POTION] = 1
    st.chars[0, CH.AP] = 1
    assert actions.step_action_nb(st, g.tab, 0, 0, 1)  # mid-turn, the points spent ...
    assert not actions.step_action_nb(st, g.tab, 0, 0, 1)
    left = st.supply[SUP.CONSUMABLE, SWIFT]
    assert not magic.use_consumable_nb(st, g.tab, 1, SWIFT)  # not its holder
    assert magic.use_consumable_nb(st, g.tab, 0, SWIFT)  # ... discarded: effect at once
    assert st.chars[0, CH.AP] == 2 and st.chars[0, CH.MANA] == 1
    assert st.held[0, SWIFT] == 0 and st.supply[SUP.CONSUMABLE, SWIFT] == left + 1
    assert actions.step_action_nb(st, g.tab, 0, 0, 1) and st.chars[0, CH.AP] == 1
    assert not magic.use_consumable_nb(st, g.tab, 0, SWIFT)  # used up
    assert magic.use_consumable_nb(st, g.tab, 0, POTION) and st.chars[0, CH.HP] == 4
    st.held[0, POTION] = 1
    life.die_nb(st, g.tab, 0)
    assert not magic.use_consumable_nb(st, g.tab, 0, POTION)  # not while dead
    assert st.held[0, POTION] == 1


# --- enemy moves ------------------------------------------------------------------------------
HOUSE_ROWS = ("........", "........", "########")


@pytest.mark.parametrize("kind", [WALK4, FLY4], ids=["walker", "flyer"])
def test_no_enemy_enters_a_house(kind):  # TR-330
    for house in (True, False):
        g = arena(HOUSE_ROWS)
        st = g.st
        if house:  # a house column from the top of the world to the ground
            st.grid[P.FEAT, 0:2, 46] |= FEAT.HOUSE | FEAT.PLATFORM
        g.character(0, 1, 6)
        g.enemy(E0, kind, 1, 3)
        assert sees_nb(st.grid, st.tiles, 1, 45, 1, 48) != house
        foes.enemy_moves_nb(st, g.tab)
        # with the house: 1 square allowed (no sight, the next tile), and the only nearer
        # square is the house's, so it stays; without: it comes up to the character
        assert g.where(E0) == ((1, 3) if house else (1, 5))


def test_no_kind_of_enemy_steps_into_a_house():  # TR-330
    g = arena(HOUSE_ROWS)
    st = g.st
    for k, (r, c) in ((KIND.WALKER, (1, 45)), (KIND.FLYER, (1, 45)), (KIND.WORM, (2, 45))):
        dr = 1 - r  # into (1, 46): sideways from the air, up out of the ground for the worm
        st.grid[P.FEAT, 0:2, 46] = 0
        assert enemy.enemy_can_step_nb(st.grid, st.tiles, k, r, c, dr, 1)
        st.grid[P.FEAT, 0:2, 46] = FEAT.HOUSE | FEAT.PLATFORM
        assert not enemy.enemy_can_step_nb(st.grid, st.tiles, k, r, c, dr, 1)


TUNNEL = ("############", "............", "############")


@pytest.mark.parametrize("mover", [WALK4, FLY4, WALK2], ids=["walker4", "flyer4", "walker2"])
def test_enemies_pass_through_pieces_but_end_in_an_empty_square(mover):  # TR-331
    g = arena(TUNNEL)
    st = g.st
    g.character(0, 1, 8)
    g.enemy(E0, POST, 1, 3)  # never moves: in the way
    g.enemy(E0 + 1, mover, 1, 1)
    assert sees_nb(st.grid, st.tiles, 1, 43, 1, 50)
    foes.enemy_moves_nb(st, g.tab)
    assert g.where(E0) == (1, 3) and st.grid[P.OCC, 1, 45] == E0 + 1
    # 4 squares: through the post to (1, 5); 2 squares: the post's square is not empty, so
    # it stops short at (1, 2)
    want = (1, 2) if mover == WALK2 else (1, 5)
    assert g.where(E0 + 1) == want
    assert st.grid[P.OCC, want[0], 42 + want[1]] == E0 + 2


def test_a_walker_may_end_standing_on_a_piece():  # TR-331, TR-123
    g = arena(("............", "............", "############"))  # no ceiling now
    g.character(0, 1, 8)
    g.enemy(E0, POST, 1, 3)
    g.enemy(E0 + 1, WALK2, 1, 1)
    foes.enemy_moves_nb(g.st, g.tab)
    assert g.where(E0 + 1) == (0, 3)  # up onto the post: an empty square, a stack
    assert g.st.grid[P.OCC, 0, 45] == E0 + 2 and g.where(E0) == (1, 3)
