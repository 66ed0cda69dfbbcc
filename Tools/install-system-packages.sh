#!/usr/bin/env bash
# Installs the Debian packages Bonework builds and tests with, only when something is missing.
set -euo pipefail
packages=(libpng-dev libglfw3-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth pkg-config)
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
