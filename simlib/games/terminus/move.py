"""The Drakka advance-and-draw step: the hot movement kernels of Terminus Breach TD.

Every function takes the state arrays it changes first (``dk``, ``occ``, ``pl``, ``gs``,
``deck``), then plain values; none draws random numbers (the Draw roll comes in as a
value), so a plain-Python reference can be fed the same inputs and compared exactly
(tests/test_terminus_move.py).

Rules (ids from ``shared/rules/terminus-checklist.md``): front-most first (TB-066); a
Drakka moves up to its effective Speed (TB-067) and stops in the furthest square within it
holding no Drakka of its own kind and no boss (TB-068..072, leap-frogging allowed); if
none is open it stays (TB-073) or, entering in the Draw phase, is trampled (TB-087); a
Drakka whose Speed is greater than the squares ahead leaves and raises the panic by its
Threat (TB-074). Poison hits at the start of the move and can kill (TB-076, TB-183); Slow
lowers the Speed to at least 1 and is then downgraded (TB-186, TB-187); Apathy sets the
Speed to 1 (TB-153, TB-154). A boss needs a square with no Drakka at all (TB-160, TB-161)
and waits off the path rather than being trampled (TB-089).
"""

from __future__ import annotations

from simlib.core.jit import njit
from simlib.games.terminus.state import DKC, GSC, I64, KLOG_MAX, PLC, WHERE

MOVED = 0
LEAKED = 1
TRAMPLED = 2
WAITING = 3
STAYED = 4
DIED = 5


@njit(refcount=False)  # borrows its arrays (see state.py)
def is_dead_nb(dmg, tough, tough_rule):
    """True when ``dmg`` kills a Drakka of Toughness ``tough`` (TB-029/030).

    ``tough_rule`` 0: damage >= Toughness kills (hit points); 1: damage > Toughness.
    """
    if tough_rule == 0:
        return dmg >= tough
    return dmg > tough


@njit(refcount=False)  # borrows its arrays (see state.py)
def square_open_nb(occ, q, fly, boss):
    """True when a Drakka of this kind may stop on square ``q`` (TB-068..070, TB-160/161)."""
    if boss != 0:
        return occ[0, q] < 0 and occ[1, q] < 0
    return occ[fly, q] < 0


@njit(refcount=False)  # borrows its arrays (see state.py)
def lift_nb(dk, occ, d):
    """Take Drakka ``d`` off its square (writes ``occ``, ``dk[d, POS]``)."""
    q = dk[d, DKC.POS]
    if q >= 0:
        if dk[d, DKC.BOSS] != 0:
            occ[0, q] = -1
            occ[1, q] = -1
        else:
            occ[dk[d, DKC.FLY], q] = -1
    dk[d, DKC.POS] = -1


@njit(refcount=False)  # borrows its arrays (see state.py)
def put_nb(dk, occ, d, q):
    """Stand Drakka ``d`` on square ``q`` (writes ``occ``, ``dk``)."""
    if dk[d, DKC.BOSS] != 0:
        occ[0, q] = d
        occ[1, q] = d
    else:
        occ[dk[d, DKC.FLY], q] = d
    dk[d, DKC.POS] = q
    dk[d, DKC.WHERE] = WHERE.PATH


@njit(refcount=False)  # borrows its arrays (see state.py)
def kill_nb(dk, occ, pl, gs, d, seat, faceup):
    """Drakka ``d`` dies; its card goes to ``seat``'s Dead Drakka area (TB-097).

    ``faceup`` 1 means its Bounty is collected in the Resolve phase (0: a Spy execution,
    TB-126/128). ``seat`` -1: nobody takes it (it is boxed at the Lull). Writes ``dk``,
    ``occ``, ``pl`` (kills) and ``gs`` (tallies).
    """
    lift_nb(dk, occ, d)
    dk[d, DKC.WHERE] = WHERE.DEAD
    dk[d, DKC.KILLER] = seat
    dk[d, DKC.FACEUP] = faceup if seat >= 0 else 0
    dk[d, DKC.POISON] = 0
    dk[d, DKC.SLOW] = 0
    dk[d, DKC.APATHY] = 0
    gs[GSC.KILLS] += 1
    if dk[d, DKC.BOSS] != 0:
        gs[GSC.BOSS_KILLS] += 1
    if seat >= 0 and faceup != 0:
        k = gs[GSC.KLOG_N]
        if k < KLOG_MAX:
            gs[GSC.KLOG + k] = d
        gs[GSC.KLOG_N] = k + 1
    if seat >= 0:
        pl[seat, PLC.KILLED_WAVE] += 1
        pl[seat, PLC.KILLS] += 1
        pl[seat, PLC.BATTLE_KILLS] += 1
        if dk[d, DKC.BOSS] != 0:
            pl[seat, PLC.BOSS_KILLS] += 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def leak_nb(dk, occ, gs, d):
    """Drakka ``d`` gets through: off the path, panic up by its Threat (TB-074, TB-033)."""
    lift_nb(dk, occ, d)
    dk[d, DKC.WHERE] = WHERE.LEAKED
    gs[GSC.PANIC] += dk[d, DKC.THREAT]
    gs[GSC.LEAKS] += 1
    b = gs[GSC.BATTLE]
    if 1 <= b <= 5:
        gs[GSC.LEAKS_B + b - 1] += 1
    if gs[GSC.FIRST_LEAK_WAVE] < 0:
        gs[GSC.FIRST_LEAK_WAVE] = gs[GSC.WAVE_INDEX] + 1


@njit(refcount=False)  # borrows its arrays (see state.py)
def move_nb(dk, occ, gs, d, speed, path_len):
    """Move Drakka ``d`` up to ``speed`` squares from its square (``-1``: entering).

    Returns MOVED (stopped on the furthest open square), STAYED (nothing open ahead on
    the path: it keeps its square), LEAKED (``speed`` > squares ahead), or, for a Drakka
    entering, TRAMPLED (not a boss; it is put on the trample pile) or WAITING (a boss).
    Writes ``dk``, ``occ`` and ``gs`` (panic, leaks, trampled, move count).
    """
    gs[GSC.ADV_STEPS] += 1
    p = dk[d, DKC.POS]
    if speed > path_len - 1 - p:
        leak_nb(dk, occ, gs, d)
        return LEAKED
    fly = dk[d, DKC.FLY]
    boss = dk[d, DKC.BOSS]
    q = p + speed
    while q > p:
        if square_open_nb(occ, q, fly, boss):
            break
        q -= 1
    if q == p:
        if p >= 0:
            return STAYED  # TB-073
        if boss != 0:
            dk[d, DKC.WHERE] = WHERE.WAITING  # TB-089
            return WAITING
        dk[d, DKC.WHERE] = WHERE.TRAMPLED  # TB-087
        gs[GSC.TRAMPLED] += 1
        b = gs[GSC.BATTLE]
        if 1 <= b <= 5:
            gs[GSC.TRAMPLED_B + b - 1] += 1
        return TRAMPLED
    lift_nb(dk, occ, d)
    put_nb(dk, occ, d, q)
    return MOVED


@njit(refcount=False)  # borrows its arrays (see state.py)
def advance_one_nb(dk, occ, pl, gs, d, path_len, slow_down, tough_rule, poison_credit):
    """One Drakka's Advance-phase move: poison, then Speed after Slow/Apathy, then move.

    Poison deals its token's value once, at the start of the move (TB-076, TB-183/184); a
    Drakka it kills goes to the poisoner (``poison_credit`` 1, TB-077) or to nobody.
    The effective Speed is the card Speed plus any boss haste, lowered by the Slow token to
    at least 1 (TB-186), or 1 under Apathy (TB-153/154); the Slow token is then downgraded
    by ``slow_down`` (TB-187), Apathy and haste end. Returns a ``move_nb`` code or DIED.
    """
    pois = dk[d, DKC.POISON]
    if pois > 0:
        dk[d, DKC.DMG] += pois
        if is_dead_nb(dk[d, DKC.DMG], dk[d, DKC.TOUGH], tough_rule):
            seat = dk[d, DKC.POISON_SRC] if poison_credit != 0 else -1
            kill_nb(dk, occ, pl, gs, d, seat, I64(1))
            gs[GSC.POISON_KILLS] += 1
            return DIED
    speed = dk[d, DKC.SPEED] + dk[d, DKC.HASTE]
    slow = dk[d, DKC.SLOW]
    if slow > 0:
        speed -= slow
        if speed < 1:
            speed = 1
        dk[d, DKC.SLOW] = slow_down[slow]
    if dk[d, DKC.APATHY] != 0:
        speed = 1
        dk[d, DKC.APATHY] = 0
    dk[d, DKC.HASTE] = 0
    return move_nb(dk, occ, gs, d, speed, path_len)


@njit(refcount=False)  # borrows its arrays (see state.py)
def advance_all_nb(dk, occ, pl, gs, path_len, slow_down, tough_rule, poison_credit,
                   panic_limit):
    """The Advance phase's moves: every Drakka on the path, front-most first (TB-066).

    Squares are visited from the breach back to the entrance; a Drakka only ever moves
    forward, onto squares already visited, so each moves once. Ground before flying on a
    square (they never block each other). Stops as soon as the panic reaches
    ``panic_limit`` (TB-213: the game ends at once). Writes ``dk``, ``occ``, ``pl``, ``gs``.
    """
    for q in range(path_len - 1, -1, -1):
        for row in range(2):
            d = occ[row, q]
            if d < 0 or dk[d, DKC.POS] != q:
                continue
            if row == 1 and dk[d, DKC.BOSS] != 0:
                continue  # a boss is in both rows: move it once
            advance_one_nb(dk, occ, pl, gs, d, path_len, slow_down, tough_rule, poison_credit)
            if gs[GSC.PANIC] >= panic_limit:
                return


@njit(refcount=False)  # borrows its arrays (see state.py)
def enter_nb(dk, occ, gs, d, path_len):
    """A drawn Drakka (or boss) enters at the start of the path and moves its Speed."""
    dk[d, DKC.POS] = -1
    return move_nb(dk, occ, gs, d, dk[d, DKC.SPEED], path_len)


@njit(refcount=False)  # borrows its arrays (see state.py)
def draw_moves_nb(dk, occ, gs, deck, n_draw, boss, path_len, panic_limit):
    """The Draw phase's moves: ``boss`` first (row, or -1), then ``n_draw`` cards one by one.

    Cards come from ``deck`` at ``gs[DRAW_PTR]`` up to ``gs[DECK_N]`` (a short deck draws
    what is left, TB-088). Each enters and moves before the next is drawn (TB-086). A boss
    that finds no empty square waits (``gs[BOSS_WAIT]``) and tries again next Draw phase.
    Returns the number of cards drawn. Writes ``dk``, ``occ``, ``gs``.
    """
    if boss >= 0:
        r = enter_nb(dk, occ, gs, boss, path_len)
        gs[GSC.BOSS_WAIT] = boss if r == WAITING else -1
        if gs[GSC.PANIC] >= panic_limit:
            return 0
    drawn = 0
    for _ in range(n_draw):
        ptr = gs[GSC.DRAW_PTR]
        if ptr >= gs[GSC.DECK_N]:
            break
        d = deck[ptr]
        gs[GSC.DRAW_PTR] = ptr + 1
        drawn += 1
        enter_nb(dk, occ, gs, d, path_len)
        if gs[GSC.PANIC] >= panic_limit:
            break
    return drawn
