#pragma once
// The stable id of a run in the document: views and models refer to runs by id, never by row.

#include <cstdint>

namespace tpscope::ui {
enum class RunId : std::uint64_t { None = 0 };
}
