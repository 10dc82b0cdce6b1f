"""package.xml (the Addon Manager's metadata) states only what the project states: its version is
the package's, its licence pyproject.toml's, its icons and LICENSE exist, its workbench class is the
one InitGui.py registers, and no placeholder address or e-mail is left."""

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import MBDWorkbench

REPO = Path(__file__).resolve().parent.parent
NS = {"p": "https://wiki.freecad.org/Package_Metadata"}


def _root():
    return ET.parse(REPO / "package.xml").getroot()


def test_metadata_matches_the_project():
    root = _root()
    assert root.findtext("p:version", namespaces=NS) == MBDWorkbench.__version__
    license_ = root.find("p:license", NS)
    assert license_.text == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["license"]
    assert (REPO / license_.get("file")).is_file()
    assert (REPO / root.findtext("p:icon", namespaces=NS)).is_file()
    workbench = root.find("p:content/p:workbench", NS)
    folder = REPO / workbench.findtext("p:subdirectory", namespaces=NS)
    assert (folder / workbench.findtext("p:icon", namespaces=NS)).is_file()
    assert "class %s(" % workbench.findtext("p:classname", namespaces=NS) in (folder / "InitGui.py").read_text()


def test_no_placeholder_address_or_email():
    text = (REPO / "package.xml").read_text()
    for placeholder in ("OWNER", "example.org", "example.com", "@example"):
        assert placeholder not in text
    for url in _root().findall("p:url", NS):
        assert url.text and url.text.startswith("https://") and "OWNER" not in url.text
