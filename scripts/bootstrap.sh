# Sourced by ./start.sh and ./test.sh: installs what the companion needs, once.
# - Debian / Raspberry Pi OS packages the Kivy and OpenCV wheels load at run time;
# - uv (from PyPI, into .tools/) and the project's locked environment (.venv/).
# Safe to run again: each step is skipped when already done.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

is_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

need_apt=()
# mosquitto: the broker a director starts while it serves a tournament (docs/tournaments.md).
apt_pkgs=(python3 python3-venv libgl1 libegl1 libgles2 libmtdev1 libsdl2-2.0-0 mosquitto)
case " $* " in
    *" --no-dev "*) ;;
    *) apt_pkgs+=(chromium chromium-driver) ;;  # tests only: the standings page in a browser
esac
if is_pi; then
    # picamera2 and the Pi 5 GPIO backend come from Raspberry Pi OS, not from PyPI.
    apt_pkgs+=(python3-picamera2 python3-lgpio)
fi
if command -v dpkg-query >/dev/null 2>&1; then
    for p in "${apt_pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_apt+=("$p")
    done
fi
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "companion: installing system packages: ${need_apt[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
    if [[ " ${need_apt[*]} " == *" mosquitto "* ]]; then
        # Debian enables and starts Mosquitto's own service on install. The companion runs its
        # own broker only while a tournament is served, so no port stays open otherwise.
        if [ -d /run/systemd/system ]; then
            $sudo_cmd systemctl disable --now mosquitto.service >/dev/null 2>&1 || true
        elif command -v update-rc.d >/dev/null 2>&1; then
            $sudo_cmd service mosquitto stop >/dev/null 2>&1 || true
            $sudo_cmd update-rc.d mosquitto disable >/dev/null 2>&1 || true
        fi
    fi
fi

python_bin="${COMPANION_PYTHON:-}"
if [ -z "$python_bin" ]; then
    # Prefer the distribution's Python (Bookworm ships 3.11); fall back to whatever python3 is first.
    if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        python_bin=/usr/bin/python3
    else
        python_bin="$(command -v python3)"
    fi
fi

if [ ! -x .tools/bin/uv ]; then
    echo "companion: installing uv into .tools/" >&2
    "$python_bin" -m venv .tools
    .tools/bin/pip install --quiet --disable-pip-version-check "uv>=0.5"
fi
export UV_PYTHON_DOWNLOADS=never
if [ ! -d .venv ]; then
    if is_pi; then
        # --system-site-packages makes apt's picamera2 and lgpio visible inside the venv.
        .tools/bin/uv venv --quiet --python "$python_bin" --system-site-packages .venv
    else
        .tools/bin/uv venv --quiet --python "$python_bin" .venv
    fi
fi
.tools/bin/uv sync --quiet --frozen "$@"
