"""The study file (JSON, docs/studies.md): parsed and checked into a :class:`Study`. Every
error is a ModelError whose path names the field of the study file at fault
(``parameters[1].path``, ``design.samples``, ...)."""

from __future__ import annotations

import copy
import math
import os
from dataclasses import dataclass, field

from ..solver.errors import ModelError
from ..solver.model import from_dict, parse_json, read_model_text
from . import paths
from .kpis import check_outputs

DESIGNS = ("grid", "lhs", "monte_carlo")
DISTRIBUTIONS = {"uniform": ("min", "max"), "normal": ("mean", "std")}
MAX_VARIANTS = 100_000


@dataclass
class Parameter:
    """One varied model value: ``path`` into the model dict; for a grid its ``values``; for the
    sampled designs a ``distribution`` (``{"type": "uniform", "min", "max"}`` or ``{"type":
    "normal", "mean", "std"}``)."""

    path: str
    values: list | None = None
    distribution: dict | None = None


@dataclass
class Study:
    """A checked study: the base ``model`` (a model dict with every field explicit), the
    ``fixed`` values set in every variant, the ``parameters``, the ``design`` (type, samples,
    seed), the KPI ``outputs`` and whether to keep each variant's full results."""

    name: str
    model: dict
    parameters: list[Parameter]
    design: dict
    outputs: list[dict]
    fixed: dict = field(default_factory=dict)
    save_variants: bool = False
    source: str = ""


def load_study(path: str) -> Study:
    """Read and check a study file; a relative model path is taken from the study's folder."""
    data = parse_json(read_model_text(path), str(path))
    return parse_study(data, os.path.dirname(os.path.abspath(path)), source=str(path))


def parse_study(data: object, folder: str = ".", source: str = "") -> Study:
    """Check the study dict ``data`` (the JSON form); ``folder`` resolves a relative model path."""
    if not isinstance(data, dict):
        raise ModelError("$", "a study must be a JSON object")
    unknown = set(data) - {"name", "model", "parameters", "design", "outputs", "fixed", "save_variants", "description"}
    if unknown:
        raise ModelError(sorted(unknown)[0], "unknown field of a study")
    model = base_model(data.get("model"), folder)
    design = _design(data.get("design", {"type": "grid"}))
    fixed = _fixed(data.get("fixed", {}), model)
    parameters = _parameters(data.get("parameters"), model, design["type"])
    if design["type"] == "grid":
        _check_grid_size(parameters)
    outputs = check_outputs(data.get("outputs"), model, "outputs")
    name = data.get("name", os.path.splitext(os.path.basename(source))[0] or "study")
    if not isinstance(name, str):
        raise ModelError("name", "must be a text")
    save = data.get("save_variants", False)
    if not isinstance(save, bool):
        raise ModelError("save_variants", f"must be true or false, got {save!r}")
    study = Study(name, model, parameters, design, outputs, fixed, save, source)
    _check_fixed_model(study)
    _check_output_times(study)
    return study


def base_model(spec: object, folder: str) -> dict:
    """The base model as a dict with every field explicit: a model object, or the path of a
    JSON model or a FreeCAD document (.FCStd, converted here once: workers never need FreeCAD)."""
    if isinstance(spec, dict):
        model = from_dict(spec)
    elif isinstance(spec, str) and spec:
        path = spec if os.path.isabs(spec) else os.path.join(folder, spec)
        if not os.path.isfile(path):
            raise ModelError("model", f"file not found: {path}")
        try:
            model = _load_model_file(path)
        except ModelError as e:
            raise ModelError("model", f"{path}: {e}") from None
    else:
        raise ModelError("model", "must be the path of a model (.json or .FCStd) or a model object")
    return model.to_dict()


def _load_model_file(path: str):
    if path.lower().endswith(".fcstd"):
        from ..cad.document_model import model_from_document_file

        return model_from_document_file(path)
    return from_dict(parse_json(read_model_text(path), path))


def _design(d: object) -> dict:
    if not isinstance(d, dict):
        raise ModelError("design", "must be an object with a 'type'")
    kind = d.get("type")
    if kind not in DESIGNS:
        raise ModelError("design.type", f"must be one of {', '.join(DESIGNS)}, got {kind!r}")
    allowed = {"type"} if kind == "grid" else {"type", "samples", "seed"}
    for key in set(d) - allowed:
        raise ModelError(f"design.{key}", f"unknown field of a '{kind}' design")
    if kind == "grid":
        return {"type": kind}
    samples, seed = d.get("samples"), d.get("seed", 0)
    if not _is_int(samples) or not 1 <= samples <= MAX_VARIANTS:
        raise ModelError("design.samples", f"must be a whole number in [1, {MAX_VARIANTS}], got {samples!r}")
    if not _is_int(seed) or seed < 0:
        raise ModelError("design.seed", f"must be a whole number >= 0, got {seed!r}")
    return {"type": kind, "samples": samples, "seed": seed}


def _fixed(d: object, model: dict) -> dict:
    if not isinstance(d, dict):
        raise ModelError("fixed", "must be an object {parameter path: value}")
    for path, value in d.items():
        _check_value(value, paths.get(model, path, f"fixed.{path}"), f"fixed.{path}")
    return dict(d)


def _parameters(items: object, model: dict, design: str) -> list[Parameter]:
    if not isinstance(items, list) or not items:
        raise ModelError("parameters", "must be a non-empty list of parameters")
    out = []
    for k, p in enumerate(items):
        where = f"parameters[{k}]"
        if not isinstance(p, dict):
            raise ModelError(where, "must be an object with a 'path'")
        base = paths.get(model, p.get("path"), f"{where}.path")
        out.append(_grid_parameter(p, base, where) if design == "grid" else _sampled_parameter(p, base, where))
    seen = [p.path for p in out]
    for k, path in enumerate(seen):
        if path in seen[:k]:
            raise ModelError(f"parameters[{k}].path", f"'{path}' is varied twice")
    return out


def _grid_parameter(p: dict, base: object, where: str) -> Parameter:
    _only(p, {"path", "values", "min", "max", "count"}, where, "grid")
    if "values" in p:
        values = p["values"]
        if not isinstance(values, list):
            raise ModelError(f"{where}.values", "must be a list")
        for i, v in enumerate(values):
            _check_value(v, base, f"{where}.values[{i}]")
    else:
        _check_number_kind(base, where)
        lo, hi = _finite(p, "min", where), _finite(p, "max", where)
        count = p.get("count")
        if not _is_int(count) or not 2 <= count <= MAX_VARIANTS:
            raise ModelError(f"{where}.count", f"must be a whole number in [2, {MAX_VARIANTS}], got {count!r}")
        if not lo < hi:
            raise ModelError(f"{where}.max", f"empty range: max ({hi}) must exceed min ({lo})")
        values = [lo + (hi - lo) * i / (count - 1) for i in range(count)]
    if not values:
        raise ModelError(f"{where}.values", "empty: give at least one value")
    return Parameter(p["path"], values=values)


def _check_grid_size(parameters: list[Parameter]) -> None:
    """The full factorial of a grid holds at most MAX_VARIANTS variants."""
    size = math.prod(len(p.values) for p in parameters)
    if size > MAX_VARIANTS:
        counts = " x ".join(str(len(p.values)) for p in parameters)
        raise ModelError("parameters", f"the grid has {counts} = {size} variants, at most {MAX_VARIANTS} are allowed")


def _sampled_parameter(p: dict, base: object, where: str) -> Parameter:
    _only(p, {"path", "min", "max", "distribution"}, where, "sampled")
    _check_number_kind(base, where)
    dist = p.get("distribution", {"type": "uniform", "min": p.get("min"), "max": p.get("max")})
    dwhere = f"{where}.distribution" if "distribution" in p else where
    if not isinstance(dist, dict) or dist.get("type") not in DISTRIBUTIONS:
        raise ModelError(f"{dwhere}.type", f"must be one of {', '.join(DISTRIBUTIONS)}")
    keys = DISTRIBUTIONS[dist["type"]]
    _only(dist, {"type", *keys}, dwhere, dist["type"])
    a, b = (_finite(dist, key, dwhere) for key in keys)
    if dist["type"] == "uniform" and not a < b:
        raise ModelError(f"{dwhere}.max", f"empty range: max ({b}) must exceed min ({a})")
    if dist["type"] == "normal" and not b > 0:
        raise ModelError(f"{dwhere}.std", f"must be positive, got {b}")
    return Parameter(p["path"], distribution={"type": dist["type"], keys[0]: a, keys[1]: b})


def _only(d: dict, allowed: set, where: str, what: str) -> None:
    for key in sorted(set(d) - allowed):
        raise ModelError(
            f"{where}.{key}", f"unknown field of a {what} parameter (allowed: {', '.join(sorted(allowed))})"
        )


def _finite(d: dict, key: str, where: str) -> float:
    v = d.get(key)
    if not _is_number(v) or not math.isfinite(v):
        raise ModelError(f"{where}.{key}", f"must be a finite number, got {v!r}")
    return float(v)


def _is_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _kind(v: object) -> str:
    return "number" if _is_number(v) else "true/false" if isinstance(v, bool) else "text" if isinstance(v, str) else ""


def _check_number_kind(base: object, where: str) -> None:
    if not _is_number(base):
        raise ModelError(f"{where}.path", f"a range or distribution needs a numeric field; this one is {base!r}")


def _check_value(value: object, base: object, where: str) -> None:
    """A value of the same JSON kind (number, text, true/false) as the model's value it replaces."""
    kind = _kind(base)
    if not kind:
        raise ModelError(where, f"only numbers, texts and true/false can be varied; the model holds {base!r}")
    if _kind(value) != kind:
        raise ModelError(where, f"wrong type: the model holds a {kind} here, got {value!r}")
    if kind == "number" and not math.isfinite(value):
        raise ModelError(where, f"must be finite, got {value!r}")


def _check_fixed_model(study: Study) -> None:
    """The base model with the fixed values must be a valid model (errors name 'fixed')."""
    if not study.fixed:
        return
    try:
        from_dict(variant_model(study, {}))
    except ModelError as e:
        raise ModelError("fixed", f"the model with these values is invalid: {e}") from None


def _check_output_times(study: Study) -> None:
    """A KPI 'at' a time [s] must lie within the run (unless the end time is varied)."""
    if any(p.path == "settings.t_end" for p in study.parameters):
        return
    t_end = variant_model(study, {})["settings"]["t_end"]
    for k, o in enumerate(study.outputs):
        if o["kpi"] == "column" and "at" in o and o["at"] > t_end:
            raise ModelError(f"outputs[{k}].at", f"{o['at']} s is after the end of the runs (t_end = {t_end} s)")


def variant_model(study: Study, values: dict) -> dict:
    """The model dict of one variant: the base model with the fixed values, then ``values``."""
    model = copy.deepcopy(study.model)
    for path, value in {**study.fixed, **values}.items():
        paths.put(model, path, value)
    return model
