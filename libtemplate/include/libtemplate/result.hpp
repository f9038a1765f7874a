// Errors as values at library boundaries.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ptmpl {

/// What went wrong, already phrased for the user, with the file (and place) it concerns.
struct Error {
  std::string message;
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

/// Result of an operation that returns nothing but may fail.
using Status = Result<Done>;

}  // namespace ptmpl
