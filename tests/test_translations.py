"""The translation pipeline (tools/translations.py, docs/translations.md): every user-visible
string literal of the panels and commands is marked; the .ts files hold exactly the marked
strings; the German .qm is the compiled MBDWorkbench_de.ts and Qt's own QTranslator reads it.
(tests/gui/test_translation_gui.py checks that FreeCAD loads it for its language setting.)"""

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import translations  # noqa: E402

# Qt calls and our helpers whose first argument is text shown to the user.
SHOWN = {
    "setText",
    "QLabel",
    "QCheckBox",
    "QPushButton",
    "QGroupBox",
    "addRow",
    "addItem",
    "setWindowTitle",
    "setTitle",
    "setToolTip",
    "setStatusTip",
    "setPlaceholderText",
    "label",
    "message",
    "show_error",
}


def unmarked_literals(path: Path) -> list[str]:
    """'file:line text' of string literals (with letters) shown without translate()."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        first = node.args[0]
        if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Mod):
            first = first.left  # "text %s" % value
        if name in SHOWN and isinstance(first, ast.Constant) and isinstance(first.value, str):
            if any(c.isalpha() for c in first.value.replace("%s", "").replace("%d", "").replace("%g", "")):
                found.append("%s:%d %r" % (path.name, node.lineno, first.value))
    return found


def test_no_panel_or_command_string_is_left_unmarked():
    files = sorted((REPO / "MBDWorkbench" / "commands").rglob("*.py"))
    assert len(files) > 15
    unmarked = [hit for path in files for hit in unmarked_literals(path)]
    assert not unmarked, unmarked


def test_the_scan_finds_an_unmarked_label(tmp_path):
    sample = tmp_path / "panel.py"
    sample.write_text(
        'w = QtWidgets.QLabel("Density")\nv = QtWidgets.QLabel(translate("MBD", "Mass"))\n'
        'box.setText("%d of %d variants" % (1, 2))\nbox.setText("%g" % 1.0)\n'
    )
    assert [hit.split(" ", 1)[1] for hit in unmarked_literals(sample)] == ["'Density'", "'%d of %d variants'"]


def ts_messages(path: Path) -> set[tuple[str, str]]:
    import xml.etree.ElementTree as ET

    return {
        (context.findtext("name"), message.findtext("source"))
        for context in ET.parse(path).getroot().iter("context")
        for message in context.iter("message")
    }


def test_ts_files_hold_exactly_the_marked_strings():
    marked = {(c, text) for c, texts in translations.extract().items() for text in texts}
    assert ("MBD", "Density") in marked and ("MBD_Body", "Body") in marked
    for path in [translations.FOLDER / "MBDWorkbench.ts", *translations.language_files()]:
        assert ts_messages(path) == marked, "%s is stale: run tools/translations.py update" % path.name


def test_german_qm_is_the_compiled_ts_and_qt_reads_it():
    de = translations.FOLDER / "MBDWorkbench_de.ts"
    done = translations.read_ts(de)
    assert len(done) >= 10 and done[("MBD", "Density")] == "Dichte"
    qm = de.with_suffix(".qm")
    assert qm.read_bytes() == translations.qm_bytes(done), "run tools/translations.py release"
    QtCore = pytest.importorskip("PySide2.QtCore")
    app = QtCore.QCoreApplication.instance() or QtCore.QCoreApplication([])
    translator = QtCore.QTranslator()
    assert translator.load(str(qm))
    app.installTranslator(translator)
    try:
        for (context, source), text in done.items():
            assert QtCore.QCoreApplication.translate(context, source) == text
        assert QtCore.QCoreApplication.translate("MBD", "Seed") == "Seed"  # not translated: unchanged
    finally:
        app.removeTranslator(translator)
