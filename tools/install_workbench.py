#!/usr/bin/python3
"""Install (link) the Multibody Dynamics workbench into FreeCAD's user Mod folder.

    /usr/bin/python3 tools/install_workbench.py              # install (idempotent)
    /usr/bin/python3 tools/install_workbench.py --uninstall
    freecadcmd tools/install_workbench.py -- --uninstall     # under FreeCAD: args after --

The Mod folder is asked from FreeCAD (``App.getUserAppDataDir() + "Mod"``), so it follows
``FREECAD_USER_HOME`` and any other override FreeCAD honours. A symbolic link
``<Mod>/MultibodyDynamics`` is made to the repository root: the same layout the Addon Manager
produces (a clone of the repository whose package.xml names the ``MBDWorkbench``
subdirectory). ``--layout package`` links the ``MBDWorkbench`` folder itself instead (also
supported by Init.py/InitGui.py). Use ``--mod-dir`` to skip asking FreeCAD.

``--warm`` also compiles the solver kernels into the Numba cache in the background (a detached
process, a short slider-crank run with rk4 then galpha, about a minute; its log is printed), so
that the first Solve after the install finds them compiled; ``--warm-foreground`` does it and
waits (also without installing: ``--warm-foreground --no-install``). The cache is the one a
Solve uses: ``$XDG_CACHE_HOME/mbdworkbench/numba-<hash of the solver sources>``, so run it as
the user who runs FreeCAD (bench/results/cold_start.md has the compile times).

Run with the Python FreeCAD was built for (Debian: /usr/bin/python3) or with freecadcmd.
Exit status: 0 done or nothing to do, 1 refused (something else is in the way), 2 usage/FreeCAD
not found.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

DEFAULT_NAME = "MultibodyDynamics"


def repo_root() -> str:
    here = globals().get("__file__") or (sys.argv[0] if sys.argv else "")
    return os.path.dirname(os.path.dirname(os.path.realpath(here)))


def user_mod_dir() -> str:
    """FreeCAD's user Mod folder, asked from FreeCAD itself."""
    App = sys.modules.get("FreeCAD")
    if App is None:
        root = repo_root()
        if root not in sys.path:
            sys.path.insert(0, root)
        from MBDWorkbench.cad.freecad_env import import_freecad

        App = import_freecad(with_part=False, add_mod_paths=False)
    return os.path.join(App.getUserAppDataDir(), "Mod")


def _same(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _ours(path: str, root: str) -> bool:
    """Does ``path`` resolve to this repository (root or its MBDWorkbench folder)?"""
    return _same(path, root) or _same(path, os.path.join(root, "MBDWorkbench"))


def other_links_to_us(mod_dir: str, name: str, root: str):
    if not os.path.isdir(mod_dir):
        return []
    return [
        os.path.join(mod_dir, entry)
        for entry in sorted(os.listdir(mod_dir))
        if entry != name and _ours(os.path.join(mod_dir, entry), root)
    ]


def _other_checkout(link: str) -> bool:
    """True if ``link`` resolves to another checkout of this project (safe to re-point)."""
    real = os.path.realpath(link)
    return any(
        os.path.isfile(os.path.join(folder, "MBDWorkbench", "cad", "freecad_env.py"))
        for folder in (real, os.path.dirname(real))
    )


def install(mod_dir: str, name: str, source: str, root: str, force: bool) -> int:
    target = os.path.join(mod_dir, name)
    if not os.path.isdir(mod_dir):
        os.makedirs(mod_dir)
        print("created %s" % mod_dir)
    if os.path.islink(target):
        current = os.readlink(target)
        if _same(target, source) and os.path.exists(target):
            print("already installed: %s -> %s" % (target, current))
        elif _ours(target, root) or _other_checkout(target) or force or not os.path.exists(target):
            os.remove(target)
            os.symlink(source, target)
            print("replaced link %s: %s -> %s" % (target, current, source))
        else:
            print("refused: %s is a link to %s (not this repository); use --force to replace it" % (target, current))
            return 1
    elif os.path.exists(target):
        print(
            "refused: %s exists and is not a link (a copy installed by hand or by the Addon "
            "Manager?); remove it first" % target
        )
        return 1
    else:
        os.symlink(source, target)
        print("installed: %s -> %s" % (target, source))
    for other in other_links_to_us(mod_dir, name, root):
        print("warning: %s also points at this repository; FreeCAD would load the workbench twice: remove it" % other)
    return 0


def uninstall(mod_dir: str, name: str, root: str, force: bool) -> int:
    target = os.path.join(mod_dir, name)
    if os.path.islink(target):
        if _ours(target, root) or force or not os.path.exists(target):
            current = os.readlink(target)
            os.remove(target)
            print("removed link %s -> %s" % (target, current))
            return 0
        print("refused: %s points at %s, not at this repository; use --force" % (target, os.readlink(target)))
        return 1
    if os.path.exists(target):
        print("refused: %s is not a link; remove it by hand" % target)
        return 1
    print("nothing to uninstall: %s does not exist" % target)
    return 0


WARM_INTEGRATORS = ("rk4", "galpha")


def warm_cache(root: str) -> int:
    """Compile the solver kernels into the Numba cache: a 2-step slider-crank run per integrator."""
    if root not in sys.path:
        sys.path.insert(0, root)
    from MBDWorkbench import cli

    example = os.path.join(root, "examples", "slider_crank.json")
    os.environ["MBD_COLD_START"] = "compile"  # compile here (solver/numerics/cold_start.py)
    code = 0
    for integrator in WARM_INTEGRATORS:
        folder = tempfile.mkdtemp(prefix="mbd-warm-")
        try:
            args = ["simulate", example, "--integrator", integrator, "--t-end", "0.002", "--step", "1e-3"]
            code = max(code, cli.main(args + ["--out", os.path.join(folder, "out")]) or 0)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return code


def start_warm_up(root: str) -> str:
    """Start :func:`warm_cache` in a detached background process (this process's Python, also
    under freecadcmd: solver.numerics.cold_start.python_executable); returns its log file."""
    if root not in sys.path:
        sys.path.insert(0, root)
    from MBDWorkbench.solver.numerics.cold_start import python_executable

    log = os.path.join(tempfile.gettempdir(), "mbdworkbench-warm-up-%d.log" % os.getpid())
    script = os.path.join(root, "tools", "install_workbench.py")
    cmd = [python_executable(), script, "--warm-foreground", "--no-install"]
    with open(log, "w") as out:
        subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    return log


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    argv = [a for a in argv if a != "--"]  # freecadcmd passes script args after "--"
    parser = argparse.ArgumentParser(
        prog="install_workbench.py",
        description="Link the Multibody Dynamics workbench into FreeCAD's user Mod folder.",
    )
    parser.add_argument("--uninstall", action="store_true", help="remove the link")
    parser.add_argument("--mod-dir", help="Mod folder to use instead of asking FreeCAD")
    parser.add_argument("--name", default=DEFAULT_NAME, help="name of the link (default %(default)s)")
    parser.add_argument(
        "--layout",
        choices=("root", "package"),
        default="root",
        help="link the repository root (default, Addon Manager layout) or the MBDWorkbench folder",
    )
    parser.add_argument("--force", action="store_true", help="replace/remove a link that points somewhere else")
    parser.add_argument("--warm", action="store_true", help="compile the solver kernels in the background")
    parser.add_argument("--warm-foreground", action="store_true", help="compile the solver kernels and wait")
    parser.add_argument("--no-install", action="store_true", help="with --warm-foreground: only compile")
    args = parser.parse_args(argv)

    root = repo_root()
    if not os.path.isfile(os.path.join(root, "MBDWorkbench", "InitGui.py")):
        print("error: %s does not look like the repository (no MBDWorkbench/InitGui.py)" % root)
        return 2
    if args.no_install:
        if not args.warm_foreground:
            parser.error("--no-install goes with --warm-foreground")
        return warm_cache(root)
    if args.mod_dir:
        mod_dir = os.path.abspath(args.mod_dir)
    else:
        try:
            mod_dir = user_mod_dir()
        except ImportError as exc:
            print("error: %s\n(or pass --mod-dir)" % exc)
            return 2
        print("FreeCAD user Mod folder: %s" % mod_dir)
    source = root if args.layout == "root" else os.path.join(root, "MBDWorkbench")
    if args.uninstall:
        return uninstall(mod_dir, args.name, root, args.force)
    code = install(mod_dir, args.name, source, root, args.force)
    if code == 0 and args.warm_foreground:
        return warm_cache(root)
    if code == 0 and args.warm:
        print("compiling the solver kernels in the background (about a minute); log: %s" % start_warm_up(root))
    return code


# freecadcmd runs this file with __name__ == "install_workbench", with the script as argv[0].
if __name__ == "__main__" or (
    sys.argv and globals().get("__file__") and os.path.realpath(sys.argv[0]) == os.path.realpath(__file__)
):
    _code = main()
    sys.stdout.flush()
    sys.exit(_code)
