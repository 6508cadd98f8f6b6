#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Package install test (ctest label `package`): builds the Debian package with CPack from the build
# folder, installs it into a throwaway root with `dpkg -x` (not a chroot: debootstrap needs a network
# and minutes; the installed files run against this machine's libraries, located through
# LD_LIBRARY_PATH for anything the package would put under usr/lib), and runs the installed programs:
# `tpscope-cli --version`, `tpscope-cli simulate`, `tpscope --version` and `tpscope --screenshot`
# (offscreen). It also checks the package's control fields and files. Exit 77 = skipped (ctest SKIP).
#   package_test.sh BUILD_DIR VERSION HAVE_GUI [lintian]
set -euo pipefail
build="$1"
version="$2"
have_gui="$3"
mode="${4:-install}"

skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# scripts/install-deps.sh installs all of these; a machine set up another way skips with the reason.
for tool in dpkg-deb dpkg-shlibdeps cpack; do
  command -v "$tool" >/dev/null || skip "$tool not installed (apt-get install dpkg-dev cmake)"
done
# CPack's DEB generator refuses to compute Depends without file(1) ("file utility is not available").
command -v file >/dev/null || skip "file not installed (apt-get install file; CPack's DEB generator needs it)"
[ "$mode" != lintian ] || command -v lintian >/dev/null || skip "lintian not installed (apt-get install lintian)"

out="$build/test-output/package-$mode"
rm -rf "$out"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$out"/tpscope_"$version"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack wrote no tpscope_${version}_*.deb into $out"
echo "package: $deb"

if [ "$mode" = lintian ]; then
  # Errors and warnings fail the test; informational and pedantic tags are listed (docs/guide.md
  # "Install" says which remain and why). Lintian's tags change between releases (Debian 12's 2.116,
  # Debian 13's 2.122), so this runs on each: scripts/fresh-root-check.sh --release all.
  lintian --allow-root --tag-display-limit 0 --info --pedantic "$deb" >"$out/lintian.txt" 2>&1 || true
  cat "$out/lintian.txt"
  echo "lintian $(lintian --version 2>/dev/null | awk '{print $NF}')"
  if grep -q '^E: ' "$out/lintian.txt"; then fail "lintian reports errors"; fi
  if grep -q '^W: ' "$out/lintian.txt"; then fail "lintian reports warnings"; fi
  echo "lintian: no errors, no warnings"
  exit 0
fi

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = tpscope ] || fail "Package field"
[ "$(field Version)" = "$version" ] || fail "Version $(field Version), expected $version"
depends=$(field Depends)
echo "Depends: $depends"
for lib in libsqlite3 zlib1g libdeflate0 libzstd1 libsimdjson; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps)"
done
if [ "$have_gui" = ON ]; then
  for lib in libqt6widgets6 libqcustomplot; do
    grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps)"
  done
fi

root="$out/root"
dpkg -x "$deb" "$root"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/tpscope-cli ./usr/share/man/man1/tpscope-cli.1.gz ./usr/share/doc/tpscope/copyright \
  ./usr/share/doc/tpscope/changelog.gz ./usr/share/applications/io.github.tpscope.desktop \
  ./usr/share/metainfo/io.github.tpscope.metainfo.xml ./usr/share/mime/packages/tpscope.xml \
  ./usr/share/icons/hicolor/scalable/apps/io.github.tpscope.svg \
  ./usr/share/icons/hicolor/256x256/apps/io.github.tpscope.png; do
  grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
done
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.tpscope.metainfo.xml" || fail "AppStream"
else
  echo "note: appstreamcli not installed (apt-get install appstream): metainfo not validated"
fi
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/io.github.tpscope.desktop" || fail "desktop entry"
else
  echo "note: desktop-file-validate not installed (apt-get install desktop-file-utils): desktop entry not validated"
fi

export LD_LIBRARY_PATH="$root/usr/lib:$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$root/usr/bin/tpscope-cli"
got=$("$cli" --version)
[[ "$(head -1 <<<"$got")" == "tpscope-cli $version ("* ]] || fail "tpscope-cli --version printed '$got'"
grep -q "GPL-3.0-or-later" <<<"$got" || fail "tpscope-cli --version does not name the licence: '$got'"
"$cli" simulate --model llama3-8b --tp 1,2 --tokens 2 --out "$out/sweep.tpscope" >"$out/simulate.txt" 2>&1 ||
  { cat "$out/simulate.txt"; fail "installed tpscope-cli simulate"; }
grep -q "wrote $out/sweep.tpscope" "$out/simulate.txt" || fail "simulate did not write its workspace"
# Read whole first: grep -q ending the pipe early would SIGPIPE zcat (a page over 32 KiB) under pipefail.
man=$(zcat "$root/usr/share/man/man1/tpscope-cli.1.gz")
grep -q '^\.SS simulate' <<<"$man" || fail "man page lacks the commands"

if [ "$have_gui" = ON ]; then
  gui="$root/usr/bin/tpscope"
  got=$(QT_QPA_PLATFORM=offscreen "$gui" --version)
  grep -q "$version" <<<"$got" || fail "tpscope --version printed '$got'"
  QT_QPA_PLATFORM=offscreen "$gui" --screenshot "$out/screenshot.png" "$out/sweep.tpscope" >"$out/gui.txt" 2>&1 ||
    { cat "$out/gui.txt"; fail "installed tpscope --screenshot"; }
  size=$(stat -c %s "$out/screenshot.png")
  [ "$size" -gt 20000 ] || fail "screenshot of $size bytes"
  head -c 8 "$out/screenshot.png" | od -An -tx1 | grep -q "89 50 4e 47" || fail "screenshot is not a PNG"
fi
echo "installed with dpkg -x into $root and ran: tpscope-cli --version, simulate$([ "$have_gui" = ON ] && echo ', tpscope --version, --screenshot')"
