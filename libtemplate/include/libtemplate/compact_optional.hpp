// Optionals for the fields of the typed model, of which there is a set for every story: the
// interface of std::optional that the model's users need, in the room the value itself takes
// (std::optional adds a flag and pads it to the value's alignment: 24 bytes for a view, 16 for
// an int64).
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ptmpl {

/// std::optional<View> for a std::string_view or a std::span in the view's own 16 bytes: absent
/// is a null data pointer. A present empty view is kept with a non-null one (std::string_view{}
/// and an empty span may have none), so it stays present.
template <class View>
class OptionalView {
 public:
  using value_type = View;

  constexpr OptionalView() noexcept = default;
  constexpr OptionalView(std::nullopt_t) noexcept {}  // NOLINT(google-explicit-constructor): as std::optional
  template <class U>
    requires(!std::is_same_v<std::remove_cvref_t<U>, OptionalView> &&
             !std::is_same_v<std::remove_cvref_t<U>, std::optional<View>> && std::is_convertible_v<U &&, View>)
  constexpr OptionalView(U&& value) : view_(present(View(std::forward<U>(value)))) {}  // NOLINT(google-explicit-constructor)
  constexpr OptionalView(const std::optional<View>& value)  // NOLINT(google-explicit-constructor)
      : view_(value ? present(*value) : View()) {}

  [[nodiscard]] constexpr bool has_value() const noexcept { return view_.data() != nullptr; }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const View& operator*() const noexcept { return view_; }
  constexpr const View* operator->() const noexcept { return &view_; }
  [[nodiscard]] constexpr const View& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return view_;
  }
  template <class U>
  [[nodiscard]] constexpr View value_or(U&& fallback) const {
    return has_value() ? view_ : static_cast<View>(std::forward<U>(fallback));
  }
  constexpr void reset() noexcept { view_ = View(); }

  operator std::optional<View>() const {  // NOLINT(google-explicit-constructor)
    return has_value() ? std::optional<View>(view_) : std::nullopt;
  }

  friend constexpr bool operator==(const OptionalView& a, const OptionalView& b)
    requires std::equality_comparable<View>
  {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

 private:
  static constexpr View present(View view) {
    if (view.data() != nullptr) return view;
    if constexpr (std::is_same_v<View, std::string_view>) {
      return std::string_view("", 0);
    } else {
      return View(&kNothing, 0);
    }
  }
  // The address of a present empty span.
  static constexpr std::remove_cv_t<typename View::value_type> kNothing{};

  View view_;
};

/// std::optional<std::int64_t> in 12 bytes aligned to 4 (the value in two halves and a flag), so
/// that several pack with the 4-byte fields of a struct; every int64 is a value, none a mark of
/// absence. `*` gives the value (not a reference).
class OptionalInt64 {
 public:
  using value_type = std::int64_t;

  constexpr OptionalInt64() noexcept = default;
  constexpr OptionalInt64(std::nullopt_t) noexcept {}  // NOLINT(google-explicit-constructor): as std::optional
  constexpr OptionalInt64(std::int64_t value) noexcept  // NOLINT(google-explicit-constructor)
      : low_(static_cast<std::uint32_t>(static_cast<std::uint64_t>(value))),
        high_(static_cast<std::uint32_t>(static_cast<std::uint64_t>(value) >> 32U)),
        present_(true) {}
  constexpr OptionalInt64(const std::optional<std::int64_t>& value) noexcept  // NOLINT(google-explicit-constructor)
      : OptionalInt64(value ? OptionalInt64(*value) : OptionalInt64()) {}

  [[nodiscard]] constexpr bool has_value() const noexcept { return present_; }
  constexpr explicit operator bool() const noexcept { return present_; }
  constexpr std::int64_t operator*() const noexcept {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(high_) << 32U | low_);
  }
  [[nodiscard]] constexpr std::int64_t value() const {
    if (!present_) throw std::bad_optional_access();
    return **this;
  }
  [[nodiscard]] constexpr std::int64_t value_or(std::int64_t fallback) const noexcept {
    return present_ ? **this : fallback;
  }
  constexpr void reset() noexcept { *this = OptionalInt64(); }

  operator std::optional<std::int64_t>() const {  // NOLINT(google-explicit-constructor)
    return present_ ? std::optional<std::int64_t>(**this) : std::nullopt;
  }

  friend constexpr bool operator==(const OptionalInt64& a, const OptionalInt64& b) noexcept {
    return a.present_ == b.present_ && (!a.present_ || *a == *b);
  }

 private:
  std::uint32_t low_ = 0;
  std::uint32_t high_ = 0;
  bool present_ = false;
};

static_assert(sizeof(OptionalView<std::string_view>) == 16 && sizeof(OptionalInt64) == 12 && alignof(OptionalInt64) == 4);

}  // namespace ptmpl
