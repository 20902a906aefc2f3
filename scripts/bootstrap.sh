# Sourced by ./start.sh and ./test.sh: installs what the companion needs, once.
# - Debian / Raspberry Pi OS packages the Kivy and OpenCV wheels load at run time;
# - on a Raspberry Pi, the Pi camera and Pi 5 GPIO packages where this system's apt has them;
# - uv (from PyPI, into .tools/) and the project's locked environment (.venv/).
# Arguments are passed to `uv sync`. Safe to run again: each step is skipped when already done.
set -euo pipefail
caller_dir="$PWD"   # given back at the end: a user's relative paths (photos, --output) stay theirs
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

# COMPANION_MODEL_FILE stands in for the Pi's model file in checks on other machines
# (scripts/pi-check.sh).
model_file="${COMPANION_MODEL_FILE:-/proc/device-tree/model}"
is_pi() { grep -qs "Raspberry Pi" "$model_file"; }
has_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing_pkgs() {  # the packages of "$@" dpkg has not installed, asked of dpkg once (never apt)
    [ $# -gt 0 ] || return 0
    local installed p
    # (dpkg-query exits 1 when it knows one of them not at all: only its list matters here)
    installed=" $({ dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null || true; } |
        awk '$2 == "install" && $3 == "ok" && $4 == "installed" { printf "%s ", $1 }') "
    for p in "$@"; do [[ "$installed" == *" $p "* ]] || echo "$p"; done
}

# The release decides some package names: Debian 13 "trixie" (Raspberry Pi OS since October
# 2025) renamed libraries for 64-bit time_t with a "t64" suffix (libmtdev1 -> libmtdev1t64); apt
# installs the new one when asked for the old name, but a check by the old name then fails at
# every start and runs apt again. COMPANION_OS_RELEASE stands in for /etc/os-release in tests.
os_release_file="${COMPANION_OS_RELEASE:-/etc/os-release}"
os_codename="$(. "$os_release_file" 2>/dev/null && echo "${VERSION_CODENAME:-}")" || os_codename=""
case "$os_codename" in
    buster | bullseye | bookworm | focal | jammy) mtdev_pkg=libmtdev1 ;;
    *) mtdev_pkg=libmtdev1t64 ;;  # trixie and later (and Ubuntu from 24.04)
esac

# mosquitto: the broker a director starts while it serves a tournament (docs/tournaments.md).
# libportaudio2: the microphone for calls said aloud (docs/voice.md), opened through PortAudio.
apt_pkgs=(python3 python3-venv libgl1 libegl1 libgles2 "$mtdev_pkg" libsdl2-2.0-0 mosquitto
          libportaudio2)
case " $* " in
    *" --no-dev "*) ;;
    *) apt_pkgs+=(chromium chromium-driver) ;;  # tests only: the standings page in a browser
esac
pi_pkgs=()
if is_pi; then
    # picamera2 and the Pi 5 GPIO backend come from Raspberry Pi OS's archive, not from PyPI,
    # and plain Debian does not have them: those are installed where apt offers them.
    pi_pkgs=(python3-picamera2 python3-lgpio)
fi

# The stamp: what the first start found (the release, and which of the Pi's optional packages
# this system's apt archive did not have). A start never asks apt or the network about an
# optional package again once the stamp is there: only a package the companion needs and dpkg
# does not have (a new one, or one removed since) calls apt. `companion doctor` reads the stamp
# and says which optional package is missing and how to add it.
stamp="$here/.tools/system-packages"
stamp_value() { sed -n "s/^$1=//p" "$stamp" 2>/dev/null | head -1; }
stamped=0
[ -f "$stamp" ] && [ "$(stamp_value release)" = "$os_codename" ] && stamped=1
need_apt=()
need_pi=()
if command -v dpkg-query >/dev/null 2>&1; then
    mapfile -t need_apt < <(missing_pkgs "${apt_pkgs[@]}")
    mapfile -t need_pi < <(missing_pkgs "${pi_pkgs[@]}")
    if [ "$stamped" -eq 1 ] && [ ${#need_apt[@]} -eq 0 ]; then
        need_pi=()  # looked for once already: the doctor says what is missing
    fi
fi
unavailable=()
not_looked=()
looked=0
if [ ${#need_apt[@]} -gt 0 ] || [ ${#need_pi[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    if ! $sudo_cmd apt-get update -qq; then
        if [ ${#need_apt[@]} -gt 0 ]; then
            echo "companion: the companion needs ${need_apt[*]}, and apt could not reach the" \
                "package archive to install them (is the network connected?). Connect the" \
                "network, then run ./start.sh again." >&2
            exit 1
        fi
        echo "companion: apt could not reach the package archive (no network?): ${need_pi[*]}" \
            "not looked for (\`./start.sh doctor\` says how to add them later)" >&2
        not_looked=("${need_pi[@]}")
        need_pi=()
    else
        looked=1
    fi
    for p in "${need_pi[@]}"; do
        if apt-cache policy "$p" 2>/dev/null | grep -q "Candidate: [^(]"; then
            need_apt+=("$p")
        else
            unavailable+=("$p")
        fi
    done
    if [ ${#need_apt[@]} -gt 0 ]; then
        echo "companion: installing system packages: ${need_apt[*]}" >&2
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
            "${need_apt[@]}" >/dev/null
    fi
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
    for p in "${unavailable[@]}"; do
        case "$p" in
            python3-picamera2) why="the Pi camera module cannot be used; a USB webcam"
                why+=" (COMPANION_CAMERA=opencv:0) and the synthetic stand-in still work" ;;
            python3-lgpio) why="a Pi 5 needs it for GPIO buttons; a Pi 4 falls back to"
                why+=" gpiozero's own pin access" ;;
            *) why="" ;;
        esac
        echo "companion: $p is not in this system's apt archive (Raspberry Pi OS has it):" >&2
        echo "    $why" >&2
    done
fi
if [ "$stamped" -eq 0 ] || [ "$looked" -eq 1 ]; then
    mkdir -p "$here/.tools"
    {
        echo "# written by scripts/bootstrap.sh (./start.sh, ./test.sh): what it found; see"
        echo "# docs/raspberry-pi.md. Delete this file to have ./start.sh look in apt again."
        echo "release=$os_codename"
        echo "not_in_archive=${unavailable[*]}"
        echo "not_looked_for=${not_looked[*]}"
        echo "looked=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } >"$stamp.tmp" && mv "$stamp.tmp" "$stamp"
fi

python_bin="${COMPANION_PYTHON:-}"
if [ -z "$python_bin" ]; then
    # Prefer the distribution's Python (Bookworm: 3.11, Trixie: 3.13); else the first python3.
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
        # --system-site-packages makes apt's picamera2 and lgpio visible inside the venv. On
        # Bookworm (Python 3.11) the lock adds a numpy-2 build of simplejpeg on aarch64, which
        # shadows apt's numpy-1 build (picamera2 imports it); Trixie's (Python 3.13) apt build is
        # for numpy 2 already and loads as it is (see docs/raspberry-pi.md).
        .tools/bin/uv venv --quiet --python "$python_bin" --system-site-packages .venv
    else
        .tools/bin/uv venv --quiet --python "$python_bin" .venv
    fi
fi
.tools/bin/uv sync --quiet --frozen "$@"
cd "$caller_dir"
