"""The package as people get it: build it, check it, install it outside the checkout, run every command.

    .venv/bin/python scripts/smoke.py [--keep]

scripts/test.sh runs this after the test suite, with the development environment's Python (which has
`build` and `twine`). In a temporary directory outside the checkout it

1. builds the sdist and the wheel with ``python -m build`` (the wheel from the sdist, as pip would), the
   build tools at the versions of requirements-build.txt, and a pure-Python wheel from the same sdist
   (``KOLODA_PURE_WHEEL=1``: no C extension, installs on any platform); ``twine check --strict`` on all three;
2. checks what they hold: every file of ``src/koloda`` (the pages and scripts, the compiled catalog, the
   Alembic migrations, the extension's stub) in both wheels but the sources compiled into others (the
   ``.po`` and ``.c`` files), the compiled extension in the platform wheel only, the licence and the
   ranges in the metadata; every file of the repository in the sdist;
3. installs the wheel, not editable, into a fresh virtual environment with the README's first command's
   lock (requirements.txt): ``pip freeze`` must then be exactly requirements.txt;
4. runs every command from there, in a directory of its own and with a data directory of its own:
   ``--version``, ``python -m koloda``, simulate and replay of both games, ``thousand score`` and
   ``thousand sheet`` (fed lines, then ``--resume``), ``banki new``/``resume``/``replay``, tournaments,
   the shell completion in bash, a replay on a cp1252 terminal, and ``koloda serve`` on a free loopback
   port: the pages, the static files, the API (a score sheet stored) and a websocket, then stopped;
5. adds the extra ``rl`` (not ``openspiel``): the PettingZoo and Gymnasium interfaces run on the compiled
   extension, and ``koloda.rl.openspiel`` says which extra to install;
6. installs the pure wheel with ``rl`` into a second environment: the same interfaces run on the Python
   reference code.

Nothing but the package registries is reached. It prints one line per step and the seconds it took, and
exits 1 at the first failure with the command and its output (``--keep`` keeps the directory).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
BANK_RECORD = TESTS / "bank" / "golden" / "literal-4-deal.json"
THOUSAND_RECORD = TESTS / "thousand" / "golden" / "game_russian_4p.json"
SCORE_FILE = TESTS / "thousand" / "fixtures" / "russian_barrel.jsonl"
BANKI_RECORD = TESTS / "banki" / "golden" / "moscow.json"
#: A deal of the score sheet typed at its prompts: players, declarer, bid, bomb?, points, marriages.
SHEET_LINES = ["Ann, Bob, Cat", "Ann", "120", "n", "85", "25", "60", "", ""]
BANKI_LINES = ["kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7", "hit Bob"]
BIN = "Scripts" if os.name == "nt" else "bin"


class Failure(Exception):
    """A step that did not do what it should; the message says what, with the command's output."""


class Smoke:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.started = time.monotonic()
        self.step_started = self.started
        self.version = ""

    # -- running things ------------------------------------------------------------------------------

    def run(
        self,
        command: list[str | Path],
        *,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdin: str = "",
        timeout: float = 300,
        status: int | None = 0,
    ) -> subprocess.CompletedProcess[str]:
        args = [str(part) for part in command]
        try:
            result = subprocess.run(
                args,
                input=stdin,
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                env=env if env is not None else self.clean_env(),
                cwd=cwd or self.work,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise Failure(f"{' '.join(args)}: no answer in {timeout} s") from None
        if status is not None and result.returncode != status:
            raise Failure(
                f"{' '.join(args)}: exit status {result.returncode}, not {status}\n"
                f"--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}"
            )
        return result

    def clean_env(self, **extra: str) -> dict[str, str]:
        """The environment without anything that points back into the checkout or another venv."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        return env | extra

    def done(self, what: str) -> None:
        now = time.monotonic()
        print(f"smoke: {what} ({now - self.step_started:.0f} s)", flush=True)
        self.step_started = now

    # -- 1. build and check ----------------------------------------------------------------------------

    def build(self) -> tuple[Path, Path, Path]:
        dist, pure, tree = self.work / "dist", self.work / "pure", self.work / "tree"
        # from a copy of the repository's files: what an earlier build or the editable install left in the
        # checkout (the compiled extension, egg-info's SOURCES.txt, which setuptools reads back) stays out
        for name in sorted(n for n in tracked_files() if (ROOT / n).is_file()):
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
        env = self.clean_env(PIP_CONSTRAINT=str(ROOT / "requirements-build.txt"))
        self.run([sys.executable, "-m", "build", "--outdir", dist, tree], env=env, timeout=600)
        sdist = one(dist.glob("*.tar.gz"))
        wheel = one(dist.glob("*.whl"))
        with tarfile.open(sdist) as archive:
            archive.extractall(self.work / "sdist", filter="data")
        unpacked = one((self.work / "sdist").iterdir())
        env["KOLODA_PURE_WHEEL"] = "1"
        self.run([sys.executable, "-m", "build", "--wheel", "--outdir", pure, unpacked], env=env, timeout=600)
        pure_wheel = one(pure.glob("*.whl"))
        self.version = sdist.name.removeprefix("koloda-").removesuffix(".tar.gz")
        self.done(f"built {sdist.name}, {wheel.name}, {pure_wheel.name}")
        self.run([sys.executable, "-m", "twine", "check", "--strict", sdist, wheel, pure_wheel])
        self.done("twine check --strict: passed")
        return sdist, wheel, pure_wheel

    def check_contents(self, sdist: Path, wheel: Path, pure_wheel: Path) -> None:
        tracked = tracked_files()
        package = {name.removeprefix("src/") for name in tracked if name.startswith("src/koloda/")}
        shipped = {name for name in package if not name.endswith((".po", ".c"))}
        for path, pure in ((wheel, False), (pure_wheel, True)):
            names = set(zipfile.ZipFile(path).namelist())
            missing = shipped - names
            if missing:
                raise Failure(f"{path.name} lacks {sorted(missing)}")
            sources = {n for n in names if n.endswith((".po", ".c"))}
            if sources:
                raise Failure(f"{path.name} holds sources: {sorted(sources)}")
            extension = {n for n in names if re.fullmatch(r"koloda/_speedups\..+\.(so|pyd)", n)}
            if pure == bool(extension) or pure != path.name.endswith("-py3-none-any.whl"):
                raise Failure(
                    f"{path.name}: compiled extension {sorted(extension)}, pure wheel expected {pure}"
                )
            info = f"koloda-{self.version}.dist-info"
            if f"{info}/licenses/LICENSE" not in names:
                raise Failure(f"{path.name} lacks the licence")
            metadata = zipfile.ZipFile(path).read(f"{info}/METADATA").decode("utf-8")
            requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.MULTILINE)
            if "License-Expression: MIT" not in metadata or any("==" in r.split(";")[0] for r in requires):
                raise Failure(f"{path.name}: METADATA without the licence or with pins: {requires}")
        with tarfile.open(sdist) as archive:
            top = f"koloda-{self.version}/"
            names = {member.name.removeprefix(top) for member in archive.getmembers()}
        missing = {name for name in tracked if name != ".gitignore"} - names
        built = {n for n in names if n.endswith((".so", ".pyd", ".pyc"))}
        if missing or built:
            raise Failure(f"{sdist.name} lacks {sorted(missing)} / holds built files {sorted(built)}")
        listing = zipfile.ZipFile(wheel).namelist()
        self.done(
            f"contents: {len(listing)} files in the wheel ({len(shipped)} of src/koloda, the extension, the"
            f" licence), {len(names)} in the sdist (every file of the repository)"
        )

    # -- 3. a fresh environment --------------------------------------------------------------------------

    def venv(self, name: str) -> Path:
        place = self.work / name
        self.run([sys.executable, "-m", "venv", place])
        return place

    def install(self, venv: Path, *args: str | Path) -> None:
        python = venv / BIN / "python"
        self.run([python, "-m", "pip", "install", "-q", *args], timeout=900)

    def check_lock(self, venv: Path) -> None:
        python = venv / BIN / "python"
        frozen = self.run([python, "-m", "pip", "freeze", "--exclude", "koloda"]).stdout
        installed = pins(frozen.splitlines())
        locked = pins((ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines())
        if installed != locked:
            extra = {k: v for k, v in installed.items() if locked.get(k) != v}
            lacking = {k: v for k, v in locked.items() if installed.get(k) != v}
            raise Failure(f"pip freeze is not requirements.txt: installed {extra}, locked {lacking}")
        self.run([python, "-m", "pip", "check"])
        where = self.run(
            [python, "-c", "import koloda; print(koloda.__file__)"], cwd=self.work
        ).stdout.strip()
        if not Path(where).is_relative_to(venv):
            raise Failure(f"koloda was imported from {where}, not from the environment {venv}")
        self.done(f"installed: pip freeze is requirements.txt ({len(locked)} packages), pip check, {where}")

    # -- 4. every command -------------------------------------------------------------------------------

    def commands(self, venv: Path) -> None:
        home = self.work / "home"
        home.mkdir()
        bin_dir = venv / BIN
        env = self.clean_env(
            PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            KOLODA_DATA_DIR=str(self.work / "data"),
            XDG_DATA_HOME=str(self.work / "xdg"),  # nothing may reach the user's own data directory
            PYTHONIOENCODING="utf-8",
            NO_COLOR="1",
        )

        def koloda(*args: str | Path, stdin: str = "", status: int = 0, **extra: str) -> str:
            return self.run(
                [bin_dir / "koloda", *args], env=env | extra, cwd=home, stdin=stdin, status=status
            ).stdout

        def expect(text: str, *wanted: str) -> None:
            for want in wanted:
                if want not in text:
                    raise Failure(f"expected {want!r} in:\n{text[-3000:]}")

        expect(koloda("--version"), f"koloda {self.version}\n")
        expect(
            self.run([bin_dir / "python", "-m", "koloda", "--help"], env=env, cwd=home).stdout,
            "usage: koloda",
        )
        for game in ("bank", "thousand"):
            figures = json.loads(koloda(game, "simulate", "--deals", "5", "--json"))
            if not isinstance(figures, dict) or not figures:
                raise Failure(f"{game} simulate --json: {figures!r}")
        expect(koloda("bank", "replay", BANK_RECORD, "--lang", "ru"), "Банк, 4 игрока", "штраф −1")
        expect(koloda("thousand", "replay", THOUSAND_RECORD, "--lang", "en"), "Deal   Game")
        expect(koloda("thousand", "score", SCORE_FILE), "| Кон |", "Аня")
        json.loads(koloda("thousand", "score", SCORE_FILE, "--json"))
        expect(
            koloda("thousand", "sheet", "--lang", "en", stdin="\n".join(SHEET_LINES) + "\n"),
            "Ann 120 — made",  # the sheet drawn as a table (issue 29)
            "+120 → 120",
            "koloda thousand sheet --sheet 1",
        )
        resumed = koloda("thousand", "sheet", "--resume", "--lang", "en", stdin="quit\n")
        expect(resumed, "Deal   Game", "Ann 120")
        lines = "\n".join(BANKI_LINES) + "\n"
        expect(
            koloda("banki", "new", "Ann", "Bob", "Cat", "Dan", "--seed", "9", "--lang", "en", stdin=lines),
            "saved in",
        )
        expect(koloda("banki", "resume", "--lang", "en", stdin="reset\nmiss Ann\n"), "Dan throws")
        expect(koloda("banki", "replay", BANKI_RECORD), "The game is over")
        for game in ("bank", "thousand"):
            result = json.loads(
                koloda("tournament", "--game", game, "--bots", "random,heuristic", "--deals", "2", "--json")
            )
            if result.get("deals") != 2:
                raise Failure(f"tournament --game {game}: {result}")
        # a terminal that cannot show suits or Cyrillic (koloda.console)
        shown = self.run(
            [bin_dir / "koloda", "bank", "replay", BANK_RECORD, "--lang", "ru"],
            env=env | {"PYTHONIOENCODING": "cp1252"},
            cwd=home,
        )
        expect(shown.stdout, "Bank, 4 igroka", "shtraf -1")
        koloda("bank", "replay", "no-such-file.json", status=2)  # bad input: one line, status 2
        # a lesson, its refusal quoting the rules: the lessons and the rules are package data (issue 31)
        lesson = koloda("bank", "learn", "--lang", "en", "--lesson", "cover", stdin="9h\nqs\n6d\n6h\nq\n")
        expect(lesson, "Lesson 1 of 9: Covering", "Rule 4.3 The cover rule.", "That is the whole of covering")
        self.done(
            "commands: --version, python -m koloda, simulate, replay, score, sheet, banki, tournament,"
            " cp1252, learn"
        )
        self.completion(bin_dir, env, home)
        self.serve(bin_dir, env, home)

    def completion(self, bin_dir: Path, env: dict[str, str], home: Path) -> None:
        script = self.run([bin_dir / "koloda", "completion", "bash"], env=env, cwd=home).stdout
        (self.work / "koloda.bash").write_text(script, encoding="utf-8")
        for shell in ("zsh", "fish", "powershell"):
            if "koloda" not in self.run([bin_dir / "koloda", "completion", shell], env=env, cwd=home).stdout:
                raise Failure(f"koloda completion {shell} does not name koloda")
        bash = shutil.which("bash")
        if bash is None:
            self.done("completion: scripts printed (no bash here to try them in)")
            return
        session = (
            f'source "{self.work / "koloda.bash"}"\n'
            'COMP_LINE="koloda thousand sc"; COMP_POINT=${#COMP_LINE}\n'
            "COMP_WORDS=(koloda thousand sc); COMP_CWORD=2\n"
            '_python_argcomplete koloda\necho "${COMPREPLY[@]}"\n'
        )
        got = self.run([bash, "--norc", "-c", session], env=env, cwd=home).stdout.split()
        if got != ["score"]:
            raise Failure(f"bash completed 'koloda thousand sc' as {got}")
        self.done(
            "completion: bash completes from the installed script; zsh, fish and powershell scripts printed"
        )

    def serve(self, bin_dir: Path, env: dict[str, str], home: Path) -> None:
        server, port, page = self.start_server(bin_dir, env, home)
        base = f"http://127.0.0.1:{port}"
        try:
            checks = {"/": (200, page)}
            for path in (
                "/static/style.css",
                "/static/table.js",
                "/sheet",
                "/banki",
                "/api/games",
                "/rules/bank",
                "/learn",
            ):
                checks[path] = http(base + path)
            checks["POST /api/sheets"] = http(f"{base}/api/sheets", {"players": ["Аня", "Боря", "Вера"]})
            wrong = {path: status for path, (status, _) in checks.items() if status not in (200, 201)}
            if wrong:
                raise Failure(f"koloda serve answered {wrong}")
            games = set(json.loads(checks["/api/games"][1]))  # the registry's games by name
            if not {"bank", "thousand"} <= games or 'data-i18n="' not in page:
                raise Failure(f"koloda serve: games {games}, or a page without its words")
            frame = self.websocket(bin_dir, env, port)
            self.done(
                f"serve on port {port}: /, /static/..., /sheet, /banki, /api/games, /rules/bank, /learn,"
                f" a sheet stored, a {frame} frame on the websocket"
            )
        finally:
            if os.name == "nt":
                server.terminate()
            else:
                server.send_signal(signal.SIGINT)  # what Ctrl+C sends
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
                raise Failure("koloda serve did not stop on Ctrl+C") from None

    def start_server(
        self, bin_dir: Path, env: dict[str, str], home: Path
    ) -> tuple[subprocess.Popen[str], int, str]:
        """``koloda serve`` on a free loopback port, answering ``/``: (the process, its port, the page).
        A port taken between choosing and binding it is tried again with another."""
        for _attempt in range(3):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            command = [bin_dir / "koloda", "serve", "--port", str(port), "--db", self.work / "web.sqlite3"]
            server = subprocess.Popen(
                [str(part) for part in [*command, "--bot-delay", "0"]],
                env=env,
                cwd=home,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            deadline = time.monotonic() + 60
            while server.poll() is None and time.monotonic() < deadline:
                try:
                    status, page = http(f"http://127.0.0.1:{port}/")
                except OSError:
                    time.sleep(0.2)
                    continue
                if status != 200:
                    server.kill()
                    raise Failure(f"koloda serve answered / with {status}: {page[:500]}")
                return server, port, page
            server.kill()
            output = server.communicate()[0]
            if "address already in use" not in output.lower():
                raise Failure(f"koloda serve did not answer on port {port}:\n{output[-3000:]}")
        raise Failure("koloda serve found no free port in three tries")

    def websocket(self, bin_dir: Path, env: dict[str, str], port: int) -> str:
        """A table made over HTTP and watched over the websocket (with the environment's own websockets)."""
        code = f"""
import json, urllib.request
from websockets.sync.client import connect
bot = {{"kind": "bot", "level": "easy"}}
body = {{"game": "bank", "players": 2, "seats": [bot, bot]}}
request = urllib.request.Request("http://127.0.0.1:{port}/api/tables", json.dumps(body).encode(),
                                 {{"Content-Type": "application/json"}})
table = json.load(urllib.request.urlopen(request, timeout=10))
with connect(f"ws://127.0.0.1:{port}/ws/{{table['id']}}", open_timeout=10) as socket:
    socket.send(json.dumps({{"type": "hello"}}))
    print(json.loads(socket.recv(timeout=10))["type"])
"""
        kind = self.run([bin_dir / "python", "-c", code], env=env, timeout=60).stdout.strip()
        if kind != "sync":
            raise Failure(f"the websocket's first frame is {kind!r}, not 'sync'")
        return kind

    # -- 5 and 6. the research extra -----------------------------------------------------------------------

    def research(self, venv: Path, compiled: bool) -> None:
        code = f"""
import importlib.util
import gymnasium
import numpy as np
import koloda.rl
import koloda.tensor
from koloda.rl import bank_v0, thousand_v0

assert (koloda.tensor.speedups is not None) == {compiled}, koloda.tensor.speedups
assert importlib.util.find_spec("pyspiel") is None  # the extra rl brings no OpenSpiel
for module in (bank_v0, thousand_v0):
    env = module.env(players=3)
    env.reset(seed=1)
    for _, agent in zip(range(40), env.agent_iter()):
        obs, reward, terminated, truncated, info = env.last()
        legal = np.flatnonzero(obs["action_mask"]) if not (terminated or truncated) else None
        env.step(None if legal is None else int(legal[0]))
gym = gymnasium.make("koloda/Thousand-v0")
gym.reset(seed=2)
try:
    import koloda.rl.openspiel
except ImportError as exc:
    assert "pip install 'koloda[openspiel]'" in str(exc), exc
else:
    raise AssertionError("koloda.rl.openspiel imported without OpenSpiel")
print("ok")
"""
        self.run(
            [venv / BIN / "python", "-c", code], env=self.clean_env(KOLODA_DATA_DIR=str(self.work / "data"))
        )
        what = "the compiled extension" if compiled else "the Python reference code (no extension)"
        self.done(
            f"koloda[rl] without OpenSpiel: PettingZoo and Gymnasium on {what};"
            " koloda.rl.openspiel says what to install"
        )


def one(paths: Iterable[Path]) -> Path:
    found = list(paths)
    if len(found) != 1:
        raise Failure(f"expected one file, found {found}")
    return found[0]


def tracked_files() -> set[str]:
    """The repository's files: git's (tracked, or new and not ignored), or without git every file but what
    builds and tools leave."""
    if (ROOT / ".git").exists():
        out = subprocess.run(
            ["git", "-C", ROOT, "ls-files", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return set(out.splitlines())
    skip = (
        "__pycache__",
        ".venv",
        ".egg-info",
        "build",
        "dist",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
    )
    return {
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*")
        if path.is_file()
        and not any(part.endswith(skip) for part in path.relative_to(ROOT).parts)
        and path.suffix not in (".so", ".pyd", ".pyc")
    }


def pins(lines: list[str]) -> dict[str, str]:
    """name -> version of ``name==version`` lines, names normalised (PEP 503)."""
    found = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            found[re.sub(r"[-_.]+", "-", name).lower()] = version.strip()
    return found


def http(url: str, body: object = None) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="koloda-smoke-"))
    smoke = Smoke(work)
    try:
        sdist, wheel, pure_wheel = smoke.build()
        smoke.check_contents(sdist, wheel, pure_wheel)
        venv = smoke.venv("venv")
        smoke.install(venv, "-r", ROOT / "requirements.txt", wheel)
        smoke.check_lock(venv)
        smoke.commands(venv)
        smoke.install(
            venv, "-r", ROOT / "requirements.txt", "-c", ROOT / "requirements-dev.txt", f"{wheel}[rl]"
        )
        smoke.research(venv, compiled=True)
        pure_venv = smoke.venv("venv-pure")
        smoke.install(
            pure_venv,
            "-r",
            ROOT / "requirements.txt",
            "-c",
            ROOT / "requirements-dev.txt",
            f"{pure_wheel}[rl]",
        )
        smoke.research(pure_venv, compiled=False)
    except Failure as failure:
        print(f"smoke: FAILED: {failure}\n(the files are in {work})", file=sys.stderr)
        return 1
    except BaseException:
        print(f"smoke: stopped (the files are in {work})", file=sys.stderr)
        raise
    print(f"smoke: passed in {time.monotonic() - smoke.started:.0f} s")
    if args.keep:
        print(f"smoke: the files are in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
