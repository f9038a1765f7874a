// Errors as values at library boundaries: what went wrong (a code) and how to say it (a message).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ptmpl {

/// The kind of a failure. Callers decide by the code, never by the message's text; the
/// command line maps it to an exit code in one place (`exit_code`).
enum class ErrorCode : std::uint8_t {
  kUsage,         ///< the command line or a setting asks for something impossible or unsafe
  kUnreadable,    ///< an input could not be read (missing permission, a directory, an I/O error)
  kInvalid,       ///< an input was read but is not what it must be (syntax, shape, a bad value)
  kOutputFailed,  ///< what was asked for could not be written (full disk, closed pipe, read-only)
  kNotFound,      ///< the thing named does not exist, here or on the service
  kConflict,      ///< two things collide: changed meanwhile, named twice, ambiguous
  kNetwork,       ///< no complete response arrived (refused, dropped, timed out); retrying may help
  kInsecure,      ///< the connection cannot be made as asked (certificate does not verify, a bad
                  ///< CA file, a malformed URL): retrying cannot help
  kService,       ///< the service refused the request, or answered something unusable
  kInternal,      ///< a defect of ptmpl's own
};

/// The code's name, for messages and tests ("not-found").
[[nodiscard]] std::string_view to_string(ErrorCode code);

/// docs/semantics.md §6's exit code for a failure of this kind: 3 when the service or the network is the
/// cause (kNetwork, kInsecure, kService), 2 for every local problem.
[[nodiscard]] constexpr int exit_code(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNetwork:
    case ErrorCode::kInsecure:
    case ErrorCode::kService:
      return 3;
    default:
      return 2;
  }
}

/// What went wrong: its kind, and a message already phrased for the user, naming the file (and
/// place) or the request it concerns. Build one with the named constructors.
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  static Error usage(std::string message) { return {ErrorCode::kUsage, std::move(message)}; }
  static Error unreadable(std::string message) { return {ErrorCode::kUnreadable, std::move(message)}; }
  static Error invalid(std::string message) { return {ErrorCode::kInvalid, std::move(message)}; }
  static Error output_failed(std::string message) { return {ErrorCode::kOutputFailed, std::move(message)}; }
  static Error not_found(std::string message) { return {ErrorCode::kNotFound, std::move(message)}; }
  static Error conflict(std::string message) { return {ErrorCode::kConflict, std::move(message)}; }
  static Error network(std::string message) { return {ErrorCode::kNetwork, std::move(message)}; }
  static Error insecure(std::string message) { return {ErrorCode::kInsecure, std::move(message)}; }
  static Error service(std::string message) { return {ErrorCode::kService, std::move(message)}; }
  static Error internal(std::string message) { return {ErrorCode::kInternal, std::move(message)}; }

  /// The same kind of failure, with `context` before the message ("listing templates: …").
  [[nodiscard]] Error within(std::string_view context) const { return {code, std::string(context) + ": " + message}; }
  [[nodiscard]] int exit_code() const { return ptmpl::exit_code(code); }
};

/// Either a value or an Error. Check `ok()` before `value()`.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool ok() const { return state_.index() == 0; }
  [[nodiscard]] T& value() & { return std::get<0>(state_); }
  [[nodiscard]] const T& value() const& { return std::get<0>(state_); }
  [[nodiscard]] T&& value() && { return std::get<0>(std::move(state_)); }
  [[nodiscard]] const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

struct Done {};

/// An Error thrown where a value, not a Result, is returned and the failure cannot be foreseen:
/// a file whose bytes were let go (ReadOptions::release_text) and that no longer holds them when
/// they are read again. Whoever reports Errors catches it (the command line, lint_files).
class Failure : public std::runtime_error {
 public:
  explicit Failure(Error error) : std::runtime_error(error.message), error_(std::move(error)) {}
  [[nodiscard]] const Error& error() const { return error_; }

 private:
  Error error_;
};

/// Result of an operation that returns nothing but may fail.
using Status = Result<Done>;

}  // namespace ptmpl
