"""Terraria's ``search`` bot: each turn, the scripted plan whose rollouts end best.

At the start of every character's turn (every seat: the game is co-operative, the search
bot plays them all) the bot chooses which scripted bot's plan that character follows for
this turn: ``builder`` (the default), ``explorer`` or ``fighter`` (their weights,
``bots.BOTS``). For each candidate it plays the game forward from copies of the state
(``setup.copy_state_nb``): the character's turn by the candidate's weights, then every
other turn, enemy turn and round to the end of the game by the default bot ``builder``
(the rollout policy). It follows the candidate with the best mean rollout value (flat
Monte Carlo, ``budget`` rollouts a candidate); ties go to the earlier candidate in
``PLANS`` order, so with no difference seen the bot plays ``builder``. ``budget`` 0 plays
``builder`` itself, game for game.

- Value of a rollout: 1 for a win (objectives or the Wall of Flesh), 0 for a loss, plus
  the tiebreak ``0.01 * objectives completed / 40`` (a loss that got further, a win with
  more of the chains done), so every value lies in ``[0, VMAX]``.
- Common random rollouts: rollout k of every candidate starts from the same copy and the
  same generator state (``keys[k]``), so candidates are compared on the same dice, draws
  and spawns; the difference between two candidates' means is paired.
- Twins: two candidates whose turns leave the very same game (generator included) would
  play the same rollout; it is played once and counted for both (exact, a saving only).
- Racing: once a candidate cannot reach the leader's sum even by scoring ``VMAX`` on every
  rollout left, its remaining rollouts are skipped. That changes no choice (a flat Monte
  Carlo with every rollout played picks the same plan); it only saves time.
- No hidden information: before playing on, each copy (:func:`resample_hidden_nb`)
  reshuffles every player's draw pile below the debuff cards put on its top (TR-342: the
  players saw them go there), every boss's behaviour cards not yet turned, the face-down
  minimap tokens among their spaces, and the tiles of every undiscovered position among
  the tiles its biome and layer stock has left (the tiles seen are taken out). The
  rollouts' dice come from the copy's own generator.
- Randomness: the game's own stream (stream 0, ``st.rng``) is never touched by the
  search; the rollouts' generator states are drawn from side stream 1 of the game
  (``rng.seed_stream_nb(seed, index, 1, side)``), so every other bot's games are the same
  whether this module exists or not, and game ``i`` of the search bot depends only on
  settings, budget, seed and ``i``.
- Outside the turns (the sunrise choices and the gifts of the round) the search bot plays
  as ``builder``.
"""

from __future__ import annotations

import numpy as np

from simlib.core.jit import njit
from simlib.core.rng import next_u64_nb, randint_nb, seed_stream_nb, shuffle_nb
from simlib.games.terraria import bots
from simlib.games.terraria.engine import checks, setup
from simlib.games.terraria.engine.batch import play_on_nb, record_nb
from simlib.games.terraria.engine.world import lay_tile_nb
from simlib.games.terraria.state import (
    CF,
    CFG,
    COLUMN_SLOT,
    LAYERS,
    MAX_BOSSES,
    MINIMAP_SLOTS,
    OUT,
    PILE,
    SHOP,
    TILE_COLS,
    TP,
    G,
)

__all__ = [
    "SEARCH_ID",
    "PLANS",
    "MAX_BUDGET",
    "DEFAULT_BUDGET",
    "VMAX",
    "plan_matrix",
    "resample_hidden_nb",
    "rollout_value_nb",
    "same_game_nb",
    "choose_plan_nb",
    "play_search_one_nb",
    "play_search_block_nb",
]

SEARCH_ID = 3  # the bot id after the scripted bots' 0..2
PLANS = ("builder", "explorer", "fighter")  # the default first: it wins ties
MAX_BUDGET = 1024
DEFAULT_BUDGET = 16
VMAX = 1.01  # the largest rollout value (win + the whole tiebreak)
HELP = (
    "each turn follows the scripted plan (builder, explorer, fighter) whose rollouts "
    "(to the game's end, builder playing on) end best: win first, then objectives"
)
PARAM_HELP = {
    "budget": "rollouts per candidate plan at each turn (0: play builder); win first, "
    "then 0.01 x objectives / 40",
}
PARAM_BOUNDS = {"budget": (0.0, float(MAX_BUDGET))}


def plan_matrix() -> np.ndarray:
    """The candidate plans' weights: float64 (len(PLANS), len(bots.PARAM_NAMES))."""
    return np.array([bots.BOTS[name][1] for name in PLANS], dtype=np.float64)


@njit(refcount=False)
def _nth_face_down_nb(mini, i):
    """The minimap space of the ``i``-th face-down token (spaces in order)."""
    for s in range(MINIMAP_SLOTS):
        if mini[1, s] == 0:
            if i == 0:
                return s
            i -= 1
    return -1


@njit(refcount=False)
def resample_hidden_nb(st, tab):
    """Redeal what the players cannot see in ``st`` (written), from ``st.rng`` (advanced).

    See the module docstring for what is redealt. Undiscovered tiles are pristine (nothing
    enters, digs or builds on a tile not on the table), so a redealt position is laid
    afresh from its template. ``st.drawn`` is the scratch for the stocks' unseen tiles and
    ``st.seen`` (line-of-sight memo) is cleared, as the world changed.
    """
    g = st.g
    for p in range(g[G.PLAYERS]):
        n = st.npile[p, PILE.DRAW]
        while n > 0 and tab.cards[st.deck[p, PILE.DRAW, n - 1], CF.SHOP] == SHOP.DEBUFF:
            n -= 1  # a debuff put on top is seen; one shuffled in and on top stays there too
        shuffle_nb(st.deck[p, PILE.DRAW], n, st.rng)
    for b in range(MAX_BOSSES):  # each boss in play: its cards not yet turned
        if (g[G.IN_PLAY] >> b) & 1:
            at = G.BEHAV + 3 * b + g[G.BEHAV_AT + b]
            shuffle_nb(g[at + 1 : G.BEHAV + 3 * b + 3], G.BEHAV + 3 * b + 2 - at, st.rng)
    # face-down minimap tokens among their spaces (no tile of such a column is discovered)
    mini = st.mini
    nd = 0
    for s in range(MINIMAP_SLOTS):
        if mini[1, s] == 0:
            nd += 1
    for i in range(nd - 1, 0, -1):  # Fisher-Yates over the face-down spaces
        j = randint_nb(i + 1, st.rng)
        si = _nth_face_down_nb(mini, i)
        sj = _nth_face_down_nb(mini, j)
        t = mini[0, si]
        mini[0, si] = mini[0, sj]
        mini[0, sj] = t
    tiles = st.tiles
    for tc in range(TILE_COLS):
        s = COLUMN_SLOT[tc]
        if s >= 0 and mini[1, s] == 0:
            for la in range(LAYERS):
                tiles[TP.BIOME, la, tc] = mini[0, s]
    # each biome x layer stock: its tiles not seen, dealt to its undiscovered positions
    pool = st.drawn
    for b in range(pool.shape[0]):
        for la in range(LAYERS):
            m = tab.stock_n[b, la]
            for k in range(m):
                pool[b, la, k] = tab.stock[b, la, k]
            hidden = 0
            for tc in range(TILE_COLS):
                if tiles[TP.BIOME, la, tc] != b:
                    continue
                if tiles[TP.KNOWN, la, tc] == 0:
                    hidden += 1
                    continue
                t = tiles[TP.TPL, la, tc]
                for k in range(m):  # a seen tile leaves the pool (the 4 printed are in none)
                    if pool[b, la, k] == t:
                        m -= 1
                        pool[b, la, k] = pool[b, la, m]
                        break
            if hidden == 0:
                continue
            for tc in range(TILE_COLS):
                if tiles[TP.BIOME, la, tc] != b or tiles[TP.KNOWN, la, tc] != 0:
                    continue
                j = randint_nb(m, st.rng)
                t = pool[b, la, j]
                m -= 1
                pool[b, la, j] = pool[b, la, m]
                tiles[TP.TPL, la, tc] = t
                lay_tile_nb(tab.tpl, t, la, tc, st.grid)
    st.seen[:, :] = -1


@njit(refcount=False)
def rollout_value_nb(st):
    """The value of the finished game in ``st``: win (1/0) + 0.01 x objectives / 40."""
    g = st.g
    over = g[G.OVER]
    win = 1.0 if over == OUT.WON_OBJECTIVES or over == OUT.WON_WALL_OF_FLESH else 0.0
    obj = g[G.OBJ] + g[G.OBJ + 1] + g[G.OBJ + 2] + g[G.OBJ + 3]
    return win + 0.01 * obj / 40.0


@njit
def _same_nb(x, y):
    """True when arrays ``x`` and ``y`` (same shape, C order) hold the same values."""
    fx = x.ravel()
    fy = y.ravel()
    for i in range(fx.size):
        if fx[i] != fy[i]:
            return False
    return True


@njit
def same_game_nb(a, b):
    """True when states ``a`` and ``b`` hold the same game (read only).

    Every array a continuation reads is compared, the generator included; the scratch of
    the path and enemy searches, the bot's weights and the line-of-sight memo are not (each
    is filled afresh before it is read, or only remembers answers the world gives anyway).
    """
    return (
        _same_nb(a.rng, b.rng)
        and _same_nb(a.g, b.g)
        and _same_nb(a.pieces, b.pieces)
        and _same_nb(a.chars, b.chars)
        and _same_nb(a.grid, b.grid)
        and _same_nb(a.tiles, b.tiles)
        and _same_nb(a.mini, b.mini)
        and _same_nb(a.inv, b.inv)
        and _same_nb(a.deck, b.deck)
        and _same_nb(a.npile, b.npile)
        and _same_nb(a.ready, b.ready)
        and _same_nb(a.owned, b.owned)
        and _same_nb(a.held, b.held)
        and _same_nb(a.supply, b.supply)
        and _same_nb(a.cnt, b.cnt)
        and _same_nb(a.tray, b.tray)
        and _same_nb(a.house_at, b.house_at)
        and _same_nb(a.falls, b.falls)
        and _same_nb(a.disc, b.disc)
        and _same_nb(a.tally, b.tally)
    )


@njit
def choose_plan_nb(st, tab, cfg, p, plans, budget, side, keys, sums, twins, sims):
    """The row of ``plans`` seat ``p`` follows this turn (``st`` at the turn's start; read).

    ``plans`` float64 (n, len(PARAM_NAMES)) the candidates' weights, row 0 the default
    (rollout policy, wins ties); ``budget`` rollouts a candidate; ``side`` uint64 (4,) the
    game's side stream (advanced: 4 draws a rollout); ``keys`` uint64 (>= budget, 4),
    ``sums`` float64 (>= n) and ``twins`` int64 (>= n) scratch, written; ``sims`` a tuple of
    n states from ``setup.alloc_state_nb``, written. See the module docstring for the rollouts. Two
    candidates whose turns leave the same game (:func:`same_game_nb`: their generators
    too) would play the same rollout, so it is played once and counted for both.
    """
    n = plans.shape[0]
    if budget <= 0 or n <= 1:
        return 0
    for k in range(budget):
        for j in range(4):
            keys[k, j] = next_u64_nb(side)
    alive = (1 << n) - 1
    for j in range(n):
        sums[j] = 0.0
    default = plans[0]
    check = cfg[CFG.CHECK] != 0
    for k in range(budget):
        base = sims[0]
        setup.copy_state_nb(st, base)
        for i in range(4):
            base.rng[i] = keys[k, i]
        resample_hidden_nb(base, tab)
        for j in range(n - 1, -1, -1):  # sims[0] is the base until the last
            if alive & (1 << j):
                if j > 0:
                    setup.copy_state_nb(base, sims[j])
                bots.player_turn_nb(sims[j], tab, p, j, plans[j])
                if check:
                    checks.check_invariants_nb(sims[j], tab)
        for j in range(n):  # first which turns left the same game (before any plays on)
            twins[j] = -1
            if alive & (1 << j):
                for i in range(j):
                    if alive & (1 << i) and twins[i] < 0 and same_game_nb(sims[i], sims[j]):
                        twins[j] = i
                        break
        for j in range(n):
            if not alive & (1 << j):
                continue
            if twins[j] >= 0:
                continue
            sim = sims[j]
            if sim.g[G.OVER] == 0:
                play_on_nb(sim, tab, cfg, 0, default, p + 1, 0, 0)
            v = rollout_value_nb(sim)
            sums[j] += v
            for i in range(j + 1, n):
                if twins[i] == j:
                    sums[i] += v
        lead = 0.0
        for j in range(n):
            if alive & (1 << j) and sums[j] > lead:
                lead = sums[j]
        left = VMAX * (budget - k - 1)
        for j in range(n):
            if alive & (1 << j) and sums[j] + left < lead:
                alive &= ~(1 << j)
    best = 0
    for j in range(1, n):
        if alive & (1 << j) and sums[j] > sums[best]:
            best = j
    return best


@njit
def play_search_one_nb(st, tab, cfg, plans, budget, seed, index, rec, side, keys, sums, twins,
                       sims):
    """Play game ``index`` with the search bot at ``budget`` and write its record.

    The game loop is ``batch.play_on_nb`` stopped at every turn boundary: the round's
    preparation and gifts and the enemy turn run by ``plans[0]`` (``builder``), each turn
    by the plan :func:`choose_plan_nb` picks. Scratch ``side``, ``keys``, ``sums``,
    ``twins``, ``sims`` as there.
    """
    setup.setup_nb(st, tab, cfg, seed, index)
    seed_stream_nb(seed, index, 1, side)
    g = st.g
    default = plans[0]
    seat = -1
    rnd = 1
    at = 0
    while play_on_nb(st, tab, cfg, 0, default, seat, rnd, at):
        j = choose_plan_nb(st, tab, cfg, at, plans, budget, side, keys, sums, twins, sims)
        bots.player_turn_nb(st, tab, at, j, plans[j])
        if cfg[CFG.CHECK] != 0:
            checks.check_invariants_nb(st, tab)
        if g[G.OVER] != 0:
            break
        seat = at + 1
        at += 1
        if at >= g[G.PLAYERS]:
            at = 0
            rnd += 1
    record_nb(st, tab, index, rec)


@njit
def play_search_block_nb(tab, cfg, plans, budget, seed, start, out):
    """Play games ``start .. start+len(out)-1`` with the search bot into ``out``.

    ``plans`` has one row per candidate (``len(PLANS)``, 3). State, the rollouts' copies
    and the scratch are allocated once per block; each game's rows depend only on
    (seed, index), so any chunking gives the same rows.
    """
    st = setup.alloc_state_nb(tab)
    sims = (setup.alloc_state_nb(tab), setup.alloc_state_nb(tab), setup.alloc_state_nb(tab))
    side = np.zeros(4, np.uint64)
    keys = np.zeros((max(budget, 1), 4), np.uint64)
    sums = np.zeros(len(sims), np.float64)
    twins = np.zeros(len(sims), np.int64)
    for i in range(out.shape[0]):
        play_search_one_nb(st, tab, cfg, plans[: len(sims)], budget, seed, start + i, out[i],
                           side, keys, sums, twins, sims)
