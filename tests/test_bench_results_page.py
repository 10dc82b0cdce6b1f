"""bench/results_page.py, the one writer of the benchmarks' Markdown pages and their commit stamp."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import results_page  # noqa: E402


def test_a_page_is_its_heading_note_table_and_notes_as_paragraphs(tmp_path, capsys):
    table = ["| a | b |", "|---|---|", "| 1 | 2 |"]
    text = results_page.write_page("x", "Title", "measured so.", table, ("A note.",), folder=str(tmp_path))
    assert text == "# Title\n\nmeasured so.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA note.\n"
    assert (tmp_path / "x.md").read_text(encoding="utf-8") == text
    assert capsys.readouterr().out == text


def test_the_load_note_gives_the_three_load_averages_and_the_cores():
    note = results_page.load_note()
    match = re.fullmatch(r"load average (\d+\.\d), (\d+\.\d), (\d+\.\d) \((\d+) cores\)", note)
    assert match and int(match[4]) == os.cpu_count()


def test_the_commit_stamp_is_the_checkouts_head():
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    assert results_page.commit().split("+")[0] == head.stdout.strip()


def test_the_scripts_use_the_one_writer_and_stamp():
    """No copy of the page writer (its load note) or of the commit stamp left in the scripts."""
    for script, copy in (
        ("contact_pairs_scaling", "getloadavg"),
        ("mesh_contact", "getloadavg"),
        ("joint_friction_cost", "getloadavg"),
        ("friction_mujoco", "open(os.path.join(HERE"),
        ("accuracy", "def commit"),
        ("integrator_guide", "def commit"),
    ):
        source = open(os.path.join(ROOT, "bench", f"{script}.py"), encoding="utf-8").read()
        assert "from bench.results_page import" in source and copy not in source, script
