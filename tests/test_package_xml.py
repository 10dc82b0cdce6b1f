"""package.xml (the Addon Manager's metadata) states only what the project states: its version is
the package's, its licence pyproject.toml's, its icons and LICENSE exist, its workbench class is the
one InitGui.py registers, and no placeholder address or e-mail is left."""

import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

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


def _freecad_metadata():
    """FreeCAD's own reader of package.xml (the Addon Manager's), or a skip where FreeCAD is absent."""
    from MBDWorkbench.cad.freecad_env import FreeCADNotFoundError, import_freecad

    try:
        App = import_freecad(with_part=False)
    except FreeCADNotFoundError as exc:
        pytest.skip("FreeCAD is not available to %s: %s" % (sys.executable, exc))
    return App, App.Metadata(str(REPO / "package.xml"))


def _version_tuple(text):
    return tuple(int(part) for part in text.split("."))


def test_freecad_reads_every_field_back():
    App, meta = _freecad_metadata()
    root = _root()
    assert meta.Name == root.findtext("p:name", namespaces=NS) and meta.Name
    assert meta.Description == root.findtext("p:description", namespaces=NS) and meta.Description
    assert meta.Version == MBDWorkbench.__version__
    for people in (meta.Maintainer, meta.Author):
        assert people, "no maintainer/author read back"
        for person in people:
            assert person["name"].strip()
            assert re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]+", person["email"]), person
    assert [lic["name"] for lic in meta.License] == ["LGPL-2.1-or-later"]
    urls = {url["type"]: url["location"] for url in meta.Urls}
    assert {"repository", "bugtracker"} <= set(urls)
    assert all(location.startswith("https://") for location in urls.values())
    assert (REPO / meta.Icon).is_file()


def test_freecad_version_bounds_admit_0_20_to_1_x():
    App, meta = _freecad_metadata()
    low, high = _version_tuple(meta.FreeCADMin), _version_tuple(meta.FreeCADMax)
    assert low[:2] == (0, 20)
    assert high >= (1, 9), "freecadmax %s shuts out FreeCAD 1.x" % meta.FreeCADMax
    running = tuple(int(part) for part in App.Version()[:2])
    assert low[:2] <= running <= high[:2]
