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
    "addButton",
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


# Message boxes and their helpers: the positions of their arguments shown to the user (title, text).
MESSAGES = {
    "message": (0, 1),
    "warning_box": (0, 1),
    "notice_box": (0, 1),
    "question": (1, 2),  # QMessageBox.question(parent, title, text)
    "information": (1, 2),
    "warning": (1, 2),
    "critical": (1, 2),
    "stored_results_or_message": (1,),
}
COMMAND_TEXTS = {"MENU", "TIP"}  # a command class's menu text and tooltip


def literal_text(node: ast.AST) -> str | None:
    """The string literal a shown argument starts with ("text %s" % v, "text" + v), else None."""
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        node = node.left
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        for spec in ("%s", "%d", "%g", "%r"):
            text = text.replace(spec, "")
        return node.value if any(c.isalpha() for c in text) else None
    return None


def shown_arguments(node: ast.AST) -> list[ast.AST]:
    """The arguments of a call, or the values of a MENU/TIP assignment, that the user reads."""
    if isinstance(node, ast.Assign):
        names = [t for target in node.targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        return [v for n, v in zip(names, values) if getattr(n, "id", "") in COMMAND_TEXTS]
    if not isinstance(node, ast.Call) or not node.args:
        return []
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    positions = MESSAGES.get(name) or ((0,) if name in SHOWN else ())
    return [node.args[k] for k in positions if k < len(node.args)]


def unmarked_literals(path: Path) -> list[str]:
    """'file:line text' of string literals (with letters) shown without translate()."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        for argument in shown_arguments(node):
            text = literal_text(argument)
            if text is not None:
                found.append((argument.lineno, "%s:%d %r" % (path.name, argument.lineno, text)))
    return [hit for _, hit in sorted(found)]


def test_no_panel_or_command_string_is_left_unmarked():
    files = sorted((REPO / "MBDWorkbench" / "commands").rglob("*.py"))
    assert len(files) > 15
    unmarked = [hit for path in files for hit in unmarked_literals(path)]
    assert not unmarked, unmarked


def untranslated_catalog_texts(path: Path) -> list[str]:
    """'file:line expression' of catalogue texts (a record's ``label`` or ``tooltip``, a field's
    ``spec.doc``) used without catalog_text(); an undo step's name (``undo_name = ...``) stays English."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = set()
    for node in ast.walk(tree):
        translated = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "catalog_text"
        undo = isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "undo_name" for t in node.targets)
        if translated or undo:
            allowed |= {id(sub) for part in (node.args if translated else [node.value]) for sub in ast.walk(part)}
        if isinstance(node, ast.Call):
            allowed.add(id(node.func))  # self.label(...): a method
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or id(node) in allowed or isinstance(node.ctx, ast.Store):
            continue
        owner = ast.unparse(node.value)
        if (node.attr in ("label", "tooltip") and owner != "self") or (node.attr, owner) == ("doc", "spec"):
            found.append((node.lineno, "%s:%d %s" % (path.name, node.lineno, ast.unparse(node))))
    return [hit for _, hit in sorted(found)]


def test_catalogue_texts_are_shown_translated():
    files = sorted((REPO / "MBDWorkbench" / "commands").rglob("*.py"))
    untranslated = [hit for path in files for hit in untranslated_catalog_texts(path)]
    assert not untranslated, untranslated
    marked = translations.extract()[translations.CATALOG]
    assert (
        "Revolute joint" in marked and "Rotation about one axis (pick a circular edge, cylindrical face, ...)" in marked
    )


def test_the_scan_finds_an_untranslated_catalogue_text(tmp_path):
    sample = tmp_path / "panel.py"
    sample.write_text(
        "items = [(n, r.label) for n, r in JOINTS.items()]\nw.setToolTip(catalog_text(JOINTS[t].tooltip))\n"
        "w.setToolTip(spec.doc)\nself.label(catalog_text(record.tooltip))\nundo_name = record.label\n"
    )
    assert [hit.split(" ", 1)[1] for hit in untranslated_catalog_texts(sample)] == ["r.label", "spec.doc"]


def test_the_scan_finds_an_unmarked_label(tmp_path):
    sample = tmp_path / "panel.py"
    sample.write_text(
        'w = QtWidgets.QLabel("Density")\nv = QtWidgets.QLabel(translate("MBD", "Mass"))\n'
        'box.setText("%d of %d variants" % (1, 2))\nbox.setText("%g" % 1.0)\n'
    )
    assert [hit.split(" ", 1)[1] for hit in unmarked_literals(sample)] == ["'Density'", "'%d of %d variants'"]


def test_the_scan_finds_unmarked_message_texts_and_command_texts(tmp_path):
    sample = tmp_path / "command.py"
    sample.write_text(
        'message(translate("MBD", "Solve"), "No results yet: run Solve first.", "error")\n'
        'warning_box("Solve", translate("MBD", "Refused"), NAME)\n'
        'box = QtWidgets.QMessageBox.question(w, translate("MBD", "Report"), "Replace %s?" % path)\n'
        'message(title, "Written:\\n" + paths)\n'
        'message(translate("MBD", "Solve"), text, name=BOX)\n'
        'class C:\n    MENU, TIP, ICON = "Animate", QT_TRANSLATE_NOOP("MBD_Animate", "Play"), "animate"\n'
    )
    hits = [hit.split(" ", 1)[1] for hit in unmarked_literals(sample)]
    assert hits == ["'No results yet: run Solve first.'", "'Solve'", "'Replace %s?'", "'Written:\\n'", "'Animate'"]


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
