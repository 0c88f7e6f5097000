"""Hand-made Terraria tables and game states for the boss tests (no content data needed).

Six bosses, one per spawn criterion, with small illustrative numbers; a drawn world from
``terraria_helpers.drawn_world``. Every array has the dtype and rank the engine uses, so the
kernels compile once for all tests.
"""

from __future__ import annotations

import numpy as np
from terraria_helpers import (
    COLS,
    PLAT_POS,
    RES_DIG,
    RES_STRUCT,
    ROWS,
    START,
    STOCK,
    STOCK_N,
    TPL,
    drawn_world,
)

from simlib.core.rng import new_state
from simlib.games.terraria.engine import enemy
from simlib.games.terraria.engine import movement as mv
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
    EN,
    EQ,
    HA,
    HO,
    KIND,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_SLOTS,
    N_PIECES,
    OB,
    PC,
    PILE,
    REWARD_SLOTS,
    RK,
    RU,
    RW,
    SECTIONS,
    SPECIAL,
    SUP,
    TT,
    G,
    State,
    Tables,
)

LENS = 20  # the Lens's resource id in these tables
DOLL = 2  # the Guide Voodoo Doll's consumable id
TOKENS = 16  # tray tokens per section
# boss ids of the hand-made table
KING, QUEEN, EYE, EATER, BRAIN, WALL = range(6)


def _z(*shape):
    return np.zeros(shape, dtype=np.int16)


def boss_table():
    """``(bosses, behaviour, boss_loot)``: six bosses, one per criterion."""
    bosses = _z(6, BO.N)
    rows = [
        # spawn, evil, win, wounds, kind, movement, special, special_n
        (BOSS_SPAWN.SLIMES, 0, 0, 3, KIND.WALKER, 2, SPECIAL.SPAWN, 2),
        (BOSS_SPAWN.BEE_LARVA, 0, 0, 3, KIND.FLYER, 3, SPECIAL.CHARGE, 2),
        (BOSS_SPAWN.LENSES, 0, 0, 4, KIND.FLYER, 3, SPECIAL.HEAL, 2),
        (BOSS_SPAWN.SHADOW_ORB, 1, 0, 4, KIND.WORM, 3, SPECIAL.NONE, 0),
        (BOSS_SPAWN.CRIMSON_HEART, 2, 0, 4, KIND.FLYER, 2, SPECIAL.BURN, 1),
        (BOSS_SPAWN.VOODOO, 0, 1, 5, KIND.WALKER, 1, SPECIAL.SPAWN, 1),
    ]
    for b, (sp, ev, win, wounds, kind, mov, special, sn) in enumerate(rows):
        bosses[b, BO.SPAWN] = sp
        bosses[b, BO.EVIL] = ev
        bosses[b, BO.WIN] = win
        for form in (0, 1):
            off = 0 if form == 0 else BO.FORM_B - BO.WOUNDS
            bosses[b, BO.WOUNDS + off] = wounds - form  # Form B: one fewer
            bosses[b, BO.NATK + off] = 2
            bosses[b, BO.ATK0 + off] = 6
            bosses[b, BO.ATK1 + off] = 8
            bosses[b, BO.RANGE + off] = 1
            bosses[b, BO.NDEF + off] = 1
            bosses[b, BO.DEF0 + off] = 6
            bosses[b, BO.MOVEMENT + off] = mov + form
            bosses[b, BO.KIND + off] = kind
            bosses[b, BO.SPECIAL + off] = special
            bosses[b, BO.SPECIAL_N + off] = sn
    behaviour = _z(6, 3, BH.N)
    for b in range(6):
        # card 0: everything; card 1: no special, ranged; card 2: no move, spawn instead
        behaviour[b, 0] = (1, 1, 1, 0)
        behaviour[b, 1] = (0, 1, 0, 1)
        behaviour[b, 2] = (1, 0, 1, 2)
    loot = _z(6, REWARD_SLOTS, RW.N)
    for b in range(6):
        loot[b, 0] = (RK.COINS, 0, 10)
        loot[b, 1] = (RK.EQUIP, 3, 1)
        loot[b, 2] = (RK.CONSUMABLE, 1, 1)
    return bosses, behaviour, loot


def make_tables():
    """A ``Tables`` with hand-made boss, rule, character, armor and consumable rows."""
    bosses, behaviour, loot = boss_table()
    rules = _z(RU.N)
    rules[RU.KING_SLIME] = 8
    rules[RU.LENSES] = 3
    rules[RU.LENS] = LENS
    characters = _z(8, CC.N)
    characters[:, CC.HAND] = 4
    characters[:, CC.NDEF] = 1
    characters[:, CC.DEF0] = 6
    characters[:, CC.HP] = 5
    armor = _z(2, AR.N)
    armor[:, AR.NDEF] = 2
    armor[:, AR.DEF0] = 4
    armor[:, AR.DEF1] = 4
    consumables = _z(3, CO.N)
    consumables[DOLL, CO.VOODOO] = 1
    consumables[:, CO.COPIES] = 2
    return Tables(
        tpl=TPL,
        stock=STOCK,
        stock_n=STOCK_N,
        start=START,
        res_dig=RES_DIG,
        res_struct=RES_STRUCT,
        plat_pos=PLAT_POS,
        rules=rules,
        cards=_z(2, CF.N),
        start_deck=_z(8),
        equip=_z(4, EQ.N),
        equip_recipe=_z(4, 4, 2),
        start_equip=_z(2, 3),
        armor=armor,
        armor_recipe=_z(2, 4, 2),
        minions=_z(2),
        characters=characters,
        consumables=consumables,
        houses=_z(2, HO.N),
        house_recipe=_z(2, 4, 2),
        food=_z(4, RW.N),
        objectives=_z(40, OB.N),
        enemies=_z(2, EN.N),
        tray_tok=_z(SECTIONS, TOKENS),
        tray_night=_z(SECTIONS, TOKENS),
        tray_n=_z(SECTIONS),
        chest_biome=_z(2),
        chest_reward=_z(2, 5, RW.N),
        bosses=bosses,
        behaviour=behaviour,
        boss_loot=loot,
        time_track=_z(8, TT.N),
    )


def make_state(rows, top=0, left=0, players=2, seed=0, index=0):
    """A ``State`` on a drawn world (every tile known); no pieces placed yet."""
    grid, tiles, mini = drawn_world(rows, top, left)
    g = np.zeros(G.N, dtype=np.int32)
    g[G.PLAYERS] = players
    g[G.TOMBS] = 2 * players
    g[G.FALL_DAMAGE] = 1
    chars = np.zeros((MAX_PLAYERS, CH.N), dtype=np.int32)
    chars[:, CH.HP] = 5
    chars[:, CH.MAXHP] = 5
    chars[:, CH.SLOTS] = 4
    for col in (CH.WEAPON, CH.AXE, CH.PICK, CH.OTHER, CH.ARMOR, CH.MINION):
        chars[:, col] = -1
    house_at = _z(10, HA.N)
    house_at[:, HA.ID] = -1
    dist, how, queue, path = enemy.alloc_scratch(ROWS, COLS)
    return State(
        grid=grid,
        tiles=tiles,
        mini=mini,
        pieces=_z(N_PIECES, PC.N),
        g=g,
        chars=chars,
        inv=_z(MAX_PLAYERS, MAX_SLOTS, 2),
        deck=_z(MAX_PLAYERS, PILE.N, MAX_CARDS),
        npile=_z(MAX_PLAYERS, PILE.N),
        ready=np.full(MAX_PLAYERS, -1, dtype=np.int16),
        owned=_z(MAX_PLAYERS, 6),
        held=_z(MAX_PLAYERS, 3),
        supply=_z(SUP.N, 8),
        cnt=np.zeros(CNT.N, dtype=np.int32),
        tray=_z(SECTIONS, TOKENS),
        house_at=house_at,
        falls=_z(64, 3),
        disc=_z(64, 2),
        tally=np.zeros(4, dtype=np.int32),
        dist=dist,
        how=how,
        queue=queue,
        path=path,
        rng=new_state(seed, index),
        drawn=np.zeros_like(STOCK),
        bdist=np.zeros((ROWS, COLS), dtype=np.int32),
        bfrom=np.zeros((ROWS, COLS), dtype=np.int32),
        bqueue=np.zeros(ROWS * COLS * 4, dtype=np.int32),
    )


def put(st, k, kind, r, c, role=0, btype=0, section=-1, tslot=-1):
    """Place piece ``k`` (it falls as placed); a character is put on the world."""
    ok = mv.place_piece_nb(
        st.grid, st.tiles, st.mini, st.pieces, k, kind, r, c, st.falls, st.disc, st.tally
    )
    assert ok, (k, r, c)
    st.pieces[k, PC.ROLE] = role
    st.pieces[k, PC.TYPE] = btype
    st.pieces[k, PC.SECTION] = section
    st.pieces[k, PC.TSLOT] = tslot
    if kind == KIND.CHARACTER:
        st.chars[k, CH.IN_WORLD] = 1
    return int(st.pieces[k, PC.ROW]), int(st.pieces[k, PC.COL])


def where(st, k):
    return int(st.pieces[k, PC.ROW]), int(st.pieces[k, PC.COL])
