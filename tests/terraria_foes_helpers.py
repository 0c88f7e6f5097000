"""Test helpers for the Terraria enemy turn and life kernels: small hand-made tables and state.

``tables(...)`` builds a :class:`~simlib.games.terraria.state.Tables` whose content tables are
written here by hand (a few bestiary rows, a tray, a time track, debuff cards, a bed house, a
Voodoo Doll, King Slime); the world tables come from the shipped world data.
``Game`` holds a :class:`~simlib.games.terraria.state.State` on a hand-drawn world
(``terraria_helpers.drawn_world``) with helpers to put characters and enemies on it.
"""

from __future__ import annotations

import numpy as np
from terraria_helpers import WC, drawn_world

from simlib.core.rng import new_state
from simlib.games.terraria.engine import enemy
from simlib.games.terraria.engine.movement import T, place_piece_nb
from simlib.games.terraria.state import (
    AR,
    BH,
    BO,
    BOSS_SPAWN,
    CC,
    CF,
    CH,
    CNT,
    CO,
    DEBUFF,
    EN,
    EQ,
    HA,
    HO,
    KIND,
    MAX_CARDS,
    MAX_HOUSES,
    MAX_PLAYERS,
    MAX_SLOTS,
    N_PIECES,
    OB,
    PC,
    PILE,
    RU,
    RW,
    SECTIONS,
    SHOP,
    SQ,
    STATION,
    SUP,
    TT,
    G,
    P,
    State,
    Tables,
)

TPL, STOCK, STOCK_N, START, RES_DIG, RES_STRUCT, PLAT_POS = WC
MAX_TOKENS = 16
GEL = 1  # resource ids used in the tests
LENS = 2
WOOD = 3
STONE = 4
ORE = 5
SLIME = 0  # bestiary rows of ENEMIES below
ZOMBIE = 1
EYE = 2
ARCHER = 3
VOODOO_DEMON = 4
WORM = 5


def enemy_row(atk, ranges, defense=(4,), wounds=1, movement=1, kind=KIND.WALKER, debuff=0,
              slime=0, coins=1, loot=(0, 0), voodoo=0, night=0):  # fmt: skip
    row = np.zeros(EN.N, dtype=np.int16)
    row[EN.NATK] = len(atk)
    row[EN.ATK0 : EN.ATK0 + len(atk)] = atk
    row[EN.RANGE] = ranges
    row[EN.NDEF] = len(defense)
    row[EN.DEF0 : EN.DEF0 + len(defense)] = defense
    row[EN.WOUNDS] = wounds
    row[EN.MOVEMENT] = movement
    row[EN.KIND] = kind
    row[EN.DEBUFF] = debuff
    row[EN.SLIME] = slime
    row[EN.COINS] = coins
    row[EN.LOOT_RES], row[EN.LOOT_N] = loot
    row[EN.VOODOO] = voodoo
    row[EN.NIGHT] = night
    return row


ENEMIES = np.array(
    [
        enemy_row([4], 1, slime=1, coins=1, loot=(GEL, 1)),  # a slime
        enemy_row([6], 1, defense=(6,), wounds=2, coins=2, night=1),  # a zombie
        enemy_row([8], 1, kind=KIND.FLYER, movement=2, debuff=DEBUFF.POISONED, loot=(LENS, 1)),
        enemy_row([6, 4], 4 | 2, movement=0, debuff=DEBUFF.ON_FIRE, coins=3),  # ranged
        enemy_row([8, 8], 1, wounds=3, coins=9, voodoo=1, kind=KIND.FLYER),  # Voodoo Demon
        enemy_row([6, 6], 1, kind=KIND.WORM, movement=2, debuff=DEBUFF.FROZEN),
    ]
)


def tables(enemies=ENEMIES, tray=None, time_track=None, dryad_die=6, bosses=None):
    """Hand-made Tables. ``tray``: {section: [(token, night), ...]}."""
    if tray is None:
        tray = {0: [(SLIME, 0), (SLIME, 0), (ZOMBIE, 1), (-3, 1)]}
    tray_tok = np.full((SECTIONS, MAX_TOKENS), -1, dtype=np.int16)
    tray_night = np.zeros((SECTIONS, MAX_TOKENS), dtype=np.int16)
    tray_n = np.zeros(SECTIONS, dtype=np.int16)
    for s, toks in tray.items():
        for i, (t, night) in enumerate(toks):
            tray_tok[s, i] = t
            tray_night[s, i] = night
        tray_n[s] = len(toks)
    if time_track is None:  # sunrise+day, day+skull, night, night+skull
        time_track = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1)]
    tt = np.array(time_track, dtype=np.int16).reshape(-1, TT.N)
    rules = np.zeros(RU.N, dtype=np.int16)
    rules[RU.KING_SLIME] = 8
    rules[RU.DRYAD_DIE] = dryad_die
    rules[RU.CRYSTAL_HP] = 1
    rules[RU.STAR_MANA] = 1
    rules[RU.MAX_HP] = 8
    rules[RU.MAX_MANA] = 6
    rules[RU.LENS] = LENS
    rules[RU.GEL] = GEL
    rules[RU.WOOD] = WOOD
    cards = np.zeros((5, CF.N), dtype=np.int16)
    cards[0, CF.AP] = 1  # an ordinary card, then the three debuff cards, then another
    for i, d in enumerate((DEBUFF.POISONED, DEBUFF.ON_FIRE, DEBUFF.FROZEN)):
        cards[1 + i, CF.SHOP] = SHOP.DEBUFF
        cards[1 + i, CF.DEBUFF] = d
        cards[1 + i, CF.COPIES] = 8
    cards[4, CF.DEF] = 1
    armor = np.zeros((2, AR.N), dtype=np.int16)
    armor[0, AR.NDEF], armor[0, AR.DEF0], armor[0, AR.DEF1] = 2, 6, 4
    armor[1, AR.NDEF], armor[1, AR.DEF0] = 1, 8
    armor[1, AR.IMMUNE] = 1 << DEBUFF.POISONED
    characters = np.zeros((2, CC.N), dtype=np.int16)
    characters[:, CC.HAND] = 4
    characters[:, CC.NDEF] = 1
    characters[0, CC.DEF0] = 4
    characters[1, CC.DEF0] = 6
    characters[:, CC.HP] = 5
    consumables = np.zeros((2, CO.N), dtype=np.int16)
    consumables[0, CO.HEAL] = 2
    consumables[1, CO.VOODOO] = 1
    consumables[:, CO.COPIES] = 1
    houses = np.zeros((2, HO.N), dtype=np.int16)
    houses[0, HO.W], houses[0, HO.H], houses[0, HO.PROVIDES] = 3, 2, STATION.WORKBENCH
    houses[1, HO.W], houses[1, HO.H], houses[1, HO.PROVIDES] = 3, 2, STATION.BED
    if bosses is None:
        bosses = np.zeros((2, BO.N), dtype=np.int16)
        bosses[0, BO.SPAWN] = BOSS_SPAWN.SLIMES
        bosses[1, BO.SPAWN] = BOSS_SPAWN.LENSES
        for b, (a, bb) in enumerate((((8,), (10, 10)), ((12,), (12, 6)))):
            bosses[b, BO.NATK] = len(a)
            bosses[b, BO.ATK0 : BO.ATK0 + len(a)] = a
            bosses[b, BO.RANGE] = 1
            fb = BO.FORM_B - BO.WOUNDS
            bosses[b, BO.NATK + fb] = len(bb)
            bosses[b, BO.ATK0 + fb : BO.ATK0 + fb + len(bb)] = bb
            bosses[b, BO.RANGE + fb] = 1 | 4
            bosses[b, BO.DEBUFF + fb] = DEBUFF.ON_FIRE
    z = np.zeros
    return Tables(
        tpl=TPL, stock=STOCK, stock_n=STOCK_N, start=START, res_dig=RES_DIG,
        res_struct=RES_STRUCT, plat_pos=PLAT_POS, rules=rules, cards=cards,
        start_deck=z(8, np.int16), equip=z((1, EQ.N), np.int16),
        equip_recipe=z((1, 4, 2), np.int16), start_equip=z((2, 3), np.int16), armor=armor,
        armor_recipe=z((2, 4, 2), np.int16), minions=z(1, np.int16), characters=characters,
        consumables=consumables, houses=houses, house_recipe=z((2, 4, 2), np.int16),
        food=z((4, RW.N), np.int16), objectives=z((40, OB.N), np.int16),
        enemies=np.ascontiguousarray(enemies, dtype=np.int16), tray_tok=tray_tok,
        tray_night=tray_night, tray_n=tray_n, chest_biome=z(1, np.int16),
        chest_reward=z((1, 5, RW.N), np.int16), bosses=bosses,
        behaviour=z((bosses.shape[0], 3, BH.N), np.int16),
        boss_loot=z((bosses.shape[0], 4, RW.N), np.int16), time_track=tt,
    )  # fmt: skip


class Game:
    """One game's State on a drawn world (every tile known, biome Forest unless set)."""

    def __init__(self, rows, top=6, left=30, tab=None, seed=1, tombs=8):
        self.tab = tables() if tab is None else tab
        grid, tiles, mini = drawn_world(rows, top, left)
        self.top, self.left = top, left
        rows_, cols_ = grid.shape[1], grid.shape[2]
        dist, how, queue, path = enemy.alloc_scratch(rows_, cols_)
        pieces = np.zeros((N_PIECES, PC.N), dtype=np.int16)
        pieces[:, PC.SECTION] = -1
        pieces[:, PC.TSLOT] = -1
        g = np.zeros(G.N, dtype=np.int32)
        g[G.TOMBS] = tombs
        g[G.FALL_DAMAGE] = 1
        g[G.PLAYERS] = 0
        chars = np.zeros((MAX_PLAYERS, CH.N), dtype=np.int32)
        chars[:, CH.ARMOR] = -1
        chars[:, CH.MINION] = -1
        chars[:, CH.SLOTS] = 4
        chars[:, CH.WEAPON : CH.OTHER + 1] = -1
        supply = np.zeros((SUP.N, 8), dtype=np.int16)
        supply[SUP.CARDS, : self.tab.cards.shape[0]] = self.tab.cards[:, CF.COPIES]
        supply[SUP.CONSUMABLE, : self.tab.consumables.shape[0]] = self.tab.consumables[:, CO.COPIES]
        house_at = np.full((MAX_HOUSES, HA.N), -1, dtype=np.int16)
        self.st = State(
            grid=grid, tiles=tiles, mini=mini, pieces=pieces, g=g, chars=chars,
            inv=np.zeros((MAX_PLAYERS, MAX_SLOTS, 2), dtype=np.int16),
            deck=np.zeros((MAX_PLAYERS, PILE.N, MAX_CARDS), dtype=np.int16),
            npile=np.zeros((MAX_PLAYERS, PILE.N), dtype=np.int16),
            ready=np.full(MAX_PLAYERS, -1, dtype=np.int16),
            owned=np.zeros((MAX_PLAYERS, 4), dtype=np.int16),
            held=np.zeros((MAX_PLAYERS, self.tab.consumables.shape[0]), dtype=np.int16),
            supply=supply, cnt=np.zeros(CNT.N, dtype=np.int32),
            tray=np.zeros((SECTIONS, MAX_TOKENS), dtype=np.int16), house_at=house_at,
            falls=np.zeros((64, 3), dtype=np.int16), disc=np.zeros((64, 2), dtype=np.int16),
            tally=np.zeros(T.N, dtype=np.int32), dist=dist, how=how, queue=queue, path=path,
            rng=new_state(seed, 0),
        )  # fmt: skip

    def sq(self, i, j):
        return self.top + i, self.left + j

    def character(self, p, i, j, hp=5, card=0, armor=-1, defence=0):
        st = self.st
        r, c = self.sq(i, j)
        assert place_piece_nb(
            st.grid, st.tiles, st.mini, st.pieces, p, KIND.CHARACTER, r, c, st.falls,
            st.disc, st.tally,
        )  # fmt: skip
        st.chars[p, CH.IN_WORLD] = 1
        st.chars[p, CH.HP] = hp
        st.chars[p, CH.MAXHP] = max(hp, 5)
        st.chars[p, CH.CARD] = card
        st.chars[p, CH.ARMOR] = armor
        st.chars[p, CH.DEF] = defence
        st.g[G.PLAYERS] = max(st.g[G.PLAYERS], p + 1)

    def enemy(self, k, e, i, j, section=0, slot=-1, wounds=0):
        """Put bestiary entry ``e`` in piece row ``k`` at (i, j) as if spawned."""
        st = self.st
        r, c = self.sq(i, j)
        kind = int(self.tab.enemies[e, EN.KIND]) if e >= 0 else KIND.TOKEN
        if st.grid[P.SQ, r, c] == SQ.BLOCK:  # inside a block, as a worm may be
            assert st.grid[P.OCC, r, c] == 0
            st.pieces[k, PC.KIND], st.pieces[k, PC.ROW], st.pieces[k, PC.COL] = kind, r, c
            st.grid[P.OCC, r, c] = k + 1
        else:
            assert place_piece_nb(
                st.grid, st.tiles, st.mini, st.pieces, k, kind, r, c, st.falls, st.disc,
                st.tally,
            )  # fmt: skip
        st.pieces[k, PC.ROLE] = 1 if e >= 0 else (2 if e == -2 else 3)
        st.pieces[k, PC.TYPE] = e
        st.pieces[k, PC.WOUNDS] = wounds
        st.pieces[k, PC.SECTION] = section
        st.pieces[k, PC.TSLOT] = slot
        if section >= 0 and slot >= 0:
            st.tray[section, slot] = 1

    def where(self, k):
        p = self.st.pieces
        return int(p[k, PC.ROW]) - self.top, int(p[k, PC.COL]) - self.left
