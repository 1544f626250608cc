"""The shape of the package, checked over the source's syntax trees (no imports run):

- ``core`` imports nothing from the packages built on it;
- no import cycle between tabletrek's packages (and top-level modules);
- no game is named in code outside ``games/``: services find games through their specs.

Function-level imports count like any other: hiding a cycle inside a function does not pass.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from tabletrek.core.registry import specs

SRC = Path(__file__).resolve().parents[1] / "src" / "tabletrek"
OUTER = {"bots", "games", "sim", "web", "cli", "rl", "openspiel"}


def unit(path: Path) -> str:
    """A file's package under tabletrek (or its top-level module's name; "(top)" for __init__)."""
    parts = path.relative_to(SRC).parts
    if parts == ("__init__.py",):
        return "(top)"
    return parts[0].removesuffix(".py")


def imported_units(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        names: list[list[str]] = []
        if isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            names = [[*parts, alias.name] for alias in node.names] if parts == ["tabletrek"] else [parts]
        for parts in names:
            if parts[0] == "tabletrek":
                named = len(parts) > 1 and parts[1] != "__version__"
                out.append((parts[1] if named else "(top)", node.lineno))
    return out


def graph() -> dict[str, dict[str, list[str]]]:
    """unit -> imported unit -> where ("file:line")."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(SRC.rglob("*.py")):
        source = unit(path)
        for target, line in imported_units(ast.parse(path.read_text(encoding="utf-8"))):
            if target != source:
                edges[source][target].append(f"{path.relative_to(SRC)}:{line}")
    return edges


def cycles(edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The strongly connected components with more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def test_core_imports_nothing_built_on_it() -> None:
    core = graph().get("core", {})
    bad = {target: where for target, where in core.items() if target in OUTER}
    assert not bad, f"core imports outer packages: {bad}"


def test_no_import_cycle_between_packages() -> None:
    edges = graph()
    found = cycles(edges)
    detail = {
        (a, b): edges[a][b][:3] for component in found for a in component for b in component if b in edges[a]
    }
    assert not found, f"package import cycles {found}: {detail}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}}) == [["a", "b", "c"]]


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the strings that stand alone as statements (docstrings, attribute docs): documentation
    may use a game as its example."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def game_words() -> set[str]:
    words = set()
    for spec in specs().values():
        words |= {spec.name, spec.domain, spec.package}
    return words


def names_in_code(tree: ast.AST, words: set[str]) -> list[tuple[int, str]]:
    skip = docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.ImportFrom):
            text = node.module
        elif isinstance(node, ast.Import):
            text = " ".join(alias.name for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            text = node.name
        if text and any(word in text for word in words):
            hits.append((getattr(node, "lineno", 0), text))
    return hits


def test_no_game_is_named_in_code_outside_games() -> None:
    words = game_words()
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        if path.relative_to(SRC).parts[0] == "games":
            continue
        hits = names_in_code(ast.parse(path.read_text(encoding="utf-8")), words)
        if hits:
            found[str(path.relative_to(SRC))] = hits[:5]
    assert not found, f"game names in code outside games/: {found}"


def test_the_name_finder_sees_a_game_named_in_code() -> None:
    tree = ast.parse('"""An example: load("touring")."""\nGAMES = ("touring",)\n')
    assert names_in_code(tree, {"touring"}) == [(2, "touring")]
