#!/usr/bin/env bash
# Lint and format check with ruff (settings in pyproject.toml); exits non-zero on any finding.
# ruff lives in a git-ignored venv, .venv-tools, so the system Python (FreeCAD's) is left alone.
# Fix locally with: .venv-tools/bin/ruff check --fix . && .venv-tools/bin/ruff format .
set -euo pipefail
cd "$(dirname "$0")/.."
RUFF_VERSION=0.17.5
VENV=.venv-tools
RUFF=$VENV/bin/ruff

venv_support() {
  # Debian's python3 has venv only with the python3-venv package (ensurepip).
  /usr/bin/python3 -c "import ensurepip, venv" 2>/dev/null && return
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "lint: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq python3-venv >/dev/null
}

if ! { [ -x "$RUFF" ] && [ "$("$RUFF" --version)" = "ruff $RUFF_VERSION" ]; }; then
  venv_support
  rm -rf "$VENV"
  /usr/bin/python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "ruff==$RUFF_VERSION"
fi

status=0
"$RUFF" check . || status=1
"$RUFF" format --check . || status=1
exit $status
