"""Safe time-profile compiler and Numba jet evaluator for drivers and loads.

A profile spec (expression string or dict, see ``compile_profile``) is parsed by
a small recursive-descent parser (user text is never passed to eval/exec) into
a postfix bytecode.  ``eval_jet`` runs that bytecode on a stack whose slots are
jets (f, f', f''), so value, first and second time derivative come out exact.

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
import numbers
import operator
import re
from collections.abc import Iterable, Sequence
from typing import NoReturn

import numpy as np

from ..errors import ModelError
from ..numerics import cold_start
from ..numerics.jit import njit
from .limits import (
    MAX_EXPRESSION_DEPTH,
    MAX_EXPRESSION_LENGTH,
    MAX_POLYNOMIAL_COEFFICIENTS,
    MAX_TABLE_POINTS,
    MAX_TEXT_LENGTH,
    RANGES,
)

MAX_LENGTH = MAX_EXPRESSION_LENGTH  # characters in an expression
MAX_DEPTH = MAX_EXPRESSION_DEPTH  # nesting levels (parentheses, unary signs, powers, calls)
Node = tuple  # parse node: ("num", v) | ("t",) | ("add", ...) | ... (see _Parser)


class ExpressionError(ModelError):
    """Invalid profile spec or expression; the message starts with its path."""


# ----------------------------------------------------------------- opcodes
OP_CONST, OP_T, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG = 0, 1, 2, 3, 4, 5, 6
OP_POWC, OP_POW, OP_ATAN2, OP_MIN, OP_MAX, OP_STEP, OP_TABLE = 7, 8, 9, 10, 11, 12, 13
OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN = 20, 21, 22, 23, 24, 25
OP_EXP, OP_LOG, OP_SQRT, OP_ABS, OP_SINH, OP_COSH, OP_TANH = 26, 27, 28, 29, 30, 31, 32

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


# ------------------------------------------------------------- jet kernels
@njit(cache=True, error_model="numpy")
def _elementary(op, u):
    """(g(u), g'(u), g''(u)) of the unary function ``op``."""
    if op == OP_SIN:
        s = math.sin(u)
        return s, math.cos(u), -s
    if op == OP_COS:
        c = math.cos(u)
        return c, -math.sin(u), -c
    if op == OP_EXP:
        x = math.exp(u)
        return x, x, x
    if op == OP_SQRT:
        s = math.sqrt(u)
        return s, 0.5 / s, -0.25 / (s * s * s)
    if op == OP_LOG:
        return math.log(u), 1.0 / u, -1.0 / (u * u)
    if op == OP_TAN:
        x = math.tan(u)
        d = 1.0 + x * x
        return x, d, 2.0 * x * d
    if op == OP_ATAN:
        d = 1.0 + u * u
        return math.atan(u), 1.0 / d, -2.0 * u / (d * d)
    if op == OP_ASIN or op == OP_ACOS:
        d = 1.0 - u * u
        g1 = 1.0 / math.sqrt(d)
        if op == OP_ASIN:
            return math.asin(u), g1, u * g1 / d
        return math.acos(u), -g1, -u * g1 / d
    if op == OP_ABS:
        sg = 1.0 if u > 0.0 else (-1.0 if u < 0.0 else 0.0)
        return abs(u), sg, 0.0
    if op == OP_SINH:
        return math.sinh(u), math.cosh(u), math.sinh(u)
    if op == OP_COSH:
        return math.cosh(u), math.sinh(u), math.cosh(u)
    if op == OP_TANH:
        x = math.tanh(u)
        d = 1.0 - x * x
        return x, d, -2.0 * x * d
    return np.nan, np.nan, np.nan


@njit(cache=True, error_model="numpy")
def _chain(g0, g1, g2, u1, u2):
    """Jet of g(u(t)) from g's derivatives; zero inner terms are skipped (no inf*0)."""
    f1 = g1 * u1 if u1 != 0.0 else 0.0
    f2 = g2 * u1 * u1 if u1 != 0.0 else 0.0
    if u2 != 0.0:
        f2 += g1 * u2
    return g0, f1, f2


@njit(cache=True, error_model="numpy")
def _powc(u, p):
    """(u^p, d/du, d2/du2) for a constant exponent p (negative u ok for integer p)."""
    pm2 = math.pow(u, p - 2.0)
    if pm2 != 0.0 and abs(pm2) < np.inf:  # one pow call; else the careful path
        pm1 = pm2 * u
        return pm1 * u, p * pm1, p * (p - 1.0) * pm2
    g1 = p * math.pow(u, p - 1.0) if p != 0.0 else 0.0
    g2 = p * (p - 1.0) * math.pow(u, p - 2.0) if (p != 0.0 and p != 1.0) else 0.0
    return math.pow(u, p), g1, g2


@njit(cache=True, error_model="numpy")
def _mul(a0, a1, a2, b0, b1, b2):
    """Product rule on jets."""
    return a0 * b0, a1 * b0 + a0 * b1, a2 * b0 + 2.0 * a1 * b1 + a0 * b2


@njit(cache=True, error_model="numpy")
def _div(a0, a1, a2, b0, b1, b2):
    """Quotient rule on jets (from a = q b)."""
    q0 = a0 / b0
    q1 = (a1 - q0 * b1) / b0
    return q0, q1, (a2 - 2.0 * q1 * b1 - q0 * b2) / b0


@njit(cache=True, error_model="numpy")
def _pow(a0, a1, a2, b0, b1, b2):
    """a^b on jets; exp(b log a) rule when b varies, constant-exponent rule otherwise."""
    if b1 == 0.0 and b2 == 0.0:
        g0, g1, g2 = _powc(a0, b0)
        return _chain(g0, g1, g2, a1, a2)
    f = math.pow(a0, b0)
    lg = math.log(a0)
    r = a1 / a0
    h1 = b1 * lg + b0 * r
    h2 = b2 * lg + 2.0 * b1 * r + b0 * (a2 / a0 - r * r)
    return f, f * h1, f * (h2 + h1 * h1)


@njit(cache=True, error_model="numpy")
def _atan2(y0, y1, y2, x0, x1, x2):
    """atan2(y, x) on jets."""
    r2 = x0 * x0 + y0 * y0
    f1 = (x0 * y1 - y0 * x1) / r2
    f2 = (x0 * y2 - y0 * x2 - 2.0 * f1 * (x0 * x1 + y0 * y1)) / r2
    return math.atan2(y0, x0), f1, f2


@njit(cache=True, error_model="numpy")
def _step(s, i):
    """ADAMS STEP(x, x0, h0, x1, h1) on the jets in rows i..i+4 of stack ``s``."""
    x, x0, x1 = s[i, 0], s[i + 1, 0], s[i + 3, 0]
    if x <= x0:
        return s[i + 2, 0], s[i + 2, 1], s[i + 2, 2]
    if x >= x1:
        return s[i + 4, 0], s[i + 4, 1], s[i + 4, 2]
    d0, d1, d2 = _div(
        x - x0,
        s[i, 1] - s[i + 1, 1],
        s[i, 2] - s[i + 1, 2],
        x1 - x0,
        s[i + 3, 1] - s[i + 1, 1],
        s[i + 3, 2] - s[i + 1, 2],
    )
    g0, g1, g2 = _chain(d0 * d0 * (3.0 - 2.0 * d0), 6.0 * d0 * (1.0 - d0), 6.0 - 12.0 * d0, d1, d2)
    a0, a1, a2 = _mul(s[i + 4, 0] - s[i + 2, 0], s[i + 4, 1] - s[i + 2, 1], s[i + 4, 2] - s[i + 2, 2], g0, g1, g2)
    return s[i + 2, 0] + a0, s[i + 2, 1] + a1, s[i + 2, 2] + a2


@njit(cache=True, error_model="numpy")
def _table(u0, u1, u2, tx, ty, lo, hi):
    """Piecewise-linear interpolation of points lo..hi-1 on a jet; constant outside."""
    if u0 < tx[lo]:
        return ty[lo], 0.0, 0.0
    if u0 >= tx[hi - 1]:
        return ty[hi - 1], 0.0, 0.0
    hi -= 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if tx[mid] <= u0:
            lo = mid
        else:
            hi = mid
    m = (ty[lo + 1] - ty[lo]) / (tx[lo + 1] - tx[lo])
    return ty[lo] + m * (u0 - tx[lo]), m * u1, m * u2


@njit(cache=True, error_model="numpy")
def _binary(op, a0, a1, a2, b0, b1, b2):
    """Jet of a two-operand opcode."""
    if op == OP_MUL:
        return _mul(a0, a1, a2, b0, b1, b2)
    if op == OP_ADD:
        return a0 + b0, a1 + b1, a2 + b2
    if op == OP_SUB:
        return a0 - b0, a1 - b1, a2 - b2
    if op == OP_DIV:
        return _div(a0, a1, a2, b0, b1, b2)
    if op == OP_POW:
        return _pow(a0, a1, a2, b0, b1, b2)
    if op == OP_ATAN2:
        return _atan2(a0, a1, a2, b0, b1, b2)
    if op == OP_MIN:
        return (a0, a1, a2) if a0 <= b0 else (b0, b1, b2)
    if op == OP_MAX:
        return (a0, a1, a2) if a0 >= b0 else (b0, b1, b2)
    return np.nan, np.nan, np.nan


@njit(cache=True, error_model="numpy")
def eval_jet(
    k: int,
    t: float,
    code: np.ndarray,
    code_start: np.ndarray,
    consts: np.ndarray,
    const_start: np.ndarray,
    table_x: np.ndarray,
    table_y: np.ndarray,
    table_start: np.ndarray,
    table_base: np.ndarray,
    stack: np.ndarray,
) -> tuple[float, float, float]:
    """Evaluate program ``k`` of a pack at time ``t`` (float) -> (f, df/dt, d2f/dt2).

    Argument order after (k, t) is ``pack_args(pack)``:
    code int64[:], code_start int64[n+1], consts float64[:], const_start int64[n+1],
    table_x float64[:], table_y float64[:], table_start int64[ntables+1],
    table_base int64[n+1], stack float64[depth, 3] (scratch, >= the pack's max depth).
    The stack is overwritten: concurrent callers (prange) need one each (``new_stack``).
    Returns NaNs for k out of range.
    """
    if k < 0 or k >= code_start.shape[0] - 1:
        return np.nan, np.nan, np.nan
    c0 = const_start[k]
    sp = 0
    for pc in range(code_start[k], code_start[k + 1], 2):
        op = code[pc]
        arg = code[pc + 1]
        if op == OP_T:
            stack[sp, 0], stack[sp, 1], stack[sp, 2] = t, 1.0, 0.0
            sp += 1
        elif op == OP_CONST:
            stack[sp, 0], stack[sp, 1], stack[sp, 2] = consts[c0 + arg], 0.0, 0.0
            sp += 1
        elif op < OP_NEG or (op >= OP_POW and op <= OP_MAX):
            sp -= 1
            stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2] = _binary(
                op, stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2], stack[sp, 0], stack[sp, 1], stack[sp, 2]
            )
        elif op >= OP_SIN:
            g0, g1, g2 = _elementary(op, stack[sp - 1, 0])
            stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2] = _chain(
                g0, g1, g2, stack[sp - 1, 1], stack[sp - 1, 2]
            )
        elif op == OP_NEG:
            for j in range(3):
                stack[sp - 1, j] = -stack[sp - 1, j]
        elif op == OP_POWC:
            g0, g1, g2 = _powc(stack[sp - 1, 0], consts[c0 + arg])
            stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2] = _chain(
                g0, g1, g2, stack[sp - 1, 1], stack[sp - 1, 2]
            )
        elif op == OP_STEP:
            sp -= 4
            stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2] = _step(stack, sp - 1)
        elif op == OP_TABLE:
            g = table_base[k] + arg
            stack[sp - 1, 0], stack[sp - 1, 1], stack[sp - 1, 2] = _table(
                stack[sp - 1, 0],
                stack[sp - 1, 1],
                stack[sp - 1, 2],
                table_x,
                table_y,
                table_start[g],
                table_start[g + 1],
            )
    return stack[0, 0], stack[0, 1], stack[0, 2]


@njit(cache=True, error_model="numpy")
def eval_series(
    k: int,
    times: np.ndarray,
    code: np.ndarray,
    code_start: np.ndarray,
    consts: np.ndarray,
    const_start: np.ndarray,
    table_x: np.ndarray,
    table_y: np.ndarray,
    table_start: np.ndarray,
    table_base: np.ndarray,
    stack: np.ndarray,
) -> np.ndarray:
    """Program ``k`` of a pack at every time of ``times`` [s]: array (n, 3) of (f, f', f'')
    (arguments after ``times`` as :func:`eval_jet`)."""
    out = np.empty((times.shape[0], 3))
    for i in range(times.shape[0]):
        out[i, 0], out[i, 1], out[i, 2] = eval_jet(
            k, times[i], code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
        )
    return out


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


def _compile_node(node, tables, source):
    em = _Emitter()
    em.emit(node)
    return Program(em.code, em.consts, tables, source, em.max_depth)


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
        return _compile_node(node, [], text.strip())
    return _compile_node(make_mul([("*", ("num", scale)), ("*", node)]), [], "%s*(%s)" % (_fmt(scale), text.strip()))


# ------------------------------------------------------------ dict profiles
def _num(spec, key, path, default=None):
    """Finite float field ``key`` of ``spec`` (``default`` when absent and not None)."""
    if key not in spec:
        if default is None:
            raise ExpressionError("%s.%s" % (path, key), "required field is missing")
        return float(default)
    return _finite(spec[key], "%s.%s" % (path, key))


def _finite(value, path):
    """A number of a profile object as a float within limits.RANGES['profile_number']."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ExpressionError(path, "must be a finite number, got %s" % _show(value))
    try:
        x = float(value)
    except OverflowError:
        raise ExpressionError(path, "must be a finite number, got an integer of about 10^%d" % _log10(value)) from None
    bound = RANGES["profile_number"]
    if not math.isfinite(x) or not bound.contains(x):
        raise ExpressionError(path, "must be a finite number in [%g, %g], got %r" % (bound.low, bound.high, x))
    return x


def _log10(n: int) -> int:
    """Decimal exponent of a huge integer (no str(): it may exceed Python's digit limit)."""
    return int(abs(n).bit_length() * 0.30103)


def _show(value: object) -> str:
    """repr of a value for messages, cut to 60 characters."""
    text = repr(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _num_list(spec, key, path, min_len, max_len):
    """List of finite floats (``min_len`` to ``max_len`` of them)."""
    p = "%s.%s" % (path, key)
    if key not in spec:
        raise ExpressionError(p, "required field is missing")
    values = spec[key]
    if not isinstance(values, (list, tuple, np.ndarray)) or len(values) < min_len:
        raise ExpressionError(p, "must be a list of at least %d numbers" % min_len)
    if len(values) > max_len:
        raise ExpressionError(p, "has %d entries, at most %d are allowed (limits)" % (len(values), max_len))
    return [_finite(v, "%s[%d]" % (p, i)) for i, v in enumerate(values)]


def _fmt(x):
    """Exact, short text of a float (integers without '.0')."""
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def _join(terms):
    """Join signed term strings ('-…' allowed) into 'a + b - c'."""
    out = ""
    for term in terms:
        if not out:
            out = term
        elif term.startswith("-"):
            out += " - " + term[1:]
        else:
            out += " + " + term
    return out or "0"


def _scaled(c, text):
    """'c*text' with c = 1 and -1 simplified."""
    return text if c == 1.0 else "-" + text if c == -1.0 else "%s*%s" % (_fmt(c), text)


def _src_constant(spec, path):
    return _fmt(_num(spec, "value", path))


def _src_constant_speed(spec, path):
    w, x0 = _num(spec, "speed", path), _num(spec, "initial", path, 0.0)
    return _join([_fmt(x0)] * (x0 != 0.0) + [_scaled(w, "t")] * (w != 0.0))


def _src_harmonic(spec, path):
    a = _num(spec, "amplitude", path)
    if ("omega" in spec) == ("frequency" in spec):
        raise ExpressionError("%s.omega" % path, "give exactly one of 'omega' [rad/s] or 'frequency' [Hz]")
    w = _num(spec, "omega", path) if "omega" in spec else 2.0 * math.pi * _num(spec, "frequency", path)
    p, c = _num(spec, "phase", path, 0.0), _num(spec, "offset", path, 0.0)
    arg = _join([_scaled(w, "t"), _fmt(p)] if p != 0.0 else [_scaled(w, "t")])
    return _join([_fmt(c)] * (c != 0.0) + [_scaled(a, "sin(%s)" % arg)] * (a != 0.0))


def _src_polynomial(spec, path):
    coeffs = _num_list(spec, "coefficients", path, 1, MAX_POLYNOMIAL_COEFFICIENTS)
    powers = ["1", "t"] + ["t^%d" % k for k in range(2, len(coeffs))]
    terms = [_fmt(c) if k == 0 else _scaled(c, powers[k]) for k, c in enumerate(coeffs) if c != 0.0]
    return _join(terms)


def _src_step(spec, path):
    t0, t1 = _num(spec, "t0", path), _num(spec, "t1", path)
    if not t0 < t1:
        raise ExpressionError("%s.t1" % path, "must be greater than t0 (%s)" % _fmt(t0))
    return "step(t, %s, %s, %s, %s)" % (
        _fmt(t0),
        _fmt(_num(spec, "value0", path)),
        _fmt(t1),
        _fmt(_num(spec, "value1", path)),
    )


def _compile_table(spec, path):
    tx, ty = _num_list(spec, "t", path, 2, MAX_TABLE_POINTS), _num_list(spec, "value", path, 2, MAX_TABLE_POINTS)
    if len(tx) != len(ty):
        raise ExpressionError("%s.value" % path, "has %d entries but t has %d" % (len(ty), len(tx)))
    for i in range(1, len(tx)):
        if not tx[i] > tx[i - 1]:
            raise ExpressionError(
                "%s.t" % path,
                "must be strictly increasing (t[%d]=%s after t[%d]=%s)" % (i, _fmt(tx[i]), i - 1, _fmt(tx[i - 1])),
            )
    source = "table(t; %d points, t in [%s, %s])" % (len(tx), _fmt(tx[0]), _fmt(tx[-1]))
    return _compile_node(("table", 0, ("t",)), [(tx, ty)], source)


_SOURCES = {
    "constant": (_src_constant, {"value"}),
    "constant_speed": (_src_constant_speed, {"speed", "initial"}),
    "harmonic": (_src_harmonic, {"amplitude", "omega", "frequency", "phase", "offset"}),
    "polynomial": (_src_polynomial, {"coefficients"}),
    "step": (_src_step, {"t0", "value0", "t1", "value1"}),
}
_TYPES = sorted(list(_SOURCES) + ["expression", "table"])
_FIELDS = dict({k: v[1] for k, v in _SOURCES.items()}, expression={"expr", "scale"}, table={"t", "value"})
_IGNORED = {"type", "comment", "description", "name"}


def _check_dict(spec, path):
    """Validate 'type' and reject unknown fields; returns the type."""
    kind = spec.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        raise ExpressionError("%s.type" % path, "must be one of %s, got %s" % (", ".join(_TYPES), _show(kind)))
    for key in spec:
        if key not in _FIELDS[kind] and key not in _IGNORED:
            raise ExpressionError(
                "%s.%s" % (path, key),
                "unknown field for type %r (allowed: %s)" % (kind, ", ".join(sorted(_FIELDS[kind]))),
            )
        if key in _IGNORED and key != "type" and not (isinstance(spec[key], str) and len(spec[key]) <= MAX_TEXT_LENGTH):
            raise ExpressionError("%s.%s" % (path, key), "must be a string of at most %d characters" % MAX_TEXT_LENGTH)
    return kind


def compile_profile(spec: str | float | dict, path: str = "profile") -> Program:
    """Compile a profile spec (expression string, number or dict) into a Program.

    Dict types: expression{expr, scale=1} (expr times scale, e.g. a unit conversion),
    constant{value}, constant_speed{speed, initial=0},
    harmonic{amplitude, omega | frequency [Hz], phase=0, offset=0},
    polynomial{coefficients}, table{t, value}, step{t0, value0, t1, value1}.
    Raises ExpressionError whose message starts with ``path`` (or ``path.field``).
    """
    if isinstance(spec, str):
        return compile_expression(spec, path)
    if isinstance(spec, numbers.Real) and not isinstance(spec, bool):
        return compile_expression(_fmt(_finite(spec, path)), path)
    if not isinstance(spec, dict):
        raise ExpressionError(
            path, "expected an expression string or an object with a 'type' field, got %s" % type(spec).__name__
        )
    kind = _check_dict(spec, path)
    if kind == "expression":
        if "expr" not in spec:
            raise ExpressionError("%s.expr" % path, "required field is missing")
        scale = _num(spec, "scale", path, 1.0)
        return compile_expression(spec["expr"], "%s.expr" % path, scale=scale)
    if kind == "table":
        return _compile_table(spec, path)
    return compile_expression(_SOURCES[kind][0](spec, path), path, max_length=None)


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
    return np.concatenate([np.zeros(1, np.int64), np.cumsum(np.asarray(sizes, np.int64))]).astype(np.int64)


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
