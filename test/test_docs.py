"""The runnable snippets of README.md and docs/*.md run as written (CPU, small sizes); GPU ones need CUDA.

How to mark a snippet: give its fenced block the info string ``python run`` or ``bash run`` (``python run gpu`` /
``bash run gpu`` for one that needs a CUDA device; skipped on machines without one). Unmarked blocks (```python,
```bash, ```text) are not run. A ``python run`` block runs as one file, in the repository root; the CPU ones
all run in one interpreter, one after the other (imports and Warp module loads shared, each snippet in its own
namespace, Isaac Lab's ``SimulationContext`` cleared after each), a ``gpu`` one in a fresh interpreter. A
``bash run`` block runs command by command (``\\``-continued lines joined, ``#`` comments dropped) with
``./isaaclab.sh`` using the interpreter running this test. To keep CI small, the test appends
``--max_iterations 2`` to ``train.py`` commands and ``--steps 20`` to ``zero_agent.py``, ``random_agent.py`` and
``play.py`` commands (argparse keeps the last value); everything else runs exactly as written.

The subprocess runs (the shared interpreter, each ``bash run`` block, each ``gpu`` block) of the selected tests start
together when the first of them is needed, at most ``_JOBS`` at a time: one on a two-core machine such as CI's, a
quarter of the cores on larger ones (the 16-core GPU machine of ``scripts/ci/gpu_suite.sh``, where this file would
otherwise be the last worker to finish).

Rules every page keeps (also checked here): links and paths point inside this repository.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from isaaclab_contrib.app.devices import cuda_device_count

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```\s*$", re.MULTILINE | re.DOTALL)
_LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?:#[^)]*)?\)")
_PARENT_PATH = re.compile(r"(?<![\w.])(?:\.\./)+[\w./-]+")
_SMALL = {
    "train.py": ["--max_iterations", "2"],
    "zero_agent.py": ["--steps", "20"],
    "random_agent.py": ["--steps", "20"],
    "play.py": ["--steps", "20"],
}


@dataclass(frozen=True)
class Snippet:
    """One marked block: its page and line, language (``python`` / ``bash``), whether it needs CUDA, its text."""

    page: Path
    line: int
    language: str
    gpu: bool
    text: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def runnable_snippets() -> list[Snippet]:
    """Every block marked ``python run`` / ``bash run`` (optionally ``gpu``) in README.md and docs/*.md."""
    snippets = []
    for page in PAGES:
        source = page.read_text(encoding="utf-8")
        for match in _FENCE.finditer(source):
            words = match.group("info").split()
            if len(words) >= 2 and words[0] in ("python", "bash") and words[1] == "run":
                line = source.count("\n", 0, match.start()) + 1
                snippets.append(Snippet(page, line, words[0], "gpu" in words[2:], match.group("body")))
    return snippets


def shell_commands(text: str) -> list[str]:
    """The commands of a bash block: continuation lines joined, comments and blank lines dropped."""
    commands, current = [], ""
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line and not current:
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        commands.append((current + line).strip())
        current = ""
    return [command for command in commands if command]


def small(command: str) -> str:
    """``command`` with the CI-size arguments appended when it runs one of the scripts in ``_SMALL``."""
    words = shlex.split(command)
    for script, extra in _SMALL.items():
        if any(word.endswith("/" + script) for word in words):
            return command + " " + shlex.join(extra)
    return command


def _env() -> dict[str, str]:
    env = dict(os.environ, ISAACLAB_NEWTON_VENV=str(Path(sys.executable).parents[1]))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


SNIPPETS = runnable_snippets()

_SHARED_RUNNER = """
import json, runpy, sys, traceback
results = {}
for name, path in json.loads(sys.argv[1]):
    try:
        runpy.run_path(path, run_name="__main__")
        results[name] = ""
    except BaseException:
        results[name] = traceback.format_exc()[-3000:]
    finally:
        if "isaaclab.sim" in sys.modules:
            sys.modules["isaaclab.sim"].SimulationContext.clear_instance()
with open(sys.argv[2], "w") as f:
    json.dump(results, f)
"""


_JOBS = max(1, (os.cpu_count() or 1) // 4)
"""Subprocess snippet runs in flight at once."""


def _run_shared_python(snippets: list[Snippet], folder: Path) -> dict[str, str]:
    """Run the CPU ``python run`` ``snippets`` in one interpreter; map each name to its traceback ("" if it ran)."""
    jobs = []
    for index, snippet in enumerate(snippets):
        path = folder / f"snippet_{index}.py"
        path.write_text(snippet.text, encoding="utf-8")
        jobs.append((snippet.name, str(path)))
    out = folder / "results.json"
    argv = [sys.executable, "-c", _SHARED_RUNNER, json.dumps(jobs), str(out)]
    result = subprocess.run(argv, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=1800, check=False)
    if not out.is_file():
        ended = f"the snippet runner ended early:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
        return {snippet.name: ended for snippet in snippets}
    return json.loads(out.read_text(encoding="utf-8"))


def _run_commands(snippet: Snippet, argvs: list[list[str]]) -> dict[str, str]:
    """Run each of ``argvs`` in turn up to the first failure; map the snippet's name to "" or that command's output."""
    for argv in argvs:
        result = subprocess.run(argv, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=900, check=False)
        if result.returncode != 0:
            return {snippet.name: f"{argv[-1]}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"}
    return {snippet.name: ""}


def _snippet_argvs(snippet: Snippet, folder: Path) -> list[list[str]]:
    """The commands of a subprocess snippet: a ``gpu`` python block as one file, a bash block command by command."""
    if snippet.language == "python":
        path = folder / f"{snippet.page.stem}_{snippet.line}.py"
        path.write_text(snippet.text, encoding="utf-8")
        return [[sys.executable, str(path)]]
    return [["bash", "-c", small(command)] for command in shell_commands(snippet.text)]


@pytest.fixture(scope="module")
def snippet_errors(request, tmp_path_factory) -> Iterator[dict[str, Future[dict[str, str]]]]:
    """Each selected snippet's run, started together (``_JOBS`` at a time).

    The command snippets go first (the README's quickstart, the longest chain, first of all), then the CPU ``python``
    snippets, shared out over at most ``_JOBS`` interpreters. Maps a snippet's name to the future of its run, whose
    result maps the names of the snippets it ran (a shared interpreter runs several) to their error ("" when it ran).
    """
    selected = [item.callspec.params["snippet"] for item in request.session.items if _runs_snippet(item)]
    if not cuda_device_count():
        selected = [snippet for snippet in selected if not snippet.gpu]
    shared = [snippet for snippet in selected if snippet.language == "python" and not snippet.gpu]
    folder = tmp_path_factory.mktemp("snippets")
    pool = ThreadPoolExecutor(max_workers=_JOBS)
    futures: dict[str, Future[dict[str, str]]] = {}
    try:
        for snippet in selected:
            if snippet not in shared:
                futures[snippet.name] = pool.submit(_run_commands, snippet, _snippet_argvs(snippet, folder))
        for index in range(min(_JOBS, len(shared))):
            chunk = shared[index::_JOBS]
            shared_run = pool.submit(_run_shared_python, chunk, tmp_path_factory.mktemp(f"shared_{index}"))
            futures.update((snippet.name, shared_run) for snippet in chunk)
        yield futures
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # runs not yet started (after ``-x``) are dropped


def _runs_snippet(item: pytest.Item) -> bool:
    return getattr(item, "originalname", None) == "test_snippet_runs" and item.module.__name__ == __name__


def test_snippets_are_marked():
    """README.md's quickstart and simulation snippets are among the marked ones (the marker is in use)."""
    assert {s.page.name for s in SNIPPETS} >= {"README.md"}


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.name for s in SNIPPETS])
def test_snippet_runs(snippet: Snippet, snippet_errors):
    """The marked snippet runs without error (python: as one file; bash: each command in turn, exit status 0)."""
    if snippet.gpu and not cuda_device_count():
        pytest.skip("needs a CUDA device")
    errors = snippet_errors[snippet.name].result()
    error = errors.get(snippet.name, "the shared runner reported nothing for it")
    assert not error, f"{snippet.name}: {error}"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_links_stay_inside_the_repository(page: Path):
    """Every relative link of the page names a file or folder of this repository."""
    for match in _LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group("target")
        if re.match(r"[a-z]+:", target):
            continue
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{page.name}: link {target} leaves the repo"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_paths_stay_inside_the_repository(page: Path):
    """No ``../`` path in the page's text (links, commands) leads out of this repository."""
    for path in _PARENT_PATH.findall(page.read_text(encoding="utf-8")):
        resolved = (page.parent / path.rstrip(".")).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{page.name}: {path} is not in this repository"
