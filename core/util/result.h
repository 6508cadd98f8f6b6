// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Result<T>: a value or an Error. core and gpu return these across module boundaries instead of
// throwing, so the GUI and the CLI can show one clear message for every failure.

#include <string>
#include <utility>
#include <variant>

namespace tpscope::core {

enum class ErrorCode {
    InvalidArgument,  // absurd or inconsistent parameters
    NotFound,         // unknown preset id, missing file
    ParseError,       // malformed input file
    WrongFormat,      // a file that is not the expected kind at all
    Unsupported,      // valid but not handled (newer schema, unknown dtype)
    DoesNotFit,       // the model does not fit the GPU memory
    IoError,          // read/write failure
    Cancelled,        // the user stopped the work
    DeviceError,      // CUDA / NCCL / CUPTI failure
    Internal,
};

const char* errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;  // one sentence a user can act on
    std::string context;  // where: file name, option, preset id

    std::string describe() const { return context.empty() ? message : context + ": " + message; }
};

inline Error makeError(ErrorCode code, std::string message, std::string context = {}) {
    return Error{code, std::move(message), std::move(context)};
}

template <typename T>
class [[nodiscard]] Result {
  public:
    Result(T value) : m_state(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Result(Error error) : m_state(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_state); }
    const T& value() const& { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<Error>(m_state); }

  private:
    std::variant<T, Error> m_state;
};

// Result<void>: success or an Error.
struct Ok {};
using Status = Result<Ok>;

}  // namespace tpscope::core

// Early return of an Error from a function returning Result<U> or Status.
#define TPSCOPE_TRY(expr)                                       \
    do {                                                        \
        auto tpscopeTryResult = (expr);                         \
        if (!tpscopeTryResult) return tpscopeTryResult.error(); \
    } while (0)

#define TPSCOPE_TRY_ASSIGN(target, expr)                        \
    do {                                                        \
        auto tpscopeTryResult = (expr);                         \
        if (!tpscopeTryResult) return tpscopeTryResult.error(); \
        (target) = std::move(*tpscopeTryResult);                \
    } while (0)
