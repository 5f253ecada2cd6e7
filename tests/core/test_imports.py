"""The ``scorer`` package's modules import each other without a circle.

A circle works only as long as one of its imports hides inside a function, and it breaks
on the first import moved to the top: every import counts here, those inside functions too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[2] / "scorer"


def module_name(path: Path, root: Path) -> str:
    """``scorer/vision/locate/search.py`` -> ``scorer.vision.locate.search``."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports anywhere in it, with the packages they lie
    in (importing ``a.b.c`` runs ``a.b`` first). The packages ``path`` itself lies in are left
    out, being run before it, unless it takes a name defined in one (``from a import f``)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    from_body: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in modules:
                    found.add(submodule)
                else:
                    from_body.add(base)
    with_packages = {".".join(m.split(".")[:i]) for m in found
                     for i in range(1, m.count(".") + 2)}
    return {m for m in with_packages
            if m in modules and m != name
            and (not name.startswith(f"{m}.") or m in from_body)}


def absolute_imports(path: Path) -> set[str]:
    """Every module ``path`` names in an absolute import, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


def import_graph(root: Path = PACKAGE) -> nx.DiGraph:
    """Module -> the modules of the package it imports (a package's ``__init__`` is the
    package's own name)."""
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for path in paths:
        graph.add_edges_from((module_name(path, root), m) for m in imported(path, root, modules))
    return graph


def test_no_module_of_the_package_imports_itself_through_others():
    circles = sorted(sorted(c) for c in nx.simple_cycles(import_graph()))
    assert circles == [], f"import circles: {circles}"


def test_the_web_leaves_opencv_and_numpy_to_the_detector():
    # the photo review warps, encodes and matches colours through scorer.vision
    found = {str(p.relative_to(PACKAGE)): sorted(m for m in absolute_imports(p)
                                                  if m.split(".")[0] in ("cv2", "numpy"))
             for p in (PACKAGE / "web").rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    root = tmp_path / "scorer"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from scorer.b import f\n")
    (root / "b.py").write_text("def f():\n    from scorer.a import g  # late\n    return g\n")
    assert sorted(sorted(c) for c in nx.simple_cycles(import_graph(root))) == [
        ["scorer.a", "scorer.b"]]
