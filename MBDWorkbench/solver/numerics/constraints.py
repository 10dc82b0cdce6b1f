"""The constraint rows of the system: Phi, its Jacobian, gamma and the rate Phi_q qdot + Phi_t,
with the driver profiles subtracted.
"""

from .jets import eval_jet
from .jit import njit
from .joints import ANGLE, eval_row, wrap_angle


@njit(cache=True)
def _constraints(
    t,
    Y,
    nb,
    A,
    kind_arr,
    bi,
    bj,
    vecs,
    prog,
    phi_out,
    jac,
    gamma_out,
    rate_out,
    code,
    code_start,
    consts,
    const_start,
    table_x,
    table_y,
    table_start,
    table_base,
    stack,
):
    for r in range(kind_arr.shape[0]):
        kind = kind_arr[r]
        phi, gamma, rate = eval_row(r, kind, bi[r], bj[r], vecs, Y, nb, A, jac)
        k = prog[r]
        if k >= 0:
            f, fd, fdd = eval_jet(
                k, t, code, code_start, consts, const_start, table_x, table_y, table_start, table_base, stack
            )
            phi = phi - f
            if kind == ANGLE:
                phi = wrap_angle(phi)
            rate -= fd
            gamma += fdd
        phi_out[r] = phi
        gamma_out[r] = gamma
        rate_out[r] = rate


@njit(cache=True, inline="always")
def constraints(t, Y, S, W):
    """Fill W.phi, W.jac, W.gamma, W.rate (= Phi_q qdot + Phi_t) at (t, Y)."""
    _constraints(
        t,
        Y,
        S.nb,
        W.A,
        S.row_kind,
        S.row_bi,
        S.row_bj,
        S.row_vecs,
        S.row_prog,
        W.phi,
        W.jac,
        W.gamma,
        W.rate,
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
