"""The layout promises of docs/architecture.md, checked on the source tree: small modules, no import
circles, and front ends that reach games only through the registry's typed protocol."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "koloda"
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_engine(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in ("koloda.bank", "koloda.thousand"))


def _imports(name: str, path: Path) -> set[str]:
    """The koloda modules a module imports anywhere in it (functions and TYPE_CHECKING blocks too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: koloda uses none, but a later module might
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base]).strip(".")
            subs = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(subs)
            if len(subs) < len(node.names):  # names of the module itself, not its submodules
                found.add(base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_no_source_file_is_over_600_lines() -> None:
    long = {
        name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, long


def test_no_module_imports_one_that_imports_it() -> None:
    circles = sorted((a, b) for a, deps in GRAPH.items() for b in deps if a < b and a in GRAPH[b])
    assert not circles, circles


def test_no_longer_import_circle() -> None:
    # Tarjan's strongly connected components: a package's __init__ importing its own submodules is the
    # one allowed shape (the package is their parent, not a peer).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w.startswith(v + "."):
                continue  # a package importing its submodules
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
                circles.append(sorted(component))

    for name in GRAPH:
        if name not in index:
            visit(name)
    assert not circles, circles


def test_front_ends_find_games_only_in_the_registry() -> None:
    # The web app and tournaments load no engine by name and probe no engine for features.
    for name, path in MODULES.items():
        if not (name.startswith("koloda.web") or name == "koloda.bots.tournament" or name == "koloda.cli"):
            continue
        text = path.read_text()
        assert "importlib" not in text, name
        assert "getattr(" not in text, name
        engines = {m for m in GRAPH[name] if _is_engine(m)}
        allowed = {"koloda.thousand.sheet", "koloda.thousand.scoring", "koloda.thousand.options"}
        assert all(m.startswith(tuple(allowed)) for m in engines), (name, engines)


def test_no_bare_koloda_error_is_raised() -> None:
    # KolodaError is the family's base: code raises one of its kinds, which say what was wrong.
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                assert not (isinstance(func, ast.Name) and func.id == "KolodaError"), (name, node.lineno)


def test_every_error_class_is_one_of_the_kinds() -> None:
    import importlib

    from koloda import errors

    kinds = (
        errors.NotationError,
        errors.IllegalActionError,
        errors.OptionsError,
        errors.RecordError,
        errors.RequestError,
        errors.NotFoundError,
    )
    found = []
    skip = ("koloda.__main__", "koloda.store.migrations", "koloda.rl")  # a program, Alembic's, an extra
    for name in MODULES:
        if name.startswith(skip):
            continue
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, type) and issubclass(value, errors.KolodaError):
                found.append(value)
                # the web's Refusal is a mixin: each refusal raised is also one of the kinds
                assert (
                    value in (errors.KolodaError, *kinds)
                    or issubclass(value, kinds)
                    or value.__name__ == "Refusal"
                )
    assert len(set(found)) > len(kinds) + 1
