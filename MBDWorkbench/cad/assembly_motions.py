"""FreeCAD 1.1 Assembly motions imported as our drivers (docs/workbench.md, "Motions").

Upstream (FreeCAD/FreeCAD, read at commit 0019ab1c95c53c4672c67adb552050391e794ce7):
``CommandCreateSimulation.py`` makes a ``Motion`` (App::FeaturePython) with ``Joint``
(XLinkSubHidden to a Revolute, Slider or Cylindrical joint), ``MotionType`` ("Angular" or
"Linear") and ``Formula`` (a string in ``time``), listed in the ``Group`` of a ``Simulation``
(``aTimeStart``, ``bTimeEnd``, ``cTimeStepOutput`` [s]). ``AssemblyObject::generateSimulation``
runs the motions of one simulation: ``makeMbdJoint`` replaces the text ``initialValue`` by the
joint's current value (``getJointCurrentValue``: the angle [rad] of JCS2's x axis about JCS1's
z, or the distance [mm] between the JCS origins signed by JCS2's z in JCS1; printed with 10
significant digits, PR #29433) and hands the formula to OndselSolver as the angle of JCS2 about
JCS1's z [rad] (``ASMTRotationalMotion``) or the z offset of JCS2's origin in JCS1 [mm]
(``ASMTTranslationalMotion``) at the absolute time ``time`` [s], from ``aTimeStart`` on.

The formula is parsed with the grammar of OndselSolver's ``SymbolicParser`` (numbers, ``pi``,
``time``, + - * / ^, parentheses, abs sin cos asin/arcsin arctan; a sign glued to a number is
part of it) into a tree, written again in our expression language: our drivers count from the
initial configuration in degrees or millimetres, so the driver's value is
``k * formula(t + aTimeStart) - zero`` with k = 180/pi (angular) or 1 (linear) and ``zero``
FreeCAD's coordinate where the parts are (angles: the turn nearest to the formula's start
value, the same configuration). A formula that does not start there moves the joint at t = 0,
as the Assembly's simulation does (the report says by how much). Formulas outside that grammar
or with OndselSolver's spline, integral, piecewise ... functions are reported, never dropped.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from ..solver.model.catalog import joints_driven_by
from .force_fields import driver_unit
from .properties import first_property, quantity_value
from .time_steps import END_TIME, MILLISECONDS_PER_SECOND, OUTPUT_STEP, nearest_microseconds, nearest_whole

if TYPE_CHECKING:
    import FreeCAD as App

DRIVER_TYPE = {"Angular": "rotational", "Linear": "linear"}  # MotionType -> our DriverType
# OndselSolver function -> ours (same meaning); exp is in the motion dialog's help text
FUNCTIONS = {"abs": "abs", "sin": "sin", "cos": "cos", "asin": "asin", "arcsin": "asin", "arctan": "atan", "exp": "exp"}
NO_EQUIVALENT = ("spline", "integral", "rampstep", "piecewise", "functions", "transitions")
_PY = {"abs": abs, "sin": math.sin, "cos": math.cos, "asin": math.asin, "atan": math.atan, "exp": math.exp}
_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?(?:d[+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
START_TOL = 1e-6  # a start move below this [deg] or [mm] is not reported
DIGITS_TOL = 5e-10  # relative rounding of initialValue printed with 10 significant digits


class FormulaError(Exception):
    """A motion formula that cannot be translated (the message says why)."""


# ----------------------------------------------------------------------------- formulas
def substitute_initial_value(formula: str, value: float) -> str:
    """The formula with every ``initialValue`` replaced by ``value`` printed with 10
    significant digits, as ``AssemblyObject::makeMbdJoint``'s replaceInitialValue does."""
    return formula.replace("initialValue", "%.10g" % value)


def _tokens(text: str) -> list[tuple[str, str, bool]]:
    """(kind, token, glued) of OndselSolver's scanner: 'number', 'word', one-character
    operators, 'end'; ``glued``: a sign followed directly by a digit (a signed number)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            m = _NUMBER.match(text, i)
            out.append(("number", m.group().replace("d", "e"), False))
            i = m.end()
        elif c.isalpha():
            m = _WORD.match(text, i)
            out.append(("word", m.group(), False))
            i = m.end()
        else:
            glued = c in "+-" and i + 1 < len(text) and text[i + 1].isdigit()
            out.append((c, c, glued))
            i += 1
    out.append(("end", "", False))
    return out


class _Parser:
    """OndselSolver's SymbolicParser grammar. Nodes: ('num', v) | ('time',) | ('pi',) |
    ('sum', [(sign, node)]) | ('prod', [(op, node)]) | ('pow', base, exp) | ('call', ours, args)."""

    def __init__(self, text: str, initial: float | None = None) -> None:
        self.toks, self.i, self.initial = _tokens(text), 0, initial

    def peek(self) -> tuple[str, str, bool]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, bool]:
        self.i += 1
        return self.toks[self.i - 1]

    def parse(self):
        node = self.expression()
        if self.peek()[0] != "end":
            raise FormulaError("unexpected %r after a complete formula" % self.peek()[1])
        return node

    def expression(self):
        if self.peek()[0] == "end":
            return ("num", 0.0)  # an empty formula is 0
        terms = []
        while True:
            kind = self.peek()[0]
            if kind in ("+", "-"):
                self.take()
                terms.append((-1.0 if kind == "-" else 1.0, self.term()))
            elif terms:
                break
            else:
                terms.append((1.0, self.term()))
        return terms[0][1] if len(terms) == 1 and terms[0][0] > 0 else ("sum", terms)

    def term(self):
        factors = [("*", self.symfunction())]
        while self.peek()[0] in ("*", "/"):
            factors.append((self.take()[0], self.symfunction()))
        return factors[0][1] if len(factors) == 1 else ("prod", factors)

    def symfunction(self):
        kind, tok, glued = self.peek()
        if kind == "(":
            self.take()
            node = self.expression()
            self._expect(")")
        elif kind == "number":
            node = ("num", float(self.take()[1]))
        elif kind in ("+", "-") and glued:
            self.take()
            value = float(self.take()[1])
            node = ("num", -value if kind == "-" else value)
        elif kind == "word":
            node = self.word(tok)
        else:
            raise FormulaError("unexpected %s" % ("end of formula" if kind == "end" else repr(tok)))
        if self.peek()[0] == "^":
            self.take()
            return ("pow", node, self.symfunction())
        return node

    def word(self, tok: str):
        self.take()
        if tok == "pi":
            return ("pi",)
        if tok == "time":
            return ("time",)
        if tok == "initialValue" and self.initial is not None:
            return ("num", self.initial, "initialValue")
        if tok in NO_EQUIVALENT:
            raise FormulaError("OndselSolver's %s() has no equivalent in our expressions" % tok)
        if tok not in FUNCTIONS:
            raise FormulaError("unknown name %r (FreeCAD's motions know time, pi, %s)" % (tok, ", ".join(FUNCTIONS)))
        self._expect("(")
        args = [self.expression()]
        while self.peek()[0] == ",":
            self.take()
            args.append(self.expression())
        self._expect(")")
        if len(args) != 1:
            raise FormulaError("%s() with %d arguments (one expected)" % (tok, len(args)))
        return ("call", FUNCTIONS[tok], args)

    def _expect(self, tok: str) -> None:
        if self.peek()[0] != tok:
            raise FormulaError("expected %r, found %s" % (tok, repr(self.peek()[1]) or "end of formula"))
        self.take()


def parse_formula(text: str, initial: float | None = None):
    """Tree of a motion formula; FormulaError if OndselSolver's grammar or our functions do
    not cover it. ``initial``: the value of ``initialValue`` (a leaf ('num', v, 'initialValue'));
    without it the text must have it replaced already (FreeCAD's way)."""
    return _Parser(text, initial).parse()


def _same(a, b, t0: float) -> bool:
    """Whether two trees give the same values (to 1e-12) at a few times from ``t0`` [s]."""
    try:
        pairs = [(evaluate(a, t0 + dt), evaluate(b, t0 + dt)) for dt in (0.0, 0.37, 1.3, 2.9, 7.1)]
    except (ArithmeticError, ValueError):
        return False
    return all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12) for x, y in pairs)


def _formula_tree(formula: str, value: float, t0: float):
    """(tree, initialValue) of a formula as FreeCAD parses it once ``initialValue`` is replaced
    by ``value`` as text; the tree keeps initialValue leaves where they give the same function
    (not e.g. for 'initialValue^2' with a negative value: the text gives -(v^2))."""
    node, v = parse_formula(substitute_initial_value(formula, value)), float("%.10g" % value)
    try:
        leafy = parse_formula(formula, v)
    except FormulaError:
        return node, v
    return (leafy if _same(leafy, node, t0) else node), v


def _split_initial(node):
    """(rest, True) when the tree is initialValue + rest at its top level, else (node, False)."""
    if node[0] == "num" and node[2:] == ("initialValue",):
        return ("num", 0.0), True
    if node[0] != "sum":
        return node, False
    for k, (sign, n) in enumerate(node[1]):
        if sign > 0 and n[0] == "num" and n[2:] == ("initialValue",):
            rest = node[1][:k] + node[1][k + 1 :]
            return (rest[0][1] if len(rest) == 1 and rest[0][0] > 0 else ("sum", rest)), True
    return node, False


def evaluate(node, time: float) -> float:
    """Value of a formula tree at ``time`` [s] (rad or mm); ArithmeticError or ValueError
    where it has none."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "time":
        return time
    if kind == "pi":
        return math.pi
    if kind == "sum":
        return sum(s * evaluate(n, time) for s, n in node[1])
    if kind == "prod":
        out = 1.0
        for op, n in node[1]:
            v = evaluate(n, time)
            out = out * v if op == "*" else out / v
        return out
    if kind == "pow":
        return math.pow(evaluate(node[1], time), evaluate(node[2], time))
    return _PY[node[1]](evaluate(node[2][0], time))


def _num(v: float) -> str:
    text = repr(float(v)).removesuffix(".0")
    return text if v >= 0 else "(%s)" % text


def emit(node, t0: float = 0.0) -> str:
    """Our expression text of a formula tree, ``time`` -> ``t + t0`` [s]."""
    kind = node[0]
    if kind == "num":
        return _num(node[1])
    if kind == "time":
        return "t" if t0 == 0 else "(t + %s)" % _num(t0)
    if kind == "pi":
        return "pi"
    if kind == "call":
        return "%s(%s)" % (node[1], emit(node[2][0], t0))
    if kind == "sum":
        out = ""
        for k, (sign, n) in enumerate(node[1]):
            term = _wrap(n, t0, ("sum",))
            out += ("-" if sign < 0 else "") + term if k == 0 else (" - " if sign < 0 else " + ") + term
        return out
    if kind == "prod":
        text = _wrap(node[1][0][1], t0, ("sum", "prod"))
        return text + "".join(op + _wrap(n, t0, ("sum", "prod")) for op, n in node[1][1:])
    return "%s^%s" % (_wrap(node[1], t0, ("sum", "prod", "pow")), _wrap(node[2], t0, ("sum", "prod")))


def _wrap(node, t0: float, kinds: tuple[str, ...]) -> str:
    text = emit(node, t0)
    return "(%s)" % text if node[0] in kinds else text


def driver_expression(formula: str, motion_type: str, current: tuple, t0: float = 0.0) -> tuple[str, float]:
    """(our driver Expression [deg] or [mm] in t [s], its value at t = 0) of a motion formula
    on a joint whose FreeCAD coordinates where the parts are ``current`` = (angle [rad],
    FreeCAD's signed JCS distance [mm], z offset of JCS2 in JCS1 [mm]); ``t0`` the
    simulation's aTimeStart [s]. FormulaError when it cannot be translated."""
    from ..solver.model.expressions import ExpressionError, compile_expression

    angular = motion_type == "Angular"
    angle0, distance0, z0 = current
    node, v = _formula_tree(str(formula), angle0 if angular else distance0, t0)
    k = 180.0 / math.pi if angular else 1.0
    try:
        start = k * evaluate(node, t0)
    except (ArithmeticError, ValueError):
        start = math.nan
    if not math.isfinite(start):
        raise FormulaError("it has no finite value at the start time %g s" % t0)
    zero = math.degrees(angle0) if angular else z0
    if angular:
        zero += 360.0 * round((start - zero) / 360.0)  # the same configuration, nearest turn
    move = start - zero
    rest, split = _split_initial(node)
    if split:  # k*(initialValue + rest) - zero = k*rest - (zero - k*initialValue)
        node, zero = rest, zero - k * v
        snap = 360.0 * round(zero / 360.0) if angular else 0.0
        zero = snap if abs(zero - snap) <= k * DIGITS_TOL * abs(v) + 1e-12 else zero  # v's 10 digits
    text = emit(node, t0)
    if node == ("num", 0.0):
        text = "0"
    elif angular:
        text = "180/pi*%s" % ("(%s)" % text if node[0] in ("sum", "prod") else text)
    if zero:
        text = "%s %s %s" % (text, "-" if zero > 0 else "+", _num(abs(zero)))
    try:
        compile_expression(text, "motion")
    except ExpressionError as exc:
        raise FormulaError(str(exc)) from None
    return text, move


# ----------------------------------------------------------------------------- objects
def joint_of(motion):
    """The Assembly joint a motion moves (its ``Joint`` link), or None."""
    link = first_property(motion, "Joint")
    if isinstance(link, (tuple, list)):
        link = link[0] if link else None
    return link


def simulations(assembly: App.DocumentObject) -> list:
    """FreeCAD 1.1's Simulation objects of an assembly (``Group`` of motions, ``aTimeStart``)."""
    return [
        o for o in getattr(assembly, "OutListRecursive", []) or [] if hasattr(o, "aTimeStart") and hasattr(o, "Group")
    ]


def chosen_simulation(assembly: App.DocumentObject, motions: list):
    """The simulation whose motions are imported: the first one holding a motion, or None."""
    for sim in simulations(assembly):
        if any(m in list(sim.Group) for m in motions):
            return sim
    return None


def imported_drivers(doc: App.Document) -> dict[str, App.DocumentObject]:
    """Our Driver objects made from Assembly motions, by the Name of their motion."""
    from .objects import find_objects

    return {o.AssemblyMotion: o for o in find_objects(doc, "Driver") if getattr(o, "AssemblyMotion", "")}


def import_motions(
    doc: App.Document,
    motions: list,
    sim,
    joints: dict,
    report,
    simulation: App.DocumentObject | None = None,
) -> None:
    """Make or update (matched by the motion's Name) a Driver for each motion of simulation
    ``sim`` (all motions when None) on our imported joint. ``joints``: Assembly joint Name ->
    (our Joint object, its FreeCAD coordinates as ``driver_expression``'s ``current``).
    Untranslatable motions go to ``report.unsupported`` with the reason, drivers to
    ``report.drivers``, start moves to ``report.notes``."""
    t0 = quantity_value(first_property(sim, "aTimeStart", default=0.0)) if sim is not None else 0.0
    existing, driven = imported_drivers(doc), set()
    for motion in motions:
        label = str(first_property(motion, "Label", default="motion"))
        try:
            joint, dtype, expr, start = _translate(motion, sim, joints, driven, t0)
        except FormulaError as why:
            report.unsupported.append(
                (
                    label,
                    "%s motion '%s': %s"
                    % (
                        first_property(motion, "MotionType", default="?"),
                        first_property(motion, "Formula", default=""),
                        why,
                    ),
                )
            )
            continue
        name = str(first_property(motion, "Name", default=label))
        obj = existing.get(name)
        if obj is None:
            obj = _new_driver(doc, joint, dtype, label, expr, name, simulation)
        else:
            obj.Joint, obj.DriverType, obj.Profile, obj.Expression, obj.Label = joint, dtype, "expression", expr, label
            report.updated.append(obj.Label)
        report.drivers.append(obj.Label)
        if abs(start) > START_TOL:
            unit = driver_unit(dtype)[0]
            report.notes.append(
                "%s: its formula starts joint '%s' %.6g %s away from where the parts are: the run moves it "
                "there at t = 0, as the Assembly's simulation does" % (label, joint.Label, start, unit)
            )


def _new_driver(doc, joint, dtype, label, expr, source, simulation):
    from .makers import make_driver

    obj = make_driver(doc, joint, "expression", dtype, label=label, simulation=simulation, Expression=expr)
    obj.AssemblyMotion = source
    return obj


def _translate(motion, sim, joints: dict, driven: set, t0: float) -> tuple:
    """(our Joint, DriverType, Expression, start move) of a motion, or FormulaError."""
    mtype, formula = (
        str(first_property(motion, "MotionType", default="")),
        str(first_property(motion, "Formula", default="") or ""),
    )
    holder = next((o for o in getattr(motion, "InList", []) or [] if hasattr(o, "aTimeStart")), None)
    if sim is not None and holder is not sim:
        where = "no simulation" if holder is None else "simulation '%s'" % holder.Label
        raise FormulaError("in %s; the motions of simulation '%s' are imported (one simulation)" % (where, sim.Label))
    if mtype not in DRIVER_TYPE:
        raise FormulaError("unknown MotionType %r" % mtype)
    if not formula.strip():
        raise FormulaError("empty formula (the Assembly skips it)")
    source = joint_of(motion)
    name = str(first_property(source, "Name", default=""))
    if name not in joints:
        raise FormulaError("its joint '%s' was not imported" % first_property(source, "Label", default="?"))
    joint, current = joints[name]
    dtype = DRIVER_TYPE[mtype]
    if joint.JointType not in joints_driven_by(dtype):
        raise FormulaError(
            "a %s driver needs a %s joint, '%s' is %s"
            % (dtype, " or ".join(joints_driven_by(dtype)), joint.Label, joint.JointType)
        )
    if (name, dtype) in driven:
        raise FormulaError("joint '%s' already has a %s motion" % (joint.Label, mtype))
    expr, start = driver_expression(formula, mtype, current, t0)
    driven.add((name, dtype))
    return joint, dtype, expr, start


def apply_time_settings(simulation: App.DocumentObject, sim) -> None:
    """Our new Simulation's EndTimeMilliseconds and OutputStepMicroseconds (rounded to whole ms, µs) from
    FreeCAD's simulation ``sim``."""
    span = quantity_value(first_property(sim, "bTimeEnd", default=0.0)) - quantity_value(
        first_property(sim, "aTimeStart", default=0.0)
    )
    step = quantity_value(first_property(sim, "cTimeStepOutput", default=0.0))
    if span > 0:
        setattr(simulation, END_TIME, nearest_whole(span, MILLISECONDS_PER_SECOND))
        if 0 < step <= span:
            setattr(simulation, OUTPUT_STEP, nearest_microseconds(step))


def current_coordinates(jcs1, jcs2) -> tuple[float, float, float]:
    """FreeCAD's coordinates of a joint from its global JCS (App.Placement): (angle [rad] of
    JCS2's x about JCS1's z, distance [mm] of the origins signed by JCS2's z in JCS1 (as
    ``getJointCurrentValue``), z offset [mm] of JCS2's origin in JCS1)."""
    import FreeCAD as App

    rel = jcs1.inverse().multiply(jcs2)
    x = rel.Rotation.multVec(App.Vector(1, 0, 0))
    z = rel.Base.z
    distance = (jcs1.Base - jcs2.Base).Length * (-1.0 if z < 0 else 1.0)
    return math.atan2(x.y, x.x), distance, z
