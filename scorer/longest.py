"""The longest continuous path of a player's routes, computed exactly.

A continuous path uses each route at most once and may revisit cities: in graph terms it
is the heaviest trail of a multigraph. An edge set is one trail exactly when it is
connected and has 0 or 2 odd-degree vertices (Euler). A longest trail never needs to end
at an even city (it could be extended there), which gives two reductions: chains through
cities of degree 2 become single edges, and only odd cities are ends.

Each connected piece of the network is then solved one of two ways:

- Depth-first search from the odd cities, memoised on (city, routes used); past a bridge
  nothing behind matters, so the continuation is memoised on the bridge alone. Players'
  networks are mostly small cycles joined by bridges, where this is fast.
- Branch and bound when a 2-edge-connected block is big (a whole board). The longest
  trail is the network minus the lightest set R of routes that fixes the parities (a
  T-join on the odd cities, two of them left odd as the ends) and leaves it connected.
  The minimum T-join, ignoring connectivity (a matching of the odd cities by shortest
  paths), bounds each node; if removing it leaves one piece the node is solved, otherwise
  each piece is a trail (a lower bound) and the search branches on a removed route:
  kept for sure, or taken out (which may split the network).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass

import networkx as nx

# Above this many odd cities the matching goes to networkx's blossom algorithm; below it,
# an exact dynamic programme over subsets is faster.
_SUBSET_MATCHING_MAX = 10
# Networks whose cycles sit in small blocks (2-edge-connected pieces, bridges apart) are
# searched depth first; bigger blocks go to the branch and bound.
_WALK_MAX_BLOCK = 12


@dataclass(frozen=True, slots=True)
class LongestPath:
    """One longest continuous path: its length in trains, cities in order, route keys."""

    length: int = 0
    cities: tuple[str, ...] = ()
    keys: tuple[Hashable, ...] = ()


def longest_path(edges: Iterable[tuple]) -> LongestPath:
    """Longest continuous path over routes given as `(a, b, length[, key])` tuples.

    Each route is used at most once, cities may repeat, parallel routes are distinct.
    Without a key, a route's key is its index in `edges`. Deterministic: the same input
    gives the same path.
    """
    graph = _Graph(edges)
    if not graph.weights:
        return LongestPath()
    best = _Search(graph).run()
    return graph.trail(best)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Graph:
    """The routes as a multigraph on integer cities, edge sets as bit masks.

    Chains through cities of degree 2 are contracted into one edge: a longest trail never
    needs to end at an even city, so it takes both routes of such a city or neither.
    """

    def __init__(self, edges: Iterable[tuple]) -> None:
        self.names: list[str] = []
        index: dict[str, int] = {}
        self.route_keys: list[Hashable] = []
        chains: list[tuple[int, int, int, list[tuple[int, int]]]] = []
        for position, edge in enumerate(edges):
            if len(edge) not in (3, 4):
                raise ValueError(f"a route is (city_a, city_b, length[, key]), got {edge!r}")
            a, b, length = edge[0], edge[1], edge[2]
            if length < 0:
                raise ValueError(f"route {a}–{b} has a negative length: {length}")
            for city in (a, b):
                if city not in index:
                    index[city] = len(self.names)
                    self.names.append(city)
            chains.append((index[a], index[b], length, [(position, index[b])]))
            self.route_keys.append(edge[3] if len(edge) == 4 else position)
        # Each edge is (from, to, length, steps): a step is (route, city reached).
        self.chains = _contract(chains, len(self.names))
        self.ends = [(u, v) for u, v, _, _ in self.chains]
        self.weights = [w for _, _, w, _ in self.chains]
        self.adjacency: list[list[tuple[int, int, int]]] = [[] for _ in self.names]
        for e, (u, v) in enumerate(self.ends):
            self.adjacency[u].append((e, v, self.weights[e]))
            if u != v:
                self.adjacency[v].append((e, u, self.weights[e]))

    def weight(self, mask: int) -> int:
        return sum(self.weights[e] for e in _bits(mask))

    def odd_cities(self, mask: int) -> list[int]:
        parity = 0
        for e in _bits(mask):
            u, v = self.ends[e]
            parity ^= (1 << u) ^ (1 << v)
        return list(_bits(parity))

    def components(self, mask: int) -> list[int]:
        """The connected pieces of an edge set, as edge masks, in order of lowest edge."""
        pieces = []
        while mask:
            piece = self._reach(mask & -mask, mask)
            pieces.append(piece)
            mask &= ~piece
        return pieces

    def _reach(self, start: int, mask: int) -> int:
        """Edges of `mask` reachable from the edge set `start`."""
        seen = start
        stack = [c for e in _bits(start) for c in self.ends[e]]
        visited = set(stack)
        while stack:
            for e, w, _ in self.adjacency[stack.pop()]:
                if mask >> e & 1:
                    seen |= 1 << e
                    if w not in visited:
                        visited.add(w)
                        stack.append(w)
        return seen

    def bridges(self, mask: int) -> int:
        """The edges of `mask` whose removal disconnects it (Tarjan, iterative)."""
        found = 0
        order = [-1] * len(self.names)
        low = [0] * len(self.names)
        clock = 0
        for root in {c for e in _bits(mask) for c in self.ends[e]}:
            if order[root] >= 0:
                continue
            order[root] = low[root] = clock
            clock += 1
            stack = [(root, -1, iter(self.adjacency[root]))]
            while stack:
                city, parent_edge, near = stack[-1]
                for e, other, _ in near:
                    if not mask >> e & 1 or e == parent_edge:
                        continue
                    if order[other] < 0:
                        order[other] = low[other] = clock
                        clock += 1
                        stack.append((other, e, iter(self.adjacency[other])))
                        break
                    low[city] = min(low[city], order[other])
                else:
                    stack.pop()
                    if stack:
                        parent = stack[-1][0]
                        low[parent] = min(low[parent], low[city])
                        if low[city] > order[parent]:
                            found |= 1 << parent_edge
        return found

    def shortest_paths(self, source: int, allowed: int) -> tuple[dict[int, int], dict[int, int]]:
        """Dijkstra over the `allowed` edges: distances and the edge reaching each city."""
        dist = {source: 0}
        via: dict[int, int] = {}
        heap = [(0, source)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for e, v, w in self.adjacency[u]:
                if allowed >> e & 1 and (v not in dist or d + w < dist[v]):
                    dist[v] = d + w
                    via[v] = e
                    heapq.heappush(heap, (d + w, v))
        return dist, via

    def trail(self, mask: int) -> LongestPath:
        """An Euler trail through the edge set (connected, 0 or 2 odd cities)."""
        odd = self.odd_cities(mask)
        start = odd[0] if odd else self.ends[(mask & -mask).bit_length() - 1][0]
        unused = mask
        # Hierholzer, iterative: routes in input order, so the result is deterministic.
        stack: list[tuple[int, int]] = [(start, -1)]
        pointer = [0] * len(self.names)
        walk: list[tuple[int, int]] = []
        while stack:
            city = stack[-1][0]
            neighbours = self.adjacency[city]
            while (
                pointer[city] < len(neighbours) and not unused >> neighbours[pointer[city]][0] & 1
            ):
                pointer[city] += 1
            if pointer[city] == len(neighbours):
                walk.append(stack.pop())
                continue
            e, other, _ = neighbours[pointer[city]]
            unused &= ~(1 << e)
            stack.append((other, e))
        walk.reverse()
        at = start
        cities = [self.names[start]]
        keys = []
        for _, e in walk[1:]:
            _, at, _, steps = _oriented(self.chains[e], at, towards=False)
            for route, reached in steps:
                keys.append(self.route_keys[route])
                cities.append(self.names[reached])
        return LongestPath(self.weight(mask), tuple(cities), tuple(keys))


def _contract(
    chains: list[tuple[int, int, int, list[tuple[int, int]]]], n_cities: int
) -> list[tuple[int, int, int, list[tuple[int, int]]]]:
    """Join the two edges of every city of degree 2 into one (loops excepted)."""
    alive = dict(enumerate(chains))
    incident: list[list[int]] = [[] for _ in range(n_cities)]
    for e, (u, v, _, _) in alive.items():
        incident[u].append(e)
        incident[v].append(e)
    next_id = len(chains)
    for city in range(n_cities):
        edges = [e for e in incident[city] if e in alive]
        if len(edges) != 2 or edges[0] == edges[1]:
            continue
        first, second = (_oriented(alive.pop(e), city, towards=i == 0) for i, e in enumerate(edges))
        u, _, w1, steps1 = first
        _, v, w2, steps2 = second
        alive[next_id] = (u, v, w1 + w2, steps1 + steps2)
        incident[u].append(next_id)
        incident[v].append(next_id)
        next_id += 1
    # Deterministic order: by the first route of each chain.
    return sorted(alive.values(), key=lambda chain: min(r for r, _ in chain[3]))


def _oriented(chain, city: int, towards: bool):
    """The chain as a walk that ends at `city` (towards) or starts from it."""
    u, v, w, steps = chain
    if (v == city) == towards:
        return chain
    back = [u] + [reached for _, reached in steps[:-1]]
    return v, u, w, list(zip([r for r, _ in reversed(steps)], reversed(back), strict=True))


class _Search:
    """The heaviest connected edge set with 0 or 2 odd cities, network piece by piece."""

    def __init__(self, graph: _Graph) -> None:
        self.graph = graph
        self.best_weight = -1
        self.best = 0

    def run(self) -> int:
        graph = self.graph
        pieces = graph.components((1 << len(graph.weights)) - 1)
        for piece in sorted(pieces, key=graph.weight, reverse=True):
            self._piece(piece)
        return self.best

    def _piece(self, piece: int) -> None:
        """Best trail inside the connected edge set `piece`, by the fitting strategy."""
        graph = self.graph
        if graph.weight(piece) <= self.best_weight:
            return
        odd = graph.odd_cities(piece)
        if len(odd) <= 2:
            self._offer(piece, graph.weight(piece))
            return
        bridges = graph.bridges(piece)
        blocks = graph.components(piece & ~bridges)
        if max((m.bit_count() for m in blocks), default=0) <= _WALK_MAX_BLOCK:
            self._walk(piece, odd, bridges)
        else:
            self._solve(piece, 0)

    def _walk(self, piece: int, odd: list[int], bridges: int) -> None:
        """Depth-first search of the trails from each odd city, memoised.

        A trail that crosses a bridge can never come back, and the far side is still
        untouched, so the best continuation past a bridge is computed once per direction.
        """
        adjacency = [
            [(1 << e, other, w, bridges >> e & 1) for e, other, w in near if piece >> e & 1]
            for near in self.graph.adjacency
        ]
        shift = len(adjacency).bit_length()
        memo: dict[int, tuple[int, int]] = {}

        def walk(city: int, used: int) -> tuple[int, int]:
            """Best (weight, edges) of a trail continuing from `city` after `used`."""
            best_weight, best = 0, 0
            for bit, other, w, bridge in adjacency[city]:
                if used & bit:
                    continue
                # Past a bridge the used edges behind can't matter: key on the bridge only.
                key = (bit << shift | other) if bridge else ((used | bit) << shift | other)
                found = memo.get(key)
                if found is None:
                    found = memo[key] = walk(other, used | bit)
                if w + found[0] > best_weight:
                    best_weight, best = w + found[0], found[1] | bit
            return best_weight, best

        # A longest trail ends at two odd cities: starting from all but one finds it.
        for start in odd[:-1]:
            weight, edges = walk(start, 0)
            self._offer(edges, weight)

    def _offer(self, mask: int, weight: int) -> None:
        if weight > self.best_weight:
            self.best_weight, self.best = weight, mask

    def _solve(self, mask: int, forced: int) -> None:
        """Best trail inside the connected edge set `mask` containing every `forced` edge."""
        graph = self.graph
        total = graph.weight(mask)
        if total <= self.best_weight:
            return
        odd = graph.odd_cities(mask)
        if len(odd) <= 2:
            self._offer(mask, total)
            return
        removable = mask & ~forced
        routes = [graph.shortest_paths(city, removable) for city in odd]
        pairs = _matching([[r[0].get(c) for c in odd] for r in routes])
        if pairs is None:
            return
        removed = 0
        for i, j in pairs:
            via = routes[i][1]
            city, source = odd[j], odd[i]
            while city != source:
                e = via[city]
                removed ^= 1 << e
                u, v = graph.ends[e]
                city = u if v == city else v
        kept = mask & ~removed
        if total - graph.weight(removed) <= self.best_weight:
            return
        pieces = graph.components(kept)
        for piece in pieces:
            self._offer(piece, graph.weight(piece))
        if len(pieces) == 1:
            return
        edge = self._branch_edge(removed & ~forced, pieces)
        self._solve(mask, forced | 1 << edge)
        rest = mask & ~(1 << edge)
        for piece in sorted(graph.components(rest), key=graph.weight, reverse=True):
            if not forced:
                self._piece(piece)
            elif forced & ~piece == 0:
                self._solve(piece, forced)

    def _branch_edge(self, candidates: int, pieces: list[int]) -> int:
        """A removed route that joins the heaviest piece left to something else."""
        graph = self.graph
        heaviest = max(pieces, key=graph.weight)
        cities = {c for e in _bits(heaviest) for c in graph.ends[e]}

        def score(e: int) -> tuple[int, int, int]:
            u, v = graph.ends[e]
            return ((u in cities) + (v in cities) == 1, graph.weights[e], -e)

        return max(_bits(candidates), key=score)


def _matching(dist: list[list[int | None]]) -> list[tuple[int, int]] | None:
    """Cheapest pairing of all but at most two odd cities (None: impossible).

    `dist[i][j]` is the shortest distance between odd cities i and j, None if cut off.
    """
    k = len(dist)
    if k <= _SUBSET_MATCHING_MAX:
        return _subset_matching(dist)
    g = nx.Graph()
    big = 1 + 2 * sum(d for row in dist for d in row if d is not None)
    for i in range(k):
        g.add_edge(i, "end1", weight=big)
        g.add_edge(i, "end2", weight=big)
        for j in range(i + 1, k):
            if dist[i][j] is not None:
                g.add_edge(i, j, weight=big - dist[i][j])
    g.add_edge("end1", "end2", weight=big)
    matched = nx.max_weight_matching(g, maxcardinality=True)
    if 2 * len(matched) != k + 2:
        return None
    return sorted(
        (min(a, b), max(a, b)) for a, b in matched if isinstance(a, int) and isinstance(b, int)
    )


def _subset_matching(dist: list[list[int | None]]) -> list[tuple[int, int]] | None:
    k = len(dist)
    memo: dict[tuple[int, int], tuple[float, tuple[int, int] | None]] = {}
    inf = float("inf")

    def cost(left: int, ends: int) -> float:
        if not left:
            return 0
        state = (left, ends)
        if state in memo:
            return memo[state][0]
        i = (left & -left).bit_length() - 1
        rest = left ^ (1 << i)
        best, choice = inf, None
        if ends:
            best, choice = cost(rest, ends - 1), (i, -1)
        row = dist[i]
        for j in _bits(rest):
            if row[j] is not None and row[j] < best:
                c = row[j] + cost(rest ^ (1 << j), ends)
                if c < best:
                    best, choice = c, (i, j)
        memo[state] = (best, choice)
        return best

    full = (1 << k) - 1
    if cost(full, 2) == inf:
        return None
    pairs = []
    left, ends = full, 2
    while left:
        i, j = memo[(left, ends)][1]
        if j < 0:
            left, ends = left ^ (1 << i), ends - 1
        else:
            pairs.append((i, j))
            left ^= (1 << i) | (1 << j)
    return pairs
