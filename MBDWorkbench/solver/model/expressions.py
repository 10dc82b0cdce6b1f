"""Safe compiler of the time-profile expressions of drivers and loads.

An expression string is parsed by a small recursive-descent parser (user text is never passed
to eval/exec) into a postfix bytecode that :func:`..numerics.jets.eval_jet` runs on a stack of
jets (f, f', f''), so value, first and second time derivative come out exact. Profile specs
(numbers, dicts) are compiled by :mod:`.profiles`.

Expression language: numbers (1, 2.5, 1e-3), variable ``t``, constants ``pi``
and ``e``; + - * / ^ ** (right-associative, -t^2 = -(t^2)), unary +/-,
parentheses; sin cos tan asin acos atan atan2(y, x) exp log sqrt abs sinh cosh
tanh min(a, b, ...) max(a, b, ...) step(x, x0, h0, x1, h1) (ADAMS cubic STEP).
At most ``limits.MAX_EXPRESSION_LENGTH`` characters and ``limits.MAX_EXPRESSION_DEPTH``
nesting levels; constant sub-expressions are folded at compile time. Profile objects are
bounded too (``limits.MAX_POLYNOMIAL_COEFFICIENTS``, ``limits.MAX_TABLE_POINTS``).

Bytecode: int64 pairs ``(opcode, operand)``; operands index the program's own
constants (``OP_CONST``, ``OP_POWC``) or tables (``OP_TABLE``).
"""

from __future__ import annotations

import keyword
import math
import operator
import re
from collections.abc import Iterable, Sequence
from typing import NoReturn

import numpy as np

from ..errors import ModelError
from ..numerics import cold_start
from ..numerics.jets import (
    OP_ABS,
    OP_ACOS,
    OP_ADD,
    OP_ASIN,
    OP_ATAN,
    OP_ATAN2,
    OP_CONST,
    OP_COS,
    OP_COSH,
    OP_DIV,
    OP_EXP,
    OP_LOG,
    OP_MAX,
    OP_MIN,
    OP_MUL,
    OP_NEG,
    OP_POW,
    OP_POWC,
    OP_SIN,
    OP_SINH,
    OP_SQRT,
    OP_STEP,
    OP_SUB,
    OP_T,
    OP_TABLE,
    OP_TAN,
    OP_TANH,
    eval_jet,
    eval_series,
)
from .limits import (
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_LENGTH,
)

MAX_LENGTH = MAX_EXPRESSION_LENGTH  # characters in an expression
MAX_DEPTH = MAX_EXPRESSION_DEPTH  # nesting levels (parentheses, unary signs, powers, calls)
Node = tuple  # parse node: ("num", v) | ("t",) | ("add", ...) | ... (see _Parser)


class ExpressionError(ModelError):
    """Invalid profile spec or expression; the message starts with its path."""


UNARY_FUNCS = {
    "sin": (OP_SIN, math.sin),
    "cos": (OP_COS, math.cos),
    "tan": (OP_TAN, math.tan),
    "asin": (OP_ASIN, math.asin),
    "acos": (OP_ACOS, math.acos),
    "atan": (OP_ATAN, math.atan),
    "exp": (OP_EXP, math.exp),
    "log": (OP_LOG, math.log),
    "sqrt": (OP_SQRT, math.sqrt),
    "abs": (OP_ABS, abs),
    "sinh": (OP_SINH, math.sinh),
    "cosh": (OP_COSH, math.cosh),
    "tanh": (OP_TANH, math.tanh),
}
MULTI_FUNCS = {"atan2": (OP_ATAN2, 2, 2), "min": (OP_MIN, 2, None), "max": (OP_MAX, 2, None), "step": (OP_STEP, 5, 5)}
CONSTANTS = {"pi": math.pi, "e": math.e}


# ------------------------------------------------------------------ parser
_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\*\*|[-+*/^(),]))",
    re.ASCII,
)
_FORBIDDEN = dict(
    [(c, "strings are not allowed") for c in "'\""]
    + [(c, "subscripts and lists are not allowed") for c in "[]"]
    + [(c, "comparisons are not allowed") for c in "<>!"]
    + [(c, "bitwise operators are not allowed") for c in "&|~"]
    + [
        (".", "attribute access is not allowed"),
        ("{", "braces are not allowed"),
        ("}", "braces are not allowed"),
        ("=", "comparisons and assignments are not allowed"),
        (":", "lambdas and slices are not allowed"),
        (";", "statements are not allowed"),
        ("%", "the % operator is not supported"),
        ("@", "the @ operator is not allowed"),
        ("#", "comments are not allowed"),
        ("\\", "backslashes are not allowed"),
    ]
)


def _excerpt(text, col):
    """The expression quoted for messages, shortened around ``col`` when long."""
    if len(text) <= 80:
        return '"%s"' % text
    lo = max(0, col - 40)
    tail = "..." if lo + 80 < len(text) else ""
    return '"%s%s%s"' % ("..." if lo else "", text[lo : lo + 80], tail)


def _tokenize(text):
    """List of (kind, text, column) ending with ('end', '', len+1); bad chars as 'bad'."""
    tokens, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            tokens.append(("end", "", len(text) + 1))
            return tokens
        m = _TOKEN.match(text, pos)
        if not m:
            tokens.append(("bad", text[pos], pos + 1))
            pos += 1
            continue
        kind = m.lastgroup
        tokens.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()


class _Parser:
    """Recursive-descent parser building folded nodes.

    Nodes: ('num', v) | ('t',) | ('add', [(sign, node)]) | ('mul', [(op, node)])
    | ('neg', node) | ('pow', base, exp) | ('call', name, [args]) | ('table', j, arg).
    """

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path, self.depth = text, path, 0
        self.tokens = _tokenize(text)
        self.i = 0

    def fail(self, problem: str, col: int, hint: str = "") -> NoReturn:
        raise ExpressionError(
            self.path, "%s at column %d in %s%s" % (problem, col, _excerpt(self.text, col), "; " + hint if hint else "")
        )

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i]

    def take(self) -> tuple[str, str, int]:
        self.i += 1
        return self.tokens[self.i - 1]

    def parse(self) -> Node:
        node = self.sum()
        kind, tok, col = self.peek()
        if kind != "end":
            self.fail("unexpected %s" % _describe(kind, tok), col)
        return node

    def sum(self) -> Node:
        terms = [(1.0, self.product())]
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            sign = 1.0 if self.take()[1] == "+" else -1.0
            terms.append((sign, self.product()))
        return make_add(terms)

    def product(self) -> Node:
        factors = [("*", self.unary())]
        while self.peek()[1] in ("*", "/") and self.peek()[0] == "op":
            factors.append((self.take()[1], self.unary()))
        return make_mul(factors)

    def unary(self) -> Node:
        kind, tok, col = self.peek()
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail("nesting deeper than %d levels" % MAX_DEPTH, col)
        if kind == "op" and tok in ("+", "-"):
            self.take()
            node = self.unary()
            node = make_neg(node) if tok == "-" else node
        else:
            node = self.power()
        self.depth -= 1
        return node

    def power(self) -> Node:
        base = self.primary()
        if self.peek()[1] in ("^", "**") and self.peek()[0] == "op":
            self.take()
            return make_pow(base, self.unary())
        return base

    def primary(self) -> Node:
        kind, tok, col = self.take()
        if kind == "num":
            value = float(tok)
            if not math.isfinite(value):
                self.fail("number %s out of range" % tok, col)
            return ("num", value)
        if kind == "name":
            return self.name(tok, col)
        if tok == "(":
            node = self.sum()
            self.expect(")", col)
            return node
        self.fail("unexpected %s" % _describe(kind, tok), col)

    def expect(self, tok: str, open_col: int) -> None:
        kind, got, col = self.peek()
        if got != tok or kind != "op":
            self.fail("expected %r (to close column %d), found %s" % (tok, open_col, _describe(kind, got)), col)
        self.take()

    def name(self, tok: str, col: int) -> Node:
        is_call = self.peek()[1] == "(" and self.peek()[0] == "op"
        if keyword.iskeyword(tok):
            self.fail("Python keyword %r is not allowed" % tok, col)
        if tok in UNARY_FUNCS or tok in MULTI_FUNCS:
            if not is_call:
                self.fail("function %r needs arguments: %s(...)" % (tok, tok), col)
            return self.call(tok, col)
        if is_call:
            self.fail(
                "unknown function %r" % tok,
                col,
                "allowed functions: " + ", ".join(sorted(UNARY_FUNCS) + sorted(MULTI_FUNCS)),
            )
        if tok == "t":
            return ("t",)
        if tok in CONSTANTS:
            return ("num", CONSTANTS[tok])
        self.fail("unknown name %r" % tok, col, "allowed names: t, pi, e")

    def call(self, name: str, col: int) -> Node:
        open_col = self.take()[2]
        args = [self.sum()]
        while self.peek()[1] == "," and self.peek()[0] == "op":
            self.take()
            args.append(self.sum())
        self.expect(")", open_col)
        lo, hi = (1, 1) if name in UNARY_FUNCS else MULTI_FUNCS[name][1:]
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = "%d argument%s" % (lo, "s" * (lo > 1)) if lo == hi else "at least %d arguments" % lo
            self.fail("%s() takes %s, got %d" % (name, want, len(args)), col)
        if name == "step" and args[1][0] == "num" and args[3][0] == "num" and not args[1][1] < args[3][1]:
            self.fail("step(x, x0, h0, x1, h1) needs x0 < x1", col)
        return make_call(name, args)


def _describe(kind, tok):
    """Human wording of an unexpected token for messages."""
    if kind == "end":
        return "end of expression"
    if kind == "bad":
        hint = _FORBIDDEN.get(tok)
        return "character %r%s" % (tok, " (%s)" % hint if hint else "")
    if kind == "name" and keyword.iskeyword(tok):
        return "Python keyword %r" % tok
    return "%r" % tok


# ------------------------------------------------- folding node constructors
def _const_value(fn, *args):
    """fn(*args) as a float, or None when Python math refuses (left to runtime)."""
    try:
        value = float(fn(*args))
    except (ArithmeticError, ValueError):
        return None
    return value if math.isfinite(value) else None


def make_add(terms: list[tuple[float, Node]]) -> Node:
    """Sum of (sign, node), constant terms folded."""
    if len(terms) == 1 and terms[0][0] > 0:
        return terms[0][1]
    const = [s * n[1] for s, n in terms if n[0] == "num"]
    rest = [(s, n) for s, n in terms if n[0] != "num"]
    total = _const_value(math.fsum, const)
    if total is None:  # the constants overflow: left to runtime (the run's profile check reports it)
        return ("add", terms)
    if not rest:
        return ("num", total)
    if total != 0.0:
        rest.append((1.0, ("num", total)))
    if len(rest) == 1 and rest[0][0] > 0:
        return rest[0][1]
    return ("add", rest)


def make_mul(factors: list[tuple[str, Node]]) -> Node:
    """Product of ('*'|'/', node), constant factors folded into one leading factor."""
    if len(factors) == 1:
        return factors[0][1]
    value, rest = 1.0, []
    for op, node in factors:
        if node[0] == "num":
            v = _const_value(operator.mul if op == "*" else operator.truediv, value, node[1])
            if v is not None:
                value = v
                continue
        rest.append((op, node))
    if not rest:
        return ("num", value)
    if value != 1.0:
        rest.insert(0, ("*", ("num", value)))
    if len(rest) == 1 and rest[0][0] == "*":
        return rest[0][1]
    if rest[0][0] == "/":
        rest.insert(0, ("*", ("num", 1.0)))
    return ("mul", rest)


def make_neg(node: Node) -> Node:
    """-node, folded into constants and leading constant factors."""
    if node[0] == "num":
        return ("num", -node[1])
    if node[0] == "neg":
        return node[1]
    if node[0] == "mul" and node[1][0][1][0] == "num":
        return ("mul", [("*", ("num", -node[1][0][1][1]))] + node[1][1:])
    return ("neg", node)


def make_pow(base: Node, exp: Node) -> Node:
    """base^exp, folded when both are constant."""
    if exp[0] == "num":
        if base[0] == "num":
            v = _const_value(math.pow, base[1], exp[1])
            if v is not None:
                return ("num", v)
        elif exp[1] == 1.0:
            return base
    return ("pow", base, exp)


def make_call(name: str, args: list[Node]) -> Node:
    """Function call, folded when all arguments are constant."""
    if all(a[0] == "num" for a in args):
        fn = UNARY_FUNCS[name][1] if name in UNARY_FUNCS else _PY_FUNCS[name]
        v = _const_value(fn, *[a[1] for a in args])
        if v is not None:
            return ("num", v)
    return ("call", name, args)


def _py_step(x, x0, h0, x1, h1):
    """ADAMS STEP in plain Python (constant folding only)."""
    if x <= x0:
        return h0
    if x >= x1:
        return h1
    d = (x - x0) / (x1 - x0)
    return h0 + (h1 - h0) * d * d * (3.0 - 2.0 * d)


_PY_FUNCS = {"atan2": math.atan2, "min": min, "max": max, "step": _py_step}


# ----------------------------------------------------------------- codegen
class _Emitter:
    """Postfix code generator tracking the constant pool and stack depth."""

    def __init__(self) -> None:
        self.code, self.consts, self.depth, self.max_depth = [], [], 0, 0
        self.index = {}  # (value, sign) -> position in consts: one lookup per constant, not a scan

    def op(self, opcode: int, arg: int = 0, pops: int = 0, pushes: int = 0) -> None:
        self.code += [opcode, arg]
        self.depth += pushes - pops
        self.max_depth = max(self.max_depth, self.depth)

    def const(self, value: float) -> int:
        key = (float(value), math.copysign(1.0, value))
        if key not in self.index:
            self.index[key] = len(self.consts)
            self.consts.append(float(value))
        return self.index[key]

    def emit(self, node: Node) -> None:
        kind = node[0]
        if kind == "num":
            self.op(OP_CONST, self.const(node[1]), pushes=1)
        elif kind == "t":
            self.op(OP_T, pushes=1)
        elif kind == "add":
            self.emit_chain(node[1], {1.0: OP_ADD, -1.0: OP_SUB})
        elif kind == "mul":
            self.emit_chain(node[1], {"*": OP_MUL, "/": OP_DIV})
        elif kind == "neg":
            self.emit(node[1])
            self.op(OP_NEG)
        elif kind == "pow":
            self.emit_pow(node[1], node[2])
        elif kind == "table":
            self.emit(node[2])
            self.op(OP_TABLE, node[1])
        else:
            self.emit_call(node[1], node[2])

    def emit_chain(self, items: list[tuple], ops: dict) -> None:
        first_op, first = items[0]
        self.emit(first)
        if first_op == -1.0:
            self.op(OP_NEG)
        for key, node in items[1:]:
            self.emit(node)
            self.op(ops[key], pops=1)

    def emit_pow(self, base: Node, exp: Node) -> None:
        self.emit(base)
        if exp[0] == "num":
            self.op(OP_POWC, self.const(exp[1]))
        else:
            self.emit(exp)
            self.op(OP_POW, pops=1)

    def emit_call(self, name: str, args: list[Node]) -> None:
        if name in UNARY_FUNCS:
            self.emit(args[0])
            self.op(UNARY_FUNCS[name][0])
            return
        opcode = MULTI_FUNCS[name][0]
        self.emit(args[0])
        if name in ("min", "max"):
            for a in args[1:]:
                self.emit(a)
                self.op(opcode, pops=1)
            return
        for a in args[1:]:
            self.emit(a)
        self.op(opcode, pops=len(args) - 1)


# ----------------------------------------------------------------- programs
class Program:
    """One compiled profile: bytecode, constants, tables, readable source."""

    def __init__(
        self,
        code: Sequence[int],
        consts: Sequence[float],
        tables: list[tuple[Sequence[float], Sequence[float]]],
        source: str,
        max_depth: int,
    ) -> None:
        self.code = np.ascontiguousarray(code, dtype=np.int64)
        self.consts = np.ascontiguousarray(consts, dtype=np.float64)
        self.tables = [(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)) for x, y in tables]
        self.source = source
        self.max_depth = int(max_depth)
        self._args = None

    def __call__(self, t: float) -> tuple[float, float, float]:
        """(f, f', f'') at time t through the njit evaluator."""
        if self._args is None:
            self._args = pack_args(pack_programs([self]))
        f, f1, f2 = cold_start.call(eval_jet, 0, float(t), *self._args)
        return float(f), float(f1), float(f2)

    def series(self, times: np.ndarray) -> np.ndarray:
        """(f, f', f'') at every time of ``times`` [s]: array (n, 3)."""
        if self._args is None:
            self._args = pack_args(pack_programs([self]))
        return cold_start.call(eval_series, 0, np.ascontiguousarray(times, dtype=np.float64), *self._args)

    def __repr__(self) -> str:
        return "Program(%r)" % self.source


def compile_node(node, tables, source):
    """The Program of a folded parse node (``tables``: (t, value) arrays of its OP_TABLE nodes)."""
    em = _Emitter()
    em.emit(node)
    return Program(em.code, em.consts, tables, source, em.max_depth)


def number_text(x: float) -> str:
    """Exact, short text of a float (integers without '.0')."""
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def compile_expression(
    text: str, path: str = "profile", max_length: int | None = MAX_LENGTH, scale: float = 1.0
) -> Program:
    """Compile an expression string in t (language in the module docstring), multiplied by
    ``scale`` (a unit conversion: the parsed expression is scaled, the text never wrapped)."""
    if not isinstance(text, str):
        raise ExpressionError(path, "expression must be a string, got %s" % type(text).__name__)
    if max_length is not None and len(text) > max_length:
        raise ExpressionError(path, "expression too long (%d characters, max %d)" % (len(text), max_length))
    if not text.strip():
        raise ExpressionError(path, "empty expression")
    parser = _Parser(text, path)
    try:
        node = parser.parse()
    except RecursionError:
        raise ExpressionError(path, "expression nested too deeply") from None
    if scale == 1.0:
        return compile_node(node, [], text.strip())
    source = "%s*(%s)" % (number_text(scale), text.strip())
    return compile_node(make_mul([("*", ("num", scale)), ("*", node)]), [], source)


# -------------------------------------------------------------------- packs
class ProgramPack:
    """Programs concatenated into flat typed arrays for njit kernels (see eval_jet)."""

    def __init__(self, programs: Iterable[Program]) -> None:
        programs = list(programs)
        tables = [tb for p in programs for tb in p.tables]
        self.sources = [p.source for p in programs]
        self.code = _concat([p.code for p in programs], np.int64)
        self.code_start = _offsets([p.code.size for p in programs])
        self.consts = _concat([p.consts for p in programs], np.float64)
        self.const_start = _offsets([p.consts.size for p in programs])
        self.table_x = _concat([x for x, _ in tables], np.float64)
        self.table_y = _concat([y for _, y in tables], np.float64)
        self.table_start = _offsets([x.size for x, _ in tables])
        self.table_base = _offsets([len(p.tables) for p in programs])
        self.max_depth = max([p.max_depth for p in programs] + [1])
        self.stack = new_stack(self)

    def __len__(self) -> int:
        return len(self.sources)


def _concat(arrays, dtype):
    return np.ascontiguousarray(np.concatenate([np.zeros(0, dtype)] + list(arrays)), dtype=dtype)


def _offsets(sizes):
    return np.cumsum(np.array([0, *sizes], dtype=np.int64))


def new_stack(pack: ProgramPack) -> np.ndarray:
    """A fresh scratch stack for ``pack`` (one per thread when evaluating in parallel)."""
    return np.zeros((pack.max_depth, 3), dtype=np.float64)


def pack_programs(programs: Sequence[Program]) -> ProgramPack:
    """Concatenate Programs into a ProgramPack (program k keeps index k)."""
    for i, p in enumerate(programs):
        if not isinstance(p, Program):
            raise TypeError("programs[%d] is %s, not a Program" % (i, type(p).__name__))
    return ProgramPack(programs)


def pack_args(pack: ProgramPack) -> tuple[np.ndarray, ...]:
    """Arrays in eval_jet's order after (k, t): eval_jet(k, t, *pack_args(pack))."""
    return (
        pack.code,
        pack.code_start,
        pack.consts,
        pack.const_start,
        pack.table_x,
        pack.table_y,
        pack.table_start,
        pack.table_base,
        pack.stack,
    )
