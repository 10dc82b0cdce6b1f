#!/usr/bin/env python3
"""Report import cycles in the MBDWorkbench package; exit 1 when there is one.

Every import that runs counts (module level and inside functions), relative ones resolved;
``from X import name`` points at ``X.name`` when that is a module of the package, else at
``X``. Imports for type hints only (under ``if TYPE_CHECKING:``) count too: they are arrows a
reader follows, and a layer that needs a type from above is misplaced.
Usage: python3 tools/import_cycles.py [package folder]   (default: MBDWorkbench/)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def module_names(root: Path) -> dict[str, Path]:
    """{dotted module name: file} of every .py file under the package folder ``root``."""
    names = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Modules of the package that module ``name`` (file ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {f"{target}.{a.name}" if f"{target}.{a.name}" in known else target for a in node.names}
    return {m for m in found if m in known and m != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parent.parent / "MBDWorkbench")
    known = module_names(root.resolve())
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    found = cycles(graph)
    for component in found:
        inner = [f"{a} -> {b}" for a in component for b in sorted(graph[a]) if b in component]
        print(f"import cycle among {len(component)} modules:\n  " + "\n  ".join(inner))
    print(f"{len(known)} modules, {len(found)} import cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
