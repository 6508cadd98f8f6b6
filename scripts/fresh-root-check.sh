#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
#
# The README's quick start, exactly as a new user runs it, on a Debian root that has nothing
# installed: `debootstrap --variant=minbase RELEASE` into a temporary folder, a clean `git archive`
# of HEAD inside it, then `./setup.sh gui` and `./setup.sh test` in a chroot, each with its exit code
# and the test summary. A machine that already has the packages hides a missing install step (the
# `file` utility that CPack's DEB generator needs went unnoticed that way); this check does not. A
# newer release hides nothing that an older one shows and the other way round (GCC 14 on Debian 13
# stopped pulling <algorithm> in through other headers), so run it on both.
#
#   scripts/fresh-root-check.sh [--release bookworm|trixie|all] [--ccache] [--keep] [--workdir DIR]
#     --release  the Debian release of the root: bookworm (12, the default), trixie (13), or all
#                (each in turn, every one in a fresh root; exit 0 only when all pass)
#     --ccache   install ccache in the root and share this machine's cache (CCACHE_DIR bind-mounted),
#                so the two builds reuse objects; it adds no other package and changes no command
#     --keep     leave the root in place afterwards (its path is printed)
#     --workdir  where the temporary root goes (default /var/tmp)
#
# Runs as root (debootstrap, chroot, mounts). The mirror is read from this machine's own apt sources,
# and the root gets the suites a default install of the release gets (main, updates, security).
# Mounts (/proc, /sys, /dev, /dev/pts, the cache) are undone on every exit path.
# Exit status: 0 only when both README commands exit 0. Takes a full build: 30-60 minutes on 2 cores
# per release.
set -euo pipefail

use_ccache=0
keep=0
workdir=/var/tmp
release=bookworm
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --release) release="${2:-}"; shift ;;
    --ccache) use_ccache=1 ;;
    --keep) keep=1 ;;
    --workdir) workdir="$2"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-root-check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

say() { echo "fresh-root-check: $*"; }
die() { echo "fresh-root-check: $*" >&2; exit 1; }

case "$release" in
  bookworm) version=12 ;;
  trixie) version=13 ;;
  all)
    # Each release in its own run of this script, so that every root starts empty.
    overall=0
    for r in bookworm trixie; do
      filtered=()
      for ((i = 0; i < ${#args[@]}; i++)); do
        if [ "${args[$i]}" = --release ]; then i=$((i + 1)); else filtered+=("${args[$i]}"); fi
      done
      "$0" "${filtered[@]}" --release "$r" || overall=1
    done
    exit "$overall"
    ;;
  *) echo "fresh-root-check: unknown release '$release' (bookworm, trixie or all)" >&2; exit 2 ;;
esac

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and mounts need it)"
repo="$(cd "$(dirname "$0")/.." && pwd)"
git -C "$repo" rev-parse --verify -q HEAD >/dev/null || die "$repo is not a git checkout with a commit"
if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; } ||
    die "could not install debootstrap"
fi

# This machine's Debian mirror (deb822 first, then the one-line form); the security archive likewise.
mirror_of() {  # $1: a pattern the URI must (or, with !, must not) match
  local uris
  uris=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}')
  uris+=$'\n'$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" {print ($2 ~ /^\[/ ? $3 : $2)}')
  grep -E '^https?://' <<<"$uris" | grep -E "$1" | head -1
}
mirror=$(mirror_of '/debian/?$' || true)
security=$(mirror_of 'debian-security/?$' || true)
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d}"

mkdir -p "$workdir"
tmp=$(mktemp -d "$workdir/tpscope-fresh-root.XXXXXX")
root="$tmp/root"
mounted=()
cleanup() {
  local status=$?
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[$i]}" 2>/dev/null || umount -R -l "${mounted[$i]}" 2>/dev/null || true
  done
  if [ "$keep" -eq 1 ]; then
    say "kept the root at $root"
  elif ! grep -q " $tmp/" /proc/mounts; then
    rm -rf "$tmp"
  else
    say "a mount under $tmp is still busy; left it in place"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount_into() {  # $1: source, $2: target under the root, rest: mount options
  local src="$1" dst="$root$2"
  shift 2
  mkdir -p "$dst"
  mount "$@" "$src" "$dst"
  mounted+=("$dst")
}

say "debootstrap --variant=minbase $release (Debian $version) from $mirror into $root"
started=$(date +%s)
# This machine's debootstrap may predate the release: every Debian release since buster uses the
# same script, so an unknown one falls back to sid's.
script_arg=()
[ -e "/usr/share/debootstrap/scripts/$release" ] || script_arg=(/usr/share/debootstrap/scripts/sid)
debootstrap --variant=minbase "$release" "$root" "$mirror" "${script_arg[@]}" >"$tmp/debootstrap.log" 2>&1 ||
  { tail -20 "$tmp/debootstrap.log"; die "debootstrap failed (log above)"; }
{
  echo "deb $mirror $release main"
  echo "deb $mirror $release-updates main"
  [ -z "$security" ] || echo "deb $security $release-security main"
} >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
say "root ready in $(($(date +%s) - started)) s: $(chroot "$root" dpkg-query -W -f='.\n' | wc -l) packages"

src=/home/user/tpscope
mkdir -p "$root$src"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$root$src"
say "git archive of $(git -C "$repo" rev-parse --short HEAD) in $src"

# /dev recursively (pts and shm with it) and as a slave, so nothing done inside reaches this machine.
mount_into proc /proc -t proc
mount_into sysfs /sys -t sysfs
mount_into /dev /dev --rbind --make-rslave
cache_env=()
if [ "$use_ccache" -eq 1 ]; then
  cache_dir=$(ccache -k cache_dir 2>/dev/null || echo /root/.cache/ccache)
  mkdir -p "$cache_dir"
  mount_into "$cache_dir" /var/cache/tpscope-ccache --bind
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends ccache >/dev/null' ||
    die "could not install ccache in the root"
  # Content, not mtime: the root's compiler was unpacked at another time than this machine's.
  cache_env=(CCACHE_DIR=/var/cache/tpscope-ccache CCACHE_BASEDIR=/ CCACHE_COMPILERCHECK=content
    CCACHE_NOHASHDIR=1)
  say "sharing the compiler cache $cache_dir (ccache installed in the root)"
fi

# A login-like environment with nothing of this machine's: no DISPLAY, this machine's PATH or CI.
run_in_root() {  # $1: log file, rest: the command as the README writes it
  local log="$1"
  shift
  chroot "$root" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "${cache_env[@]}" \
    bash -c "cd $src && $*" >"$log" 2>&1
}

results=()
overall=0
for command in "./setup.sh gui" "./setup.sh test"; do
  log="$tmp/$(tr ' ./' '_' <<<"$command").log"
  say "running '$command' (log: $log)"
  t0=$(date +%s)
  status=0
  run_in_root "$log" "$command" || status=$?
  seconds=$(($(date +%s) - t0))
  results+=("'$command': exit $status in $seconds s")
  [ "$status" -eq 0 ] || overall=1
  echo "----- last lines of '$command' -----"
  tail -25 "$log"
  echo "------------------------------------"
done
if [ -f "$root$src/out/report.pdf" ]; then
  say "out/report.pdf: $(stat -c %s "$root$src/out/report.pdf") bytes"
fi

summary=$(grep -E '^[0-9]+% tests passed|tests failed out of|^Total Test time' "$tmp/__setup_sh_test.log" 2>/dev/null || true)
say "summary"
for r in "${results[@]}"; do echo "  $r"; done
[ -z "$summary" ] || sed 's/^/  /' <<<"$summary"
skipped=$(grep -c '\*\*\*Skipped' "$tmp/__setup_sh_test.log" 2>/dev/null || true)
echo "  tests skipped: ${skipped:-0}"
grep '\*\*\*Skipped' "$tmp/__setup_sh_test.log" 2>/dev/null | sed 's/^/    /' || true
echo "  compiler: $(chroot "$root" g++ --version 2>/dev/null | head -1)"
if [ "$overall" -eq 0 ]; then
  say "PASS: both README commands exit 0 on a fresh Debian $version ($release) root"
else
  say "FAIL on Debian $version ($release)"
fi
if [ "$keep" -eq 0 ]; then
  for f in "$tmp"/*.log; do cp "$f" "$workdir/$release-$(basename "$f")" 2>/dev/null || true; done
fi
exit "$overall"
