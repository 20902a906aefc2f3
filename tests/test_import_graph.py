"""The import graph of the whole tree (companion, rules, vision, hardware, calibration): no
circles, and only the composition root knows the app class (docs/app.md).

Every import counts, those inside functions and under ``TYPE_CHECKING`` too: a circle there is
one a reader follows, and one a lazy import can close at run time. The graph is grimp's (the
library behind import-linter).
"""

from __future__ import annotations

import functools

import grimp
import pytest

PACKAGES = ("companion", "rules", "vision", "hardware", "calibration")
#: The one module that builds the app and gives it its screens.
COMPOSITION_ROOT = "companion.compose"


@functools.cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def circles(g: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """Each circle once, as its shortest path from its first module (by name) back to it."""
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for module in sorted(g.modules):
        for imported in sorted(g.find_modules_directly_imported_by(module)):
            back = g.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                found.setdefault(frozenset(back), (module, *back))
    return sorted(found.values())


def test_the_graph_holds_every_package() -> None:
    modules = graph().modules
    for name in (*PACKAGES, "companion.app", COMPOSITION_ROOT, "companion.screens",
                 "companion.screens.start", "companion.tournament.hub",
                 "companion.history.screen"):
        assert name in modules, name
    # lazy imports inside functions are in it (a play's link asks for the history's own
    # modules only in the function)
    assert graph().direct_import_exists(importer="companion.services.plays",
                                        imported="companion.history.bgstats")


def test_there_is_no_import_circle_in_the_tree() -> None:
    found = circles(graph())
    assert found == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_only_the_composition_root_imports_the_app() -> None:
    importers = graph().find_modules_that_directly_import("companion.app")
    assert importers == {COMPOSITION_ROOT}


@pytest.mark.parametrize("screen", ["companion.screens", "companion.history.screen",
                                    "companion.tournament.screen", "companion.tournament.hub"])
def test_the_app_imports_none_of_its_screens(screen: str) -> None:
    """Nor any module inside a screen package (``companion.screens`` is one: start, settings,
    dice ...); the composition root does import them, so the check can see such a chain."""
    g = graph()
    assert not g.chain_exists(importer="companion.app", imported=screen, as_packages=True), \
        min(g.find_shortest_chains(importer="companion.app", imported=screen, as_packages=True))
    assert g.chain_exists(importer=COMPOSITION_ROOT, imported=screen, as_packages=True)


def test_the_tournament_export_is_below_both_its_callers() -> None:
    """The command runs the demo; the demo never reaches back into the command."""
    g = graph()
    assert not g.chain_exists(importer="companion.tournament.demo",
                              imported="companion.commands.tournament")
    for caller in ("companion.commands.tournament", "companion.tournament.demo"):
        assert g.direct_import_exists(importer=caller, imported="companion.tournament.export")


def test_a_circle_is_found_and_named() -> None:
    """The circle finder itself: a graph with one circle of three and one edge off it."""
    g = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        g.add_import(importer=a, imported=b)
    assert circles(g) == [("p.a", "p.b", "p.c", "p.a")]


#: What each package may import of ours (ARCHITECTURE.md: one direction).
MAY_IMPORT = {"rules": set(), "vision": set(), "hardware": set(), "calibration": {"vision"},
              "companion": {"rules", "vision", "hardware", "calibration"}}


def packages_imported(g: grimp.ImportGraph, package: str) -> dict[str, tuple[str, ...]]:
    """Each other package of ours that ``package`` imports, directly or through another, with
    one shortest chain showing it."""
    found: dict[str, tuple[str, ...]] = {}
    for other in PACKAGES:
        if other != package and g.chain_exists(importer=package, imported=other,
                                               as_packages=True):
            chain = g.find_shortest_chains(importer=package, imported=other, as_packages=True)
            found[other] = min(chain)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_those_below_it(package: str) -> None:
    found = packages_imported(graph(), package)
    wrong = {k: v for k, v in found.items() if k not in MAY_IMPORT[package]}
    assert wrong == {}, f"{package} imports " + "; ".join(
        f"{k} ({' -> '.join(v)})" for k, v in wrong.items())


def test_a_wrong_direction_is_found() -> None:
    """The direction check itself: rules importing hardware is named with its chain."""
    g = grimp.ImportGraph()
    for package in PACKAGES:
        g.add_module(package)
    for a, b in (("rules.core", "rules.x"), ("rules.x", "hardware.files"),
                 ("companion.app", "rules.core")):
        g.add_import(importer=a, imported=b)
    assert packages_imported(g, "rules") == {"hardware": ("rules.x", "hardware.files")}
    assert packages_imported(g, "companion") == {  # (through others counts too)
        "rules": ("companion.app", "rules.core"),
        "hardware": ("companion.app", "rules.core", "rules.x", "hardware.files")}
