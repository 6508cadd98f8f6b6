#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
#
# Every source file (C++, CUDA, CMake, shell, Python) opens with the SPDX licence line and a copyright
# line, in its language's comment form (after a #! line, where there is one).
#   scripts/spdx-headers.sh --check   list the files without the SPDX line; exit 1 if there are any
#   scripts/spdx-headers.sh --fix     add the two lines to those files (idempotent)
# The file list is git's tracked files in a checkout, else every matching file under the source
# folder (a tarball), build folders left out. The ctest `licence_spdx` runs --check.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:---check}"
spdx="SPDX-License-Identifier: GPL-3.0-or-later"
copyright="Copyright (C) 2026 The tpscope authors"

sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- '*.cpp' '*.h' '*.cu' '*.cuh' '*.cmake' '*CMakeLists.txt' '*.sh' '*.py' '.ci/run'
  else
    find . \( -path ./build -o -path ./.git -o -path ./out \) -prune -o -type f \( -name '*.cpp' -o -name '*.h' \
      -o -name '*.cu' -o -name '*.cuh' -o -name '*.cmake' -o -name CMakeLists.txt -o -name '*.sh' -o -name '*.py' \
      -o -path ./.ci/run \) -print | sed 's|^\./||' | sort
  fi
}

missing=()
while IFS= read -r f; do
  [ -f "$f" ] || continue
  head -n 5 "$f" | grep -q "$spdx" || missing+=("$f")
done < <(sources)

case "$mode" in
  --check)
    if [ ${#missing[@]} -gt 0 ]; then
      printf '%s\n' "${missing[@]}"
      echo "spdx-headers: ${#missing[@]} source file(s) above lack '$spdx' (scripts/spdx-headers.sh --fix adds it)" >&2
      exit 1
    fi
    echo "spdx-headers: every source file carries '$spdx'"
    ;;
  --fix)
    for f in "${missing[@]}"; do
      case "$f" in
        *.cpp|*.h|*.cu|*.cuh) prefix="//" ;;
        *) prefix="#" ;;
      esac
      tmp=$(mktemp)
      if head -n 1 "$f" | grep -q '^#!'; then
        { head -n 1 "$f"; printf '%s %s\n%s %s\n' "$prefix" "$spdx" "$prefix" "$copyright"; tail -n +2 "$f"; } >"$tmp"
      else
        { printf '%s %s\n%s %s\n' "$prefix" "$spdx" "$prefix" "$copyright"; cat "$f"; } >"$tmp"
      fi
      cat "$tmp" >"$f"  # keeps the file's mode (scripts stay executable)
      rm -f "$tmp"
    done
    echo "spdx-headers: added the licence lines to ${#missing[@]} file(s)"
    ;;
  *) echo "usage: scripts/spdx-headers.sh --check|--fix" >&2; exit 2 ;;
esac
