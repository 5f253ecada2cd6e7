"""Which cities a set of routes joins: what the game (Europe Express cards) and the scoring
(tickets, stations) both ask, in a module of its own so that neither imports the other."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Collection, Iterable


class UnionFind:
    """Disjoint sets of cities, joined one edge at a time."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        """The representative of ``x``'s set (``x`` joins as a set of its own if new)."""
        parent = self.parent
        root = parent.setdefault(x, x)
        while root != parent[root]:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        """Join the sets of ``a`` and ``b``."""
        self.parent[self.find(a)] = self.find(b)

    def same(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are joined."""
        return self.find(a) == self.find(b)


def components(edges: Iterable[tuple[str, str]]) -> UnionFind:
    """The cities joined by the edges (city pairs)."""
    uf = UnionFind()
    for a, b in edges:
        uf.union(a, b)
    return uf


def connected(edges: Iterable[tuple[str, str]], a: str, b: str) -> bool:
    """Whether the edges (city pairs) join ``a`` and ``b``."""
    return components(edges).same(a, b)


def joined_twice(
    edges: Iterable[tuple[str, str]], sources: Collection[str], targets: Collection[str]
) -> bool:
    """Whether two paths sharing no edge join a city of ``sources`` to one of ``targets`` (India's
    Grand Tour; the paths may meet at cities). By Menger's theorem: two units of flow pass
    when every edge, either way, carries at most one."""
    def node(city: str) -> str:
        return "S" if city in sources else "T" if city in targets else city

    ends: list[tuple[str, str]] = []
    at: dict[str, list[int]] = defaultdict(list)
    for a, b in edges:
        u, v = node(a), node(b)
        if u != v:
            at[u].append(len(ends))
            at[v].append(len(ends))
            ends.append((u, v))
    flow = [0] * len(ends)  # +1: carried from its first end to its second, -1: back
    for _ in range(2):
        came: dict[str, tuple[int, int] | None] = {"S": None}
        queue = deque(["S"])
        while queue and "T" not in came:
            here = queue.popleft()
            for e in at[here]:
                u, v = ends[e]
                # an edge carries one unit either way: forwards from u, or back from v
                nxt, way = (v, 1) if here == u else (u, -1)
                if flow[e] != way and nxt not in came:
                    came[nxt] = (e, way)
                    queue.append(nxt)
        if "T" not in came:
            return False
        here = "T"
        while (back := came[here]) is not None:
            e, way = back
            flow[e] += way
            here = ends[e][0] if way == 1 else ends[e][1]
    return True
