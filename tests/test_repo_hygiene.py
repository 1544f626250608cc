"""The project guide's standards that a syntax tree can check, kept true by the suite:

- every ``test_*`` function checks something: an ``assert``, ``pytest.raises``/``warns``/``fail``, a
  ``raise AssertionError``, or a call to one of the named checkers below (which raise on failure);
- no test "checks" in a way that cannot fail: ``assert True``, a value compared with itself,
  ``len(x) >= 0``, ``is not None`` as a test's only check, a bare ``except: pass``, an empty
  parametrisation, a skip without a reason.

No test module is imported: the checks read the source, so a module that fails to import is still read.
"""

from __future__ import annotations

import ast
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.stray_files import untracked

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# Checkers from the libraries we test against: each raises when what it checks does not hold.
LIBRARY_CHECKERS = {
    "check_env": "gymnasium.utils.env_checker: the Gymnasium API",
    "api_test": "pettingzoo.test: the AEC API",
    "parallel_api_test": "pettingzoo.test: the Parallel API",
    "random_sim_test": "pyspiel: OpenSpiel's own simulation checks (legal actions, serialisation)",
}
# Our own checkers: any function defined in tests/ whose name starts with ``assert_`` (each must itself
# assert, checked below), and these, named for what they do rather than ``assert_*``.
LOCAL_CHECKERS = {
    "_flood_joins": "tests/web/test_security.py: asserts the flood is refused and others still join",
}
PYTEST_CHECKS = {"raises", "warns", "fail", "deprecated_call"}


def python_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"


def called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def named_tests(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
            yield node


def raises_assertion(node: ast.AST) -> bool:
    return isinstance(node, ast.Raise) and "AssertionError" in ast.unparse(node.exc or ast.Constant(None))


def checks_directly(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Assert) or raises_assertion(node):
            return True
        if isinstance(node, ast.Call) and called_name(node) in PYTEST_CHECKS:
            return True
    return False


def local_assert_helpers() -> dict[str, list[str]]:
    """Every ``assert_*`` function defined under tests/ -> where those that check nothing are."""
    found: dict[str, list[str]] = {}
    for path in python_files():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("assert_"):
                found.setdefault(node.name, [])
                if not checks_directly(node):
                    found[node.name].append(where(path, node))
    return found


def unchecked_tests(paths: list[Path], checkers: set[str]) -> list[tuple[Path, str]]:
    unchecked = []
    for path in paths:
        for function in named_tests(parsed(path)):
            calls = {called_name(n) for n in ast.walk(function) if isinstance(n, ast.Call)}
            if not checks_directly(function) and not calls & checkers:
                unchecked.append((path, f"{function.name}"))
    return unchecked


def test_every_test_function_checks_something() -> None:
    checkers = set(LIBRARY_CHECKERS) | set(LOCAL_CHECKERS) | set(local_assert_helpers())
    unchecked = unchecked_tests(python_files(), checkers)
    assert [f"{path.relative_to(ROOT)}: {name}" for path, name in unchecked] == [], "these assert nothing"


def test_our_checkers_check() -> None:
    empty = [place for places in local_assert_helpers().values() for place in places]
    assert empty == [], "these assert_* helpers assert nothing, so a test calling them cannot fail"
    for name, why in LOCAL_CHECKERS.items():
        path = ROOT / why.split(":", 1)[0]
        defined = [n for n in ast.walk(parsed(path)) if isinstance(n, ast.FunctionDef) and n.name == name]
        assert defined, f"{name} is no longer in {path.name}: drop it from LOCAL_CHECKERS"
        assert all(checks_directly(n) for n in defined), f"{name} asserts nothing"


def same_without_calls(left: ast.expr, right: ast.expr) -> bool:
    """Both sides are the same expression and evaluating it twice cannot differ (no call in it)."""
    if any(isinstance(n, ast.Call | ast.Await | ast.Yield) for n in ast.walk(left)):
        return False
    return ast.dump(left) == ast.dump(right)


def is_len(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and called_name(node) == "len"


def is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def always_true(test: ast.expr) -> str | None:
    """Why ``assert test`` cannot fail, or None."""
    if isinstance(test, ast.Constant) and test.value:
        return "a true constant"
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq | ast.Is | ast.GtE | ast.LtE) and same_without_calls(left, right):
            return "a value compared with itself"
        if (isinstance(op, ast.GtE) and is_len(left) and is_zero(right)) or (
            isinstance(op, ast.LtE) and is_zero(left) and is_len(right)
        ):
            return "a length is never negative"
    return None


def only_not_none(function: ast.AST) -> bool:
    """The test's only checks are ``x is not None``: that something came back, not that it is right."""
    asserts = [n for n in ast.walk(function) if isinstance(n, ast.Assert)]
    if not asserts or checks_directly_beyond_asserts(function):
        return False
    return all(
        isinstance(a.test, ast.Compare)
        and isinstance(a.test.ops[0], ast.IsNot)
        and isinstance(a.test.comparators[0], ast.Constant)
        and a.test.comparators[0].value is None
        for a in asserts
    )


def checks_directly_beyond_asserts(function: ast.AST) -> bool:
    return any(
        raises_assertion(n) or (isinstance(n, ast.Call) and called_name(n) in PYTEST_CHECKS)
        for n in ast.walk(function)
    )


def test_no_check_that_cannot_fail() -> None:
    found = []
    for path in python_files():
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert) and (why := always_true(node.test)):
                found.append(f"{where(path, node)} {why}: assert {ast.unparse(node.test)}")
            if isinstance(node, ast.ExceptHandler) and swallows_everything(node):
                found.append(f"{where(path, node)} an except that swallows every error")
        for function in named_tests(tree):
            if only_not_none(function):
                found.append(f"{where(path, function)} {function.name} checks only `is not None`")
    assert found == []


def swallows_everything(handler: ast.ExceptHandler) -> bool:
    broad = handler.type is None or ast.unparse(handler.type) in {"Exception", "BaseException"}
    silent = all(
        isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in handler.body
    )
    return broad and silent


def decorator_calls(tree: ast.Module) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def test_parametrisations_are_not_empty_and_skips_say_why() -> None:
    found = []
    for path in python_files():
        for call in decorator_calls(parsed(path)):
            name = called_name(call)
            if name == "parametrize" and len(call.args) >= 2:
                values = call.args[1]
                if isinstance(values, ast.List | ast.Tuple) and not values.elts:
                    found.append(f"{where(path, call)} an empty parametrisation: the test never runs")
            if name == "skip" and not call.args and not call.keywords:
                found.append(f"{where(path, call)} pytest.skip() without a reason")
            if name == "skipif" and not any(k.arg == "reason" for k in call.keywords):
                found.append(f"{where(path, call)} skipif without a reason")
    assert found == []


def test_an_empty_parametrisation_fails_collection() -> None:
    """Literal empty lists are caught above; a computed one (a glob that finds nothing) is caught
    by pytest itself, configured to fail at collection rather than skip."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["pytest"]["ini_options"]["empty_parameter_set_mark"] == "fail_at_collect"


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("assert True", "a true constant"),
        ("assert x == x", "a value compared with itself"),
        ("assert len(items) >= 0", "a length is never negative"),
        ("assert 0 <= len(items)", "a length is never negative"),
    ],
)
def test_the_scan_catches_what_it_names(source: str, why: str) -> None:
    statement = ast.parse(source).body[0]
    assert isinstance(statement, ast.Assert)
    assert always_true(statement.test) == why


def test_the_scan_lets_real_checks_through() -> None:
    for source in ("assert f() == f()", "assert len(items) >= 1", "assert x == y", "assert x"):
        statement = ast.parse(source).body[0]
        assert isinstance(statement, ast.Assert)
        assert always_true(statement.test) is None, source
    silent = ast.parse("def test_x():\n    result = run()\n    assert result is not None\n").body[0]
    assert only_not_none(silent)
    checked = ast.parse("def test_x():\n    assert run() is not None\n    assert run() == 3\n").body[0]
    assert not only_not_none(checked)
    bare = ast.parse("try:\n    run()\nexcept:\n    pass\n").body[0]
    assert isinstance(bare, ast.Try) and swallows_everything(bare.handlers[0])
    narrow = ast.parse("try:\n    run()\nexcept OSError:\n    pass\n").body[0]
    assert isinstance(narrow, ast.Try) and not swallows_everything(narrow.handlers[0])


def test_the_scan_finds_a_test_that_asserts_nothing(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(
        "def test_runs_only():\n    run()\n\n"
        "def test_checks():\n    assert run() == 1\n\n"
        "def test_via_checker():\n    check_env(make())\n\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        run()\n",
        encoding="utf-8",
    )
    assert [name for _, name in unchecked_tests([tmp_path / "test_sample.py"], {"check_env"})] == [
        "test_runs_only"
    ]


# ----- citations: the repository cites its own docs, never files outside it -------------------------

OUTSIDE = re.compile(
    r"RULINGS\.md|DESIGN\.md|/work/shared|\.\./shared|\bseeds?/0\d\d|\bseed 0\d\d\b|\b0\d\d_[0-9a-f]{16}\.txt"
)
CITING = ("src", "tests", "scripts", "benchmarks", "examples", "docs", ".ci")
ELSEWHERE: tuple[str, ...] = ()


def cited_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in CITING:
        files += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    return [
        p
        for p in files
        if p != Path(__file__).resolve()
        and not p.relative_to(ROOT).as_posix().startswith(("docs/notes/", *ELSEWHERE))
    ]


TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".js", ".css", ".html", ".ipynb", ".sh", ""}


def test_nothing_cites_a_file_outside_the_repository() -> None:
    """The rules sources behind the project are not shipped; code and docs cite docs/rules/ (or
    docs/architecture.md), which state the same for every reader."""
    found = []
    for path in cited_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


# ----- suppressions say why ----------------------------------------------------------------------

DIRECTIVE = re.compile(r"type:\s*ignore(\[[^\]]*\])?|noqa(:\s*[A-Z]+[0-9]+(\s*,\s*[A-Z]+[0-9]+)*)?")
SUPPRESSIONS_ELSEWHERE: tuple[str, ...] = ()


def unexplained(comment: str) -> bool:
    """A comment holding a ``type: ignore``/``noqa`` and no words besides."""
    if not DIRECTIVE.search(comment):
        return False
    rest = DIRECTIVE.sub("", comment)
    return not re.search(r"[A-Za-z]{2}", rest.replace("#", " ").replace(" - ", " "))


def test_every_suppression_says_why() -> None:
    """mypy (which reads src/tabletrek only) and ruff are silenced line by line only with a reason on
    the same line, so a reader can tell a needed suppression from a stale one."""
    found = []
    for top in ("src", "tests", "benchmarks", "scripts", "examples"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith(SUPPRESSIONS_ELSEWHERE):
                continue
            with tokenize.open(path) as source:
                for token in tokenize.generate_tokens(source.readline):
                    if token.type == tokenize.COMMENT and unexplained(token.string):
                        found.append(f"{name}:{token.start[0]}: {token.string}")
    assert found == []


def test_the_suppression_scan_reads_reasons() -> None:
    assert unexplained("# type: ignore[attr-defined]")
    assert unexplained("# noqa: F821")
    assert unexplained("# type: ignore[name-defined]  # noqa: F821")
    assert not unexplained("# noqa: F401 - registers the game")
    assert not unexplained("# type: ignore[misc]  # pyspiel is untyped")
    assert not unexplained("# a plain comment")


# ----- long files say why ----------------------------------------------------------------------------

LONG = 600
LONG_ELSEWHERE = ("scripts/build_codenames_tables.py",)  # the Codenames helper's, this wave


def test_a_file_over_600_lines_says_why_in_its_docstring() -> None:
    """The guide: no file over ~600 lines without a reason; the reason goes in the module docstring."""
    unexplained_files = []
    for top in ("src", "tests", "benchmarks", "scripts", "examples"):
        for path in sorted((ROOT / top).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            name = path.relative_to(ROOT).as_posix()
            if text.count("\n") <= LONG or name in LONG_ELSEWHERE:
                continue
            doc = ast.get_docstring(parsed(path)) or ""
            if not re.search(r"\b\d{3} lines\b", doc):
                unexplained_files.append(f"{name}: {text.count(chr(10))} lines")
    assert unexplained_files == []


def test_the_stray_file_scan_finds_a_new_file_and_not_an_ignored_one(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("cache/\n")
    before = untracked(tmp_path)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "x.bin").write_text("ignored")
    (tmp_path / "report.html").write_text("<html></html>")
    after = untracked(tmp_path)
    assert before == {".gitignore"}
    assert after is not None and after - before == {"report.html"}
    assert untracked(Path("/")) is None  # not a checkout: the guard stands aside
