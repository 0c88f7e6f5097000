"""Terraria: one whole playthrough and the block kernel, and the record it writes.

A game is set up (``setup.setup_nb``), then rounds run until ``g[G.OVER]`` is set: round 1
starts at the player turn (TR-078), later rounds at preparation; then, before anyone draws,
the players give each other equipment and armor (``bots.gift_phase_nb``, TR-209, TR-219);
every player takes a turn (seat order; the simultaneous turn of TR-079 is played one seat
after another), then the enemy turn and the cleanup (TR-077).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terraria import bots
from simlib.games.terraria.engine import checks, cleanup, enemy_turn, preparation, setup
from simlib.games.terraria.state import CFG, CH, CNT, OUT, G

__all__ = ["record_nb", "play_one_nb", "play_on_nb", "play_block_nb"]


@njit
def record_nb(st, tab, index, rec):
    """Write the record of the finished game in ``st`` into ``rec`` (TR-428, TR-429)."""
    g = st.g
    over = g[G.OVER]
    rec["game_index"] = index
    rec["win"] = over == OUT.WON_OBJECTIVES or over == OUT.WON_WALL_OF_FLESH
    rec["outcome"] = over - 1  # OUT codes start at 1 (0 is a game still playing)
    rec["rounds"] = g[G.ROUND]
    rec["chains"] = g[G.CHAINS]
    rec["objectives"] = g[G.OBJ] + g[G.OBJ + 1] + g[G.OBJ + 2] + g[G.OBJ + 3]
    rec["objectives_dig"] = g[G.OBJ]
    rec["objectives_fight"] = g[G.OBJ + 1]
    rec["objectives_explore"] = g[G.OBJ + 2]
    rec["objectives_build"] = g[G.OBJ + 3]
    rec["day"] = g[G.DAY]
    deaths = 0
    fall_deaths = 0
    mob_deaths = 0
    falls = 0
    fall_dmg = 0
    duels = 0
    wounds = 0
    mobbed = 0
    mob_dmg = 0
    kills = 0
    gifts = 0
    coins_traded = 0
    res_traded = 0
    bottled = 0
    eaten = 0
    for p in range(g[G.PLAYERS]):
        ch = st.chars[p]
        deaths += ch[CH.DEATHS]
        fall_deaths += ch[CH.FALL_DEATHS]
        mob_deaths += ch[CH.MOB_DEATHS]
        falls += ch[CH.FALLS]
        fall_dmg += ch[CH.FALL_DMG]
        duels += ch[CH.DUELS]
        wounds += ch[CH.WOUNDS_TAKEN]
        mobbed += ch[CH.MOBBED]
        mob_dmg += ch[CH.MOB_DMG]
        kills += ch[CH.KILLS]
        gifts += ch[CH.GIFTS]
        coins_traded += ch[CH.COINS_TRADED]
        res_traded += ch[CH.RES_TRADED]
        bottled += ch[CH.BOTTLED]
        eaten += ch[CH.EATEN]
    rec["deaths"] = deaths
    rec["fall_deaths"] = fall_deaths
    rec["mob_deaths"] = mob_deaths
    rec["falls"] = falls
    rec["fall_damage"] = fall_dmg
    rec["duels"] = duels
    rec["wounds_taken"] = wounds
    rec["mobbed"] = mobbed
    rec["mob_damage"] = mob_dmg
    rec["kills"] = kills
    rec["bosses"] = st.cnt[CNT.BOSSES]
    rec["deepest_layer"] = st.cnt[CNT.LAYER]
    rec["tiles"] = st.cnt[CNT.TILES]
    rec["houses"] = st.cnt[CNT.HOUSES]
    rec["npcs"] = st.cnt[CNT.NPCS]
    rec["crafted"] = st.cnt[CNT.CRAFTED] + st.cnt[CNT.ARMORS]
    rec["blocks_dug"] = st.cnt[CNT.BLOCKS_DUG]
    rec["chests"] = st.cnt[CNT.CHESTS]
    rec["gifts"] = gifts  # equipment cards and armor sets given (TR-209, TR-219)
    rec["coins_traded"] = coins_traded  # TR-197
    rec["resources_traded"] = res_traded  # units (TR-197)
    rec["bottle_potions"] = bottled  # potions taken from the placed bottle (TR-253)
    rec["food_eaten"] = eaten  # food buff tokens eaten (TR-255)


@njit(inline="always")  # one level less to link and emit again (a shorter cold compile)
def play_one_nb(st, tab, cfg, bot_id, bp, seed, index, rec):
    """Play game ``index`` to its end and write its record (see the module docstring)."""
    setup.setup_nb(st, tab, cfg, seed, index)
    play_on_nb(st, tab, cfg, bot_id, bp, -1, 0, 0)
    record_nb(st, tab, index, rec)


@njit
def play_on_nb(st, tab, cfg, bot_id, bp, seat, stop_round, stop_seat):
    """Play the game in ``st`` on from a turn boundary, every seat by the bot ``bp``.

    ``seat`` -1 starts the next round (a set-up game: round 1); ``seat`` s >= 0 resumes the
    current round just before seat s's turn (s = the player count: only the enemy turn and
    the cleanup are left). Play stops just before seat ``stop_seat``'s turn of round
    ``stop_round`` (after that round's preparation and gifts for seat 0) and returns True;
    ``stop_round`` 0 plays to the end and returns False. Everything the state holds, its
    generator ``st.rng`` included, is all a continuation reads, so a copy of the state made
    at a boundary (``setup.copy_state_nb``) plays on to exactly the same end.
    """
    g = st.g
    check = cfg[CFG.CHECK] != 0
    while g[G.OVER] == 0:
        if seat < 0:
            g[G.ROUND] += 1
            if g[G.ROUND] > cfg[CFG.MAX_ROUNDS]:
                g[G.OVER] = OUT.OUT_OF_TIME
                break
            g[G.DRAWN] = 0  # nobody has drawn yet: the gift window is open (TR-209, TR-219)
            if g[G.ROUND] > 1:
                preparation.preparation_nb(st, tab, bot_id, bp)
                if g[G.OVER] != 0:
                    break
            bots.gift_phase_nb(st, tab, bp)
            seat = 0
        for p in range(seat, g[G.PLAYERS]):
            if g[G.ROUND] == stop_round and p == stop_seat:
                return True
            bots.player_turn_nb(st, tab, p, bot_id, bp)
            if check:
                checks.check_invariants_nb(st, tab)
            if g[G.OVER] != 0:
                break
        if g[G.OVER] != 0:
            break
        enemy_turn.enemy_turn_nb(st, tab)
        if g[G.OVER] != 0:
            break
        cleanup.cleanup_nb(st, tab)
        if check:
            checks.check_invariants_nb(st, tab)
        seat = -1
    return False


@njit
def play_block_nb(tab, cfg, bot_id, bp, seed, start, out):
    """Play games ``start .. start+len(out)-1`` into ``out``, one after another on one state.

    Each game's stream depends only on (seed, index), so any chunking gives the same rows.
    Blocks run on threads (``core.blocks``).
    """
    st = setup.alloc_state_nb(tab)
    for i in range(out.shape[0]):
        play_one_nb(st, tab, cfg, bot_id, bp, seed, start + i, out[i])
