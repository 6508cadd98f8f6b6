#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
"""Include what you use, for the standard library: every file that names a std:: facility includes
its header itself or through one of the project's own headers it includes (directly or through
others of ours), never only through another standard header. GCC 14 (Debian 13) stopped pulling
<algorithm> in through <vector> and friends, and a file that leant on that broke the build there
while passing here on GCC 12; this check finds those files on any compiler.

clang-tidy's misc-include-cleaner (LLVM 17) is not in Debian 12, and include-what-you-use over the
whole tree takes longer than CI can spend; this table-driven scan reads every file in about a second.

  scripts/check-includes.py [PATH...]   (default: the C++ sources of the repository)
Exit status: 0 when every file includes what it uses, 1 otherwise (one line per missing header).
"""
import os
import subprocess
import re
import sys

# std::NAME -> headers that declare it (any one of them will do). Only names whose header is certain;
# names that several headers declare (std::size_t, std::swap, std::hash, ...) are left out.
HEADERS = {
    "<algorithm>": """all_of any_of none_of for_each find find_if find_if_not find_end find_first_of
        adjacent_find count count_if mismatch equal search search_n copy_if copy_n copy_backward
        move_backward fill fill_n transform generate generate_n remove remove_if remove_copy
        remove_copy_if replace replace_if replace_copy unique unique_copy reverse reverse_copy
        rotate rotate_copy shuffle sample is_partitioned partition stable_partition partition_copy
        partition_point is_sorted is_sorted_until sort partial_sort partial_sort_copy stable_sort
        nth_element lower_bound upper_bound binary_search equal_range merge inplace_merge includes
        set_difference set_intersection set_symmetric_difference set_union is_heap is_heap_until
        make_heap push_heap pop_heap sort_heap max_element min_element minmax_element clamp minmax
        lexicographical_compare next_permutation prev_permutation ranges""",
    "<numeric>": """accumulate inner_product adjacent_difference partial_sum reduce exclusive_scan
        inclusive_scan transform_reduce transform_exclusive_scan transform_inclusive_scan iota gcd
        lcm midpoint""",
    "<cstdint>": """int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t
        uintptr_t intmax_t uintmax_t""",
    "<utility>": "pair make_pair exchange forward declval as_const integer_sequence index_sequence make_index_sequence in_place unreachable",
    "<memory>": "unique_ptr shared_ptr weak_ptr make_unique make_shared enable_shared_from_this allocator_traits addressof",
    "<optional>": "optional nullopt make_optional",
    "<variant>": "variant visit holds_alternative get_if monostate",
    "<functional>": "function reference_wrapper bind invoke ref cref",
    "<string_view>": "string_view",
    "<string>": "string to_string stoi stol stoll stoul stoull stod stof getline",
    "<vector>": "vector",
    "<array>": "array",
    "<span>": "span",
    "<map>": "map multimap",
    "<set>": "set multiset",
    "<unordered_map>": "unordered_map unordered_multimap",
    "<unordered_set>": "unordered_set unordered_multiset",
    "<deque>": "deque",
    "<tuple>": "tuple make_tuple tie apply",
    "<limits>": "numeric_limits",
    "<atomic>": "atomic atomic_flag memory_order_relaxed memory_order_acquire memory_order_release",
    "<mutex>": "mutex lock_guard unique_lock scoped_lock once_flag call_once",
    "<condition_variable>": "condition_variable",
    "<thread>": "thread jthread",
    "<chrono>": "chrono",
    "<sstream>": "ostringstream istringstream stringstream",
    "<fstream>": "ifstream ofstream fstream",
    "<charconv>": "from_chars to_chars chars_format",
    "<cmath>": """sqrt pow exp log log2 log10 floor ceil round lround llround trunc fabs isfinite isnan
        isinf hypot fmod cbrt expm1 log1p""",
    "<cstring>": "memcpy memmove memset memcmp strlen strcmp strncmp strchr strerror",
    "<bit>": "bit_cast popcount countl_zero countr_zero bit_width has_single_bit bit_ceil bit_floor",
    "<type_traits>": """is_same_v is_integral_v is_floating_point_v enable_if_t remove_cvref_t decay_t
        underlying_type_t conditional_t is_trivially_copyable_v""",
    "<filesystem>": "filesystem",
    "<iomanip>": "setprecision setw put_time",
    "<random>": "mt19937 mt19937_64 uniform_int_distribution uniform_real_distribution normal_distribution",
    "<stdexcept>": "runtime_error logic_error invalid_argument out_of_range",
    "<new>": "bad_alloc",
    "<exception>": "exception_ptr current_exception rethrow_exception",
    "<future>": "future promise async",
    "<queue>": "queue priority_queue",
    "<cstdio>": "fopen fclose fread fwrite fprintf snprintf FILE",
    "<cstdlib>": "getenv abort strtod strtol strtoull",
    "<iterator>": "back_inserter inserter distance advance next prev",
}
# Headers that declare another's names too, as the standard says (<iostream> includes <ostream> ...).
ALSO_PROVIDES = {
    "<fstream>": ["<string>"],
    "<sstream>": ["<string>"],
    "<iostream>": ["<string>"],
    "<map>": ["<utility>"],
    "<unordered_map>": ["<utility>"],
    "<algorithm>": ["<utility>"],  # std::swap/std::move/std::pair through <algorithm>: guaranteed
    "<memory>": [],
    "<cinttypes>": ["<cstdint>"],
    "<stdint.h>": ["<cstdint>"],
    "<math.h>": ["<cmath>"],
    "<string.h>": ["<cstring>"],
}
NAME_TO_HEADER = {}
for header, names in HEADERS.items():
    for name in names.split():
        NAME_TO_HEADER[name] = header
# The fixed-width integers are often written unqualified (from <cstdint>'s global declarations).
UNQUALIFIED = {name for name in HEADERS["<cstdint>"].split()}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"][^>"]+[>"])', re.M)
STD_NAME = re.compile(r"\bstd::([A-Za-z_][A-Za-z0-9_]*)")
BARE_INT = re.compile(r"(?<![:\w])(u?int(?:8|16|32|64|ptr|max)_t)\b")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)

SOURCE_DIRS = ["core", "gpu", "ui", "app", "tests", "fuzz"]
SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")


def includes_of(text):
    return {m.group(1) for m in INCLUDE.finditer(text)}


def provided(includes):
    out = set(includes)
    for inc in includes:
        out.update(ALSO_PROVIDES.get(inc, []))
    return out


_direct_cache = {}  # path -> (its standard headers, the project headers it includes)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def project_header(include, from_path):
    """The project file a quoted include names (from the repository root or beside the includer)."""
    name = include[1:-1]
    for candidate in (name, os.path.join(os.path.dirname(from_path), name)):
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
    return None


def direct_includes(path):
    """A file's own standard headers and the project headers it includes (read once per file)."""
    if path not in _direct_cache:
        std, ours = set(), []
        for inc in includes_of(read(path)):
            if inc.startswith("<"):
                std.add(inc)
            else:
                header = project_header(inc, path)
                if header:
                    ours.append(header)
        _direct_cache[path] = (std, ours)
    return _direct_cache[path]


def standard_headers_through(path):
    """The standard headers a file includes itself or through the project's headers it includes:
    those are there on every compiler, whatever the standard library pulls in by itself. A walk of
    every reachable header per file, not a memo of partial answers: two headers that include each
    other would otherwise leave one of them cached without the other's headers, and the answer would
    depend on which file was checked first."""
    out, seen, todo = set(), {path}, [path]
    while todo:
        std, ours = direct_includes(todo.pop())
        out |= std
        for header in ours:
            if header not in seen:
                seen.add(header)
                todo.append(header)
    return out


def one_argument(code, pos):
    """Whether the call whose name ends at pos has a single argument (no comma at its top level)."""
    if pos >= len(code) or code[pos] != "(":
        return False
    depth = 0
    for c in code[pos:]:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return True
        elif c == "," and depth == 1:
            return False
    return False


def missing_in(path):
    raw = read(path)
    code = COMMENT_OR_STRING.sub(" ", raw)
    have = provided(standard_headers_through(os.path.normpath(path)))
    need = {}
    for m in STD_NAME.finditer(code):
        header = NAME_TO_HEADER.get(m.group(1))
        if m.group(1) == "remove" and one_argument(code, m.end()):
            header = "<cstdio>"  # std::remove(path) deletes a file; the algorithm takes a range
        if header:
            need.setdefault(header, m.group(1))
    for m in BARE_INT.finditer(code):
        need.setdefault("<cstdint>", m.group(1))
    return sorted((h, name) for h, name in need.items() if h not in have)


def sources(root, args):
    if args:
        for a in args:
            if os.path.isdir(a):
                yield from sources(a, [])
            elif a.endswith(SUFFIXES):
                yield a
        return
    if root == ".":
        # The tracked files of a checkout: a file that a running test writes into the tree for a
        # moment (ctest runs this beside the other tests) is not part of the source.
        try:
            listed = subprocess.run(["git", "ls-files", "-z", "--", *SOURCE_DIRS], capture_output=True, check=True)
            yield from sorted(f for f in listed.stdout.decode().split("\0") if f.endswith(SUFFIXES))
            return
        except (OSError, subprocess.CalledProcessError):
            pass  # not a git checkout (a git archive, a tarball): every file in the folders
    dirs = [os.path.join(root, d) for d in SOURCE_DIRS] if root == "." else [root]
    for d in dirs:
        for base, subdirs, files in os.walk(d):
            subdirs[:] = sorted(s for s in subdirs if s != "build" and not s.startswith("."))
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.join(base, name)


def main(argv):
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems = 0
    count = 0
    for path in sources(".", argv[1:]):
        count += 1
        for header, name in missing_in(path):
            print(f"{os.path.normpath(path)}: uses std::{name} (or another name of {header}) without #include {header}")
            problems += 1
    print(f"check-includes: {count} files, {problems} missing standard headers", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
