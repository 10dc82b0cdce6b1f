"""The motion-study report command in the real FreeCAD GUI (tests/gui/macros/macro_report.py):
examples/slider_crank.FCStd is solved with the Solve command, the report is written through
the command and through make_report; the report files and the 3D-view GIF exist, the GIF
shows motion (frames differ), and the document's placements and undo count are unchanged.
About 20 s. Set MBD_GUI_ARTIFACTS=<dir> to keep the GIF and frames."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_gui_macro import gui_unavailable_reason, make_user_home, run_gui_macro  # noqa: E402

MACROS = Path(__file__).resolve().parent / "macros"

pytestmark = pytest.mark.skipif(gui_unavailable_reason() is not None, reason=str(gui_unavailable_reason()))


def _gif_frames(path):
    from PIL import Image, ImageSequence

    with Image.open(path) as im:
        return [f.convert("RGB") for f in ImageSequence.Iterator(im)]


def _moving_fraction(a, b):
    """Fraction of pixels that differ between two RGB images."""
    import numpy as np

    d = np.abs(np.asarray(a, dtype=int) - np.asarray(b, dtype=int)).sum(axis=2)
    return float((d > 30).mean())


def _not_background(frame):
    """Pixels that are not the white background (the GIF's palette blurs white a little)."""
    import numpy as np

    return np.asarray(frame, dtype=int).min(axis=2) < 200


def _touches_edge(frame, width=2):
    """Fraction of the picture's border (``width`` pixels) that is not background."""
    import numpy as np

    mask = _not_background(frame)
    border = np.concatenate(
        [mask[:width].ravel(), mask[-width:].ravel(), mask[:, :width].ravel(), mask[:, -width:].ravel()]
    )
    return float(border.mean())


def _covered_fraction(frame):
    return float(_not_background(frame).mean())


def test_report_command_in_gui(tmp_path):
    pytest.importorskip("PIL")
    home = make_user_home(tmp_path / "home", install=True)
    run = run_gui_macro(MACROS / "macro_report.py", tmp_path / "out", user_home=home, timeout=300)
    run.keep_artifacts("report", whole_folder=True)
    run.assert_finished()
    failed = [name for name, ok in run.checks().items() if not ok]
    assert not failed, run.describe()
    assert run.ok and "no undo step after refusal" in run.checks(), run.describe()

    for out in (run.out_dir / "report_cmd", run.out_dir / "report_direct"):
        for name in ("report.html", "report.pdf", "motion.gif", "motion_3d.gif"):
            assert (out / name).is_file() and (out / name).stat().st_size > 0, out / name
        assert (out / "report.pdf").read_bytes()[:5] == b"%PDF-"
        frames = _gif_frames(out / "motion_3d.gif")
        assert len(frames) >= 2
        assert frames[0].size == (640, 480)
        # the crank turns: a frame a quarter of the run later differs visibly from the first
        assert _moving_fraction(frames[0], frames[len(frames) // 4]) > 0.002
        # but the scene is not blank: most of the picture is background in both
        assert _moving_fraction(frames[0], frames[len(frames) // 4]) < 0.5
        # the camera holds the whole motion (the view was zoomed in on the crank before): in every
        # frame the parts stay off the picture's edges and fill a good part of it
        for k, frame in enumerate(frames):
            assert _touches_edge(frame) == 0.0, (out, k)
            assert _covered_fraction(frame) > 0.01, (out, k)

    pngs = sorted((run.out_dir / "report_direct" / "motion_3d_frames").glob("frame_*.png"))
    assert len(pngs) == 24
    assert not (run.out_dir / "report_cmd" / "motion_3d_frames").exists()
