"""Repository-wide rules: no import circle in the package, no module that imports another module's
private names, no file over 700 lines, docs tables derived from the catalogue."""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(script, *args):
    return subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", script), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_package_has_no_import_cycle():
    proc = _run("import_cycles.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 import cycle" in proc.stdout


def test_docs_catalogue_tables_are_current():
    proc = _run("catalog_docs.py", "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_docs_name_every_force_and_driver_type():
    from MBDWorkbench.solver.model.catalog import DRIVER_TYPES, FORCE_TYPES

    with open(os.path.join(ROOT, "docs", "model-format.md"), encoding="utf-8") as f:
        text = f.read()
    missing = [name for name in (*FORCE_TYPES, *DRIVER_TYPES) if f"`{name}`" not in text and f'"{name}"' not in text]
    assert not missing, f"docs/model-format.md does not describe {missing}"


MAX_LINES = 700
BOOTSTRAP = {"Init.py", "InitGui.py"}  # FreeCAD's entry files at the package root


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _modules(package: str) -> dict[str, str]:
    """{dotted module name: file} of every .py file under the folder ``package``."""
    found = {}
    base = os.path.dirname(package)
    for folder, _, files in os.walk(package):
        for name in files:
            if name.endswith(".py"):
                parts = os.path.relpath(os.path.join(folder, name), base)[:-3].split(os.sep)
                found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = os.path.join(folder, name)
    return found


def _imported_module(module: str, path: str, node: ast.ImportFrom) -> str:
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def private_imports(package: str) -> set[str]:
    """'file: module.name' for every private name of another module of ``package`` that a module
    imports (``from m import _name``) or reads from an imported module (``m._name``). A private
    module (``from . import _cache``) and dunder names are allowed."""
    modules = _modules(package)
    root = os.path.basename(package)
    found = set()
    for module, path in modules.items():
        if os.path.dirname(path) == package and os.path.basename(path) in BOOTSTRAP:
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        aliases = {}
        where = os.path.relpath(path, package).replace(os.sep, "/")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _imported_module(module, path, node)
                if target not in modules:
                    continue
                for a in node.names:
                    if f"{target}.{a.name}" in modules:
                        aliases[a.asname or a.name] = f"{target}.{a.name}"
                    elif _is_private(a.name):
                        found.add(f"{where}: {target.removeprefix(root + '.')}.{a.name}")
            elif isinstance(node, ast.Import):
                aliases.update({a.asname: a.name for a in node.names if a.asname and a.name in modules})
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _is_private(node.attr):
                if node.value.id in aliases:
                    found.add(f"{where}: {aliases[node.value.id].removeprefix(root + '.')}.{node.attr}")
    return found


def test_no_module_imports_private_names_of_another():
    found = private_imports(os.path.join(ROOT, "MBDWorkbench"))
    assert found == set(), "private names imported across modules"


def test_private_import_check_finds_both_forms(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__version__ = '1'\n")
    (pkg / "_cache.py").write_text("def configure():\n    pass\n")
    (pkg / "a.py").write_text("_hidden = 1\nshown = 2\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "InitGui.py").write_text("from .a import _hidden\n")  # the bootstrap may
    allowed = "from .. import __version__, _cache, a\nfrom ..a import shown\nx = a.shown + _cache.configure()\n"
    b = pkg / "sub" / "b.py"
    b.write_text(allowed)
    assert private_imports(str(pkg)) == set()
    b.write_text(allowed + "from ..a import _hidden\n")
    assert private_imports(str(pkg)) == {"sub/b.py: a._hidden"}
    b.write_text(allowed + "y = a._hidden\n")
    assert private_imports(str(pkg)) == {"sub/b.py: a._hidden"}


def test_no_file_over_max_lines():
    long = {}
    for path in _modules(os.path.join(ROOT, "MBDWorkbench")).values():
        with open(path, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_LINES:
            long[os.path.relpath(path, ROOT)] = n
    assert not long, f"files over {MAX_LINES} lines: {long}"
