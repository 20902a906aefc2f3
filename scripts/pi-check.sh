#!/usr/bin/env bash
# The arm64 check: the companion installed and run as a Raspberry Pi user would, on Debian
# arm64 emulated by qemu-user-static (a Cortex-A72 like a Pi 4 by default; --cpu cortex-a76 for a
# Pi 5), for either Raspberry Pi OS release: --release trixie (Debian 13, Python 3.13, numpy 2.2;
# Raspberry Pi Imager's default since October 2025) or --release bookworm (Debian 12, Python
# 3.11, numpy 1.24; the default here).
#
#   1. builds (once, kept for later runs) that release's arm64 root with debootstrap, with a user
#      `pi` who may sudo, as on Raspberry Pi OS;
#   2. clones this repository's HEAD into it and, as `pi`, runs `./start.sh` (which installs
#      everything), timing each step: `companion replay` (compared with this machine's x86
#      output byte for byte), a second start that must install nothing, `companion read` (what a
#      player sees of each die compared with x86: value, face, colour, centre; not the
#      confidences' float digits, scripts/same_reading.py), a start with no network at all (a
#      network namespace of its own: it must not call apt, and `doctor` names the Pi packages
#      plain Debian lacks), `companion demo`, `companion doctor`;
#   3. the Pi camera import check: Raspberry Pi OS's picamera2 imports simplejpeg. Here the
#      stand-in picamera2 of the tests and a real arm64 simplejpeg binary go into the system's
#      dist-packages beside Debian's numpy, as apt would put them. Bookworm: simplejpeg 1.6.6,
#      built for numpy 1.x; the check shows the import working in the system Python, failing
#      inside the venv (numpy 2) without the locked numpy-2 simplejpeg with an error naming the
#      cause, and working with it. Trixie: simplejpeg 1.8.2, built for numpy 2; the check shows
#      the import working in the system Python (numpy 2.2) and in the venv (its own numpy 2)
#      with apt's simplejpeg, the lock adding no copy of its own;
#   4. `companion appliance enable --protect /mnt/table` (a tmpfs stands in for the stick,
#      with the guide's fstab line) then `disable`, in console and desktop mode, as root in the
#      root: apt really installs overlayroot and what it needs, and after `disable` every file
#      (but caches, logs and the clone) and every package is as before `enable`;
#   5. a quick part of the test suite, inside the root.
#
# Too slow for every CI run (a root takes 11 to 16 minutes to build, everything runs ~12x slower
# than natively). Run it as root, gently:  sudo nice -n 10 scripts/pi-check.sh --release trixie
# Options: --release trixie|bookworm, --root DIR (default
# /var/tmp/companion-pi-check/RELEASE-arm64), --cpu NAME, --rebuild (a new root), --root-only
# (build the root and stop).
# The model file the Pi scripts read is stood in for (COMPANION_MODEL_FILE), so ./start.sh
# takes its Raspberry Pi path on this plain Debian root: it finds no python3-picamera2 nor
# python3-lgpio in Debian's archive and must say so and go on.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
release="bookworm"
root=""
cpu="cortex-a72"
rebuild=0
root_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --release) release="$2"; shift 2 ;;
        --root) root="$2"; shift 2 ;;
        --cpu) cpu="$2"; shift 2 ;;
        --rebuild) rebuild=1; shift ;;
        --root-only) root_only=1; shift ;;
        *) echo "pi-check: unknown argument $1 (see the head of $0)" >&2; exit 2 ;;
    esac
done
case "$release" in
    bookworm | trixie) ;;
    *) echo "pi-check: --release must be bookworm or trixie, not '$release'" >&2; exit 2 ;;
esac
root="${root:-/var/tmp/companion-pi-check/$release-arm64}"
# Each release's Python, and the simplejpeg its apt archive has (a real arm64 binary from PyPI
# built for the same numpy major as apt's).
case "$release" in
    bookworm) py=3.11 apt_simplejpeg=1.6.6 ;;
    trixie) py=3.13 apt_simplejpeg=1.8.2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "pi-check: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }

# The photos `companion read` reads, and the quick tests run inside the root.
photos=(IMG_20191208_111228.jpg IMG_20191208_111246.jpg)
photo_dir="$here/../shared/data/dice-photos/byler-train"
quick_tests=(
    tests/test_product_imports.py
    tests/hardware/test_picamera2_import.py
    tests/hardware/test_hardware_camera.py
    tests/hardware/test_hardware_doctor.py
    tests/companion/appliance/test_appliance.py
    tests/companion/appliance/test_appliance_mounts.py
    tests/companion/appliance/test_appliance_starts.py
    tests/companion/appliance/test_appliance_undo.py
    tests/companion/appliance/test_appliance_datamount.py
    tests/scripts/test_pi_check.py
    tests/hardware/test_audio_route.py
    tests/scripts/test_bootstrap.py
    tests/companion/commands/test_replay_command.py
    tests/vision/test_vision_faces.py
    tests/rules/test_eye_for_an_eye.py
)
export QEMU_CPU="$cpu"
rows="$(mktemp)"
notes="$(mktemp)"
failed=0
note() { printf '%s\n' "$*" >>"$notes"; }
step() {  # step NAME COMMAND...: run, time, record
    local name="$1"; shift
    local t0 t1 rc
    echo "== pi-check: $name" >&2
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    t1=$(date +%s.%N)
    local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
    if [ "$rc" -eq 0 ]; then echo "| $name | ${secs} s | passed |" >>"$rows"; else
        echo "| $name | ${secs} s | FAILED (exit $rc) |" >>"$rows"; failed=1; fi
    return 0
}

# -- the host's tools --------------------------------------------------------------------------
host_tools() {
    local need=()
    command -v debootstrap >/dev/null || need+=(debootstrap)
    [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || command -v qemu-aarch64-static \
        >/dev/null || need+=(qemu-user-static)
    command -v update-binfmts >/dev/null || need+=(binfmt-support)
    if [ ${#need[@]} -gt 0 ]; then
        # another apt on this machine may hold dpkg's lock for a while: wait for it
        apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${need[@]}" >/dev/null || return 1
    fi
    [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return 1
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
    grep -q enabled "$entry" || {
        echo "pi-check: qemu-aarch64 is not registered with binfmt_misc" >&2; return 1; }
    if ! grep -q "^flags: .*C" "$entry"; then
        # sudo inside the root is an arm64 setuid binary: the kernel honours setuid through
        # binfmt_misc only with the C (credentials) flag, which Debian's registration lacks.
        local interp magic mask
        interp=$(awk '/^interpreter/ {print $2}' "$entry")
        magic=$(awk '/^magic/ {print $2}' "$entry")
        mask=$(awk '/^mask/ {print $2}' "$entry")
        hex() { sed 's/../\\x&/g' <<<"$1"; }
        echo -1 >"$entry"
        printf ':qemu-aarch64:M::%s:%s:%s:POCF\n' "$(hex "$magic")" "$(hex "$mask")" "$interp" \
            >/proc/sys/fs/binfmt_misc/register || return 1
    fi
}

# -- the root --------------------------------------------------------------------------------
mounted=()
mount_root() {
    mount -t proc proc "$root/proc" && mounted+=("$root/proc")
    mount -t sysfs sys "$root/sys" && mounted+=("$root/sys")
    mount --bind /dev "$root/dev" && mounted+=("$root/dev")
    mount --bind /dev/pts "$root/dev/pts" && mounted+=("$root/dev/pts")
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # This machine's own certificate authorities (a proxy's, say) are trusted in the root too.
    # (update-ca-certificates takes minutes under emulation: only when one is new or changed)
    local cert fresh=0
    for cert in /usr/local/share/ca-certificates/*.crt; do
        [ -e "$cert" ] || continue
        cmp -s "$cert" "$root/usr/local/share/ca-certificates/${cert##*/}" && continue
        cp "$cert" "$root/usr/local/share/ca-certificates/" && fresh=1
    done
    [ "$fresh" -eq 0 ] || chroot "$root" update-ca-certificates >/dev/null 2>&1
    grep -qsw "$(hostname)" "$root/etc/hosts" || echo "127.0.1.1 $(hostname)" >>"$root/etc/hosts"
}
unmount_root() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null; done
    mounted=()
}
trap unmount_root EXIT

build_root() {
    if [ "$rebuild" -eq 1 ] && [ -d "$root" ]; then
        if grep -q " $root/" /proc/mounts; then echo "pi-check: $root has mounts" >&2; return 1; fi
        rm -rf "$root"
    fi
    [ -e "$root/.pi-check-root" ] && return 0
    mkdir -p "$root"
    # python3-numpy: Raspberry Pi OS has Debian's (picamera2 depends on it): 1.24 on Bookworm,
    # 2.2 on Trixie.
    debootstrap --arch=arm64 --variant=minbase \
        --include=ca-certificates,sudo,git,python3,python3-venv,python3-numpy,procps,passwd \
        "$release" "$root" >"$root.debootstrap.log" 2>&1 || {
        tail -20 "$root.debootstrap.log" >&2; return 1; }
    chroot "$root" useradd -m -s /bin/bash -G sudo pi || return 1
    echo 'pi ALL=(ALL) NOPASSWD: ALL' >"$root/etc/sudoers.d/010_pi-nopasswd"
    chmod 440 "$root/etc/sudoers.d/010_pi-nopasswd"
    date -u +%FT%TZ >"$root/.pi-check-root"
}

# What apt would install on Raspberry Pi OS: the stand-in picamera2 and the release's simplejpeg.
install_pi_camera_standins() {
    local site="$root/usr/lib/python3/dist-packages" wheels
    wheels="$(mktemp -d)"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_aarch64 \
        --python-version "$py" --implementation cp -d "$wheels" "simplejpeg==$apt_simplejpeg" ||
        return 1
    rm -rf "$site/simplejpeg" "$site/picamera2"
    python3 -m zipfile -e "$wheels"/simplejpeg-"$apt_simplejpeg"-*.whl "$site" || return 1
    cp -r "$here/tests/hardware/standins/picamera2" "$site/picamera2"
    rm -rf "$wheels"
}

as_pi() {  # as_pi COMMAND: run a shell command as pi, in the clone, with a Pi-like environment
    # ($offline: a prefix for the chroot, `unshare --net` for a start with no network)
    ${offline:-} chroot "$root" /usr/sbin/runuser -u pi -- env -i HOME=/home/pi USER=pi LOGNAME=pi \
        PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 QEMU_CPU="$cpu" \
        ${SSL_CERT_FILE:+SSL_CERT_FILE=$SSL_CERT_FILE} ${PIP_CERT:+PIP_CERT=$PIP_CERT} \
        COMPANION_MODEL_FILE=/etc/pi-check-model bash -c "cd ~/companion && $1"
}

fresh_clone() {
    local uid gid
    rm -rf "$root/home/pi/companion" "$root/home/pi/out"
    git clone --quiet "$here" "$root/home/pi/companion" || return 1
    mkdir -p "$root/home/pi/out/photos"
    for p in "${photos[@]}"; do cp "$photo_dir/$p" "$root/home/pi/out/photos/"; done
    cp "$here/examples/eye-for-an-eye-round.game" "$root/home/pi/out/"
    echo "Raspberry Pi 4 Model B Rev 1.5 (stood in for by pi-check)" >"$root/etc/pi-check-model"
    uid=$(stat -c %u "$root/home/pi"); gid=$(stat -c %g "$root/home/pi")
    chown -R "$uid:$gid" "$root/home/pi/companion" "$root/home/pi/out"
}

ms_of() { python3 -c 'import json, sys
print(" ".join(str(json.loads(l).get("ms")) for l in open(sys.argv[1])))' "$1" 2>/dev/null; }
same_as_host() {  # same_as_host NAME ARGS...: companion ARGS on x86 vs in the root, compared,
    local name="$1"; shift  # both run in ~/out, with the same relative paths
    local host_out="$root/home/pi/out/$name.x86" arm_out="$root/home/pi/out/$name.arm64"
    (cd "$root/home/pi/out" && "$here/.venv/bin/companion" "$@") >"$host_out" 2>/dev/null || true
    as_pi "cd ~/out && ~/companion/start.sh $* > ~/out/$name.arm64" || return 1
    if [ -s "$host_out" ] && cmp -s "$host_out" "$arm_out"; then
        note "- $name: arm64 output byte-identical to x86 ($(wc -l <"$arm_out") lines)"
    elif [ -s "$host_out" ]; then
        note "- $name: arm64 output DIFFERS from x86 (see $arm_out)"; return 1
    else
        note "- $name: no x86 output to compare (run ./start.sh once here first)"
    fi
}

replay_step() { same_as_host replay replay eye-for-an-eye-round.game; }
again_step() {  # the second start finds every system package installed, by this release's names
    as_pi "./start.sh --help > /dev/null 2> ~/out/again.txt" || return 1
    if grep -q "installing system packages" "$root/home/pi/out/again.txt"; then
        note "- second start: installed again: $(grep -m1 'installing system' \
            "$root/home/pi/out/again.txt")"
        return 1
    fi
    note "- second start: no system package installed again"
}
read_step() {  # what a player sees of each die (value, face, colour, where), not float digits
    local args=() p host_out="$root/home/pi/out/read.x86" arm_out="$root/home/pi/out/read.arm64"
    for p in "${photos[@]}"; do args+=("photos/$p"); done
    (cd "$root/home/pi/out" && "$here/.venv/bin/companion" read "${args[@]}" --json) \
        >"$host_out" 2>/dev/null || true
    as_pi "cd ~/out && ~/companion/start.sh read ${args[*]} --json > ~/out/read.arm64" || return 1
    local said rc
    said="$(python3 "$here/scripts/same_reading.py" "$host_out" "$arm_out")"
    rc=$?
    note "- read: $(tr '\n' ';' <<<"$said") (ms per photo, x86 vs arm64: $(ms_of "$host_out")" \
        "vs $(ms_of "$arm_out"))"
    return $rc
}
offline_step() {  # a start in a network namespace of its own (no network at all): it must
    # neither call apt nor wait on the network, and the doctor says what is missing
    local out="$root/home/pi/out/offline.txt" rc
    offline="unshare --net" as_pi "./start.sh doctor > ~/out/offline.txt 2>&1"
    rc=$?
    note "- start with no network: doctor exit $rc; $(grep -c '^\[' "$out") findings;" \
        "$(grep -m1 '^\[warn\] packages' "$out" | cut -c1-120)"
    if grep -Eq "installing system packages|apt could not reach|could not reach the package" \
        "$out"; then
        note "- start with no network: it asked apt: $(grep -m1 -E 'apt|installing' "$out")"
        return 1
    fi
    ! grep -q Traceback "$out" && [ "$rc" -le 1 ] && grep -q '^\[warn\] packages' "$out"
}
demo_step() {
    as_pi "./start.sh demo --output ~/out/demo >/dev/null" || return 1
    local shots; shots=$(ls "$root/home/pi/out/demo"/*.png 2>/dev/null | wc -l)
    note "- demo: $shots screenshots, standings: $(head -1 "$root/home/pi/out/demo/standings.txt")"
    [ "$shots" -gt 0 ] && [ -s "$root/home/pi/out/demo/standings.txt" ]
}
doctor_step() {
    as_pi "./start.sh doctor > ~/out/doctor.txt 2>&1"
    local rc=$?
    note "- doctor (exit $rc): $(grep -c '^\[' "$root/home/pi/out/doctor.txt") findings;" \
        "camera: $(grep -m1 'camera .*picamera2' "$root/home/pi/out/doctor.txt" | cut -c1-150)"
    ! grep -q Traceback "$root/home/pi/out/doctor.txt" && [ "$rc" -le 1 ]
}
camera_step() {
    local venv_site=".venv/lib/python$py/site-packages" out="$root/home/pi/out/camera.txt" ok=0
    : >"$out"
    # a. the system Python and numpy: what Raspberry Pi OS's own python3 sees
    as_pi "/usr/bin/python3 -c 'import numpy, simplejpeg; from picamera2 import Picamera2;
print(\"system python: numpy\", numpy.__version__, \"simplejpeg from\", simplejpeg.__file__)'" \
        >>"$out" 2>&1 || ok=1
    if [ "$release" = trixie ]; then
        # b. the lock adds no simplejpeg of its own; c. apt's (numpy 2) loads beside the venv's
        as_pi "test ! -e $venv_site/simplejpeg && echo 'venv: no simplejpeg of its own (none locked for Python $py)' &&
.venv/bin/python -c 'import numpy, simplejpeg; from hardware.camera.picam import import_picamera2
import_picamera2()
print(\"venv: numpy\", numpy.__version__, \"from\", numpy.__file__, \"simplejpeg\", simplejpeg.__version__, \"from\", simplejpeg.__file__)
assert simplejpeg.__file__.startswith(\"/usr/lib/python3/dist-packages/\") and \".venv\" in numpy.__file__'" \
            >>"$out" 2>&1 || ok=1
        while IFS= read -r line; do note "- camera: $line"; done <"$out"
        return $ok
    fi
    # b. the venv (numpy 2) without the locked simplejpeg: the clash, named
    as_pi "mv $venv_site/simplejpeg $venv_site/simplejpeg.aside &&
.venv/bin/python -c 'from hardware.camera.picam import import_picamera2
try:
    import_picamera2()
except Exception as e:
    print(\"venv without numpy-2 simplejpeg:\", type(e).__name__, \"--\", e)
    raise SystemExit(0 if \"numpy\" in str(e) and \"simplejpeg\" in str(e) else 1)
raise SystemExit(\"the numpy 1/2 clash did not show\")'; rc=\$?;
mv $venv_site/simplejpeg.aside $venv_site/simplejpeg; exit \$rc" >>"$out" 2>&1 || ok=1
    # c. the venv as ./start.sh made it
    as_pi ".venv/bin/python -c 'import numpy, simplejpeg; from hardware.camera.picam import import_picamera2
import_picamera2()
print(\"venv: numpy\", numpy.__version__, \"simplejpeg\", simplejpeg.__version__, \"from\", simplejpeg.__file__)
assert \".venv\" in simplejpeg.__file__'" >>"$out" 2>&1 || ok=1
    while IFS= read -r line; do note "- camera: $line"; done <"$out"
    return $ok
}
root_files() {  # every path of the root with its kind, mode and content, but for what changes
    # whatever the appliance does: kernel file systems, caches, logs, the clone and its outputs,
    # the backups of the last change that shadow's tools and dpkg keep (group-, status-old...),
    # and dpkg's database, whose packages are compared by name and version instead
    python3 - "$root" <<'PY'
import hashlib, os, stat, sys
root = sys.argv[1]
skip = {"proc", "sys", "dev", "run", "tmp", "mnt/table", "home/pi/out", "home/pi/companion",
        "var/cache", "var/log", "var/lib/apt/lists", "etc/group-", "etc/gshadow-", "etc/passwd-",
        "etc/shadow-", "etc/subgid-", "etc/subuid-", "var/lib/dpkg/status",
        "var/lib/dpkg/status-old", "var/lib/dpkg/diversions-old", "var/lib/dpkg/statoverride-old"}
for folder, dirs, files in os.walk(root):
    rel = os.path.relpath(folder, root)
    dirs[:] = sorted(d for d in dirs if os.path.normpath(os.path.join(rel, d)) not in skip)
    files = [f for f in files if os.path.normpath(os.path.join(rel, f)) not in skip]
    for name in sorted(dirs + files):
        path = os.path.join(folder, name)
        st = os.lstat(path)
        what = ("-> " + os.readlink(path) if stat.S_ISLNK(st.st_mode) else "dir" if
                stat.S_ISDIR(st.st_mode) else hashlib.sha256(open(path, "rb").read()).hexdigest())
        print(os.path.normpath(os.path.join(rel, name)), f"{st.st_mode:o}", st.st_uid, what)
PY
}
appliance_step() {  # enable --protect, then disable, in each mode: the same files and packages
    local mode out="$root/home/pi/out" ok=0 left
    as_pi "command -v systemd-analyze >/dev/null || sudo apt-get install -y -qq systemd >/dev/null" ||
        return 1
    mkdir -p "$root/mnt/table"
    cp "$root/etc/fstab" "$out/fstab.before"
    # the data stick: another filesystem on /mnt/table, with the guide's fstab line
    echo 'LABEL=table /mnt/table ext4 defaults,noatime,nofail 0 2' >>"$root/etc/fstab"
    mount -t tmpfs -o size=64m,mode=0755 table "$root/mnt/table" && mounted+=("$root/mnt/table")
    for mode in console desktop; do
        root_files >"$out/files-$mode.before"
        chroot "$root" dpkg-query -W -f='${Package} ${Version}\n' >"$out/packages-$mode.before"
        as_pi "sudo .venv/bin/companion appliance enable --mode $mode --protect /mnt/table \
            > ~/out/enable-$mode.txt 2>&1 && sudo .venv/bin/companion appliance disable \
            > ~/out/disable-$mode.txt 2>&1" || ok=1
        root_files >"$out/files-$mode.after"
        chroot "$root" dpkg-query -W -f='${Package} ${Version}\n' >"$out/packages-$mode.after"
        note "- appliance, $mode mode: enable ran" \
            "\`$(grep -o 'apt-get install[^(]*' "$out/enable-$mode.txt" | head -1)\`;" \
            "disable purged $(grep -o 'apt-get purge -y [^(]*' "$out/disable-$mode.txt" |
                cut -d' ' -f4- | wc -w) packages and said last:" \
            "$(tail -1 "$out/disable-$mode.txt")"
        if ! cmp -s "$out/packages-$mode.before" "$out/packages-$mode.after"; then
            note "  - packages differ: $(diff "$out/packages-$mode.before" \
                "$out/packages-$mode.after" | grep '^[<>]' | tr '\n' ';' | cut -c1-600)"
            ok=1
        fi
        left="$(diff "$out/files-$mode.before" "$out/files-$mode.after" | grep '^[<>]')"
        if [ -n "$left" ]; then
            note "  - files differ ($(wc -l <<<"$left") lines): $(tr '\n' ';' <<<"$left" |
                cut -c1-900)"
            ok=1
        else
            note "  - files and packages after disable: the same as before enable" \
                "($(wc -l <"$out/files-$mode.before") paths, $(wc -l \
                <"$out/packages-$mode.before") packages)"
        fi
        grep -q '^disabled: the Pi boots as it did before `companion appliance enable`$' \
            "$out/disable-$mode.txt" || ok=1
    done
    umount "$root/mnt/table" && unset 'mounted[-1]'
    cp "$out/fstab.before" "$root/etc/fstab"
    return $ok
}
tests_step() {
    # systemd's tools for the appliance tests, as ./test.sh installs them
    as_pi "command -v systemd-analyze >/dev/null || sudo apt-get install -y -qq systemd >/dev/null;
tests=(); for t in ${quick_tests[*]}; do [ -e \$t ] && tests+=(\$t); done;
.tools/bin/uv sync --quiet --frozen && .venv/bin/python -m pytest -q -p no:cacheprovider \
\${tests[*]} > ~/out/tests.txt 2>&1"
    local rc=$?
    note "- tests: $(tail -1 "$root/home/pi/out/tests.txt")"
    return $rc
}

step "host tools (debootstrap, qemu-user-static, binfmt)" host_tools || true
t_root0=$(date +%s)
step "$release arm64 root (built once, then kept)" build_root
report() { echo; echo "| step | time | result |"; echo "|---|---|---|"; cat "$rows"; echo; cat "$notes"; }
[ "$root_only" -eq 1 ] && { report; exit "$failed"; }
[ "$failed" -eq 0 ] || { report; exit 1; }
mount_root
note "- root: $root, built $(cat "$root/.pi-check-root"), QEMU_CPU=$cpu," \
    "$(chroot "$root" uname -m), $(chroot "$root" python3 --version)"
step "stand-ins for apt's picamera2 and simplejpeg $apt_simplejpeg" install_pi_camera_standins
step "fresh clone of HEAD ($(git -C "$here" rev-parse --short HEAD))" fresh_clone
step "./start.sh replay (first run: installs everything)" replay_step
step "./start.sh again: nothing to install" again_step
step "./start.sh read, 2 photos (what a player sees, against x86)" read_step
step "./start.sh with no network at all (doctor)" offline_step
step "./start.sh demo" demo_step
step "./start.sh doctor" doctor_step
step "Pi camera import check (apt's simplejpeg beside the venv's numpy)" camera_step
step "appliance enable --protect, then disable, each mode: files and packages as before" \
    appliance_step
step "quick tests (dev packages installed first)" tests_step
note "- total: $(( $(date +%s) - t_root0 )) s"
report
exit "$failed"
