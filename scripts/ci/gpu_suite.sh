#!/usr/bin/env bash
# The whole test suite under CUDA on one machine: test files spread over pytest-xdist workers (--dist loadfile: one
# file's tests share a worker, one process and one CUDA context each), ending with a one-line summary.
#
#   scripts/ci/gpu_suite.sh [PYTEST ARGS...]        extra arguments go to pytest (default: the whole test/ folder)
#
# Environment:
#   ISAACLAB_NEWTON_TEST_DEVICE  CUDA device the tests run on (default cuda:0; a CPU device is refused)
#   GPU_SUITE_WORKERS            pytest-xdist workers (default: the machine's CPU count)
#   GPU_SUITE_OUT                folder for junit.xml, pytest.log and progress.tsv (default: a new temporary folder)
#   GPU_SUITE_TIMEOUT            wall-clock limit [s]: pytest is then interrupted and the summary counts what ran
#                                (from progress.tsv, a line per finished test, where pytest wrote no JUnit XML)
#   PYTHON                       interpreter (default: the repository's .venv/bin/python, else python3)
#   GPU_SUITE_STACKS_AFTER       seconds after which a still-running test's thread stacks go to the log (default 180)
#   OMP_NUM_THREADS              CPU threads per worker (default: the CPU count divided by the workers, at least 1)
#
# Needs pytest-xdist (./isaaclab.sh --install installs it) and a CUDA device that torch sees. Exit status: pytest's.
# docs/testing.md says how it is run and what it last gave.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
device=${ISAACLAB_NEWTON_TEST_DEVICE:-cuda:0}
case "$device" in
    cuda | cuda:*) ;;
    *) echo "gpu_suite: ISAACLAB_NEWTON_TEST_DEVICE=$device is not a CUDA device (run ./isaaclab.sh --test for CPU)" >&2
       exit 2 ;;
esac
py=${PYTHON:-}
if [ -z "$py" ]; then
    if [ -x "$root/.venv/bin/python" ]; then py="$root/.venv/bin/python"; else py=python3; fi
fi
workers=${GPU_SUITE_WORKERS:-$(nproc)}
# Each worker's OpenMP pool (PyTorch's CPU threads) gets its share of the cores, not all of them each.
cores=$(nproc)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$((cores > workers ? cores / workers : 1))}
out=${GPU_SUITE_OUT:-$(mktemp -d -t gpu_suite.XXXXXX)}
mkdir -p "$out"
if ! "$py" -c "import xdist" 2>/dev/null; then
    echo "gpu_suite: pytest-xdist is missing for $py; install it with: $py -m pip install pytest-xdist" >&2
    exit 2
fi
if ! "$py" -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
    echo "gpu_suite: torch sees no CUDA device with $py; run the CPU suite with ./isaaclab.sh --test" >&2
    exit 2
fi
[ $# -eq 0 ] && set -- test
# The slowest files (by their times under CUDA on the H100, 2026-12-06) start first, so that none of them is the tail of
# the run: test/conftest.py moves the files ISAACLAB_NEWTON_TEST_FIRST names to the front, and --no-loadscope-reorder
# (below) keeps that order (pytest-xdist otherwise hands out the files with the most tests first).
export ISAACLAB_NEWTON_TEST_FIRST="${ISAACLAB_NEWTON_TEST_FIRST-test/test_docs.py test/coupling/test_couplers.py
    test/tasks/test_lift_franka.py test/tasks/test_manipulation.py test/upstream/test_offline_upstream_tasks.py
    test/physics/test_solver_physics.py test/sensors/test_ray_caster.py test/envs/test_mask_reset.py
    test/observables/test_solver_matrix.py test/physics/test_cpu_graph.py test/physics/test_manager_contract.py
    test/physics/test_newton_cfg_fields.py test/controllers/ik/test_newton_ik_solver.py test/cloner/test_terrain_source.py
    test/envs/test_graph_step.py test/observables/test_observable_lifecycle.py test/physics/test_stepping_cfg_errors.py
    test/envs/test_nonfinite.py test/tasks/test_reorient_shadow.py test/app/test_viewer.py}"

# The viser page test needs Debian's Chromium (./isaaclab.sh --install puts it on CI's machine); a GPU machine
# without it leaves that one test out, by name, instead of failing it.
deselect=()
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    deselect=(--deselect test/app/test_viewer.py::test_viser_page_draws_the_robot)
    echo "gpu_suite: no Chromium here: test/app/test_viewer.py::test_viser_page_draws_the_robot left out (CI runs it)"
fi

limit=()
[ -n "${GPU_SUITE_TIMEOUT:-}" ] && limit=(timeout -s INT -k 30 "$GPU_SUITE_TIMEOUT")
start=$(date +%s)
rm -f "$out/junit.xml" "$out/progress.tsv"
# scripts/ci/_test_progress.py writes a line per finished test to progress.tsv as it finishes; a test still running
# after GPU_SUITE_STACKS_AFTER seconds gets every thread's stack printed into the log (pytest's faulthandler_timeout,
# which stops nothing: a worker cannot be replaced under --dist loadfile without ending the run)
ISAACLAB_NEWTON_TEST_DEVICE=$device ISAACLAB_NEWTON_TEST_PROGRESS="$out/progress.tsv" \
    PYTHONPATH="$root/scripts/ci${PYTHONPATH:+:$PYTHONPATH}" \
    "${limit[@]}" "$py" -m pytest -q -p no:benchmark -p _test_progress -n "$workers" --dist loadfile \
    --no-loadscope-reorder -o faulthandler_timeout="${GPU_SUITE_STACKS_AFTER:-180}" -rfEs --durations=40 \
    --junitxml="$out/junit.xml" "${deselect[@]}" "$@" 2>&1 \
    | tee "$out/pytest.log"
rc=${PIPESTATUS[0]}
elapsed=$(($(date +%s) - start))

"$py" - "$out/junit.xml" "$out/progress.tsv" "$elapsed" "$device" "$workers" "$rc" <<'PYEOF'
"""Print the one-line summary from pytest's JUnit XML, or from the progress record where there is no XML."""
import collections
import sys
import xml.etree.ElementTree as ET

path, progress, elapsed, device, workers, rc = sys.argv[1:]
try:
    import torch

    name = torch.cuda.get_device_name(torch.device(device))
except Exception:  # the summary still prints without the device's name
    name = "unknown GPU"
try:
    suites = ET.parse(path).getroot()
except (OSError, ET.ParseError) as err:
    try:
        lines = [line.split("\t", 4) for line in open(progress).read().splitlines()]
    except OSError:
        print(f"gpu_suite: no results ({err}; no progress record); pytest exit {rc} after {elapsed} s on {device}")
        sys.exit(0)
    outcomes = collections.Counter(outcome for outcome, *_ in lines)
    for outcome, *_, node in lines:
        if outcome in ("failed", "error"):
            print(f"gpu_suite: {outcome.upper()} {node}")
    per_file = collections.Counter()
    for _, seconds, *_, node in lines:
        per_file[node.split("::")[0]] += float(seconds)
    for file, seconds in per_file.most_common(10):
        print(f"gpu_suite: {seconds:7.1f} s  {file}")
    print(
        f"gpu_suite: {outcomes['passed']} passed, {outcomes['failed']} failed, {outcomes['error']} errors,"
        f" {outcomes['skipped']} skipped in {elapsed} s on {device} ({name}, {workers} workers); pytest exit {rc};"
        f" no JUnit XML ({err}): counted from {progress}, tests that had not finished are not counted"
    )
    sys.exit(0)
suites = [suites] if suites.tag == "testsuite" else list(suites)
count = {key: sum(int(s.get(key, 0)) for s in suites) for key in ("tests", "failures", "errors", "skipped")}
passed = count["tests"] - count["failures"] - count["errors"] - count["skipped"]
print(
    f"gpu_suite: {passed} passed, {count['failures']} failed, {count['errors']} errors, {count['skipped']} skipped"
    f" in {elapsed} s on {device} ({name}, {workers} workers); pytest exit {rc}"
)
PYEOF
exit "$rc"
