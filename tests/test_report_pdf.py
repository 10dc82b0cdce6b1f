"""The PDF report's tables read well: over the reports of every shipped example (a short run),
no word of a table cell is broken across lines (pdftotext's word boxes: pieces stacked in one
column that join into a word of the HTML report's cells), and the ankle's long driver
expressions are summarised in the PDF, kept in full in the HTML, its driver names printed whole."""

import glob
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from MBDWorkbench.report import write_report
from MBDWorkbench.solver import from_dict, simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.json")))
T_END = 0.05  # [s] a short run: the tables (model, settings) do not depend on its length


class CellWords(HTMLParser):
    """Words of the <th>/<td> cells of an HTML report."""

    def __init__(self):
        super().__init__()
        self.depth, self.words = 0, set()

    def handle_starttag(self, tag, attrs):
        self.depth += tag in ("td", "th")

    def handle_endtag(self, tag):
        self.depth -= tag in ("td", "th") and self.depth > 0

    def handle_data(self, data):
        if self.depth:
            self.words.update(data.split())


def cell_words(html_path):
    parser = CellWords()
    parser.feed(open(html_path, encoding="utf-8").read())
    return parser.words


def word_boxes(pdf_path):
    """Per page, pdftotext's words as (xMin, yMin, xMax, yMax, text) [pt]."""
    xml = subprocess.run(["pdftotext", "-bbox", pdf_path, "-"], check=True, capture_output=True, text=True).stdout
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xml).replace('xmlns="http://www.w3.org/1999/xhtml"', ""))
    return [
        [
            (float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")), w.text or "")
            for w in page.iter("word")
        ]
        for page in root.iter("page")
    ]


def broken_words(pdf_path, words):
    """Words of ``words`` that the PDF prints as pieces on consecutive lines of one cell: a word
    box at a line's right end followed, one line below and starting at the same x, by boxes that
    complete it (a cell's text is left-aligned, so its lines start at one x)."""
    found = set()
    for page in word_boxes(pdf_path):
        for start in page:
            pieces, box = [start[4]], start
            for _ in range(12):  # a word squeezed to one letter per line has as many pieces
                below = [
                    w
                    for w in page
                    if 0.5 * (box[3] - box[1]) < w[1] - box[1] < 1.8 * (box[3] - box[1]) and abs(w[0] - box[0]) < 0.5
                ]
                if len(below) != 1:
                    break
                box = below[0]
                pieces.append(box[4])
                joined = "".join(pieces)
                if joined in words and start[4] not in words | {joined}:
                    found.add(" | ".join(pieces))
    return found


def layout_text(pdf_path):
    return subprocess.run(["pdftotext", "-layout", pdf_path, "-"], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """{example name: (model dict, report directory)} of every examples/*.json, t_end = T_END."""
    base = tmp_path_factory.mktemp("example_reports")
    out = {}
    for path in EXAMPLES:
        name = os.path.basename(path)[: -len(".json")]
        model = json.load(open(path, encoding="utf-8"))
        model.setdefault("settings", {})["t_end"] = T_END
        res = simulate(from_dict(model), out_dir=str(base / (name + "_results")))
        write_report(res, str(base / name))
        out[name] = (model, str(base / name))
    return out


def test_every_example_and_the_ankle_are_reported():
    names = {os.path.basename(p)[: -len(".json")] for p in EXAMPLES}
    assert "ankle" in names and len(names) >= 5


def test_no_table_word_is_broken_across_lines(reports):
    for name, (_model, folder) in reports.items():
        words = cell_words(os.path.join(folder, "report.html"))
        assert len(words) > 20, name
        assert not broken_words(os.path.join(folder, "report.pdf"), words), name


def test_ankle_drivers_read_whole_and_long_expressions_are_summarised(reports):
    model, folder = reports["ankle"]
    text = layout_text(os.path.join(folder, "report.pdf"))
    html = open(os.path.join(folder, "report.html"), encoding="utf-8").read()
    drivers = text[text.index("\nDrivers") :]
    for driver in model["drivers"]:
        row = re.search(r"^ *%s +(\S+) +(\S+) +" % re.escape(driver["name"]), drivers, re.M)
        assert row and row.groups() == (driver["type"], driver["joint"]), driver["name"]
        expr = driver["profile"]["expr"]
        assert len(expr) > 500 and expr in html  # the HTML keeps the full polynomial
        assert "%d characters (full text in the HTML report)" % len(expr) in " ".join(drivers.split())
    assert "*(0.15*sin(1.0*pi*t)^2)^2" not in text  # no polynomial term in the PDF


def test_the_broken_word_check_finds_a_word_cut_by_a_narrow_column(tmp_path):
    """The check itself: a one-column table squeezed below its word's width breaks it."""
    from MBDWorkbench.report import pdf_writer
    from MBDWorkbench.report.document import Table

    path = str(tmp_path / "narrow.pdf")
    old = pdf_writer.column_widths
    try:
        pdf_writer.column_widths = lambda header, cells, numeric, avail, size: [0.35] * len(header)
        pdf_writer.write_pdf([Table(["Description", "x"], [["Integrator universal", "1"]])], path, "t")
    finally:
        pdf_writer.column_widths = old
    found = broken_words(path, {"Description", "Integrator", "universal"})
    assert {p.replace(" | ", "") for p in found} == {"Description", "Integrator", "universal"}


def test_a_cell_with_a_formula_wider_than_its_table_is_summarised(tmp_path):
    """Any table (not only the drivers'): a single 'word' too wide for a cell is summarised in the
    PDF (its length stated), the other cells keep their words whole."""
    from MBDWorkbench.report.document import Table
    from MBDWorkbench.report.pdf_writer import write_pdf

    formula = "+".join("%d.25*sin(%d.0*t)^2" % (k, k) for k in range(40))
    path = str(tmp_path / "formula.pdf")
    write_pdf([Table(["Description", "expression"], [["Integrator universal", "f = " + formula]])], path, "t")
    text = " ".join(layout_text(path).split())
    assert "%d characters (full text in the HTML report): f =" % len("f = " + formula) in text
    assert "sin(39.0*t)" not in text
    assert not broken_words(path, {"Description", "Integrator", "universal"})
