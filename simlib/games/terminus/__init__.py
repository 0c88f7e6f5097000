"""Terminus Breach TD: the co-operative tower defence, played rule by rule.

Sources: ``rules/terminus-breach-td.txt`` and the Terminus part of ``RULINGS.md``.

Module layout: ``state.py`` (array layouts), ``move.py`` (the Drakka advance-and-draw
kernels), ``towers.py`` (tower rules), ``engine/`` (one module per phase: setup,
advance, defend, resolve, develop, lull; Imperial cards, builds, levels, one Wave, the
batch kernel; see ``engine/__init__.py``), ``bots.py`` (scripted players), ``compile.py`` (content
tables -> arrays), ``settings.py`` (settings and presets), ``data/default.toml``
(illustrative content: maps, tower lines, blessings, Drakka decks, bosses, class charts).

Readings of the checklist's open items (``shared/rules/terminus-checklist.md``)
--------------------------------------------------------------------------------
- TB-004: a Battle has 3 Waves (ruling).
- TB-025: a Treefolk Holy tower built in the Develop phase of Wave N blesses from Wave
  N+2 (setting ``treefolk_holy_delay``, default 2).
- TB-026: the Human clearing fee is a flat 25 GP (setting ``human_clear_fee``).
- TB-030: Toughness works like hit points: damage >= Toughness kills (setting
  ``toughness_rule``: 'reach' / 'exceed').
- TB-037: GP and VP are exact integers; counter denominations are cosmetic.
- TB-038: Panic starts at 0 (setting ``start_panic``).
- TB-041: each race at most once per game (setting ``distinct_races``). Setting
  ``lineup = "random"`` deals distinct races and random classes to the seats each game
  (from the game's own random stream), for race and class balance studies.
- TB-047: the class tactics name what each class's level chart counts (data
  ``classes.*.weights``) and what the bots of that class gain from.
- TB-054: only the players tied for the highest initiative roll roll again.
- TB-063: the initiative winner is active in Wave 1; the role passes one seat clockwise
  each Wave; after the re-rolls at Lull 2 and 4 the new winner is active next.
- TB-073: a Drakka with no open square within its Speed stays where it is.
- TB-076: poison is dealt at the start of a Drakka's move; a Drakka it kills does not move.
- TB-077: a poison kill goes to the player whose tower placed or last raised the token,
  with Bounty (setting ``poison_kill``: 'poisoner' / 'nobody').
- TB-084: Draw modifier 2,2,4,4,6 (setting ``draw_modifier``, any five integers).
- TB-088: a short deck draws what is left.
- TB-089: a boss enters like a drawn Drakka but stops only on an empty square; with none
  it waits off the path and tries again at the next Draw phase, never trampled; a boss
  still waiting at the Lull goes back to the box with the undrawn deck.
- TB-092: a tower fires every shot its Rate allows while a legal target is left.
- TB-098: damage beyond a kill is lost; later shots pick new targets.
- TB-101: a Petition comes only when the player killed nothing this Wave (an Execute
  counts as a kill: no Bounty and no Petition).
- TB-107: the trade rows are taken as printed (2 -> 1 Favor, 3 -> 3, 5 -> 5, 5 -> 1
  Sanction).
- TB-110: one tower per site.
- TB-112: GP is the only limit on builds and upgrades in a Develop phase.
- TB-114: a tower's current value is its level's printed Cost (setting ``sell_value``:
  'cost' / 'paid').
- TB-115: selling a tower removes the blessings on it and, for a Holy tower, those it gave.
- TB-118: a Favor is bought in the buyer's part of the Resolve phase, once per Wave.
- TB-119: Favors (bought, traded or from crystals) are drawn blind from a shuffled Favor
  deck (data ``favors``), the discards reshuffled when it runs out.
- TB-123: a played Sanction returns to the supply of 2 per kind.
- TB-124: windows: Tax Collector in the Resolve phase; Carnage, Spy, Combust and Falconry
  as the player's Defend turn starts; Apathy at the end of the Develop phase (for the next
  Advance); Renovate and Invocation in the Develop phase. Sabotage is played on a rival's
  tower that could fire, as that rival's Defend turn starts (a declared shot never fires).
- TB-128: an executed Drakka counts as a kill (Kills and the Lull's 1 VP), with no Bounty.
- TB-137, TB-147: Spy and Tax Collector cards count over the whole game; at every Lull
  the highest tier reached pays its single reward (10/15/20 VP, 150/250/400 GP).
- TB-143: a Battle-5 Tax Collector pays 400 GP (setting ``tax_battle5``).
- TB-151: Combust and Falconry go on one of the player's own towers, the Combust bonus by
  that tower's race; Renovate (bots: their own tower) may name any tower.
- TB-154: Apathy sets the Speed to 1 whatever the Slow token, which is still downgraded.
- TB-157: a Carnage kill pays Bounty and counts as a kill.
- TB-164: bosses by Battle in the order of the Spy & Carnage table (data ``bosses``).
- TB-165: a boss follows the Drakka rules otherwise (shot, poisoned, slowed,
  leap-frogged, raises panic by its Threat).
- TB-171: a crystal Carnage of any size deals a boss its full Carnage damage.
- TB-173: Fear halves the Damage after blessings and Combust; a 0-damage shot is still
  fired.
- TB-177: boss d20 results (data) put Fear / Petrify tokens on the N shooting towers
  nearest the boss.
- TB-182: a hit from a tower with a poison_up blessing raises a Poison token one step.
- TB-184: Poison never wears off and is dealt once per Advance phase.
- TB-189: Slow ladder 4 -> 3 -> 2 -> 1 -> off; a new hit sets the token to the hit's value
  if higher (setting ``slow_ladder``: '4321' / '421').
- TB-196: crystal Favors wait a Wave like any card; crystal Renovate and Carnage resolve
  at once.
- TB-197: characters start at level 0 and top out at 3; thresholds are class data.
- TB-208: Drakka still on the path at a Lull stay there, damage and tokens included.
- TB-211: after Battle 5 only the step-1 tally is done, as the final scoring.
- TB-214 (setting ``clear_board``, a named reading): the game ends with Battle 5's third
  Wave (default; the End Game section, "Play continues until ... Players have survived
  all 5 Battles", and ruling TB-212); ``true`` plays the overview's "clear the board":
  Waves without a Draw until the path is clear, the table winning if the panic stays
  under the limit.
- TB-211 / TB-203 (setting ``final_vp_buy``, a named reading): at the final tally, as at
  every Lull, a player "can buy VPs for 100GP/VP": the bots buy their ``vp_buy`` share and
  keep the rest for the GP tiebreak (TB-221) (default); ``all`` converts all GP.
- TB-191 (setting ``crystals``, a named reading): Charged Crystals "can be used
  immediately": spent as received (default); ``keep`` holds them until Drakka threaten to
  get through (``bots.danger_nb``), then spends them all as the holder's Defend turn
  starts.
- TB-218: character-level VP are not cumulative (75 at level 3).
- TB-219: a retreat still tallies the Battle cut short before the level VP.
- TB-222: players tied on VP and GP share the win (``shared_win``; ``vp_winner`` is the
  lowest tied seat).

Other readings: a Carnage covers 3 consecutive path squares (always side-connected,
TB-230); a setup build keeps 25 GP for each of the seat's later setup builds. The bots
sell a tower for one reason (bot parameter ``sell``, ``bots.sell_choice_nb``): to rebuild
Air & Ground on its spot when the table cannot shoot its flyers.

Findings from the balance runs (``builder``, seed 7, 20,000 games a cell, data version 1)
---------------------------------------------------------------------------------------
Survival by player count was non-monotone (Normal 1-4 players: 43 / 71 / 55 / 81 %;
Heroic 42 / 15 / 8 / 53 %). Cause: a bot weakness, not the rules. The bots valued a tower
by damage x rate x squares covered per GP, blind to flying: Heavy Ground towers (which
never shoot flyers, TB-010) looked the best buys, and every character has 3 of them
(data ``copies``). Traced over 1,000 games a cell, the towers standing at the end
(Air & Ground / Heavy Ground) and the panic from flyers / ground Drakka were, Normal
1-4 players: 4.0/3.0, 4.6/5.4, 3.7/7.3, 3.2/7.8 towers and 6.3/1.9, 4.9/0.5, 7.0/0.0,
3.7/0.0 panic; Heroic 2-4 players: 2.9/5.2, 1.9/7.1, 1.8/7.2 towers and 9.2, 9.5, 6.6
panic from flyers. So nearly all the panic came from flyers: a third player's 3 Heavy
Ground cards let the table fill the shared Build Spots with towers that cannot shoot
them, and survival fell; a fourth player brings back more than that loss through the
Resolve phase, since every seat that kills nothing in a Wave takes a Petition (TB-100):
Tax Collectors played per game rose 2.3 / 5.5 / 9.2 / 15.1 with 1-4 players. One player
is held by its own 9 tower cards (4 + 3 + 2), which fit the Normal and Heroic maps alike,
hence the same survival on both. The printed rules did not cause that dip: the table's
allowance (480 GP), its 4 setup builds and the draw are the same whatever the count (its
share a seat is not: with versions 2 and 3 that matters, below).
Fix (bots): the ``air`` check (see ``bots``) and selling; defaults ``air`` 0.5, ``sell``
0.5 for the builder. With them survival rose with the player count on every map with
data version 1 and ``clear_board=true`` (table in the README; the Heroic test in
``tests/test_terminus_bots.py`` plays the version-1 Drakka,
``tests/data/terminus_v1.toml``); ``air=0 sell=0`` gives the old bots. With data versions 2
and 3 survival by player count is not monotone (below).

With data version 1, panic stayed near 0 until Battle 5 and about 46% of the Drakka were
trampled: both followed from the printed rules with that data, not from a mis-modelled
rule. A drawn Drakka enters from the deck and may stop only within its Speed of the
entrance (TB-086, the Advance rules), one ground and one flying per square (TB-068..070),
so a Draw phase has room for about Speed ground and Speed flying Drakka (2-5 squares each
with the version-1 Speeds), while it draws d6 + modifier = 3 to 12 (TB-078..084); the rest
are trampled (TB-087): 5.8 of the 16.5 drawn in Battle 1 on average. The paths are 34 /
29 / 25 squares and the version-1 Speeds 2-4, so a Drakka needed 7 to 17 Advances (3 to 6
Battles of 3 Waves) to cross; Drakka left on the path at a Lull stay (TB-208), and with
``clear_board=true`` everything still on the path after Battle 5 must leave or die in the
clear-the-board Waves (TB-214). So with the literal ``clear_board=false`` the builder
survived every map in all of 2,000 two-player games.

Data version 2 (the calibration written at the top of ``data/default.toml``: Speed +4 on
every Drakka but the printed Drak Wurm, Toughness x 1.4, deck copies x 1.5) moves the
panic into Battles 1-5: with the builder, 2 players and the literal readings (20,000
games, seed 2026) survival is Normal 18.6%, Heroic 52.0%, Legendary 31.6%, the mean panic
after Battle 4 is 4.7 to 7.4, and about 7% of the Drakka drawn are trampled (0.15 in
Battle 1): at Speeds 5-8 a Draw phase has room for most of what it draws.

Survival by player count (traced with data versions 2 and 3, ``builder``, literal readings;
tables in ``docs/terminus.md``). Three causes, none a rule of the engine (the allowance
split, 480 // players, and the setup build order TB-055..059 are as printed):

- Illustrative data (fixed by data version 3): every level of the Dwarf, Elf and Treefolk
  lines fired once per Defend phase, the printed Spear and Ballista twice, and a shot
  kills one Drakka at most, so the Humans made about twice the kills per GP: two players
  without Humans survived 0-2% of games on every map, with Humans 10-58%. In the fixed
  lineup the Humans sit in seat 0, so the table's strength followed the Humans' share of
  the allowance (480 / 240 / 160 / 120 GP), and seat 2 is the weakest race and class
  (Elves, Political). Version 3 gives every race one shot fewer than the Humans at each
  level (TB-044), Humans 2,2,3 / 2,3,3 and the others 1,1,2 / 1,2,2.
- The design: the allowance is 480 GP whatever the count and a setup build is one tower
  upgraded at once (TB-055), so with 2 players a seat's first build can reach level 3
  (175 GP) and with 3 or 4 it cannot. With 240 GP a seat (``war_allowance`` 240 x
  players) survival rises with every player added on every map.
- The openings: the setup is the builder's deterministic choice given the initiative
  winner, so a cell is a mix of one opening per seat, and the openings differ widely
  (record column ``first_player``; Legendary, 2 players: 77.9% when the Humans build
  first, 34.9% when the Dwarves do). Valuing a site by where Drakka stop (Speed 5-8
  Drakka stop on few squares; flyers at Speed 8 on squares 7, 15, 23, 31 of an empty
  path) instead of the squares in range, a lone player's anti-air check, and a setup
  that upgrades only what the Develop valuation would: each raised some cells and
  lowered others, so the bots keep their choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simlib.core.game import BatchKernel, Bot, Game, RunContext
from simlib.errors import SimlibInputError
from simlib.games.terminus import bots as _bots
from simlib.games.terminus import compile as _compile
from simlib.games.terminus import engine as _engine
from simlib.games.terminus import search as _search
from simlib.games.terminus import settings as _settings
from simlib.games.terminus.state import CLASS_NAMES, MAX_PLAYERS, N_BATTLES, RACE_NAMES

__all__ = ["GAME", "TerminusBreach"]

BLOCK = 64  # games per block: a thread plays a block on state allocated once (core.blocks)
SEARCH_BLOCK = 1  # a search game costs hundreds of games: one a block keeps threads even
SEARCH_BOT = Bot(
    "search", _search.SEARCH_ID,
    "flat Monte Carlo over the scripted bots' proposals (Favor purchases, sales, each build "
    "and upgrade), builder rollouts; budget 0 plays as builder",
    {"budget": float(_search.DEFAULT_BUDGET)},
    {"budget": "rollouts per candidate at each searched choice (a whole number; 0: the "
               "builder's own choice everywhere)"},
    {"budget": (0.0, float(_search.MAX_BUDGET))},
)

MEASURES = ("leaks", "trampled", "kills", "boss_kills", "panic", "battle_reached",
            *(f"panic_b{b}" for b in range(1, N_BATTLES + 1)),
            *(f"leaks_b{b}" for b in range(1, N_BATTLES + 1)),
            *(f"trampled_b{b}" for b in range(1, N_BATTLES + 1)),
            "poison_kills", "carnage_kills", "spy_kills", "favors_played", "towers_sold")
PER_BATTLE = ("panic_b", "leaks_b", "trampled_b")
PER_SEAT = ("vp", "gp", "towers", "level", "seat_kills")


class TerminusBreach(Game):
    """The Terminus Breach TD game spec (see the module docstring for the readings)."""

    name = "terminus"
    title = "Terminus Breach TD"
    # 4: default data version 2 (calibrated Drakka); 5: data version 3 (tower lines, maps) and
    # the first_player column: each changes every game
    engine_version = "5"
    settings = _settings.SETTINGS
    presets = _settings.PRESETS
    default_preset = "normal"
    bots = tuple(
        Bot(name, bid, desc, dict(zip(_bots.PARAM_NAMES, defaults, strict=True)),
            dict(_bots.PARAM_HELP), dict(_bots.PARAM_BOUNDS))
        for name, (bid, defaults, desc) in _bots.BOTS.items()
    ) + (SEARCH_BOT,)
    default_bot = "builder"
    #: A cold compile of the default bot's kernels, in seconds (benchmarks/bench_compile.py).
    compile_seconds = 40
    outcomes = _engine.OUTCOME_NAMES
    record_dt = _engine.record_dt
    measure_columns = MEASURES

    def validate(self, values: dict[str, Any]) -> None:
        """Check settings against each other and the content tables."""
        _settings.validate(values)

    def compile(self, values: dict[str, Any]) -> tuple:
        """Resolved settings -> the kernel's ``params`` tuple."""
        return _compile.compile_settings(values)

    def batch_kernel(self, compiled, bot_id, bot_params):
        """The block kernel of ``bot_id``: the search bot's (whole ``budget``) or the scripted."""
        if bot_id == _search.SEARCH_ID:
            budget = float(bot_params[0])
            if budget != int(budget):
                raise SimlibInputError(
                    f"bot parameter 'budget': {budget:g} is not allowed; expected a whole "
                    f"number from 0 to {_search.MAX_BUDGET}")
            pbp = np.stack([_bots.param_vector(b) for b in ("builder", "killer", "petitioner")])
            return BatchKernel(_search.play_search_block_nb,
                               (compiled, int(budget), pbp[0].copy(), pbp), SEARCH_BLOCK)
        return BatchKernel(_engine.play_block_nb, (compiled, bot_id, bot_params), BLOCK)

    def frame_field(self, name: str, values: np.ndarray, ctx: RunContext):
        """Per-Battle arrays spread to ``panic_b1`` .., seats' race and class as categories.

        ``rounds`` counts the Waves played; ``battle_reached`` / ``wave_reached`` say where
        the game ended (``wave_reached`` 4 and up are the clear-the-board Waves after
        Battle 5); ``panic_b1..5`` is the panic after each Battle (-1: not reached);
        ``leaks_b*`` / ``trampled_b*`` count per Battle where Drakka got through or were
        trampled; ``first_player`` is the seat that won the setup's initiative roll and built
        first (TB-053..059: with the printed build order it decides the opening). Per-seat
        arrays spread into ``race_0`` .., ``vp_0`` ..; empty seats are ``none`` / -1.
        """
        if name in PER_BATTLE:
            return {f"{name}{b + 1}": values[:, b] for b in range(N_BATTLES)}
        if name in ("race", "klass"):
            cats = _seat_categories(name)
            label = "race" if name == "race" else "class"
            out = {}
            for s in range(MAX_PLAYERS):
                codes = values[:, s].astype(np.int64)
                codes = np.where(codes < 0, len(cats) - 1, codes)
                out[f"{label}_{s}"] = pd.Categorical.from_codes(codes, categories=cats)
            return out
        return None

    def finish_frame(self, cols: dict[str, Any], records: np.ndarray, ctx: RunContext) -> None:
        """``winner_race`` / ``winner_class``: the VP winner's (the lowest tied seat)."""
        seat = records["vp_winner"].astype(np.int64)
        rows = np.arange(len(records))
        for name, label in (("race", "winner_race"), ("klass", "winner_class")):
            cats = _seat_categories(name)
            codes = records[name][rows, np.maximum(seat, 0)].astype(np.int64)
            codes = np.where((seat < 0) | (codes < 0), len(cats) - 1, codes)
            cols[label] = pd.Categorical.from_codes(codes, categories=cats)


def _seat_categories(field: str) -> list[str]:
    """The categories of a seat's ``race`` or ``klass`` code (-1, an empty seat: ``none``)."""
    return [*(RACE_NAMES if field == "race" else CLASS_NAMES), "none"]


GAME = TerminusBreach()
