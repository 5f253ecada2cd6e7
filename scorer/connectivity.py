"""Which cities a set of routes joins: what the game (Europe Express cards) and the scoring
(tickets, stations) both ask, in a module of its own so that neither imports the other."""

from __future__ import annotations

from collections.abc import Iterable


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
