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
- Sibling symmetry. After candidate ``b`` fails at ``o``, later siblings may not put
  ``b``, or a buffer identical to it, at ``o`` again: that plan is the failed one with
  ``b`` moved to the front.
- Forward check. A buffer banned at its own floor can only move once a neighbour is
  placed exactly there; if no neighbour can be, the node is cut at once.
- Learnt failures. A node's future depends only on which buffers remain and their
  floors, so failed states are remembered (by hash) and cut on sight, across restarts.
- Dynamic decomposition. Remaining buffers that no lifetime connects form independent
  parts, searched one by one; solved parts are remembered with their offsets.
- Tight sections. A clique with no slack whose lowest floor is the current one must
  have a buffer start exactly there; placements at one height commute, so branching
  on the earliest such clique's candidates alone loses nothing.
- Candidate order and restarts. Ties follow a static preorder (MiniMalloc's "WAT",
  "TAW", "TWA": lifetime width, area, bytes of the busiest moment). Runs cycle through
  them and then through randomly perturbed copies, under a node budget growing 30% a
  run, so one bad early choice does not use up the time; two such sequences, with and
  without the tight-section rule, are interleaved.

Everything per node is a handful of numpy operations over the remaining buffers and
the clique membership arrays (a few thousand entries on the challenging instances).
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass

import numpy as np

from .greedy import PREORDERS, greedy, preorder_ranks
from .problem import Plan, Problem, align_up
from .validate import validate_plan

_UNBANNED = -1
#: Bound on each memo (failed states: one hash, about 100 bytes, each).
_MAX_REMEMBERED_STATES = 3_000_000
#: Above this many conflicting pairs exact returns the best known plan unsearched.
MAX_SEARCH_CONFLICTS = 2_000_000
_HIDDEN = np.iinfo(np.int64).max // 4  # offset given to buffers outside the current part


class _OutOfTime(Exception):
    pass


class _OutOfNodes(Exception):
    pass


@dataclass
class SearchResult:
    """What one decision search found out about a capacity."""

    offsets: np.ndarray | None  # a plan within the capacity, if found
    proven_infeasible: bool
    nodes: int


class _Search:
    """Decision search: is there a plan with every buffer ending at or below ``capacity``?"""

    def __init__(self, problem: Problem, rank: np.ndarray):
        self.problem = problem
        self.sizes = problem.sizes
        self.alignments = problem.alignments
        self.aligned = bool((self.alignments > 1).any())
        self.neighbours = problem.neighbours
        self.rank = rank
        # Branching on a tight section's candidates only is complete either way; it
        # helps on some instances and hurts on others, so restarts use both.
        self.cover_tight_sections = True
        self.tight_cliques_examined = 1
        self.capacity = -1
        self.failed_states: set[int] = set()
        self.solved_parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # Without alignment the search never looks at the last offset, so parts of the
        # problem that no lifetime connects are independent (see _solve_parts).
        self.decompose = problem.has_intervals and not self.aligned
        if problem.has_intervals:
            self.lowers = problem.lowers
            self.uppers = problem.uppers
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
        self.clique_total0 = np.array([int(self.sizes[c].sum()) for c in cliques], dtype=np.int64)
        self.clique_count0 = np.array([c.size for c in cliques], dtype=np.int64)

    def run(self, capacity: int, node_budget: int, deadline: float) -> SearchResult:
        n = len(self.problem)
        if capacity != self.capacity:
            # Failed states stay failed at the same capacity and below (the restarts
            # over preorders share them); a larger capacity starts afresh.
            if capacity > self.capacity:
                self.failed_states.clear()
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
        self.banned_at = np.full(n, _UNBANNED, dtype=np.int64)  # by kind
        self.masked_offsets = np.full(n, _HIDDEN, dtype=np.int64)
        self.position = np.full(n, -1, dtype=np.int64)  # scratch: index within `remaining`
        for index in np.flatnonzero(self.remaining & (self.remaining_degree == 0)).tolist():
            if self.sizes[index] > capacity:
                return SearchResult(None, True, 0)
            self.remaining[index] = False
            self._leave_cliques(index)
        try:
            found = self._search(0)
        except _OutOfTime:
            return SearchResult(None, False, self.nodes)
        except _OutOfNodes:
            return SearchResult(None, False, self.nodes)
        return SearchResult(self.offsets.copy() if found else None, not found, self.nodes)

    def _leave_cliques(self, index: int) -> None:
        mine = self.cliques_of[index]
        self.clique_total[mine] -= self.sizes[index]
        self.clique_count[mine] -= 1

    def _join_cliques(self, index: int) -> None:
        mine = self.cliques_of[index]
        self.clique_total[mine] += self.sizes[index]
        self.clique_count[mine] += 1

    def _search(self, last_offset: int) -> bool:
        self.nodes += 1
        if self.nodes & 255 == 0:
            if time.monotonic() > self.deadline:
                raise _OutOfTime
            if self.nodes > self.node_budget:
                raise _OutOfNodes
        remaining = np.flatnonzero(self.remaining)
        if remaining.size == 0:
            return True
        # The future of a node depends only on which buffers remain and their floors
        # (and the last offset, which only matters with alignment): a state that
        # already failed fails again, however it was reached.
        floors = self.floor[remaining]
        state = self._state(remaining, last_offset)
        if state in self.failed_states:
            return False
        if self._expand(remaining, floors, last_offset):
            return True
        if len(self.failed_states) < _MAX_REMEMBERED_STATES:
            self.failed_states.add(state)
        return False

    def _expand(self, remaining: np.ndarray, floors: np.ndarray, last_offset: int) -> bool:
        capacity = self.capacity
        sizes = self.sizes[remaining]
        if self.aligned:
            floors = align_up(floors, self.alignments[remaining])
        if (floors + sizes).max() > capacity:
            return False
        # Section inference: each clique's remaining bytes stack above its lowest
        # floor. Cliques with one remaining buffer are covered above.
        if self.clique_members.size:
            masked = self.masked_offsets
            masked[remaining] = floors
            lowest = np.minimum.reduceat(masked[self.clique_members], self.clique_starts)
            masked[remaining] = _HIDDEN
            need = np.where((self.clique_count >= 2) & (lowest < _HIDDEN), lowest + self.clique_total, 0)
            if need.max() > capacity:
                return False
        if not self.aligned and not self._stuck_buffers_can_rise(remaining, floors):
            return False
        if self.decompose and remaining.size > 2:
            parts = self._independent_parts(remaining)
            if parts is not None:
                return self._solve_parts(parts, last_offset)
        if not self.aligned:
            # Only buffers resting on the lowest floor may come next: that point is
            # covered now or never.
            lowest_floor = int(floors.min())
            viable = floors == lowest_floor
            viable &= self.banned_at[self.kind[remaining]] != lowest_floor
            if self.clique_members.size and self.cover_tight_sections:
                viable = self._cover_tight_section(remaining, viable, lowest, need, lowest_floor)
        else:
            # Alignment can make covering the lowest point wasteful, so any buffer
            # resting at or above the last offset may come next, unless another one
            # would fit entirely below it (dominance).
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
        if chosen.size == 0:
            return False
        offsets = floors
        if chosen.size > 1:
            chosen = chosen[np.lexsort((self.rank[remaining[chosen]], offsets[chosen]))]
        banned_here: list[tuple[int, int]] = []
        try:
            for k in chosen.tolist():
                index = int(remaining[k])
                offset = int(offsets[k])
                kind = int(self.kind[index])
                if self.banned_at[kind] == offset:
                    continue  # an identical buffer already failed at this offset
                if self._place_and_search(index, offset):
                    return True
                banned_here.append((kind, int(self.banned_at[kind])))
                self.banned_at[kind] = offset
        finally:
            for kind, previous in reversed(banned_here):
                self.banned_at[kind] = previous
        return False

    def _cover_tight_section(
        self, remaining: np.ndarray, viable: np.ndarray, lowest: np.ndarray, need: np.ndarray, floor: int
    ) -> np.ndarray:
        """A clique with no slack whose lowest floor is the current one must have a
        buffer start exactly there, or its bytes no longer fit; placements at one
        height commute, so branching on that clique's candidates alone loses nothing.
        Of such cliques the earliest is taken (MiniMalloc's canonical order by section)."""
        tight = np.flatnonzero((need == self.capacity) & (lowest == floor))
        if tight.size == 0:
            return viable
        position = self.position
        position[remaining] = np.arange(remaining.size)
        best_mask = None
        best_count = remaining.size + 1
        for k in tight[: self.tight_cliques_examined].tolist():
            start = int(self.clique_starts[k])
            members = self.clique_members[start : start + int(self.clique_count0[k])]
            places = position[members]
            places = places[places >= 0]
            places = places[viable[places]]
            if places.size < best_count:
                best_count = places.size
                best_mask = places
                if best_count <= 1:
                    break
        position[remaining] = -1
        restricted = np.zeros_like(viable)
        restricted[best_mask] = True
        return restricted

    def _stuck_buffers_can_rise(self, remaining: np.ndarray, floors: np.ndarray) -> bool:
        """Forward check for buffers banned at their own floor h (an earlier sibling
        placed them there and failed). Placements happen at the lowest floor, which
        cannot pass h while such a buffer waits at h, so it only moves once some
        neighbour is placed exactly at h: one must be able to get there (a floor below
        h, or at h and not banned there). Without this check the search discovers the
        dead end only after filling every other place at that height."""
        kinds = self.kind[remaining]
        stuck = np.flatnonzero(self.banned_at[kinds] == floors)
        if stuck.size == 0:
            return True
        remaining_mask = self.remaining
        for k in stuck.tolist():
            height = floors[k]
            around = self.neighbours[int(remaining[k])]
            around = around[remaining_mask[around]]
            around_floors = self.floor[around]
            able = (around_floors < height) | (
                (around_floors == height) & (self.banned_at[self.kind[around]] != height)
            )
            if not able.any():
                return False
        return True

    def _independent_parts(self, remaining: np.ndarray) -> list[np.ndarray] | None:
        """Split the remaining buffers into groups no lifetime connects, if any."""
        lowers = self.lowers[remaining]
        by_lower = np.argsort(lowers, kind="stable")
        reach = np.maximum.accumulate(self.uppers[remaining[by_lower]])
        cuts = np.flatnonzero(reach[:-1] <= lowers[by_lower][1:])
        if cuts.size == 0:
            return None
        return np.split(remaining[by_lower], cuts + 1)

    def _solve_parts(self, parts: list[np.ndarray], last_offset: int) -> bool:
        """Dynamic decomposition: parts share no conflicts, so each is searched alone
        and a failing part fails the node without revisiting the others' choices."""
        states = [self._state(part, last_offset) for part in parts]
        if any(state in self.failed_states for state in states):
            return False
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
                    solved = self._search(last_offset)
                finally:
                    self.remaining[part] = False
                if not solved:
                    return False
                if len(self.solved_parts) < _MAX_REMEMBERED_STATES:
                    self.solved_parts[state] = (part, self.offsets[part].copy())
            return True
        finally:
            self.remaining[everything] = True

    def _state(self, remaining: np.ndarray, last_offset: int) -> int:
        return hash((remaining.tobytes(), self.floor[remaining].tobytes(), last_offset if self.aligned else 0))

    def _place_and_search(self, index: int, offset: int) -> bool:
        size = int(self.sizes[index])
        end = offset + size
        around = self.neighbours[index]
        saved_floor = self.floor[around].copy()
        self.floor[around] = np.maximum(saved_floor, end)
        self.offsets[index] = offset
        self.remaining[index] = False
        self.remaining_degree[around] -= 1
        self._leave_cliques(index)
        hatless = around[(self.remaining_degree[around] == 0) & self.remaining[around]]
        placed_hatless = []
        fits = True
        for other in hatless.tolist():
            floor = int(self.floor[other])
            alignment = int(self.alignments[other])
            if alignment > 1:
                floor = -(-floor // alignment) * alignment
            if floor + int(self.sizes[other]) > self.capacity:
                fits = False
                break
            self.offsets[other] = floor
            self.remaining[other] = False
            self._leave_cliques(other)
            placed_hatless.append(other)
        try:
            return fits and self._search(offset)
        finally:
            for other in placed_hatless:
                self.remaining[other] = True
                self._join_cliques(other)
            self._join_cliques(index)
            self.remaining_degree[around] += 1
            self.remaining[index] = True
            self.floor[around] = saved_floor


def _frames_needed(problem: Problem) -> int:
    """Recursion depth for a search: a few frames per placed buffer."""
    return 6 * len(problem) + 1000


def fits_within(
    problem: Problem, capacity: int, time_limit: float, *, first_budget: int = 1000, seed: int = 0
) -> SearchResult:
    """Decision search with restarts in two interleaved lanes, one branching on
    tight sections (see ``_cover_tight_section``) and one not. Each lane runs the three
    :data:`PREORDERS`, then randomly perturbed versions of them, under a node budget
    that grows by 30% a run.

    Deep dead ends make the search time heavy-tailed; short randomized runs escape
    them, and failed states learnt in one run prune every later one (they stay valid:
    both lanes are complete). Which lane wins depends on the instance."""
    deadline = time.monotonic() + time_limit
    base_ranks = [preorder_ranks(problem, name) for name in PREORDERS]
    search = _Search(problem, base_ranks[0])
    lanes = [
        {"tight": tight, "rng": np.random.default_rng(seed + k), "budget": float(first_budget), "run": 0}
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
            search.cover_tight_sections = lane["tight"]
            result = search.run(capacity, int(lane["budget"]), deadline)
            total_nodes += result.nodes
            if result.offsets is not None or result.proven_infeasible:
                return SearchResult(result.offsets, result.proven_infeasible, total_nodes)
            if time.monotonic() > deadline:
                return SearchResult(None, False, total_nodes)
            lane["budget"] *= 1.3
            lane["run"] = run + 1
        raise AssertionError("unreachable")
    finally:
        sys.setrecursionlimit(limit)


def exact(
    problem: Problem,
    capacity: int | None = None,
    time_limit: float = 10.0,
    *,
    initial: Plan | None = None,
) -> Plan:
    """Smallest plan the search can find (and prove) within ``time_limit`` seconds.

    With ``capacity``, stop at the first plan that fits it. Without, start from the
    lower bound and raise it until a plan is found, or lower the best known pool size
    while plans keep coming. The returned plan is validated; ``plan.optimal`` says
    whether its pool size is proven minimal (it meets the lower bound or every smaller
    capacity was refuted); ``plan.stats`` records nodes and the capacity outcome. When
    time runs out the best known plan (``initial``, else greedy) is returned, as it is
    at once for problems with more than :data:`MAX_SEARCH_CONFLICTS` conflicting pairs."""
    start = time.monotonic()
    deadline = start + time_limit
    lower = problem.lower_bound()
    known = initial if initial is not None else greedy(problem)
    best_offsets = known.offsets
    best_pool = known.pool_size
    stats = {"nodes": 0, "lower_bound": lower, "capacity": capacity, "capacity_met": None}
    proven_floor = lower  # every capacity below this is refuted

    if problem.conflict_count() > MAX_SEARCH_CONFLICTS:
        # Adjacency lists of this size cost more memory and time than the search could
        # use; the best known plan is the answer.
        stats["skipped"] = f"more than {MAX_SEARCH_CONFLICTS} conflicting pairs"
        if capacity is not None:
            stats["capacity_met"] = best_pool <= capacity
        stats["seconds"] = time.monotonic() - start
        validate_plan(problem, best_offsets)
        return Plan(problem, np.asarray(best_offsets), "exact", optimal=best_pool <= lower, stats=stats)

    def attempt(target: int) -> SearchResult:
        result = fits_within(problem, target, max(0.0, deadline - time.monotonic()))
        stats["nodes"] += result.nodes
        return result

    if capacity is not None:
        if best_pool <= capacity:
            stats["capacity_met"] = True
        else:
            result = attempt(capacity)
            if result.offsets is not None:
                best_offsets, best_pool = result.offsets, int((result.offsets + problem.sizes).max(initial=0))
                stats["capacity_met"] = True
            else:
                stats["capacity_met"] = False
                stats["capacity_refuted"] = result.proven_infeasible
                if result.proven_infeasible:
                    proven_floor = max(proven_floor, capacity + 1)
    else:
        # Try the bound first (the common perfect case), then bisect.
        target = lower
        while proven_floor < best_pool and time.monotonic() < deadline:
            result = attempt(target)
            if result.offsets is not None:
                best_offsets = result.offsets
                best_pool = int((result.offsets + problem.sizes).max(initial=0))
            elif result.proven_infeasible:
                proven_floor = target + 1
            else:
                break
            target = (proven_floor + best_pool - 1) // 2
    validate_plan(problem, best_offsets)
    stats["seconds"] = time.monotonic() - start
    return Plan(problem, np.asarray(best_offsets), "exact", optimal=best_pool <= proven_floor, stats=stats)
