"""Point Numba's on-disk cache at a folder keyed by a hash of the kernel sources.

Numba's cache checks only the file that defines a kernel, not the files of its callees or of
the constants it reads (which are frozen into the compiled code), so the folder is keyed by the
sources of every module that can change compiled code: the *kernel sources*. They are found
from the source text, before any kernel module is imported (:func:`kernel_sources`, an AST scan
that follows files wherever they live under ``solver/``):

- every module with a kernel: a function decorated with (or passed to) a decorator imported
  under the name ``njit`` or ``njit_python_errors`` (``jit.py``'s, aliases included) or
  ``numba.njit``/``numba.jit``;
- every module a kernel reaches through the names it reads: a kernel or plain function called,
  a constant, a namedtuple class, the decorators themselves (``jit.py``), followed through
  imports, re-exports and the top-level statements that define or change those names.

Editing any other module (the catalogue, the model schema, results files, integrator drivers
in Python) keeps the cache; editing a kernel source starts from a clean one.
tests/test_cache.py checks the scan against ``jit.KERNELS`` after import and end to end in a
subprocess. The scan (0.1-0.4 s) is remembered in a small file keyed by a hash of all
sources. The folder is outside the package (which may be read-only). Override with
NUMBA_CACHE_DIR."""

from __future__ import annotations

import ast
import hashlib
import os

DECORATORS = frozenset({"njit", "njit_python_errors"})  # names imported from solver/numerics/jit.py
NUMBA_DECORATORS = frozenset({"njit", "jit"})  # numba.njit / numba.jit used directly


def source_files(root: str) -> list:
    """Relative paths of every .py file under ``root`` (subfolders included), sorted."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.relpath(os.path.join(folder, f), root) for f in sorted(files) if f.endswith(".py")]
    return found


def source_digest(root: str, files=None) -> str:
    """SHA-1 of the relative paths and contents of ``files`` (default: every .py under ``root``)."""
    digest = hashlib.sha1()
    for rel in source_files(root) if files is None else files:
        with open(os.path.join(root, rel), "rb") as f:
            digest.update(rel.replace(os.sep, "/").encode() + f.read())
    return digest.hexdigest()


# ----------------------------------------------------------------------------- the scan
def _module_name(rel: str) -> str:
    """'integrators/galpha_kernel.py' -> 'integrators.galpha_kernel'; 'x/__init__.py' -> 'x'."""
    parts = rel[:-3].replace(os.sep, "/").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_prefix(root: str) -> str:
    """The dotted import name of ``root`` ('MBDWorkbench.solver'), from its __init__.py files."""
    names, folder = [], os.path.abspath(root)
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        names.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    return ".".join(names)


class _Module:
    """One parsed module: what its names are bound to and which top-level statements touch them."""

    def __init__(self, scan: _Scan, name: str, rel: str, tree: ast.Module) -> None:
        self.tree = tree
        self.package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
        self.imports: dict = {}  # local name -> (module inside root or None, attribute or None, external name)
        self.statements: dict = {}  # name -> top-level statements that bind or change it
        self.stars: list = []  # modules inside root imported with ``from x import *``
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._add_import(scan, node)
            for stored in _bound_names(node):
                self.statements.setdefault(stored, []).append(node)

    def _add_import(self, scan: _Scan, node) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.partition(".")[0]
                target = alias.name if alias.asname else local
                self.imports[local] = (scan.inside(target), None, target)
            return
        if node.level:
            base = self.package.split(".") if self.package else []
            base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
            source = ".".join(base + ([node.module] if node.module else []))
            inside = source
        else:
            source, inside = node.module or "", scan.inside(node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self.stars += [inside] if inside is not None else []
            else:
                self.imports[alias.asname or alias.name] = (inside, alias.name, source)


def _bound_names(node) -> set:
    """Names a top-level statement binds or may change (targets, subscripted/attributed bases,
    everything an expression statement or compound statement mentions)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {
            (a.asname or a.name).partition(".")[0] if isinstance(node, ast.Import) else a.asname or a.name
            for a in node.names
        }
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _is_decorator(module: _Module, node) -> bool:
    """Whether ``node`` (a decorator or a called expression) is a kernel decorator."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name) and node.id in module.imports:
        inside, attr, source = module.imports[node.id]
        return attr in DECORATORS or (source == "numba" and attr in NUMBA_DECORATORS)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return module.imports.get(node.value.id, (None, None, ""))[2] == "numba" and node.attr in NUMBA_DECORATORS
    return False


def _reads(node) -> set:
    """(name, attribute or None) for every name ``node`` mentions; ``name.attr`` gives both
    forms. A decorator's ``interpreted=`` function (run by Python only) is left out."""
    found, skip = set(), set()
    for d in getattr(node, "decorator_list", []):
        if isinstance(d, ast.Call):
            skip |= {id(k.value) for k in d.keywords if k.arg == "interpreted"}
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in skip:
            continue
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            found.add((n.value.id, n.attr))
        if isinstance(n, ast.Name):
            found.add((n.id, None))
        stack.extend(ast.iter_child_nodes(n))
    return found


class _Scan:
    """The kernel sources of one folder (see the module docstring)."""

    def __init__(self, root: str) -> None:
        self.root, self.prefix = root, _package_prefix(root)
        self.files = {_module_name(rel): rel for rel in source_files(root)}
        self.modules: dict = {}
        self.done: set = set()
        self.used: set = set()  # module names in the key
        self._reads: dict = {}

    def reads(self, node) -> set:
        """:func:`_reads`, once per node."""
        found = self._reads.get(id(node))
        if found is None:
            found = self._reads[id(node)] = _reads(node)
        return found

    def inside(self, dotted: str):
        """The module name inside root of an absolute import, or None."""
        if self.prefix and (dotted == self.prefix or dotted.startswith(self.prefix + ".")):
            return dotted[len(self.prefix) + 1 :]
        return None

    def module(self, name: str):
        """The parsed module ``name`` (parsed once), or None if it is not under root."""
        if name not in self.modules:
            rel = self.files.get(name)
            if rel is None:
                self.modules[name] = None
            else:
                with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                    self.modules[name] = _Module(self, name, rel, ast.parse(f.read(), rel))
        return self.modules[name]

    def kernels(self, module: _Module) -> list:
        """The functions of ``module`` compiled as kernels (nested ones too, searched statement by
        statement), and the calls that pass a function to a decorator (``njit(f)``)."""
        roots, statements = [], list(module.tree.body)
        while statements:
            node = statements.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _is_decorator(module, d) for d in node.decorator_list
            ):
                roots.append(node)
            value = getattr(node, "value", None)
            if isinstance(value, ast.Call) and value.args and isinstance(value.args[0], ast.Name):
                func = value.func.func if isinstance(value.func, ast.Call) else value.func
                if _is_decorator(module, func):
                    roots.append(value)
            for field in ("body", "orelse", "finalbody", "handlers"):
                statements += getattr(node, field, [])
        return roots

    def run(self) -> list:
        """Relative paths of the kernel sources, sorted."""
        work = []
        for name, rel in self.files.items():
            with open(os.path.join(self.root, rel), encoding="utf-8") as f:
                if "jit" not in f.read():
                    continue
            module = self.module(name)
            for node in self.kernels(module):
                self.used.add(name)
                work += [(name, read) for read in self.reads(node)]
        while work:
            work += self.follow(*work.pop())
        return sorted(self.files[m] for m in self.used)

    def follow(self, name: str, read: tuple) -> list:
        """The reads that reading ``read`` = (name, attribute) in module ``name`` leads to."""
        if (name, read) in self.done:
            return []
        self.done.add((name, read))
        module = self.module(name)
        local, attr = read
        if module is None:
            return []
        found = []
        inside, imported, _ = module.imports.get(local, (None, None, ""))
        if inside is not None:
            self.used.add(name)
            target = inside if imported is None else f"{inside}.{imported}".strip(".")
            if target in self.files:  # a module: what is read from it
                self.used.add(target)
                found += [(target, (attr, None))] if attr else []
            elif inside in self.files:
                found.append((inside, (imported, attr)))
        statements = module.statements.get(local, [])
        if statements:
            self.used.add(name)
        elif inside is None:  # perhaps bound by a star import
            found += [(star, read) for star in module.stars]
        return found + [(name, r) for s in statements for r in self.reads(s)]


def kernel_sources(root: str) -> list:
    """Relative paths (under ``root``) of the modules that define kernels or whose code or
    constants are compiled into them."""
    return _Scan(root).run()


def cache_key(root: str) -> str:
    """Hash of the kernel sources under ``root`` (the scan remembered per all-sources hash)."""
    return source_digest(root, _remembered_kernel_sources(root))


def _cache_base() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mbdworkbench")


def _remembered_kernel_sources(root: str) -> list:
    """:func:`kernel_sources`, read from or written to a note named by the hash of all sources."""
    note = os.path.join(_cache_base(), "kernel-sources-" + source_digest(root)[:16] + ".txt")
    try:
        with open(note, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError:
        pass
    files = kernel_sources(root)
    try:
        os.makedirs(os.path.dirname(note), exist_ok=True)
        with open(note + ".tmp%d" % os.getpid(), "w", encoding="utf-8") as f:
            f.write("\n".join(files))
        os.replace(note + ".tmp%d" % os.getpid(), note)
    except OSError:
        pass
    return files


def solver_root() -> str:
    """The folder of the solver package (``MBDWorkbench/solver``), wherever this module lies in it."""
    folder = os.path.dirname(os.path.abspath(__file__))
    for _ in range(max(__name__.count(".") - 2, 0)):  # MBDWorkbench.solver[.sub]._cache
        folder = os.path.dirname(folder)
    return folder


def configure() -> None:
    """Set numba.config.CACHE_DIR unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = os.path.join(_cache_base(), "numba-" + cache_key(solver_root())[:16])
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return
    import numba

    numba.config.CACHE_DIR = folder
