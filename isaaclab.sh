#!/usr/bin/env bash
# Isaac Lab-style entry point for the isaaclab_newton extension.
#
#   ./isaaclab.sh --install | -i     create .venv (Python 3.12) and install everything
#   ./isaaclab.sh --test    | -t     run the test suite, one worker per core (extra args: pytest's, as given)
#   ./isaaclab.sh -p FILE [ARGS]     run Python inside the environment
#   ./isaaclab.sh --format  | -f     ruff check + format check
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${ISAACLAB_NEWTON_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

# Pinned stack (see README "Dependencies").
NEWTON_PIN="newton[sim]==1.8.0"
WARP_PIN="warp-lang==1.19.0"
ISAACLAB_PIN="isaaclab==3.0.0"
# Runtime dependencies Isaac Lab core needs to import without Isaac Sim (its own pins are not ours).
CORE_DEPS=(lazy_loader prettytable psutil trimesh scipy h5py hydra-core rich tqdm Jinja2 filelock
           matplotlib pillow newton-usd-schemas)
OUR_DEPS=(torch gymnasium usd-core rsl-rl-lib imageio imageio-ffmpeg "viser>=1.1.1" pytest pytest-timeout pytest-xdist
          ruff)

find_python312() {
    local cand
    for cand in "${PYTHON312:-}" python3.12 "$HOME"/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.12 \
                /usr/local/bin/python3.12; do
        [ -n "$cand" ] || continue
        if "$cand" -c 'import sys; assert sys.version_info[:2] == (3, 12)' >/dev/null 2>&1; then
            echo "$cand"; return 0
        fi
    done
    echo "error: Python 3.12 not found; install it or set PYTHON312=/path/to/python3.12" >&2
    return 1
}

remove_bundled_backends() {
    # isaaclab==3.0.0 ships its own isaaclab_newton / isaaclab_contrib; ours must be the ones imported.
    "$PY" - <<'PYEOF'
import pathlib, shutil, sysconfig
site = pathlib.Path(sysconfig.get_paths()["purelib"])
# the importable copies, and the upstream sources the wheel also ships under isaaclab/source/
for path in (site / "isaaclab_newton", site / "isaaclab_contrib",
             site / "isaaclab" / "source" / "isaaclab_newton", site / "isaaclab" / "source" / "isaaclab_contrib"):
    if path.is_dir():
        shutil.rmtree(path)
        print(f"[isaaclab.sh] removed bundled {path}")
PYEOF
}

install_chromium() {
    # Debian's chromium: the viewer test screenshots the viser page with it (test/app/test_viewer.py).
    command -v chromium >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 || {
        echo "[isaaclab.sh] no apt-get: install Chromium yourself for test/app/test_viewer.py" >&2; return 0; }
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "[isaaclab.sh] not root and no sudo: run 'apt-get install chromium' as root" >&2; return 0; }
        sudo="sudo -n"  # never prompts: without a password-less sudo the install says what to run
    fi
    echo "[isaaclab.sh] installing Debian's chromium (apt-get)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 \
        || { $sudo apt-get update -qq >/dev/null 2>&1 \
             && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
        || echo "[isaaclab.sh] apt-get could not install chromium; run: apt-get install chromium (as root)" >&2
}

pip_q() {
    # Quiet pip; drop the noise about missing local index folders some machines configure.
    "$PY" -m pip -q "$@" 2> >(grep -v "is neither a file nor a directory" >&2)
}

install() {
    local py312
    py312="$(find_python312)"
    if [ ! -x "$PY" ]; then
        echo "[isaaclab.sh] creating $VENV with $py312"
        "$py312" -m venv "$VENV"
    fi
    pip_q install --upgrade pip
    pip_q install "$NEWTON_PIN" "$WARP_PIN" "${OUR_DEPS[@]}" "${CORE_DEPS[@]}"
    # Core without its own pins (older newton/warp/torch); its runtime deps are installed above.
    pip_q install --no-deps --force-reinstall "$ISAACLAB_PIN"
    remove_bundled_backends
    pip_q install --no-deps --no-build-isolation -e "$ROOT"
    "$PY" -c 'import isaaclab_newton, isaaclab_contrib; print("[isaaclab.sh] isaaclab_newton ->", isaaclab_newton.__file__)'
    install_chromium
}

run_tests() {
    [ -x "$PY" ] || { echo "error: no environment; run ./isaaclab.sh --install first" >&2; exit 1; }
    cd "$ROOT"
    if [ $# -eq 0 ]; then
        # The whole suite: test files spread over one pytest-xdist worker per core (a file's tests share one).
        local cores
        cores=$(nproc 2>/dev/null || echo 1)
        if [ "$cores" -gt 1 ]; then set -- -n "$cores" --dist loadfile test; else set -- test; fi
    fi
    exec "$PY" -m pytest "$@"
}

case "${1:-}" in
    -i|--install) shift; install "$@" ;;
    -t|--test) shift; run_tests "$@" ;;
    -p|--python) shift; [ -x "$PY" ] || { echo "error: run ./isaaclab.sh --install first" >&2; exit 1; }
                 exec "$PY" "$@" ;;
    -f|--format) shift; cd "$ROOT"; "$VENV/bin/ruff" check . && "$VENV/bin/ruff" format --check . ;;
    -h|--help|"") awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0" ;;  # the header comment
    *) echo "error: unknown option '$1' (see ./isaaclab.sh --help)" >&2; exit 2 ;;
esac
