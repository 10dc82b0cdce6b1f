#!/usr/bin/python3
"""Run a macro in the real FreeCAD GUI under Xvfb and collect its JSON result and PNGs.

    from run_gui_macro import run_gui_macro, make_user_home
    home = make_user_home(tmp / "home")              # temporary FreeCAD user folder + install
    run = run_gui_macro("macros/macro_workbench.py", tmp / "out", user_home=home)
    assert run.ok, run.describe()

Command line (prints a summary, exit status 0 when the macro's checks pass):

    /usr/bin/python3 tests/gui/run_gui_macro.py tests/gui/macros/macro_workbench.py [--out DIR]

How it works: ``xvfb-run -a freecad gui_runner_macro.py`` with ``FREECAD_USER_HOME`` set to a
temporary folder (FreeCAD 0.20's user data/config folder override; the Debian 12 ``freecad``
GUI binary crashes on any command-line option, so nothing is passed but the macro file).
The runner exec()s the test macro inside the Qt event loop with helpers (see
gui_runner_macro.py), writes ``result.json``, closes every document unsaved and the main
window so FreeCAD exits; watchdogs inside FreeCAD (``os._exit``) and here (killing the
process group) make sure nothing hangs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RUNNER = HERE / "gui_runner_macro.py"
INSTALLER = REPO / "tools" / "install_workbench.py"

DEFAULT_SCREEN = "1280x1024x24"


@dataclass
class GuiRun:
    returncode: int | None
    result: dict | None
    log: str
    out_dir: Path
    user_home: Path | None
    seconds: float
    timed_out: bool
    forced_exit: str | None
    command: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.result and self.result.get("ok")) and not self.timed_out

    @property
    def screenshots(self) -> list[Path]:
        return sorted(self.out_dir.glob("*.png"))

    def keep_artifacts(self, name: str, whole_folder: bool = False) -> None:
        """Copy the screenshots (or the whole output folder) to $MBD_GUI_ARTIFACTS/<name>, when set."""
        target = os.environ.get("MBD_GUI_ARTIFACTS")
        if not target:
            return
        dest = Path(target) / name
        if whole_folder:
            shutil.copytree(self.out_dir, dest, dirs_exist_ok=True)
            return
        dest.mkdir(parents=True, exist_ok=True)
        for png in self.screenshots:
            shutil.copy2(png, dest / png.name)

    def assert_finished(self) -> None:
        """The macro ended by itself (no timeout, no forced exit) and reported no error."""
        assert not self.timed_out and self.forced_exit is None, self.describe()
        assert self.result is not None and self.result["error"] is None, self.describe()

    def checks(self) -> dict[str, bool]:
        return {c["name"]: c["ok"] for c in (self.result or {}).get("checks", [])}

    def assert_passed(self, *names: str) -> None:
        """Each named check of the macro exists and passed."""
        checks = self.checks()
        missing = [n for n in names if n not in checks]
        failed = [n for n in names if not checks.get(n)]
        assert not missing and not failed, (missing, failed, self.describe())

    def describe(self, log_lines: int = 60) -> str:
        lines = [
            "command: %s" % " ".join(self.command),
            "returncode=%s timed_out=%s forced_exit=%r seconds=%.1f"
            % (self.returncode, self.timed_out, self.forced_exit, self.seconds),
            "out_dir: %s" % self.out_dir,
            "result: %s" % json.dumps(self.result, indent=1, default=str),
            "--- last lines of FreeCAD's output ---",
        ]
        lines += self.log.splitlines()[-log_lines:]
        return "\n".join(lines)


def find_freecad_gui() -> str | None:
    """The FreeCAD GUI executable: $FREECAD_GUI, else freecad/FreeCAD on PATH."""
    override = os.environ.get("FREECAD_GUI")
    if override:
        return override if os.path.isfile(override) else shutil.which(override)
    for name in ("freecad", "FreeCAD", "freecad-daily"):
        exe = shutil.which(name)
        if exe:
            return exe
    return None


def gui_unavailable_reason() -> str | None:
    """Why GUI tests cannot run here, or None when they can."""
    if find_freecad_gui() is None:
        return "FreeCAD GUI executable not found (freecad/FreeCAD on PATH or $FREECAD_GUI)"
    if shutil.which("xvfb-run") is None:
        return "xvfb-run not found (Debian: apt-get install xvfb xauth)"
    return None


def isolated_env(user_home: Path, extra: dict | None = None) -> dict:
    """Environment that points FreeCAD at ``user_home`` and suits Xvfb."""
    env = dict(os.environ)
    user_home = Path(user_home)
    env.update(
        {
            # FreeCAD 0.20: user data, config and macros all go to this folder.
            "FREECAD_USER_HOME": str(user_home),
            # Belt and braces for versions that derive folders from XDG variables instead.
            "XDG_CONFIG_HOME": str(user_home / "xdg-config"),
            "XDG_DATA_HOME": str(user_home / "xdg-data"),
            "XDG_CACHE_HOME": str(user_home / "xdg-cache"),
            "XDG_RUNTIME_DIR": str(user_home / "xdg-runtime"),
            # The Start page's web view aborts without this when run as root.
            "QTWEBENGINE_CHROMIUM_FLAGS": "--no-sandbox",
            "QTWEBENGINE_DISABLE_SANDBOX": "1",
            "QT_QPA_PLATFORM": "xcb",
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("DISPLAY", None)  # xvfb-run sets its own
    if extra:
        env.update(extra)
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        Path(env[key]).mkdir(parents=True, exist_ok=True)
    os.chmod(env["XDG_RUNTIME_DIR"], 0o700)
    return env


_INSTALLER_PREFIX: list[str] | None = None


def installer_command() -> list[str]:
    """How to run tools/install_workbench.py: with this interpreter when it can import
    FreeCAD, else with ``freecadcmd`` (whose script arguments follow ``--``)."""
    global _INSTALLER_PREFIX
    if _INSTALLER_PREFIX is None:
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "from MBDWorkbench.cad.freecad_env import import_freecad; "
                "import_freecad(with_part=False, add_mod_paths=False)",
            ],
            cwd=str(REPO),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )
        cmd = shutil.which("freecadcmd") or shutil.which("FreeCADCmd")
        if probe.returncode == 0 or cmd is None:
            _INSTALLER_PREFIX = [sys.executable, str(INSTALLER)]
        else:
            _INSTALLER_PREFIX = [cmd, str(INSTALLER), "--"]
    return list(_INSTALLER_PREFIX)


def make_user_home(user_home: Path, install: bool = True, layout: str = "root") -> Path:
    """Create a temporary FreeCAD user folder and (optionally) install the workbench in it.

    The installer asks FreeCAD (headless, same environment) for its user Mod folder, so this
    also checks that the override is honoured.
    """
    user_home = Path(user_home)
    user_home.mkdir(parents=True, exist_ok=True)
    if install:
        env = isolated_env(user_home)
        cmd = installer_command() + ["--layout", layout]
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError("installing the workbench failed:\n%s" % proc.stdout)
        mod_link = user_home / "Mod" / "MultibodyDynamics"
        if not mod_link.is_symlink():
            raise RuntimeError(
                "the installer did not link %s (FreeCAD ignored FREECAD_USER_HOME?):\n%s" % (mod_link, proc.stdout)
            )
    return user_home


def _kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue


def solver_cache_home() -> str:
    """The caller's cache folder (where MBDWorkbench.solver keeps its Numba cache)."""
    return os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")


def run_gui_macro(
    macro,
    out_dir,
    user_home=None,
    timeout: float = 120.0,
    screen: str = DEFAULT_SCREEN,
    extra_env: dict | None = None,
) -> GuiRun:
    """Run ``macro`` (a .py file) in FreeCAD's GUI under Xvfb; return what happened.

    ``user_home``: FreeCAD user folder (see :func:`make_user_home`); default ``out_dir/home``
    without the workbench installed. ``timeout``: seconds for the macro inside FreeCAD; the
    whole process is killed 30 s later.
    """
    reason = gui_unavailable_reason()
    if reason:
        raise RuntimeError(reason)
    macro = Path(macro).resolve()
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in ("result.json", "forced_exit"):
        try:
            (out_dir / stale).unlink()
        except FileNotFoundError:
            pass
    if user_home is None:
        user_home = make_user_home(out_dir / "home", install=False)
    env = isolated_env(
        Path(user_home),
        dict(
            # the solver's compiled (Numba) kernels: reuse this user's cache, saves ~20 s a run
            {"XDG_CACHE_HOME": solver_cache_home()},
            **(extra_env or {}),
            MBD_GUI_MACRO=str(macro),
            MBD_GUI_OUT=str(out_dir),
            MBD_GUI_TIMEOUT=str(timeout),
        ),
    )
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 %s" % screen, find_freecad_gui(), str(RUNNER)]
    log_path = out_dir / "freecad-output.txt"
    started = time.time()
    timed_out = False
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            cmd,
            env=env,
            cwd=str(out_dir),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            proc.wait(timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
        else:
            _kill_group(proc)  # leftovers (Xvfb, web engine helpers) if any
    seconds = time.time() - started
    result = None
    result_path = out_dir / "result.json"
    if result_path.exists():
        try:
            result = json.loads(result_path.read_text())
        except ValueError:
            result = {"ok": False, "error": "unreadable result.json"}
    forced = out_dir / "forced_exit"
    return GuiRun(
        returncode=proc.returncode,
        result=result,
        log=log_path.read_text(errors="replace"),
        out_dir=out_dir,
        user_home=Path(user_home),
        seconds=seconds,
        timed_out=timed_out,
        forced_exit=forced.read_text().strip() if forced.exists() else None,
        command=cmd,
    )


def png_stats(path) -> dict:
    """Size and simple 'is it blank?' numbers of a PNG, read with Pillow (or just the header)."""
    path = Path(path)
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return {"png": False}
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    stats = {"png": True, "width": width, "height": height, "bytes": len(data)}
    try:
        from PIL import Image
    except ImportError:
        return stats
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        small = rgb.resize((min(width, 200), min(height, 200)))
        pixels = list(small.getdata())
        corner = pixels[0]
        stats["distinct_colors"] = len(set(pixels))
        stats["non_background_fraction"] = sum(p != corner for p in pixels) / float(len(pixels))
        lo, hi = zip(*rgb.getextrema())
        stats["extrema"] = [list(lo), list(hi)]
    return stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("macro")
    parser.add_argument("--out", default=None, help="output folder (default: a new temp folder)")
    parser.add_argument("--no-install", action="store_true", help="do not install the workbench")
    parser.add_argument("--layout", choices=("root", "package"), default="root")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    import tempfile

    out = Path(args.out or tempfile.mkdtemp(prefix="mbd-gui-"))
    home = make_user_home(out / "home", install=not args.no_install, layout=args.layout)
    run = run_gui_macro(args.macro, out, user_home=home, timeout=args.timeout)
    print(run.describe(log_lines=20))
    for png in run.screenshots:
        print("screenshot: %s %s" % (png, png_stats(png)))
    return 0 if run.ok else 1


if __name__ == "__main__":
    sys.exit(main())
