// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/result.h"

namespace tpscope::core {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument:
            return "invalid-argument";
        case ErrorCode::NotFound:
            return "not-found";
        case ErrorCode::ParseError:
            return "parse-error";
        case ErrorCode::WrongFormat:
            return "wrong-format";
        case ErrorCode::Unsupported:
            return "unsupported";
        case ErrorCode::DoesNotFit:
            return "does-not-fit";
        case ErrorCode::IoError:
            return "io-error";
        case ErrorCode::Cancelled:
            return "cancelled";
        case ErrorCode::DeviceError:
            return "device-error";
        case ErrorCode::Internal:
            return "internal";
    }
    return "internal";
}

}  // namespace tpscope::core
