"""Exact planning by branch and bound, after MiniMalloc (Moffitt, ASPLOS 2023).

The search builds a plan bottom up and never considers arbitrary offsets: a node only
chooses *which* buffer comes next, and that buffer sits on its floor ``F(b)``, the
highest end of the already placed buffers it conflicts with. Any optimal plan can be
compacted so that, taken in order of offset, each buffer rests on earlier ones.

- Lowest floor first. Only buffers whose floor is the lowest among the remaining
  buffers are candidates: that point is covered now or never. (With alignment > 1
  covering it can waste bytes, so aligned problems let any buffer resting at or above
  the last offset come next, and skip candidate ``b`` at ``o`` when another remaining
  buffer fits entirely below ``o``: a plan with that one moved down is searched too.)
- Hatless buffers. A buffer whose conflicting buffers are all placed can never have
  anything on top of it; it is placed at once on its floor, no branching spent.
- Section inference. Cliques of conflicting buffers (the live sets of time sections,
  for intervals) must stack: the lowest floor among a clique's remaining buffers plus
  their total size must fit under the capacity, or the node is cut.
- Two-way branching. A node places one candidate at the lowest floor or bans it
  (and buffers identical to it) there and looks again: the banned plans are the
  failed one with the candidate moved to the front. A buffer banned at its floor sits
  at least a unit (the gcd of the sizes) higher, and the section inference sees that,
  so a section with no slack fails once every candidate for its lowest point has.
- Forward check. A buffer banned at its own floor can only move once a neighbour is
  placed exactly there; if no neighbour can be, the node is cut at once.
- Failures that say why (interval problems). A cut returns the buffers it looked at
  and the heights their floors must reach for the same cut (see :class:`Failure`). A node whose
  placement supplied none of those heights fails for the same reason, so the search
  jumps back over it; otherwise the failure is the ban's reason, and it is remembered
  per buffer: where it holds again, at that offset or higher, the placement is banned
  unsearched.
- Learnt states. A node's future depends only on which buffers remain and their
  floors, so failed states are remembered (by hash) and cut on sight, across restarts.
- Dynamic decomposition. Remaining buffers that no lifetime connects form independent
  parts, searched one by one; solved parts are remembered with their offsets.
- Flush first (intervals). Candidates whose start meets a placed buffer reaching
  above the floor come first, then those whose end does, then those whose top is
  level with a wall's: without waste a valley's bottom-left corner is covered by a
  buffer starting at its wall.
- Candidate order and restarts. Further ties follow a static preorder (MiniMalloc's
  "WAT", "TAW", "TWA": lifetime width, area, bytes of the busiest moment). Runs cycle through
  them and then through randomly perturbed copies, under node budgets following
  Luby's sequence, so one bad early choice does not use up the time; two such
  sequences are interleaved, one trying the tightest section's candidates first.

Everything per node is a handful of numpy operations over the remaining buffers and
the clique membership arrays (a few thousand entries on the challenging instances).
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass

from memplan.lazy_numpy import np

from .greedy import PREORDERS, preorder_ranks
from .problem import Clock, Problem, Progress, align_up, no_progress

_UNBANNED = -1
#: Bound on each memo (failed states: one hash, about 100 bytes, each).
_MAX_REMEMBERED_STATES = 3_000_000
#: Above this many conflicting pairs exact returns the best known plan unsearched.
MAX_SEARCH_CONFLICTS = 2_000_000
#: Restarts: run k of a lane may visit this many nodes times luby(k) (see _luby).
_RUN_UNIT = 400
#: Failures remembered per buffer (from placing it), the most recent kept.
_FAILURES_PER_PLACEMENT = 8
_HIDDEN = (2**63 - 1) // 4  # (int64's maximum // 4) offset given to buffers outside the current part


class _OutOfTime(Exception):
    pass


class _OutOfNodes(Exception):
    pass


@dataclass(frozen=True)
class Failure:
    """Buffers that cannot all be placed once each one's floor is at least its
    ``required`` height: a smaller problem of its own, infeasible. Raising floors or
    adding buffers keeps it infeasible, so it stays true deeper in the tree, and a
    node whose child failed for a reason the child's placement did not supply fails
    for the same reason (the search jumps back over it)."""

    members: np.ndarray
    required: np.ndarray

    @staticmethod
    def union(pieces: list["Failure"]) -> "Failure":
        """All the pieces at once: each member at the highest height any piece needs."""
        members = np.concatenate([piece.members for piece in pieces])
        required = np.concatenate([piece.required for piece in pieces])
        order = np.lexsort((required, members))
        members, required = members[order], required[order]
        last = np.append(members[1:] != members[:-1], True)
        return Failure(members[last], required[last])


@dataclass
class SearchResult:
    """What one decision search found out about a capacity."""

    offsets: np.ndarray | None  # a plan within the capacity, if found
    proven_infeasible: bool
    nodes: int


class _Search:
    """Decision search: is there a plan with every buffer ending at or below ``capacity``?"""

    def __init__(self, problem: Problem, rank: np.ndarray, clock: Clock = time.monotonic):
        self.problem = problem
        self.clock = clock
        self.sizes = problem.sizes
        self.alignments = problem.alignments
        # Floors are sums of sizes: when every size is a multiple of every alignment,
        # every floor is aligned already and the unaligned search (stronger) is exact.
        common = int(np.lcm.reduce(np.unique(self.alignments))) if len(problem) else 1
        self.aligned = common > 1 and bool((self.sizes % common).any())
        # Failures that name their buffers (and jumping back, remembered placements).
        # The forward check's and the no-candidate cut's failures are true only if
        # lowest-floor-first is complete for the buffers they name alone: the
        # canonical argument on intervals (and checked by brute force), false on some
        # conflict graphs (docs/design/planner.md). There, as with alignment, a
        # failure is the whole state.
        self.explains = problem.has_intervals and not self.aligned
        self.neighbours = problem.neighbours
        self.rank = rank
        # Only the order of the candidates (see _choose): each order wins on some
        # instances, so restarts use both.
        self.tightest_section_first = True
        # Offsets in a compacted plan are sums of sizes, so a buffer that may not sit
        # at its floor sits at least this much higher (without alignment).
        self.unit = int(np.gcd.reduce(problem.sizes[problem.sizes > 0])) if (problem.sizes > 0).any() else 1
        self.capacity = -1
        self.failed_states: dict[int, Failure] = {}
        # Why placing a buffer failed: buffer -> (offset, failure without the heights
        # the placement supplied), the most recent few.
        self.placement_failures: dict[int, list[tuple[int, Failure]]] = {}
        self.solved_parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # Without alignment the search never looks at the last offset, so parts of the
        # problem that no lifetime connects are independent (see _solve_parts).
        self.decompose = problem.has_intervals and not self.aligned
        if problem.has_intervals:
            self.lowers = problem.lowers
            self.uppers = problem.uppers
            _, self.first_slot, self.last_slot = problem.time_slots
            self.slot_count = len(problem.time_slots[0])
        # Interchangeable buffers (same lifetime, size and alignment) share a kind: once
        # one fails at a floor, trying another there would repeat the same subtree.
        if problem.has_intervals:
            keys = np.stack([problem.lowers, problem.uppers, problem.sizes, problem.alignments])
            _, self.kind = np.unique(keys, axis=1, return_inverse=True)
            self.kind = self.kind.reshape(-1).astype(np.int64)
        else:
            self.kind = np.arange(len(problem), dtype=np.int64)
        n = len(problem)
        cliques = [c for c in problem.cliques if c.size >= 2]
        if cliques:
            self.clique_members = np.concatenate(cliques)
            self.clique_starts = np.cumsum([0] + [c.size for c in cliques[:-1]]).astype(np.int64)
        else:
            self.clique_members = np.zeros(0, dtype=np.int64)
            self.clique_starts = np.zeros(0, dtype=np.int64)
        memberships: list[list[int]] = [[] for _ in range(n)]
        for k, clique in enumerate(cliques):
            for member in clique.tolist():
                memberships[member].append(k)
        self.cliques_of = [np.array(m, dtype=np.int64) for m in memberships]
        # On interval problems every conflicting pair shares a clique (a moment both
        # are live), so the lowest floor among a buffer's neighbours is the lowest
        # among its cliques (see _stuck_failure).
        self.covering_cliques = problem.has_intervals
        self.clique_total0 = np.array([int(self.sizes[c].sum()) for c in cliques], dtype=np.int64)
        self.clique_count0 = np.array([c.size for c in cliques], dtype=np.int64)

    def run(self, capacity: int, node_budget: int, deadline: float) -> SearchResult:
        n = len(self.problem)
        if capacity != self.capacity:
            # Failures stay failures at the same capacity and below (the restarts over
            # preorders share them); a larger capacity starts afresh.
            if capacity > self.capacity:
                self.failed_states.clear()
                self.placement_failures.clear()
            self.solved_parts.clear()
        self.capacity = capacity
        self.deadline = deadline
        self.node_budget = node_budget
        self.nodes = 0
        self.offsets = np.zeros(n, dtype=np.int64)
        self.floor = np.zeros(n, dtype=np.int64)
        self.remaining = self.sizes > 0
        self.remaining_degree = np.array(
            [int(self.remaining[a].sum()) if self.remaining[i] else 0 for i, a in enumerate(self.neighbours)],
            dtype=np.int64,
        )
        self.clique_total = self.clique_total0.copy()
        self.clique_count = self.clique_count0.copy()
        for index in np.flatnonzero(~self.remaining).tolist():  # empty buffers: offset 0, no bytes
            self._leave_cliques(index)
        if self.problem.has_intervals:
            # The highest end among placed buffers by the slot they end at / start at:
            # a wall to the left / right of a buffer starting / ending there.
            self.wall_left = np.zeros(self.slot_count + 1, dtype=np.int64)
            self.wall_right = np.zeros(self.slot_count + 1, dtype=np.int64)
        self.banned_at = np.full(n, _UNBANNED, dtype=np.int64)  # by kind
        self.ban_reason: dict[int, Failure] = {}  # by kind: why the ban holds
        self.masked_offsets = np.full(n, _HIDDEN, dtype=np.int64)
        self.position = np.full(n, -1, dtype=np.int64)  # scratch: index within `remaining`
        self.candidate_mask = np.zeros(n, dtype=bool)  # scratch: candidates by buffer
        self.needed_height = np.full(n, -1, dtype=np.int64)  # scratch: heights a failure needs
        for index in np.flatnonzero(self.remaining & (self.remaining_degree == 0)).tolist():
            if self.sizes[index] > capacity:
                return SearchResult(None, True, 0)
            self.remaining[index] = False
            self._leave_cliques(index)
        # Unlike `remaining`, which hides the parts of a decomposed node not being
        # searched, `unplaced` is every buffer without an offset yet.
        self.unplaced = self.remaining.copy()
        try:
            failure = self._search(0)
        except (_OutOfTime, _OutOfNodes):
            return SearchResult(None, False, self.nodes)
        found = failure is None
        return SearchResult(self.offsets.copy() if found else None, not found, self.nodes)

    def _leave_cliques(self, index: int) -> None:
        mine = self.cliques_of[index]
        self.clique_total[mine] -= self.sizes[index]
        self.clique_count[mine] -= 1

    def _join_cliques(self, index: int) -> None:
        mine = self.cliques_of[index]
        self.clique_total[mine] += self.sizes[index]
        self.clique_count[mine] += 1

    def _count_node(self) -> None:
        # The clock at every node (a few hundred ns against the node's ~50-100 us,
        # far more on a loaded machine): a time limit is then overrun by one node.
        self.nodes += 1
        if self.clock() > self.deadline:
            raise _OutOfTime
        if self.nodes > self.node_budget:
            raise _OutOfNodes

    # A search that fails returns a Failure. Each rule that cuts a node says which
    # buffers it looked at and how low their floors could be for the same cut (as low
    # as possible: the lower, the further back the search can jump). Offsets of a
    # compacted plan are multiples of the unit, so the heights are rounded up to it.
    # The whole unplaced set at its floors is always a correct (if useless) failure.

    def _search(self, last_offset: int) -> Failure | None:
        """Place every remaining buffer; None on success, else a failure."""
        self._count_node()
        remaining = np.flatnonzero(self.remaining)
        if remaining.size == 0:
            return None
        # The future of a node depends only on which buffers remain and their floors
        # (and the last offset, which only matters with alignment): a failure found
        # from this state holds again, however the state was reached.
        floors = self.floor[remaining]
        state = self._state(remaining, last_offset)
        known = self.failed_states.get(state)
        if known is not None:
            return known
        failure = self._expand(remaining, floors, last_offset)
        if (
            failure is not None
            and len(self.failed_states) < _MAX_REMEMBERED_STATES
            and self.remaining[failure.members].all()  # true of this state, not of hidden parts
        ):
            self.failed_states[state] = failure
        return failure

    def _whole_failure(self) -> Failure:
        members = np.flatnonzero(self.unplaced)
        return Failure(members, self.floor[members])

    def _round_up(self, height: int) -> int:
        return -(-height // self.unit) * self.unit

    def _failure(self, members: np.ndarray, required: np.ndarray, *, exact_reasons: bool = False) -> Failure:
        """A failure of ``members`` at ``required`` heights. A height above a member's
        floor is one it reaches only through its ban (it may not sit at its floor):
        the member is then required at its floor and brings the failure that justified
        the ban, since the ban is only true of a problem that includes those buffers.
        With ``exact_reasons`` those buffers are taken at their current floors (a rule
        whose argument needs every buffer at the lowest floor in sight)."""
        if not self.explains:
            return self._whole_failure()
        floors = self.floor[members]
        through_ban = required > floors
        if not through_ban.any():
            return Failure(members, required)
        banned = members[through_ban]
        pieces = [Failure(members, np.minimum(required, floors))]
        for kind in np.unique(self.kind[banned]).tolist():
            reason = self.ban_reason.get(kind)
            if reason is None or not self.unplaced[reason.members].all():
                return self._whole_failure()
            if exact_reasons:
                reason = Failure(reason.members, self.floor[reason.members])
            pieces.append(reason)
        return Failure.union(pieces)

    def _expand(self, remaining: np.ndarray, floors: np.ndarray, last_offset: int) -> Failure | None:
        if self.aligned:
            return self._expand_aligned(remaining, floors, last_offset)
        return self._expand_lowest_floor(remaining, floors)

    def _section_need(self, remaining: np.ndarray, floors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Section inference: each clique's remaining bytes stack above its lowest
        floor. Returns each clique's lowest floor and the height its bytes reach (0 for
        cliques with fewer than two remaining buffers: the per-buffer check covers them)."""
        masked = self.masked_offsets
        masked[remaining] = floors
        lowest = np.minimum.reduceat(masked[self.clique_members], self.clique_starts)
        masked[remaining] = _HIDDEN
        need = np.where((self.clique_count >= 2) & (lowest < _HIDDEN), lowest + self.clique_total, 0)
        return lowest, need

    def _clique(self, k: int) -> np.ndarray:
        start = int(self.clique_starts[k])
        return self.clique_members[start : start + int(self.clique_count0[k])]

    def _clique_remaining(self, k: int) -> np.ndarray:
        members = self._clique(k)
        return members[self.remaining[members]]

    def _expand_lowest_floor(self, remaining: np.ndarray, floors: np.ndarray) -> Failure | None:
        """Two-way branching at the lowest floor: place one candidate there, or ban it
        there and look at the node again. A buffer banned at its floor sits at least a
        unit (the gcd of the sizes) higher, so the inference after each ban sees the
        sections it leaves short: a section with no slack fails as soon as every
        candidate that could cover its lowest point has failed there."""
        capacity = self.capacity
        sizes = self.sizes[remaining]
        kinds = self.kind[remaining]
        lowest_floor = int(floors.min())
        at_lowest = floors == lowest_floor
        saved_bans: list[tuple[int, int, Failure | None]] = []
        try:
            first = True
            while True:
                banned = self.banned_at[kinds] == floors
                any_banned = bool(banned.any())
                effective = floors + self.unit * banned if any_banned else floors
                if not first:
                    self._count_node()
                over = np.flatnonzero(effective + sizes > capacity)
                if over.size:
                    k = int(over[0])
                    required = self._round_up(capacity - int(sizes[k]) + 1)
                    return self._failure(remaining[k : k + 1], np.array([required], dtype=np.int64))
                lowest = need = None
                if self.clique_members.size:
                    lowest, need = self._section_need(remaining, effective)
                    k = int(need.argmax())
                    if need[k] > capacity:
                        return self._clique_failure(k)
                if any_banned:
                    stuck = self._stuck_failure(remaining, floors, banned, lowest)
                    if stuck is not None:
                        return stuck
                if first and self.decompose and remaining.size > 2:
                    parts = self._independent_parts(remaining)
                    if parts is not None:
                        return self._solve_parts(parts, 0)
                first = False
                viable = at_lowest & ~banned
                if not viable.any():
                    members = remaining[at_lowest]
                    return self._failure(members, self.floor[members] + self.unit, exact_reasons=True)
                k = self._choose(remaining, viable, lowest, need, lowest_floor)
                index = int(remaining[k])
                before = self._known_to_fail(index, lowest_floor) if self.explains else None
                if before is None:
                    failure, before = self._place_and_search(index, lowest_floor)
                    if failure is None:
                        return None
                    if before is None:
                        return failure  # true without this placement: jump back over the node
                    if self.explains:
                        self._learn(index, lowest_floor, before)
                kind = int(kinds[k])
                saved_bans.append((kind, int(self.banned_at[kind]), self.ban_reason.get(kind)))
                self.banned_at[kind] = lowest_floor
                self.ban_reason[kind] = Failure(  # `index` is placed, so not among the members
                    np.append(before.members, index), np.append(before.required, lowest_floor)
                )
        finally:
            for kind, previous, reason in reversed(saved_bans):
                self.banned_at[kind] = previous
                if reason is None:
                    self.ban_reason.pop(kind, None)
                else:
                    self.ban_reason[kind] = reason

    def _choose(
        self, remaining: np.ndarray, viable: np.ndarray, lowest: np.ndarray | None, need: np.ndarray | None, floor: int
    ) -> int:
        """Which viable buffer to try next (a position in ``remaining``). By default the
        first in the preorder. With ``tightest_section_first``, the first among the
        candidates of the most constrained section whose lowest point is at this floor
        (least slack, then fewest candidates): it fails fastest, and a section with no
        slack needs one of them there (after they fail, the inference cuts the node).

        On intervals, among those, buffers *flush* with the walls of the valley they
        would sit in come first: one whose start meets a placed buffer reaching above
        this floor (or the start of time), then one whose end does too. Without waste
        the valley's bottom-left corner can only be covered by a buffer starting at
        its wall (one starting earlier would rest on the wall), so in a perfect
        packing some flush buffer is right; a buffer starting inside the valley
        leaves a strip beside it that few buffers fit. Among equally flush ones, a
        buffer whose top is level with a wall's top comes first: it leaves the
        skyline one step fewer. Only the order changes, so the search stays
        complete: on the generated challenging instances flush first fits 18 of 20
        where the preorder alone fitted 15 (docs/design/planner.md)."""
        choices = np.flatnonzero(viable)
        if self.tightest_section_first and lowest is not None and choices.size > 1:
            at_floor = np.flatnonzero((lowest == floor) & (need > 0))
            if at_floor.size:
                tightest = at_floor[need[at_floor] == need[at_floor].max()]
                candidate_mask = self.candidate_mask
                candidate_mask[remaining[choices]] = True
                counts = np.add.reduceat(candidate_mask[self.clique_members], self.clique_starts)
                candidate_mask[remaining[choices]] = False
                members = self._clique(int(tightest[np.argmin(counts[tightest])]))
                self.position[remaining] = np.arange(remaining.size)
                places = self.position[members]
                self.position[remaining] = -1
                places = places[places >= 0]
                choices = places[viable[places]]
        if self.problem.has_intervals and choices.size > 1:
            buffers = remaining[choices]
            first, last = self.first_slot[buffers], self.last_slot[buffers]
            left = (first == 0) | (self.wall_left[first] > floor)
            right = (last == self.slot_count) | (self.wall_right[last] > floor)
            # Then, among equally flush ones, those whose top is level with a wall's.
            top = floor + self.sizes[buffers]
            level = (top == self.wall_left[first]) | (top == self.wall_right[last])
            flush = 4 * left + 2 * right + level
            choices = choices[flush == flush.max()]
        return int(choices[np.argmin(self.rank[remaining[choices]])])

    def _expand_aligned(self, remaining: np.ndarray, floors: np.ndarray, last_offset: int) -> Failure | None:
        """Alignment can make covering the lowest point wasteful, so any buffer resting
        at or above the last offset may come next, unless another one would fit
        entirely below it (dominance). Failures here are the whole unplaced set."""
        capacity = self.capacity
        sizes = self.sizes[remaining]
        floors = align_up(floors, self.alignments[remaining])
        if (floors + sizes).max() > capacity:
            return self._whole_failure()
        if self.clique_members.size:
            _, need = self._section_need(remaining, floors)
            if need.max() > capacity:
                return self._whole_failure()
        tops = np.maximum(floors, last_offset) + sizes
        viable = floors >= last_offset
        if remaining.size > 1:
            two = np.argpartition(tops, 1)[:2]
            first, second = (two[0], two[1]) if tops[two[0]] <= tops[two[1]] else (two[1], two[0])
            threshold = np.full(remaining.size, tops[first])
            threshold[first] = tops[second]
            viable &= floors < threshold
        viable &= self.banned_at[self.kind[remaining]] != floors
        chosen = np.flatnonzero(viable)
        if chosen.size > 1:
            chosen = chosen[np.lexsort((self.rank[remaining[chosen]], floors[chosen]))]
        saved_bans: list[tuple[int, int]] = []
        try:
            for k in chosen.tolist():
                index = int(remaining[k])
                offset = int(floors[k])
                kind = int(self.kind[index])
                if self.banned_at[kind] == offset:
                    continue  # an identical buffer already failed at this offset
                failure, _ = self._place_and_search(index, offset)
                if failure is None:
                    return None
                saved_bans.append((kind, int(self.banned_at[kind])))
                self.banned_at[kind] = offset
        finally:
            for kind, previous in reversed(saved_bans):
                self.banned_at[kind] = previous
        return self._whole_failure()

    def _known_to_fail(self, index: int, offset: int) -> Failure | None:
        """A failure learnt from placing ``index`` at ``offset`` or lower before
        (anywhere in the tree, in any run) that holds again here: its buffers are
        unplaced with floors as high. Placing it would only fail again: higher up it
        only raises its neighbours' floors further."""
        for lower, reason in self.placement_failures.get(index, ()):
            if lower > offset:
                continue
            members = reason.members
            if self.unplaced[members].all() and (self.floor[members] >= reason.required).all():
                # True with the members at or above this placement (they are: it is
                # at the lowest floor), so that is what the ban's reason says.
                return Failure(members, np.maximum(reason.required, offset))
        return None

    def _learn(self, index: int, offset: int, reason: Failure) -> None:
        known = self.placement_failures.setdefault(index, [])
        if len(known) >= _FAILURES_PER_PLACEMENT:
            known.pop(0)
        known.append((offset, reason))

    def _clique_failure(self, k: int) -> Failure:
        """Clique ``k`` does not fit: the fewest of its members that still do not, the
        ones with the highest effective floors (if those from floor t up overflow,
        every member among them needs only to sit at t or above)."""
        members = self._clique_remaining(k)
        floors = self.floor[members]
        effective = floors + self.unit * (self.banned_at[self.kind[members]] == floors)
        order = np.argsort(-effective, kind="stable")
        totals = np.cumsum(self.sizes[members[order]])
        count = int(np.argmax(effective[order] + totals > self.capacity)) + 1
        chosen = members[order[:count]]
        height = self._round_up(self.capacity - int(totals[count - 1]) + 1)
        return self._failure(chosen, np.full(count, height, dtype=np.int64))

    def _stuck_failure(
        self, remaining: np.ndarray, floors: np.ndarray, banned: np.ndarray, lowest: np.ndarray | None
    ) -> Failure | None:
        """Forward check for buffers banned at their own floor h (an earlier sibling
        placed them there and failed). Placements happen at the lowest floor, which
        cannot pass h while such a buffer waits at h, so it only moves once some
        neighbour is placed exactly at h: one must be able to get there (a floor below
        h, or at h and not banned there). Without this check the search discovers the
        dead end only after filling every other place at that height. Returns the
        failure (the stuck buffer and its neighbours) or None.

        A neighbour can get to h exactly when its effective floor (a unit up if banned
        at its floor) is at most h; the banned buffer's own is above h, so with cliques
        that cover every conflict a minimum over its cliques rules most buffers out
        before their neighbours are looked at."""
        suspects = np.flatnonzero(banned).tolist()
        if self.covering_cliques and lowest is not None:
            cliques_of = self.cliques_of
            suspects = [
                k
                for k in suspects
                if cliques_of[remaining[k]].size and lowest[cliques_of[remaining[k]]].min() > floors[k]
            ]
        unplaced = self.remaining
        for k in suspects:
            height = floors[k]
            around = self.neighbours[int(remaining[k])]
            around = around[unplaced[around]]
            around_floors = self.floor[around]
            able = (around_floors < height) | (
                (around_floors == height) & (self.banned_at[self.kind[around]] != height)
            )
            if not able.any():
                # The stuck buffer and its neighbours all effectively above h.
                members = np.append(around, remaining[k])
                return self._failure(members, np.full(members.size, height + self.unit, dtype=np.int64))
        return None

    def _independent_parts(self, remaining: np.ndarray) -> list[np.ndarray] | None:
        """Split the remaining buffers into groups no lifetime connects, if any."""
        lowers = self.lowers[remaining]
        by_lower = np.argsort(lowers, kind="stable")
        reach = np.maximum.accumulate(self.uppers[remaining[by_lower]])
        cuts = np.flatnonzero(reach[:-1] <= lowers[by_lower][1:])
        if cuts.size == 0:
            return None
        return np.split(remaining[by_lower], cuts + 1)

    def _solve_parts(self, parts: list[np.ndarray], last_offset: int) -> Failure | None:
        """Dynamic decomposition: parts share no conflicts, so each is searched alone
        and a failing part fails the node without revisiting the others' choices."""
        states = [self._state(part, last_offset) for part in parts]
        for state in states:
            known = self.failed_states.get(state)
            if known is not None:
                return known
        everything = np.concatenate(parts)
        self.remaining[everything] = False
        try:
            # Small parts first: they fail or succeed cheaply, and solved parts are
            # remembered, so a failing sibling part costs little on the next visit.
            for k in sorted(range(len(parts)), key=lambda k: parts[k].size):
                part, state = parts[k], states[k]
                known = self.solved_parts.get(state)
                if known is not None:
                    self.offsets[known[0]] = known[1]
                    continue
                self.remaining[part] = True
                try:
                    failure = self._search(last_offset)
                finally:
                    self.remaining[part] = False
                if failure is not None:
                    return failure
                if len(self.solved_parts) < _MAX_REMEMBERED_STATES:
                    self.solved_parts[state] = (part, self.offsets[part].copy())
            return None
        finally:
            self.remaining[everything] = True

    def _state(self, remaining: np.ndarray, last_offset: int) -> int:
        return hash((remaining.tobytes(), self.floor[remaining].tobytes(), last_offset if self.aligned else 0))

    def _place_and_search(self, index: int, offset: int) -> tuple[Failure | None, Failure | None]:
        """Place ``index`` at ``offset`` (and the buffers that leaves hatless) and search
        on. Returns the failure, if any, and, if the placement supplied a height the
        failure needs, the failure as it stands before the placement (without those
        heights). Otherwise the failure holds without the placement."""
        size = int(self.sizes[index])
        end = offset + size
        around = self.neighbours[index]
        saved_floor = self.floor[around].copy()
        self.floor[around] = np.maximum(saved_floor, end)
        self.offsets[index] = offset
        self.remaining[index] = False
        self.unplaced[index] = False
        self.remaining_degree[around] -= 1
        self._leave_cliques(index)
        walls = self.problem.has_intervals
        if walls:
            saved_walls = [self._raise_walls(index, end)]
        hatless = around[(self.remaining_degree[around] == 0) & self.remaining[around]]
        placed_hatless = []
        failure = None
        for other in hatless.tolist():
            floor = int(self.floor[other])
            alignment = int(self.alignments[other])
            if alignment > 1:
                floor = -(-floor // alignment) * alignment
            if floor + int(self.sizes[other]) > self.capacity:
                failure = Failure(np.array([other], dtype=np.int64), np.array([self.floor[other]], dtype=np.int64))
                break
            self.offsets[other] = floor
            self.remaining[other] = False
            self.unplaced[other] = False
            self._leave_cliques(other)
            placed_hatless.append(other)
            if walls:
                saved_walls.append(self._raise_walls(other, floor + int(self.sizes[other])))
        try:
            if failure is None:
                failure = self._search(offset)
                if failure is None:
                    return None, None
            if not self.explains:
                return failure, self._whole_failure()
            # Which of the failure's heights did this placement supply?
            needed = self.needed_height
            needed[failure.members] = failure.required
            supplied = around[saved_floor < needed[around]]
            if supplied.size == 0:
                needed[failure.members] = -1
                return failure, None
            # Without the placement the failure still holds with every member at or
            # above `offset`: a member there conflicting with this buffer can only go
            # above it, where it gets the height the placement supplied. (Not lower:
            # a member below the placement would escape it.) All remaining floors are
            # at least `offset` here, so the search loses nothing.
            needed[supplied] = offset
            before = Failure(failure.members, np.maximum(needed[failure.members], offset))
            needed[failure.members] = -1
            return failure, before
        finally:
            if walls:
                for left, right, left_top, right_top in reversed(saved_walls):
                    self.wall_left[left] = left_top
                    self.wall_right[right] = right_top
            for other in placed_hatless:
                self.remaining[other] = True
                self.unplaced[other] = True
                self._join_cliques(other)
            self._join_cliques(index)
            self.remaining_degree[around] += 1
            self.remaining[index] = True
            self.unplaced[index] = True
            self.floor[around] = saved_floor


    def _raise_walls(self, index: int, end: int) -> tuple[int, int, int, int]:
        left, right = int(self.last_slot[index]), int(self.first_slot[index])
        saved = (left, right, int(self.wall_left[left]), int(self.wall_right[right]))
        self.wall_left[left] = max(saved[2], end)
        self.wall_right[right] = max(saved[3], end)
        return saved


def _luby(i: int) -> int:
    """Luby, Sinclair and Zuckerman's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (i >= 1)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _frames_needed(problem: Problem) -> int:
    """Recursion depth for a search: a few frames per placed buffer."""
    return 6 * len(problem) + 1000


def fits_within(
    problem: Problem,
    capacity: int,
    time_limit: float,
    *,
    run_unit: int = _RUN_UNIT,
    seed: int = 0,
    clock: Clock = time.monotonic,
) -> SearchResult:
    """Decision search with restarts in two interleaved lanes, one trying the
    tightest section's candidates first (see ``_choose``) and one not. Each lane runs the three
    :data:`PREORDERS`, then randomly perturbed versions of them, run ``k`` under a
    budget of ``run_unit * luby(k)`` nodes: mostly short runs, now and then a long one.

    Deep dead ends make the search time heavy-tailed. Some instances are solved by a
    lucky dive of a few hundred nodes under some perturbation (A: about one run in
    80), others only once enough failures have been learnt by longer runs (E): Luby's
    sequence is within a log factor of the best fixed run length for either, without
    knowing which. Failures learnt in one run prune every later one (they stay valid:
    both lanes are complete)."""
    deadline = clock() + time_limit
    base_ranks = [preorder_ranks(problem, name) for name in PREORDERS]
    search = _Search(problem, base_ranks[0], clock)
    lanes = [
        {"tight": tight, "rng": np.random.default_rng(seed + k), "run": 0}
        for k, tight in enumerate((False, True))
    ]
    total_nodes = 0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _frames_needed(problem)))
    try:
        for lane in itertools.cycle(lanes):
            run = lane["run"]
            rank = base_ranks[run % len(base_ranks)]
            if run >= len(base_ranks):
                noise = lane["rng"].random(len(problem)) * len(problem) * 0.1
                rank = np.argsort(np.argsort(rank + noise, kind="stable"))
            search.rank = rank
            search.tightest_section_first = lane["tight"]
            result = search.run(capacity, run_unit * _luby(run + 1), deadline)
            total_nodes += result.nodes
            if result.offsets is not None or result.proven_infeasible:
                return SearchResult(result.offsets, result.proven_infeasible, total_nodes)
            if clock() > deadline:
                return SearchResult(None, False, total_nodes)
            lane["run"] = run + 1
        raise AssertionError("unreachable")
    finally:
        sys.setrecursionlimit(limit)


def capacity_ladder(
    problem: Problem,
    offsets: np.ndarray,
    low: int,
    deadline: float,
    *,
    seed: int = 0,
    clock: Clock = time.monotonic,
    progress: Progress = no_progress,
) -> tuple[np.ndarray, int]:
    """Lower the pool of the plan ``offsets`` by short decision searches until
    ``deadline``: aim halfway between ``low`` (no plan is sought below it) and the
    best pool so far, with a third of the time left; on success aim lower, on failure
    or timeout aim closer to the best pool. A capacity some percent above the optimum
    is usually found in a few hundred nodes, where an order search stalls. Returns
    the best offsets and the number of searches run."""
    best_pool = int((offsets + problem.sizes).max(initial=0))
    searches = 0
    while best_pool > low and clock() < deadline:
        target = low + (best_pool - low) // 2
        result = fits_within(problem, target, max(0.0, (deadline - clock()) / 3), seed=seed, clock=clock)
        searches += 1
        if result.offsets is not None:
            offsets = result.offsets
            best_pool = int((offsets + problem.sizes).max(initial=0))
            progress(best_pool)
        else:
            low = target + 1
    return offsets, searches
