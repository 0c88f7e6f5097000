"""The turn structure, driven action by action by a scripted caver (tests/subterra_script.py).

The designer's bots choose their own actions, so these rules are only observable through a
player that replays a script and notes what it saw when asked for each step.
"""

from subterra_helpers import Cave, compiled, rng_for
from subterra_script import Script, play_game, play_turn

from simlib.games.subterra.state import ACTION, GFC, TFC, TILE

N, E, S, W = 0, 1, 2, 3


def script(*steps):
    return Script(*steps)


def turn(cave, c, plan, rng=None):
    play_turn(cave, c, plan, rng_for(True) if rng is None else rng)


def corridor(n_plain=4):
    cave = Cave()
    tiles = [cave.tile(x, 0) for x in range(n_plain)]
    cave.caver(0, tiles[0])
    return cave, tiles


def test_round_order_from_the_starting_caver_clockwise_and_each_step_sees_the_last():
    # ST-071: the holder of the starting-caver marker (seat 2 here) acts first, then
    # clockwise; ST-074: each action is chosen after the previous one's outcome (every
    # step sees the tiles the earlier reveals laid)
    params = compiled("normal", start_seat=2)
    plan = script((2, ACTION.REVEAL, N, 0), (3, ACTION.REVEAL, E, 0),
                  (0, ACTION.REVEAL, S, 0), (1, ACTION.REVEAL, W, 0))
    play_game(params, plan, 0, 0)
    assert plan.pos == 4
    assert [s.round for s in plan.seen] == [1, 1, 1, 1]
    assert [s.tiles for s in plan.seen] == [1, 2, 3, 4]


def test_two_action_points_a_turn():
    # ST-072: 2 points; a third 1-point action without exerting is refused
    cave, tiles = corridor()
    plan = script(*[(0, ACTION.MOVE, E, 0)] * 3)
    turn(cave, 0, plan)
    assert cave.at(0) == tiles[2]
    assert plan.ap_seen == [2, 1, 0]
    assert cave.gs[GFC.EXERTIONS] == 0


def test_unspent_points_are_lost():
    # ST-077: a caver ending its turn with a point unspent starts the next with 2, not 3
    cave, tiles = corridor(5)
    plan = script((0, ACTION.MOVE, E, 0), (0, ACTION.END, 0, 0),
                  *[(0, ACTION.MOVE, E, 0)] * 3)
    turn(cave, 0, plan)
    assert cave.at(0) == tiles[1]
    turn(cave, 0, plan)
    assert plan.ap_seen == [2, 1, 2, 1, 0]
    assert cave.at(0) == tiles[3]


def _flooded_corridor():
    cave = Cave()
    a = cave.tile(0, 0)
    b = cave.tile(1, 0)
    w = cave.tile(2, 0, TILE.WATER)
    cave.tl[w, TFC.FLOOD] = 1
    cave.gs[GFC.N_FLOODED] = 1
    cave.caver(0, a)
    return cave, b, w


def test_exert_point_combines_with_a_normal_point():
    # ST-079: one normal point left plus the exert point pay for a 2-point Swim
    cave, b, w = _flooded_corridor()
    turn(cave, 0, script((0, ACTION.MOVE, E, 0), (0, ACTION.SWIM, E, 1)))
    assert cave.at(0) == w
    assert cave.gs[GFC.EXERTIONS] == 1
    # without exerting, the single point left cannot pay for it
    cave, b, w = _flooded_corridor()
    turn(cave, 0, script((0, ACTION.MOVE, E, 0), (0, ACTION.SWIM, E, 0)))
    assert cave.at(0) == b
    assert cave.gs[GFC.EXERTIONS] == 0


def test_failed_exert_check_costs_one_health():
    # ST-080 ST-081: an exerted caver rolls at the end of the turn; a failure costs exactly
    # 1 health, a success nothing
    for ok, hp in ((False, 2), (True, 3)):
        cave, tiles = corridor()
        turn(cave, 0, script(*[(0, ACTION.MOVE, E, 1)] * 3), rng_for(ok))
        assert cave.at(0) == tiles[3] and cave.gs[GFC.EXERTIONS] == 1
        assert cave.hp(0) == hp and cave.gs[GFC.DMG_EXERT] == 3 - hp


def test_exert_once_a_turn():
    # ST-078: one exert a turn, so at most 3 points; a fourth Move is refused even when
    # the caver asks to exert again
    cave, tiles = corridor(6)
    turn(cave, 0, script(*[(0, ACTION.MOVE, E, 1)] * 5), rng_for(True))
    assert cave.at(0) == tiles[3]
    assert cave.gs[GFC.EXERTIONS] == 1 and cave.gs[GFC.ACTIONS + ACTION.MOVE] == 3


def test_each_action_costs_its_points():
    # ST-073 ST-095: a Run (2 points) spends the whole turn; a Move after it needs the exert
    cave, tiles = corridor(6)
    run = (E + 1) | ((E + 1) << 3)
    plan = script((0, ACTION.RUN, run, 0), (0, ACTION.MOVE, E, 0))
    turn(cave, 0, plan)
    assert cave.at(0) == tiles[2]
    assert plan.ap_seen == [2, 0]


def test_knocked_out_caver_passes_at_once():
    # ST-067 ST-065: knocked out by gas on the first Move, the caver takes no more actions
    cave = Cave()
    a = cave.tile(0, 0)
    g = cave.tile(1, 0, TILE.GAS)
    cave.tile(2, 0)
    cave.caver(0, a, hp=2)
    cave.caver(1, a)  # a conscious caver left, so the game goes on (ST-053)
    cave.gs[GFC.GAS_ACTIVE] = 2
    turn(cave, 0, script((0, ACTION.MOVE, E, 0), (0, ACTION.MOVE, E, 0)))
    assert cave.at(0) == g and cave.hp(0) == 0
    assert cave.gs[GFC.ACTIONS + ACTION.MOVE] == 1
