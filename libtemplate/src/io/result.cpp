#include "libtemplate/core/result.hpp"

namespace ptmpl {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUsage:
      return "usage";
    case ErrorCode::kUnreadable:
      return "unreadable";
    case ErrorCode::kInvalid:
      return "invalid";
    case ErrorCode::kOutputFailed:
      return "output-failed";
    case ErrorCode::kNotFound:
      return "not-found";
    case ErrorCode::kConflict:
      return "conflict";
    case ErrorCode::kNetwork:
      return "network";
    case ErrorCode::kInsecure:
      return "insecure";
    case ErrorCode::kService:
      return "service";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "internal";
}

}  // namespace ptmpl
