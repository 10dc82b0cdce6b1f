"""Damaged or edited FreeCAD documents (issue 11): each is refused with a message naming the
object (label) and what is wrong, never run as a silently different model; a corrupt or
truncated file is "corrupt or truncated document"; results archives are read bounded."""

import io
import math
import os
import re
import sys
import zipfile

import pytest

from MBDWorkbench.cad.mass_properties import CadError
from MBDWorkbench.solver import ModelError, integrators

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "examples")
sys.path.insert(0, EXAMPLES)


def read(path):
    from MBDWorkbench.cad.document_model import model_from_document_file

    return model_from_document_file(str(path))


def edit_xml(src, dst, edit):
    """Copy the document ``src`` to ``dst`` with Document.xml changed by ``edit(text)``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Document.xml":
                data = edit(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info, data)
    return dst


def saved(App, tmp_path, name, change):
    """examples/<name> opened, changed by ``change(doc)``, saved under tmp_path."""
    doc = App.openDocument(os.path.join(EXAMPLES, name))
    try:
        change(doc)
        out = str(tmp_path / name)
        doc.saveAs(out)
    finally:
        App.closeDocument(doc.Name)
    return out


def by_label(doc, label):
    return next(o for o in doc.Objects if o.Label == label)


def test_joint_whose_body_was_deleted_is_an_error(App, tmp_path):
    """Deleting the rod's body in FreeCAD empties Body2 of the crank pin: it used to become a
    joint to the ground and the run 'completed'."""
    path = saved(App, tmp_path, "slider_crank.FCStd", lambda doc: doc.removeObject(by_label(doc, "Rod_body").Name))
    with pytest.raises(ModelError) as e:
        read(path)
    msg = str(e.value)
    assert "joint 'CrankPin'" in msg and "Body2 is empty" in msg and "part 'Rod'" in msg


def test_joint_linking_a_missing_object_is_an_error(App, tmp_path):
    """A stored link to an object the document does not hold (FreeCAD would load None)."""
    src = os.path.join(EXAMPLES, "pendulum.FCStd")
    path = edit_xml(
        src, tmp_path / "missing.FCStd", lambda x: x.replace('<Link value="Body"/>', '<Link value="Body7"/>')
    )
    with pytest.raises(ModelError) as e:
        read(path)
    assert "joint 'Pivot': Body2 links to 'Body7', which is missing from the document" in str(e.value)


COUNT = len(integrators.names())  # the enumeration the example stores: one value per integrator


@pytest.mark.parametrize("index", [COUNT, COUNT + 4, -3])
def test_integrator_index_out_of_range_is_an_error(App, tmp_path, index):
    """FreeCAD clamps an out-of-range enumeration index (12 ran galpha): refused instead."""

    def edit(xml):
        at = xml.index('name="Integrator"')
        head, tail = xml[:at], xml[at:]
        return head + re.sub(r'<Integer value="\d+"', f'<Integer value="{index}"', tail, count=1)

    path = edit_xml(os.path.join(EXAMPLES, "pendulum.FCStd"), tmp_path / "integrator.FCStd", edit)
    with pytest.raises(ModelError) as e:
        read(path)
    assert f"simulation 'Simulation': Integrator has the stored index {index}, outside its {COUNT} values" in str(
        e.value
    )


def test_driver_expression_is_parsed_not_wrapped(App, tmp_path):
    """'t)+(t' used to be accepted inside '(%s)*k'; a valid expression [deg] becomes the same
    function in rad (closed form)."""
    from MBDWorkbench.solver.model.profiles import compile_profile

    def expression(text):
        def change(doc):
            motor = by_label(doc, "Motor")
            motor.Profile, motor.Expression = "expression", text

        return change

    with pytest.raises(ModelError) as e:
        read(saved(App, tmp_path, "slider_crank.FCStd", expression("t)+(t")))
    assert "driver 'Motor' (Expression): unexpected ')' at column 2" in str(e.value)
    model = read(saved(App, tmp_path, "slider_crank.FCStd", expression("90*sin(2*pi*t)")))
    prog = compile_profile(model.drivers[0].profile)
    w = 2 * math.pi
    for t in (0.1, 0.3):
        ref = (math.pi / 2 * math.sin(w * t), math.pi / 2 * w * math.cos(w * t), -math.pi / 2 * w * w * math.sin(w * t))
        assert prog(t) == pytest.approx(ref, rel=1e-13, abs=1e-13)


@pytest.mark.parametrize(
    "prop,value,text",
    [
        ("EndTimeMilliseconds", 0, "simulation 'Simulation' (EndTimeMilliseconds): must be >= 1 ms, got 0"),
        (
            "AbsoluteTolerance",
            "1e-8x",
            "simulation 'Simulation' (AbsoluteTolerance): must be a number > 0 such as 1e-8",
        ),
        ("RelativeTolerance", "-1e-6", "(RelativeTolerance): must be a number > 0 such as 1e-8 or 'default'"),
        ("RelativeTolerance", "2", "simulation 'Simulation' (RelativeTolerance): must lie in [1e-14, 1]"),
        ("TikhonovEps", "", "simulation 'Simulation' (TikhonovEps): must be a number > 0 such as 1e-8, got ''"),
        ("StepMicroseconds", -5, "simulation 'Simulation' (StepMicroseconds): must be >= 0 µs (0: the integrator"),
        ("OutputStepMicroseconds", 0, "simulation 'Simulation' (OutputStepMicroseconds): must be >= 1 µs, got 0"),
        ("BaumgarteAlpha", -1.0, "simulation 'Simulation' (BaumgarteAlpha): must not be negative"),
    ],
)
def test_simulation_properties_are_checked_by_name(App, tmp_path, prop, value, text):
    path = saved(App, tmp_path, "pendulum.FCStd", lambda doc: setattr(by_label(doc, "Simulation"), prop, value))
    with pytest.raises(ModelError) as e:
        read(path)
    assert text in str(e.value)


def test_force_component_expression_is_scaled_after_parsing(App, doc):
    """A torque component [N mm] given as an expression becomes the parsed expression scaled
    to N m; an invalid one names the force and its property."""
    import make_pendulum_fcstd

    from MBDWorkbench.cad.document_model import model_from_document
    from MBDWorkbench.cad.makers import make_force
    from MBDWorkbench.solver.model.profiles import compile_profile

    _, body, _ = make_pendulum_fcstd.build(doc)
    force = make_force(doc, body, kind="torque")
    force.X, force.Y = "1000*t", "2000"
    doc.recompute()
    torque = model_from_document(doc).forces[0].torque
    assert compile_profile(torque[0])(0.5) == pytest.approx((0.5, 1.0, 0.0), rel=1e-14)
    assert torque[1] == pytest.approx(2.0)
    force.X = "t)+(t"
    with pytest.raises(CadError, match=r"force '\w+' \(X\): unexpected '\)'"):
        model_from_document(doc)


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.97])
def test_truncated_document(App, tmp_path, cut):
    raw = open(os.path.join(EXAMPLES, "four_bar.FCStd"), "rb").read()
    path = tmp_path / "cut.FCStd"
    path.write_bytes(raw[: int(cut * len(raw))])
    with pytest.raises(ModelError, match="corrupt or truncated document"):
        read(path)


def test_damaged_entry_is_found_by_its_crc(App, tmp_path):
    """A byte changed inside a stored shape: the CRC check refuses the document before
    FreeCAD reads a damaged solid."""
    raw = open(os.path.join(EXAMPLES, "pendulum.FCStd"), "rb").read()
    info = next(i for i in zipfile.ZipFile(io.BytesIO(raw)).infolist() if i.filename.endswith(".brp"))
    data = bytearray(raw)
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.compress_size // 2
    data[at] ^= 0xFF
    path = tmp_path / "flipped.FCStd"
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match=r"corrupt or truncated document: '.*\.brp' is damaged"):
        read(path)


def test_document_xml_must_be_well_formed(App, tmp_path):
    path = edit_xml(os.path.join(EXAMPLES, "pendulum.FCStd"), tmp_path / "xml.FCStd", lambda x: x[: len(x) // 2])
    with pytest.raises(ModelError, match="corrupt or truncated document: Document.xml is not well-formed XML"):
        read(path)


# ----------------------------------------------------------------------------- results archives
@pytest.fixture(scope="module")
def results_zip(tmp_path_factory):
    from MBDWorkbench.cad.results_store import write_archive
    from MBDWorkbench.solver import load, simulate

    res = simulate(load(os.path.join(EXAMPLES, "pendulum.json")), t_end=0.05)
    return write_archive(res, {"bodies": {}}, str(tmp_path_factory.mktemp("archive") / "results.zip"))


def test_results_archive_reads_back(results_zip):
    from MBDWorkbench.cad.results_store import StoredResults

    stored = StoredResults(results_zip)
    assert len(stored) == 6 and stored.mapping == {"bodies": {}}


def test_results_archive_entries_are_size_checked(results_zip, monkeypatch):
    """An entry declared larger than the limit is refused before anything is read."""
    from MBDWorkbench.cad import archive
    from MBDWorkbench.cad.results_store import StoredResults

    monkeypatch.setattr(archive, "MAX_ARCHIVE_ENTRY_BYTES", 1000)
    with pytest.raises(CadError, match=r"'\w+\.csv' unpacks to \d+ bytes, at most 1000"):
        StoredResults(results_zip)


def test_damaged_results_archive_is_refused(results_zip, tmp_path):
    from MBDWorkbench.cad.results_store import StoredResults

    with zipfile.ZipFile(results_zip) as z:
        info = z.getinfo("bodies.csv")
    data = bytearray(open(results_zip, "rb").read())
    local = (
        info.header_offset
    )  # the local header's own name and extra lengths (its extra may differ from the directory's)
    name_len, extra_len = (
        int.from_bytes(data[local + 26 : local + 28], "little"),
        int.from_bytes(data[local + 28 : local + 30], "little"),
    )
    data[local + 30 + name_len + extra_len + 5] ^= 0xFF
    path = tmp_path / "damaged.zip"
    path.write_bytes(bytes(data))
    with pytest.raises(CadError, match="corrupt, truncated or too large"):
        StoredResults(str(path))


def test_summary_is_read_without_the_tables(results_zip, monkeypatch):
    """The Simulation panel reads a run's warnings from summary.json alone (GUI thread): the
    same summary as the full reader's, with the tables never parsed."""
    from types import SimpleNamespace

    from MBDWorkbench.cad import results_store
    from MBDWorkbench.solver.results import files

    full = results_store.StoredResults(results_zip).summary
    monkeypatch.setattr(files, "read_results", lambda *a, **k: pytest.fail("the tables were read"))
    assert results_store.load_summary(SimpleNamespace(ResultsArchive=results_zip)) == full
    assert results_store.load_summary(SimpleNamespace(ResultsArchive="")) is None


def test_damaged_summary_is_refused(results_zip, tmp_path):
    from types import SimpleNamespace

    from MBDWorkbench.cad.results_store import load_summary

    damaged = str(tmp_path / "damaged.zip")
    with zipfile.ZipFile(results_zip) as zin, zipfile.ZipFile(damaged, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zout.writestr(info.filename, data[: len(data) // 2] if info.filename == "summary.json" else data)
    with pytest.raises(CadError, match="summary.json is not valid JSON"):
        load_summary(SimpleNamespace(ResultsArchive=damaged))
