"""The Numba jet evaluator of the profile bytecode (compiled by model/expressions.py): ``eval_jet``
runs a program on a stack whose slots are jets (f, f', f''), so value, first and second time
derivative come out exact; ``eval_series`` at many times.

Bytecode: int64 pairs ``(opcode, operand)``; operands index the program's own
constants (``OP_CONST``, ``OP_POWC``) or tables (``OP_TABLE``).
"""

import math

import numpy as np

from .jit import njit

# ----------------------------------------------------------------- opcodes
OP_CONST, OP_T, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG = 0, 1, 2, 3, 4, 5, 6
OP_POWC, OP_POW, OP_ATAN2, OP_MIN, OP_MAX, OP_STEP, OP_TABLE = 7, 8, 9, 10, 11, 12, 13
OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN = 20, 21, 22, 23, 24, 25
OP_EXP, OP_LOG, OP_SQRT, OP_ABS, OP_SINH, OP_COSH, OP_TANH = 26, 27, 28, 29, 30, 31, 32


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


@njit(cache=True, inline="always")
def jet(S, k, t):
    """Value, first and second time derivative of profile program k at time t."""
    return eval_jet(
        k,
        t,
        S.p_code,
        S.p_code_start,
        S.p_consts,
        S.p_const_start,
        S.p_table_x,
        S.p_table_y,
        S.p_table_start,
        S.p_table_base,
        S.p_stack,
    )
