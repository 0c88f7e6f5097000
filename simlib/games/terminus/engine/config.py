"""The compiled settings ``params``: the layout of the tuple and its ``cfg`` slots.

Part of the Terminus Breach TD engine (see ``engine/__init__.py``).
"""

from __future__ import annotations

# --- compiled settings: the tuple ``params`` --------------------------------------------
# params = (cfg, near, sites, sdist, cover, lv, nlv, copies, bless, cards, decks, deck_len,
#           boss_card, boss_d20, favors, cls, crystals, seats, slow_down, worth, bcost,
#           min_build)
#   cfg      int64 (CFG_N,)             scalar settings and printed tables, slots below
#   near     int32 (MAX_SITES, 16, MAX_PATH) path squares within range r of each site,
#                                       front-most first (``cover[s, r]`` of them)
#   sites    int32 (MAX_SITES, 3)       x, y, kind (spot / rock / tree) of each site
#   sdist    int32 (MAX_SITES, MAX_PATH) Chebyshev distance site -> path square (TB-014)
#   cover    int32 (MAX_SITES, 16)      path squares within range r of each site
#   lv       int32 (4, 3, MAX_LEVEL, TS.N) tower levels per race and line
#   nlv, copies int32 (4, 3)            levels per line; tower cards per line
#   bless    int32 (4, BS.N)            blessing per race
#   cards    int32 (n, CARD.N)          Drakka and boss cards
#   decks    int32 (5, MAX_DECK), deck_len int32 (5,)  Battle decks (card ids)
#   boss_card int32 (5,), boss_d20 int32 (5, 20, 2)  boss per Battle and its d20 table
#   favors   int32 (5,)                 copies of each Favor in the Favor deck
#   cls      int32 (3, 10), crystals int32 (3, 3, 3)  class level charts
#   seats    int32 (MAX_PLAYERS, 2)     race and class of each seat
#   slow_down int32 (5,)                Slow token after use, by value (TB-187/189)
#   worth    float64 (4, 3, MAX_LEVEL, MAX_SITES), bcost int32 (4, 3, MAX_SITES),
#   min_build int32 (4, 3): the Develop bots' static tables (``compile.worth_table``)
CFG_PLAYERS = 0
CFG_PATH_LEN = 1
CFG_SITES = 2
CFG_TOUGH_RULE = 3
CFG_POISON_CREDIT = 4
CFG_PANIC_START = 5
CFG_PANIC_LIMIT = 6
CFG_CLEAR_BOARD = 7
CFG_SELL_RULE = 8
CFG_HOLY_DELAY = 9
CFG_CLEAR_FEE = 10
CFG_ALLOWANCE = 11
CFG_FAVOR_PRICE = 12
CFG_VP_PRICE = 13
CFG_SANCTIONS = 14
CFG_CHECK = 15
CFG_SHARED_TIE = 16
CFG_DRAW_MOD = 17  # 17..21
CFG_TAX = 22  # 22..26
CFG_NET_CARDS = 27  # 27..29
CFG_NET_VP = 30  # 30..32
CFG_CHEST_GP = 33  # 33..35
CFG_LEVEL_VP = 36  # 36..38
CFG_SLOW_DOWN = 39  # 39..43
CFG_SLOW_SET = 44  # 44..48
CFG_CHEAP = 49  # 49..52: cheapest tower price per race
CFG_LINEUP = 53  # 0: races and classes as set; 1: dealt at random each game
CFG_FINAL_ALL = 54  # 1: the final tally converts all GP to VP (TB-211 alternative)
CFG_CRYSTAL_KEEP = 55  # 1: Charged Crystals are held until they pay (TB-191 alternative)
CFG_N = 56

OUTCOME_NAMES = ("victory", "retreat")
N_COUNTERS = 7
POISON_STEP = (0, 3, 3, 10, 10, 10, 10, 10, 10, 10, 10)  # TB-182: 1 -> 3 -> 10
