#!/usr/bin/env bash
# Installs the Debian packages Bonework needs, only when something is missing.
#   Tools/install-system-packages.sh          everything the tests need (GL drivers, Xvfb for window tests)
#   Tools/install-system-packages.sh build    only what building and the headless main job need
#   Tools/install-system-packages.sh docs     a headless browser and fonts, for screenshots of the documentation
set -euo pipefail
build=(libpng-dev libglfw3-dev libgl-dev libegl-dev pkg-config)
tests=(libgl1-mesa-dri libegl-mesa0 xvfb xauth xdotool python3-numpy)
docs=(chromium fonts-dejavu-core)
case ${1:-all} in
    build) packages=("${build[@]}") ;;
    docs) packages=("${docs[@]}") ;;
    all) packages=("${build[@]}" "${tests[@]}") ;;
    *) echo "usage: $0 [build|docs|all]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
fi
