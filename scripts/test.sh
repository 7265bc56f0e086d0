#!/bin/sh
# Install everything the tests need into .venv, then run lint, the strict type check and every test, then
# build the package and try it from outside the checkout. This is the README's test command; .ci/run
# calls it too.
set -eu
cd "$(dirname "$0")/.."
python3 -m venv .venv
# the editable install builds koloda with the locked setuptools and NumPy (requirements-build.txt)
PIP_CONSTRAINT=requirements-build.txt .venv/bin/pip install -q -r requirements-dev.txt -e .
.venv/bin/ruff check src tests bench scripts setup.py
.venv/bin/ruff format --check src tests bench scripts setup.py
.venv/bin/mypy
# The web tests drive a real Chromium (Debian's; Playwright never downloads a browser here).
command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium; }
# The store's tests run on PostgreSQL too, and the tests of many nodes need Redis and nginx (Debian's;
# scripts/services.py starts each on a loopback port in a folder of its own and stops it after).
{ [ -x /usr/lib/postgresql/15/bin/initdb ] || command -v initdb >/dev/null 2>&1; } \
    && command -v redis-server >/dev/null 2>&1 && { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } \
    || { apt-get update -qq && apt-get install -y -qq postgresql redis-server nginx; }
.venv/bin/pytest -n 2
# The research interfaces once more on their Python code, as they run where no C compiler built the
# extension (docs/rl.md): the same tests must pass.
KOLODA_NO_SPEEDUPS=1 .venv/bin/pytest -n 2 -q tests/rl
# The package as people get it: the sdist and the wheels built and checked, the wheel installed into a
# fresh environment outside the checkout, and every command run from there (about a minute).
.venv/bin/python scripts/smoke.py
