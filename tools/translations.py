#!/usr/bin/python3
"""The workbench's Qt translations: extract the marked strings to .ts files, compile .qm files.

Debian 12 packages no lupdate/lrelease usable here (they come with qttools5-dev-tools), so this
small tool does their two jobs for our Python sources, after FreeCAD's conventions:

    /usr/bin/python3 tools/translations.py update    # MBDWorkbench/resources/translations/*.ts
    /usr/bin/python3 tools/translations.py release   # *_<lang>.ts -> *_<lang>.qm

A string is marked by ``translate("Context", "text")`` (shown translated) or
``QT_TRANSLATE_NOOP("Context", "text")`` (marked only, translated where it is shown; the command
texts, whose context is the command's name, are translated by FreeCAD) with literal arguments;
the element catalogue's labels, tooltips and field texts are taken from its records (context
``MBD_Catalog``, shown through ``commands.common.catalog_text``).
``update`` writes ``MBDWorkbench.ts`` (every marked string, the template for translators) and
refreshes each ``MBDWorkbench_<lang>.ts``, keeping its translations of strings still marked.
``release`` writes the binary .qm that Qt's QTranslator reads (magic, a hash table of
ELF hashes of the source texts sorted by hash, the messages: translation in UTF-16BE, source
text, context; Qt's qtranslator.cpp), one per language, with the finished translations.
InitGui.py gives the folder to FreeCADGui.addLanguagePath; FreeCAD loads *_<lang>.qm of the
language chosen in its preferences.
"""

from __future__ import annotations

import ast
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCES = [REPO / "MBDWorkbench" / "commands", REPO / "MBDWorkbench" / "InitGui.py"]
FOLDER = REPO / "MBDWorkbench" / "resources" / "translations"
NAME = "MBDWorkbench"
MARKERS = ("translate", "QT_TRANSLATE_NOOP")
CATALOG = "MBD_Catalog"  # context of the element catalogue's texts (catalog_strings)
CATALOG_FILE = "MBDWorkbench/solver/model/catalog.py"
QM_MAGIC = bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")
TAG_END, TAG_TRANSLATION, TAG_SOURCE, TAG_CONTEXT = 1, 3, 6, 7
SECTION_HASHES, SECTION_MESSAGES = 0x42, 0x69


def source_files() -> list[Path]:
    files = []
    for path in SOURCES:
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def marked_strings(path: Path) -> list[tuple[str, str, int]]:
    """(context, source text, line) of every marked string of a Python file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        context, text = node.args[:2]
        if name in MARKERS and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in (context, text)):
            found.append((context.value, text.value, node.lineno))
    return found


def catalog_strings() -> list[str]:
    """The element catalogue's GUI texts (context CATALOG): joint, driver and force labels and
    tooltips, force field names (as the panel shows them, underscores as spaces) and docs. The
    panels and commands show them through ``translate(CATALOG, text)``."""
    sys.path.insert(0, str(REPO))
    from MBDWorkbench.solver.model.catalog import DRIVERS, FORCES, JOINTS

    texts = [t for record in JOINTS.values() for t in (record.label, record.tooltip)]
    texts += [record.label for record in DRIVERS.values()]
    for record in FORCES.values():
        texts += [record.label, record.tooltip]
        texts += [t for spec in record.fields for t in (spec.name.replace("_", " "), spec.doc)]
    return [t for t in texts if t]


def extract() -> dict[str, dict[str, list[tuple[str, int]]]]:
    """{context: {source text: [(file, line), ...]}} over the workbench's GUI sources, plus the
    catalogue's texts (context CATALOG, located in catalog.py)."""
    messages: dict[str, dict[str, list[tuple[str, int]]]] = {}
    for path in source_files():
        for context, text, line in marked_strings(path):
            where = str(path.relative_to(FOLDER.parent.parent.parent)).replace("\\", "/")
            messages.setdefault(context, {}).setdefault(text, []).append((where, line))
    for text in catalog_strings():
        places = messages.setdefault(CATALOG, {}).setdefault(text, [])
        if (CATALOG_FILE, 0) not in places:
            places.append((CATALOG_FILE, 0))
    return messages


def read_ts(path: Path) -> dict[tuple[str, str], str]:
    """{(context, source): translation} of the finished translations of a .ts file."""
    done = {}
    if not path.exists():
        return done
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            if (
                translation is not None
                and translation.text
                and translation.get("type") not in ("unfinished", "obsolete")
            ):
                done[(name, message.findtext("source"))] = translation.text
    return done


def write_ts(path: Path, messages: dict, language: str | None, translations: dict) -> None:
    root = ET.Element("TS", version="2.1")
    if language:
        root.set("language", language)
    for context in sorted(messages):
        element = ET.SubElement(root, "context")
        ET.SubElement(element, "name").text = context
        for text in sorted(messages[context]):
            message = ET.SubElement(element, "message")
            for where, line in messages[context][text]:
                ET.SubElement(message, "location", filename="../../../" + where, line=str(line))
            ET.SubElement(message, "source").text = text
            translation = ET.SubElement(message, "translation")
            done = translations.get((context, text))
            if done:
                translation.text = done
            else:
                translation.set("type", "unfinished")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def elf_hash(data: bytes) -> int:
    """Qt's elfHash of a source text (+ comment), as QTranslator looks messages up."""
    h = 0
    for byte in data:
        h = ((h << 4) + byte) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h or 1


def qm_bytes(translations: dict[tuple[str, str], str]) -> bytes:
    """The .qm file of {(context, source): translation}."""
    messages, hashes = b"", []
    for (context, source), text in sorted(translations.items()):
        hashes.append((elf_hash(source.encode("utf-8")), len(messages)))
        target, source_bytes, context_bytes = text.encode("utf-16-be"), source.encode("utf-8"), context.encode("utf-8")
        messages += struct.pack(">BI", TAG_TRANSLATION, len(target)) + target
        messages += struct.pack(">BI", TAG_SOURCE, len(source_bytes)) + source_bytes
        messages += struct.pack(">BI", TAG_CONTEXT, len(context_bytes)) + context_bytes
        messages += struct.pack(">B", TAG_END)
    table = b"".join(struct.pack(">II", h, offset) for h, offset in sorted(hashes))
    return (
        QM_MAGIC
        + struct.pack(">BI", SECTION_HASHES, len(table))
        + table
        + struct.pack(">BI", SECTION_MESSAGES, len(messages))
        + messages
    )


def language_files() -> list[Path]:
    return sorted(FOLDER.glob(NAME + "_*.ts"))


def update() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    messages = extract()
    write_ts(FOLDER / (NAME + ".ts"), messages, None, {})
    for path in language_files():
        write_ts(path, messages, path.stem.split("_", 1)[1], read_ts(path))
    count = sum(len(texts) for texts in messages.values())
    print("%d strings in %d contexts; %d language file(s)" % (count, len(messages), len(language_files())))


def release() -> None:
    for path in language_files():
        translations = read_ts(path)
        path.with_suffix(".qm").write_bytes(qm_bytes(translations))
        print("%s: %d translations" % (path.with_suffix(".qm").name, len(translations)))


if __name__ == "__main__":
    commands = {"update": update, "release": release}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit("usage: translations.py update|release")
    commands[sys.argv[1]]()
