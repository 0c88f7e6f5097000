"""Terraria rules and the batch kernel, one module per part of a game in the rulebook's order.

A game is set up, then rounds of preparation, player turn, enemy turn and cleanup run until
it ends (TR-077); ``batch`` plays them. The modules, in that order:

- ``setup``: a game's arrays (``alloc_state_nb``, ``copy_state_nb``) and its setup
  (``setup_nb``); ``world``: the world of one game (``generate_world_nb``) and discovery
  (``discover_nb``);
- ``preparation``: the first phase of a round (the time track, sunrise, the Skull);
- the player turn: ``cards`` (decks, hands, the ready slot, the hand limit), ``movement``
  (steps with gravity, falls, stacks, ropes, platforms, digging and chopping: the geometry),
  ``actions`` (the actions on the board and what follows each: falls, discoveries,
  objectives), ``sight`` (line of sight and ranges), ``attack`` (whether a weapon reaches,
  the attack action), ``crafting`` (recipes, gifts of gear, houses), ``npcs`` (NPCs moving
  in, their shops), ``magic`` (mana, minions, consumables, the houses' bonus tokens),
  ``rewards`` (coins, equipment and armor from the supply, rewards, objectives) and ``life``
  (inventories, losing health, death, respawn, fall damage);
- ``enemy_turn``: the third phase, run by ``foes`` (the enemy tray, spawning, enemy moves
  and attacks, wounds and loot; the moves themselves in ``enemy``) and ``bosses`` (criteria,
  spawning, behaviour cards, abilities, wounds, forms, loot);
- ``cleanup``: the last phase (boss criteria, NPCs, objectives, the round's cards);
- ``checks``: the invariants, checked after every turn when ``check_invariants`` is set;
- ``batch``: one game, the record it writes, and the parallel block kernel.

The kernels take ``(st, tab, ...)``: ``st`` a :class:`~simlib.games.terraria.state.State`
(one game's arrays, allocated once per block of games by ``setup.alloc_state_nb``) and
``tab`` the compiled :class:`~simlib.games.terraria.state.Tables` (``compile.py``). A
player's action returns False and changes nothing when it is not allowed. The players'
decisions are ``bots.py`` and ``search.py``; the readings are in the package docstring.
This package imports nothing itself: import its modules.
"""
