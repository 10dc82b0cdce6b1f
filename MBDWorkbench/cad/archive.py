"""Bounded reading of the zip archives the workbench opens: FreeCAD documents (.FCStd) before
FreeCAD loads them, and the results archives kept in a document.

Every entry is checked against ``solver.model.limits`` (number of entries, uncompressed sizes) from
the sizes the archive declares before anything is read; reads never go past those sizes and
verify each entry's CRC, so a truncated, damaged or oversized archive is refused with a clear
message instead of being loaded in part. No FreeCAD needed.
"""

from __future__ import annotations

import importlib.util
import zipfile
import zlib
from xml.etree import ElementTree

from ..solver.model.catalog import DRIVER_TYPES, INTEGRATOR_TYPES, JOINT_TYPES
from ..solver.model.limits import MAX_ARCHIVE_BYTES, MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_ENTRY_BYTES
from .errors import CadError

CORRUPT = "corrupt or truncated document"
DOCUMENT_XML = "Document.xml"
CHUNK = 2**20  # bytes read at a time when verifying an entry
# what zipfile raises on damaged data (a bad header, CRC or deflate stream, a truncated file)
_DAMAGED = (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError)


def open_archive(path: str, what: str = CORRUPT) -> zipfile.ZipFile:
    """The zip at ``path`` after checking its entries against the limits; CadError starting
    with ``what`` when it is not a readable zip or is too large."""
    try:
        archive = zipfile.ZipFile(path)
        entries = archive.infolist()
    except _DAMAGED as exc:
        raise CadError(f"{what}: not a readable zip archive ({exc})") from None
    problem = _size_problem(entries)
    if problem:
        archive.close()
        raise CadError(f"{what}: {problem}")
    return archive


def _size_problem(entries: list[zipfile.ZipInfo]) -> str:
    """Why the declared entries exceed the limits (empty when they do not)."""
    if len(entries) > MAX_ARCHIVE_ENTRIES:
        return f"{len(entries)} files, at most {MAX_ARCHIVE_ENTRIES} (limits.MAX_ARCHIVE_ENTRIES)"
    for info in entries:
        if info.file_size > MAX_ARCHIVE_ENTRY_BYTES:
            return f"'{info.filename}' unpacks to {info.file_size} bytes, at most {MAX_ARCHIVE_ENTRY_BYTES}"
    total = sum(info.file_size for info in entries)
    if total > MAX_ARCHIVE_BYTES:
        return f"the files unpack to {total} bytes, at most {MAX_ARCHIVE_BYTES} (limits.MAX_ARCHIVE_BYTES)"
    return ""


def read_entry(archive: zipfile.ZipFile, name: str, what: str = CORRUPT) -> bytes:
    """The bytes of entry ``name`` (at most its declared size, CRC checked); CadError when it
    is missing or damaged."""
    try:
        with archive.open(name) as f:
            data = f.read(MAX_ARCHIVE_ENTRY_BYTES + 1)
    except KeyError:
        raise CadError(f"{what}: '{name}' is missing") from None
    except _DAMAGED as exc:
        raise CadError(f"{what}: '{name}' is damaged ({exc})") from None
    if len(data) > MAX_ARCHIVE_ENTRY_BYTES:
        raise CadError(f"{what}: '{name}' is larger than {MAX_ARCHIVE_ENTRY_BYTES} bytes")
    return data


def verify_archive(archive: zipfile.ZipFile, what: str = CORRUPT) -> None:
    """Read every entry in chunks up to its declared size (zipfile checks the CRC at its end)."""
    for info in archive.infolist():
        try:
            with archive.open(info) as f:
                while f.read(CHUNK):
                    pass
        except _DAMAGED as exc:
            raise CadError(f"{what}: '{info.filename}' is damaged ({exc})") from None


def check_results_archive(path: str) -> None:
    """CadError when a results zip is damaged or its entries exceed the limits (before reading it)."""
    what = f"results archive {path}: corrupt, truncated or too large"
    with open_archive(path, what) as archive:
        verify_archive(archive, what)


# ----------------------------------------------------------------------------- FreeCAD documents
def check_document_file(path: str) -> None:
    """CadError when the .FCStd at ``path`` should not be given to FreeCAD: a corrupt,
    truncated or oversized archive, a damaged Document.xml, or a workbench object whose
    link names an object missing from the document or whose enumeration index lies outside
    its stored values (FreeCAD would silently load a joint to the ground, or clamp the index)."""
    with open_archive(path) as archive:
        verify_archive(archive)
        xml = read_entry(archive, DOCUMENT_XML)
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise CadError(f"{CORRUPT}: {DOCUMENT_XML} is not well-formed XML ({exc})") from None
    problems = stored_property_problems(root)
    if problems:
        raise CadError("; ".join(problems))


_WORDS = {"SpringDamper": "spring"}  # MbdType -> the word messages use
# enumerations whose values come from the catalogue: a stored value this version does not know (a
# document saved by a newer version) would be replaced by the first value when FreeCAD restores it
CATALOG_ENUMERATIONS = {"Integrator": INTEGRATOR_TYPES, "JointType": JOINT_TYPES, "DriverType": DRIVER_TYPES}
PROXY_MODULE = "MBDWorkbench.cad.objects"  # where the proxies of the workbench objects live


def stored_property_problems(root: ElementTree.Element) -> list[str]:
    """What is wrong with the stored properties of the workbench objects of a parsed
    Document.xml: links to missing objects, enumeration indices out of range or values this
    version does not know, a proxy whose module cannot be imported."""
    names = {o.get("name") for o in root.iterfind("./Objects/Object")}
    problems = []
    for obj in root.iterfind("./ObjectData/Object"):
        props = {p.get("name"): p for p in obj.iterfind("./Properties/Property")}
        kind = _string(props.get("MbdType"))
        if not kind:
            continue
        what = f"{_WORDS.get(kind, kind.lower())} '{_string(props.get('Label')) or obj.get('name')}'"
        for name, prop in props.items():
            problems += [f"{what}: {name} {p}" for p in _property_problems(prop, names)]
        problems += [f"{what}: {p}" for p in _proxy_problems(props.get("Proxy"))]
    return problems


def _proxy_problems(prop: ElementTree.Element | None) -> list[str]:
    """A proxy whose module cannot be imported (FreeCAD would restore the object without it,
    as a bare FeaturePython missing the properties this version adds)."""
    node = prop.find("Python") if prop is not None else None
    module = node.get("module", "") if node is not None else ""
    if not module or module == PROXY_MODULE:
        return []
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return []
    return [
        f"its proxy module '{module}' (class '{node.get('class', '')}') cannot be imported: the document was "
        f"saved by another addon or another version of the workbench (this one keeps its objects in {PROXY_MODULE})"
    ]


def _string(prop: ElementTree.Element | None) -> str:
    node = prop.find("String") if prop is not None else None
    return node.get("value", "") if node is not None else ""


def _property_problems(prop: ElementTree.Element, names: set) -> list[str]:
    """Problems of one stored property (links and enumerations; others are FreeCAD's)."""
    ptype = prop.get("type", "")
    if ptype in ("App::PropertyLink", "App::PropertyLinkChild", "App::PropertyLinkGlobal"):
        links = prop.findall("Link")
    elif ptype.startswith("App::PropertyLinkList"):
        links = prop.findall("LinkList/Link")
    elif ptype == "App::PropertyEnumeration":
        return _enumeration_problems(prop, CATALOG_ENUMERATIONS.get(prop.get("name", "")))
    else:
        return []
    missing = [link.get("value") for link in links if link.get("value") and link.get("value") not in names]
    return [f"links to '{target}', which is missing from the document" for target in missing]


def _enumeration_problems(prop: ElementTree.Element, known: tuple[str, ...] | None = None) -> list[str]:
    """An index that is not a number or outside the stored values, or (``known``: the values this
    version offers) a stored value it does not know."""
    index, values = prop.find("Integer"), prop.find("CustomEnumList")
    if index is None:
        return ["has no stored value"]
    try:
        k = int(index.get("value", ""))
    except ValueError:
        return [f"has the stored value {index.get('value')!r}, not an index"]
    if values is None:
        return []
    count = len(values.findall("Enum"))
    if not 0 <= k < count:
        return [f"has the stored index {k}, outside its {count} values (damaged document)"]
    value = values.findall("Enum")[k].get("value", "")
    if known is not None and value not in known:
        return [
            f"has the value '{value}', which this version does not know (valid values: {', '.join(known)}); "
            "the document was saved by another version: choose one of these"
        ]
    return []
