"""Terraria: The Board Game (``rules/terraria-the-board-game.txt``): content and combat odds.

This package is not yet a playable game: there is no engine, so it is not in the game
registry. What exists is the content the fighting rules need and exact combat odds:

- ``data/weapons.toml``, ``data/armor.toml``, ``data/bestiary.toml``: illustrative
  content tables (the rulebook prints almost none of it; each file quotes what it does
  print), read and validated by :mod:`simlib.games.terraria.content`;
- :mod:`simlib.games.terraria.combat`: ``combat_table()`` (weapon x armor x enemy: exact
  chances of each number of wounds dealt and taken), ``fall_damage_chance()`` and
  ``fall_table()``; ``python -m simlib.games.terraria.combat`` writes the table.

The dice mechanics themselves are generic and live in :mod:`simlib.core.dice`.

Readings of the checklist (``shared/rules/terraria-checklist.md``) settled so far
--------------------------------------------------------------------------------
- TR-277 / TR-286 (rulings): attack icons all go onto one attack die, placed where they
  turn a miss into a hit; defence icons all go onto one defence die, the highest. Raising
  the highest defence die is the defender's best placement whatever the attacker does, so
  the order of placement never matters (tested against brute force).
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
"""
