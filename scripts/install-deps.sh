#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Installs the Debian 12 and 13 packages tpscope builds with (the same names on both). Idempotent and quiet: does nothing when
# everything is already there, otherwise runs 'apt-get update' once and installs what is missing.
set -euo pipefail

# Every tool a test, a benchmark or a script calls is listed here, next to what calls it: installs use
# --no-install-recommends, so nothing arrives by accident (scripts/fresh-root-check.sh proves the list
# on empty Debian 12 and 13 roots: --release all).
packages=(
  build-essential cmake ninja-build pkg-config git   # the build; binutils' objdump: gpu_check.bundle
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  libsimdjson-dev libsqlite3-dev zlib1g-dev libdeflate-dev libzstd-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin                          # mpirun: gpu_host_tests (MPI launch)
  patchelf python3                                    # gpu-check --bundle; bench_io's trace generator
  xvfb xauth fonts-dejavu-core                        # the GUI without a display; text in screenshots
  poppler-utils locales                               # pdfinfo/pdftotext: report tests; de_DE: locale tests
  clang-format clang-tidy                             # scripts/check-style.sh
  help2man                                            # the man pages (package)
  file lintian appstream desktop-file-utils           # package_install/_lintian: CPack's DEB generator
                                                      # runs dpkg-shlibdeps through file; the package's
                                                      # metainfo and desktop entry are validated
)

# A comma-decimal locale, so the tests that check locale-proof number I/O run instead of skipping.
ensure_comma_locale() {
  locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' && return 0
  [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null || return 0
  local run=""
  [ "$(id -u)" -eq 0 ] || run="sudo"
  $run sed -i 's/^# *de_DE.UTF-8 UTF-8/de_DE.UTF-8 UTF-8/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | $run tee -a /etc/locale.gen >/dev/null
  $run locale-gen >/dev/null
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  ensure_comma_locale
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
ensure_comma_locale
