"""Terraria: The Board Game (``rules/terraria-the-board-game.txt``): whole playthroughs.

Registered as ``terraria``: ``simlib.run("terraria", preset="easy", settings={"players": 2})``
plays whole games (``engine/batch.py``: setup, rounds of preparation, player turn, enemy turn and
cleanup, until the objectives are met, Wall of Flesh falls, time runs out or a death finds
no tombstone). One row per game: ``win``, ``outcome`` (won_objectives, won_wall_of_flesh,
out_of_time, out_of_respawns), ``rounds``, ``day`` reached, chains and objectives done
(per chain), deaths (and those caused by a fall or a mob), falls, fall damage, duels,
wounds taken, mobbed attacks and mob damage, kills, bosses, deepest layer, tiles, houses,
NPCs, items crafted, blocks dug, chests, gifts of equipment and armor, coins and resource
units traded, placed bottle potions taken, food tokens eaten. Exact tables: ``combat`` and
``fall``.

Modules (the common shape of the game packages):

- :mod:`~simlib.games.terraria.settings`: presets easy / medium / hard (1 / 2 / 3 chains),
  ``mode`` (standard, journey, lucky_horseshoe, enchanted_sundial), ``players`` 1-4,
  ``time_limit_tokens``, ``tombstones_per_player``, ``evil_biome``, ``mob_debuff`` (a
  reading), ``data``; ``resolve()`` and ``effective()`` (the counts a mode implies);
- ``data/*.toml`` and :mod:`~simlib.games.terraria.compile`: every settings and data file
  to the kernels' arrays (each file validated): the combat tables (``data/weapons.toml``,
  ``armor.toml``, ``bestiary.toml``: illustrative, each file quotes what the rulebook does
  print), the world tables of ``data/world.toml`` and the fixed 86-tile set compiled from
  them, and every other content table the rulebook does not print (illustrative defaults);
- :mod:`~simlib.games.terraria.state`: the columns of every per-game array and compiled
  table, the ``State`` / ``Tables`` structs the kernels take, the ``cfg`` columns and the
  record of a game (``record_dt``, the outcomes);
- :mod:`~simlib.games.terraria.engine`: the rules, one module per part of a game in the
  rulebook's order (its docstring lists them): ``setup`` and ``world`` (one game's world
  from the rng: Crimson or Corruption, the minimap order, a tile per position; discovery),
  ``preparation``, the player turn (``cards``: decks; ``movement``: steps with gravity,
  falls and fall damage, stacks, rope, platforms, digging and chopping, see its docstring
  for the geometry; ``actions``; ``sight``: line of sight between squares, ``sees_nb``,
  remembered in ``st.seen`` by ``sees_memo_nb`` while the sight epoch of
  ``attack.sight_epoch_nb`` stands, and the ranges that reach, ``reach_nb``; ``attack``;
  ``crafting``; ``npcs``; ``magic``; ``rewards``; ``life``: inventories, death, respawn,
  fall damage), ``enemy_turn`` (``foes``: the enemy tray, spawning, enemy moves and
  attacks, wounds and loot; ``enemy``: how far an enemy moves, toward whom, and its move;
  ``bosses``: criteria, spawning, behaviour cards, abilities, displacement, wounds, Form B,
  defeat and loot split, see its docstring for every reading), ``cleanup``, ``checks``
  (the invariants) and ``batch`` (a whole game, its record, the block kernel);
- :mod:`~simlib.games.terraria.bots`: the scripted players (explorer, builder, fighter);
  :mod:`~simlib.games.terraria.search`: the ``search`` bot (each turn, the scripted plan
  whose rollouts from a copy of the state end best; ``budget`` rollouts a plan);
- :mod:`simlib.games.terraria.combat`: the exact tables, ``combat_table()`` (weapon x armor
  x enemy: exact chances of each number of wounds dealt and taken),
  ``fall_damage_chance()`` and ``fall_table()``; ``python -m simlib.games.terraria.combat``
  writes the table.

The dice mechanics themselves are generic and live in :mod:`simlib.core.dice`; the
engine's fall damage goes through ``simlib.core.dice.fall_damage_nb``.

Readings of the checklist (``shared/rules/terraria-checklist.md``) settled so far
--------------------------------------------------------------------------------
- TR-277 / TR-286 (rulings): attack icons all go onto one attack die, placed where they
  turn a miss into a hit; defence icons all go onto one defence die, the highest. Raising
  the highest defence die is the defender's best placement whatever the attacker does, so
  the order of placement never matters (tested against brute force). The icons are those
  of the cards and consumables in play plus the worn armor set's (armor key ``def``,
  ``AR.DEF``; none unless the data gives some; ``life.defence_icons_nb``).
- TR-134 (open): defence icons do not modify a fall roll; it is the plain sum of the
  defence dice (the rulebook's fall text names only the dice and their total).
- TR-130: a fall ending in a cobweb square never hurts, however far.
- TR-435 / TR-436: Journey and Lucky Horseshoe modes ignore fall damage; TR-437: the
  Enchanted Sundial changes only the time-limit tokens, so falls hurt as in a standard game.
- TR-345 (open): when enemies in short range tie on both the largest die and its count,
  the players choose which leads the mob. ``simlib.core.dice.mob_attack`` takes the choice
  as ``leader``; by default the first listed leads. An engine's bot makes the choice.
- TR-012: weapons and armor roll character dice, so their pools use sizes 4, 6, 8 and 12
  only, at most 3 of each; the content loader refuses anything else. The enemy dice set is
  not printed: the bestiary file declares it (illustrative: 4, 6, 8, 10, 12, 20).
- The combat table's "taken" columns are one attack by one enemy alone; a mob's pool comes
  from ``mob_attack`` and goes through the same ``duel_distribution``.
- TR-027 (open): 1 to 4 players (setting ``players``), one character each.
- TR-033 / TR-035 (rulings) and TR-006: the world is 5 layers x 17 tile columns; a tile is
  ``tile_rows x tile_cols`` squares (illustrative 5 x 6). The 86 physical tiles are
  10 ocean, 15 Forest (3 of them the printed Surface tiles), the starting Underground tile,
  15 each of Jungle, Desert and Snow, and 15 Corruption tiles whose backs are the Crimson
  tiles (illustrative split, data). Tiles other than the 4 starting ones are drawn once per
  data file from per-layer terrain and per-biome resource tables, like a printed set.
- TR-149: every position's tile is drawn at setup (hidden) rather than at discovery; the
  distribution is the same (see ``engine/world.py``). TR-153 (open): the data loader refuses a
  stock that cannot fill its positions.
- TR-150: discovering a position in a column whose minimap token is face down flips it.
- TR-115 (open): steps go sideways, up and diagonally (up or down); no paid straight-down
  step; platforms are stepped up through and never dropped through (a diagonal step down
  past a platform on the floor of the square beside the mover is refused).
- TR-116 / TR-117: a half block fills the lower half of its square; a piece stands in it
  on the slope; no step goes up into one. TR-118: a diagonal step is refused when both
  squares beside it touch the corner passed (full blocks touch all corners, half blocks
  their lower two).
- TR-123 (open): a step or fall may end above another piece, forming a stack.
- TR-124 (open): "adjacent" is any of the 8 neighbours, across tile borders.
- TR-135 (open): falling into or through a cobweb square collects a Cobweb.
- TR-176 (open): dig and chop already spent are kept on the square (``P.PROG``) and the
  piece spending the final point gets the yield; partial chop is cleared at sunrise.
- TR-184 (open): lava squares are not blocks, cannot be dug, and do nothing else here.
- TR-222: the 6 platform positions are data (``[platforms]``, illustrative: floor and
  ceiling of the character's square and of its left and right neighbours).
- TR-227 / TR-231 (open): a rope hangs down to the first full or half block; moving
  along it costs 1 action point per 2 squares rounded up.
- TR-266 / TR-270 (open): line of sight is exact geometry. A square is a unit square; a
  piece sees another when a segment from a corner of its square to a corner of the other's
  has no point inside the union of blocking regions: full blocks, the lower half of half
  blocks, and squares under a house (``FEAT.HOUSE``, TR-246). Touching a corner or running
  along an outer face does not block; running along the seam between two blocking regions
  does (it is inside them). The two pieces' own squares never block (a character in a half
  block, a worm inside a block). Platforms, cobwebs, lava, trees and pieces never block, nor
  do squares of undiscovered tiles (nothing is on the table there). Sight is symmetric
  (TR-267, TR-268): the engine grants it exactly, both ways.
- TR-243..245: a square inside a house and one outside never see each other (walls and
  doors), so no enemy sees or attacks a character inside, and a character inside attacks
  no enemy outside with any weapon; it may still move, dig, chop, craft and build. A
  weapon without the line-of-sight icon ignores blocks but not houses (``sight.sees_nb``
  with ``houses_only``). Enemies ignore characters inside houses: no target, no move.
- TR-260..264 / TR-333: short range is the 8 neighbouring squares (TR-124, across tile
  borders); medium is any non-adjacent square on the same tile or one of the 8 tiles
  around (TR-264, open); long is any non-adjacent square. The same square is reached by no
  range. ``sight.reach_nb`` returns the set as bits ``sight.R`` (a weapon's ranges use the
  same bits, so a multi-range weapon reaches a target when the sets meet, TR-263).
- TR-319..323 (TR-322 open): an enemy that sees a character moves up to its movement
  value; one that sees none but is on or orthogonally beside a character's tile moves up
  to 1; else it stays. It heads for the nearest character in squares (Chebyshev distance;
  ties: lowest piece index, standing in for the players' choice) and ends on the reachable
  empty square nearest it (ties: shorter straight line, fewer steps, topmost, leftmost),
  possibly where it started. Walkers step as characters do and fall after a step without
  damage (TR-325, TR-326); flyers step to any of the 8 neighbours that is not a full
  block, ignore platforms and never fall (TR-327). Worms (TR-328, TR-329 open) step to
  any neighbour through full and half blocks, enter an open square only from a block (a
  gap of 1 at most), end in a block or on a surface, and never fall. No enemy enters a
  house square (TR-244, TR-330).
- TR-331 (open): an enemy moves through squares holding other pieces but ends only in an
  empty square (as characters do, TR-119, TR-121); a walker may end standing on another
  piece (a stack, TR-123). A boss displaces pieces instead (``bosses.py``).
- Undiscovered tiles are not on the table: no piece steps into them (falls only ever go
  down into tiles that the tile above has already discovered).
- Bosses (details in ``bosses.py``): TR-397 (open) lenses are a resource held in the
  inventory, spent standing on or next to an altar; TR-399 (open) a boss whose criterion
  is met spawns at the next of: the start of the enemy turn, cleanup step 4; TR-400 (open)
  each boss spawns at most once, the slimes meter stops once King Slime is pending;
  TR-316, TR-398 several bosses may be in play at once, every pending one spawning as the
  enemy turn begins, each with its own card, form and wound tokens; TR-406 (open among
  bosses) their special abilities fire first, in the rulebook's boss table order, which is
  also the order in which they move and attack; TR-403 the spawn
  position is the nearest empty square to the trigger square (King Slime: to the
  lowest-numbered character); TR-139 a displaced piece goes to the free side square with no
  fall-damage risk, then the shortest fall, then left, right, up-left, up-right, down-left,
  down-right; TR-142 (open) an enemy killed by displacement gives no loot and no slime;
  TR-414 (open) wounds carry from Form A into Form B; TR-418 (open) a boss defeat stays in
  its counter for its Fight objective; TR-419 loot is dealt in order of wound tokens taken.
  The trigger squares (``FEAT.LARVA``, ``FEAT.ALTAR``, ``FEAT.ORB``) are data
  (``[boss_squares]`` in ``world.toml``).

Enemies, death and respawn (:mod:`~simlib.games.terraria.engine.foes`,
:mod:`~simlib.games.terraria.engine.life`; each module's docstring has the full readings):

- TR-312 (open): a tray section with no token of the needed time even after taking back
  its discards spawns nothing; ocean tiles have no section and spawn nothing; the world
  holds at most 40 enemy tokens (TR-026). TR-313 (open): a spawn point under a piece or a
  house spawns nothing. Worms and crystal / star tokens over a tunnel drop like walkers.
- TR-085 (open): night enemies and fallen stars removed at sunrise go to their section's
  discard area, wounds cleared; life crystals stay.
- TR-317 (open): the enemy nearest a character moves first (ties: lowest piece row).
- TR-336 (open): an enemy attacks an adjacent character only with short range (in the
  mob), a farther one in the long band if it has long range, else the medium band.
  TR-335: within a band, piece-row order, the boss last. TR-345 (open): on a full tie the
  leader giving the weakest pool (least sum of die sizes) leads, then the lowest row;
  the leader's debuff applies to every health lost (setting ``mob_debuff``, reading
  TR-342: ``each_die`` gives a health lost to a lent die that lender's debuff instead).
  TR-348 (open): only enemies that see the character join (adjacent squares always see
  each other through their shared corner).
- TR-378 (open): the Dryad's die (size data) is one extra defence die, used by the first
  enemy roll of a turn that could kill its target (attack dice >= health).
- TR-303 (open): a killing attack's debuffs go on the draw pile after the death shuffle.
- TR-188..194: units fill slots of their type, then free slots; a new type with no free
  slot replaces the held type with the fewest units (all its slots), unless that loses as
  many units as it brings (then it is declined, TR-192).
- TR-293 (open): play-area cards go to the discard pile on death too. TR-300 / TR-302
  (open): respawn in the deepest bed house, else on a free butterfly of the central
  Surface Forest tile, else any free surface square of the three Surface Forest tiles;
  full health, mana unchanged.
- TR-306 (open): collecting a crystal or star is free and adds ``RU.CRYSTAL_HP`` /
  ``RU.STAR_MANA`` (data) up to ``RU.MAX_HP`` / ``RU.MAX_MANA``. TR-400 (open): the slimes
  meter stops once King Slime is pending; reaching 8 marks King Slime pending.

Readings of the engine, the decks and the bots (``engine/``, ``engine/cards.py``, ``bots.py``)
---------------------------------------------------------------------------------------
- TR-078 (open): round 1 starts at the player turn; the first time limit token goes at the
  second sunrise, so a standard game lasts 7 full days (the 7th discard ends it).
- TR-079: the simultaneous player turn is played seat by seat (seat 0 first); the bots
  cooperate through shared goals (each pushes one of the chains the team needs) and
  donations to crafting and building (TR-198, from the builder first, then seat order).
- TR-064 / TR-065 (open): counters cover the whole game; objectives are checked after every
  action and at cleanup, so one check may complete several objectives of a chain. An ALL
  reward goes to every player; a SHARED one once, to the player whose action completed it
  (at cleanup: the round's first player) (TR-061).
- TR-094, TR-101, TR-104..107: see ``cards.py`` (an empty draw and discard pile give a
  smaller hand; coin icons are this turn's money, spent before the dial; unspent action
  points, dig and chop are lost; played cards stay in play through the enemy turn and their
  defence and attack icons apply to every attack of the round).
- TR-108..111: the bots put a debuff card into the ready slot instead of playing it when
  the slot holds no other debuff (it then stays there: a card in the ready slot is drawn
  only when its owner chooses), and play every other card.
- TR-054 (open): every character starts with 0 coins on the dial.
- TR-155 / TR-160 (open): a chest's cards come at random from the chest deck of the biome
  the opener stands in; with fewer left, what remains; with none, the chest is opened (and
  marked) for nothing; the reward is the layer of the chest; the bots keep the card whose
  reward is worth most to them, the others go back.
- TR-183 (open): the Bee Larva, Shadow Orb and Crimson Heart are full blocks of their own
  structural resource (``world.toml`` [resources], dig 2, 3, 3: illustrative), dug like any
  block from an adjacent square; the one finished makes its boss pending
  (``bosses.broke_block_nb``).
- TR-186 / TR-187 (open): slot 5 (15 coins) before slot 6 (25 coins).
- TR-197: resources and coins are traded at any time and distance into the receiver's room
  only (resource units into its slots of that type with space and its empty slots, with no
  type given up; coins up to its 25); what does not fit stays with the giver
  (``life.give_resources_nb``, ``life.give_coins_nb``). Coin icons of the turn serve only
  their owner (TR-079) and are never given. Units or coins a player gains and has no room
  for go first to teammates with room (the one with most room for units, the richest below
  25 for coins), before any is declined, replaced or lost (``life.team_gain_nb``,
  ``life.team_gain_coins_nb``: the team's choice, a fixed rule).
- TR-199 (open): consumables are never traded; only resources, coins, equipment and armor
  change hands.
- TR-209 / TR-210 / TR-219 / TR-220: an equipment card or armor set changes hands only
  between two players neither of whom has drawn this round (``g[G.DRAWN]``, a bit per
  player set by ``cards.draw_hand_nb`` and cleared as each round starts; with the turn
  played seat by seat, TR-079, this is the literal "before either player draws"). The
  giver loses the copy: a card on top of its slot is replaced by the giver's best other card
  of that slot (else the slot is empty); a set worn leaves the giver with no armor until it
  puts on another (TR-218). The receiver owns it and, as any new card or set, it goes on
  top of its slot / is worn (TR-206, TR-214). A minion already summoned stays (TR-363). The
  bots give at the start of the round, before seat 0 draws (``bots.gift_phase_nb``).
- TR-233..242: a house's footprint (data) goes on discovered tiles, one of its squares
  adjacent to the builder; its squares block sight and enemies (``FEAT.HOUSE``); every
  house square and the squares over its roof get a floor, so characters walk through and
  on it; Acorns under it are removed.
- TR-235: every square a house covers must be empty as the rulebook defines it: no
  complete block, character or enemy. Half blocks, lava, tunnels, chests (opened or not),
  rope tokens, cobwebs, spawn points, trees, platforms and altars may be covered; another
  house may not (tiles do not overlap). What the tile covers, it covers for good (TR-240):
  a half block is gone under it (the square becomes open air like the rest of the house,
  walked through and never dug); a chest can no longer be opened (its card count is
  hidden, as a covered chop value is, TR-237); a tree whose chop square is covered can no
  longer be chopped, even once its Acorn went back (TR-237, TR-164), and the bots no
  longer seek either; a spawn point spawns nothing (TR-313). Lava, cobwebs, rope tokens
  and altars stay as they are: nothing in the rules removes them and using them needs
  only the square, which a house lets characters enter (a rope still hangs from its
  token; a cobweb square still gives Cobwebs; lava still counts for the Guide Voodoo
  Doll; lenses may still be spent at the altar).
- TR-239: a house needs room only; nothing has to be under it (the rulebook's house text
  asks for empty squares and its tip for "space"), so it may hang in the air or in a
  tunnel, held by nothing (TR-240: it never moves).
- TR-069: the Guide is spawned from setup: his bit of ``G.NPCS`` and his
  ``npc_spawned guide`` counter are set then (an objective on him completes at its first
  check). ``npcs_spawned`` (and the record's ``npcs``) counts the NPCs the players spawn,
  the Guide left out: the rulebook spawns NPCs "as you progress" while he is "always
  spawned", and the default Build objective "Spawn an NPC" means one of the other five.
- TR-159 / TR-014: a chest or objective reward of a chest action card of level N gives
  the top card of that level's face-down deck: a random card of level N among the copies
  still in the supply (one draw of the game's generator); none left: nothing.
- TR-360..363 / TR-018: only a character that can act summons; the Other card's minion
  is tried first, then the weapon's, skipping the minion already summoned; a minion
  card must be left in the supply (``copies`` per kind in ``gear.toml``, 4 of each of 3
  kinds for the printed 12, TR-026), less those the characters hold. With the default 4
  copies and at most 4 players the supply never runs out.
- TR-254 (open): the placed bottle's token is read as one flag, "used today"
  (``G.BOTTLE``): ``magic.use_bottle_nb`` sets it when a player takes a Healing, Greater
  Luck or Magic Power potion (the consumables flagged ``bottle``, if one is left, TR-253,
  TR-388), once a day for the whole team; sunrise clears it (TR-086). The food buff tokens
  are a bit each, uneaten today (``G.COOK_LEFT``), and each player a bit, ate today
  (``G.COOKED``); ``magic.eat_food_nb`` flips one token for a player who has not eaten
  and gives its bonus (a reward, data) at once (TR-255); sunrise resets both (TR-087).
- TR-257 (open): neither house needs the character near it, as with crafting stations:
  the house only has to stand. Both are free actions of the player's own turn (bots:
  ``bots.house_bonuses_nb``, from the free actions).
- TR-357: mana is regained mid-day, never above the maximum (TR-355), by consumables
  (``mana``), action cards (``mana`` icons), house bonus tokens (a food token
  ``["mana", n]``, a reward kind also open to chests and objectives; the bottle's Magic
  Power potion) and armor sets: ``mana_regen`` (``AR.REGEN``) is mana regained at the start
  of each of the wearer's turns (``magic.armor_mana_nb``; a per-day regain would do
  nothing, mana refills at every sunrise). Which sets, tokens and amounts is not printed:
  the data's are illustrative (Jungle Armor 1 a turn; one food token of 2 mana).
- TR-367 / TR-368 (open): NPC criteria are read at cleanup ("has died" and "boss defeated"
  count if they ever happened); one NPC per free house in the order Nurse, Merchant, Dryad,
  Goblin Tinkerer, Demolitionist.
- TR-374 (open): a Merchant purchase takes a random card of the chosen (8 or 15 coin) pile,
  as the top of a face-down pile. TR-380 / TR-382 / TR-383 (open): at sunrise the Goblin
  Tinkerer scraps a debuff card of each player (if any); the Demolitionist sells each player
  with 20+ coins one bomb for 10.
- TR-385 (open): the Nurse, the Guide and the Merchant serve a character on the world any
  number of times while its coins last; the kernels do not check whose turn it is (the
  bots use them in their own turn only, ``bots.free_actions_nb``).
- Debuff cards (data): a debuff card played costs its ``HURT`` health (illustrative).
- Life crystals and fallen stars are collected for free from an adjacent square
  (TR-306, open) and raise the maximum by ``RU.CRYSTAL_HP`` / ``RU.STAR_MANA`` (data).
"""

from __future__ import annotations

from typing import Any

from simlib.core.game import BatchKernel, Bot, Game, TableSpec
from simlib.errors import SimlibInputError
from simlib.games.terraria import settings as _settings
from simlib.games.terraria.state import MEASURES, OUTCOME_NAMES, record_dt

__all__ = ["GAME", "Terraria"]

BLOCK = 64  # games per block: a thread plays a block on state allocated once (core.blocks)
SEARCH_BLOCK = 2  # a search game is slow: small blocks keep both threads busy to the end
SEARCH_ID = 3  # ``search.SEARCH_ID`` (not imported here: the kernels load on first use)


class _SearchBot(Bot):
    """The ``search`` bot: its ``budget`` is a whole number of rollouts."""

    def resolve_params(self, overrides: dict[str, Any] | None) -> dict[str, float]:
        """Check the parameters as any bot's, then that ``budget`` is a whole number."""
        out = super().resolve_params(overrides)
        if not float(out["budget"]).is_integer():
            lo, hi = self.param_bounds["budget"]
            raise SimlibInputError(
                f"bot parameter 'budget': {out['budget']!r} is not allowed; "
                f"expected a whole number from {int(lo)} to {int(hi)}"
            )
        return out


class Terraria(Game):
    """The Terraria game spec (see the module docstring for the readings)."""

    name = "terraria"
    title = "Terraria: The Board Game"
    engine_version = "4"  # 4: the Magic Mirror recalls (TR-389); 3: several bosses in play,
    #                       the bots' Fight goals, data version 3
    settings = _settings.SETTINGS
    presets = _settings.PRESETS
    default_preset = "medium"
    default_bot = "builder"
    #: A cold compile of the default bot's kernels, in seconds (benchmarks/bench_compile.py).
    compile_seconds = 80
    outcomes = OUTCOME_NAMES
    record_dt = record_dt
    measure_columns = MEASURES
    time_column = "day"  # when games end, on the day track
    causes = (
        ("deaths, by a fall or a mob (other: a lone enemy, a boss, a debuff)", "deaths",
         ("fall_deaths", "mob_deaths")),
        ("health lost to enemy attacks, by mobs (other: a lone attacker)", "wounds_taken",
         ("mob_damage",)),
    )

    def __init__(self) -> None:
        from simlib.games.terraria import bots as _bots
        from simlib.games.terraria import search as _search
        self.bots = tuple(
            Bot(name, bid, desc, dict(zip(_bots.PARAM_NAMES, defaults, strict=True)),
                dict(_bots.PARAM_HELP), dict(_bots.PARAM_BOUNDS))
            for name, (bid, defaults, desc) in _bots.BOTS.items()
        ) + (_SearchBot("search", _search.SEARCH_ID, _search.HELP,
                 {"budget": float(_search.DEFAULT_BUDGET)}, dict(_search.PARAM_HELP),
                 dict(_search.PARAM_BOUNDS)),)

    def validate(self, values: dict[str, Any]) -> None:
        """Check settings against each other and the content tables."""
        _settings.validate(values)

    def tables(self) -> dict[str, TableSpec]:
        """Exact tables: ``combat`` (weapon x armor x enemy) and ``fall`` (fall damage odds)."""
        from simlib.games.terraria import combat

        return combat.table_specs()

    def compile(self, values: dict[str, Any]) -> tuple:
        """Resolved settings -> ``(tables, cfg)`` for the kernels (``compile.py``)."""
        from simlib.games.terraria.compile import compile_settings

        return compile_settings(values)

    def batch_kernel(self, compiled, bot_id, bot_params):
        """The block kernel of ``bot_id``: the search bot's or the scripted bots' one."""
        from simlib.games.terraria.engine.batch import play_block_nb

        tab, cfg = compiled
        if bot_id == SEARCH_ID:
            from simlib.games.terraria import search

            budget = int(round(float(bot_params[0])))
            return BatchKernel(search.play_search_block_nb,
                               (tab, cfg, search.plan_matrix(), budget), SEARCH_BLOCK)
        return BatchKernel(play_block_nb, (tab, cfg, bot_id, bot_params), BLOCK)


GAME = Terraria()
