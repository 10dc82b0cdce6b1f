"""The report's PDF engine (issue 36): today's matplotlib PDF (report/pdf_writer.py) against
WeasyPrint rendering the HTML report itself, on the report of every JSON example (1 s runs).

Measured per example: CPU time of the PDF alone (matplotlib: ``write_pdf`` inside ``write_report``;
WeasyPrint: ``HTML(report.html).render()`` and ``write_pdf``), pages, bytes, and the words of the
PDF's text (``pdftotext``) that are not words of the HTML report: a word broken inside a table cell
shows up there as its fragments ("moto", "torqu"); words that only the PDF prints (plot labels,
"page") do too, so the list is read, not counted.

WeasyPrint is not a dependency: run this script with a Python that has it, e.g. a throwaway venv
with the system's packages (``python3 -m venv --system-site-packages V && V/bin/pip install
weasyprint``; it needs the system's Pango), as ``V/bin/python bench/report_engine.py``.
Writes bench/results/report_engine.json; bench/results/report_engine.md holds the decision.
"""

import glob
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import MBDWorkbench.report as report  # noqa: E402
from MBDWorkbench.solver import load, simulate  # noqa: E402


def matplotlib_report(name: str, folder: str) -> dict:
    """Write the example's report; the CPU time of its matplotlib PDF."""
    spent, write_pdf = {}, report.write_pdf

    def timed(*args, **kwargs):
        started = time.process_time()
        write_pdf(*args, **kwargs)
        spent["s"] = time.process_time() - started

    model = load(os.path.join(ROOT, "examples", name + ".json"))
    res = simulate(model, t_end=min(model.settings.t_end, 1.0))
    report.write_pdf = timed
    try:
        files = report.write_report(res, folder, overwrite=True, animation="png")
    finally:
        report.write_pdf = write_pdf
    pick = {os.path.splitext(f)[1]: f for f in files}
    return dict(html=pick[".html"], pdf=pick[".pdf"], matplotlib_pdf_cpu_s=spent["s"])


def weasyprint_pdf(html_path: str) -> dict:
    import weasyprint

    started = time.process_time()
    doc = weasyprint.HTML(filename=html_path).render()
    pdf = html_path[:-5] + "_weasyprint.pdf"
    doc.write_pdf(pdf)
    return dict(weasyprint_pdf=pdf, weasyprint_cpu_s=time.process_time() - started, weasyprint_pages=len(doc.pages))


def words_not_in_html(pdf: str, html_path: str) -> list[str]:
    text = re.sub(r"<[^>]+>", " ", open(html_path, encoding="utf-8").read())
    known = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", html.unescape(text))}
    shown = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
    return sorted({w for w in re.findall(r"[A-Za-z]{3,}", shown) if w.lower() not in known})


def pages(pdf: str) -> int:
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def main() -> None:
    out, tmp = {}, tempfile.mkdtemp(prefix="mbd-report-engine-")
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.json"))):
        name = os.path.basename(path)[:-5]
        r = matplotlib_report(name, os.path.join(tmp, name))
        r.update(weasyprint_pdf(r["html"]))
        r.update(
            matplotlib_pages=pages(r["pdf"]),
            matplotlib_only_words=words_not_in_html(r["pdf"], r["html"]),
            weasyprint_only_words=words_not_in_html(r["weasyprint_pdf"], r["html"]),
        )
        out[name] = r
        print(name, {k: v for k, v in r.items() if k.endswith(("cpu_s", "pages", "words"))}, flush=True)
    with open(os.path.join(ROOT, "bench", "results", "report_engine.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
