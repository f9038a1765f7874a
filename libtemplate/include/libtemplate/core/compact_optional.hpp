// Optionals and spans for the fields of the typed model, of which there is a set for every
// story: the interface of std::optional (std::span) that the model's users need, in the room
// the value itself takes (std::optional adds a flag and pads it to the value's alignment: 24
// bytes for a view, 16 for an int64) or packed to 4 bytes so that they leave no padding.
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
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
           !std::is_same_v<std::remove_cvref_t<U>, std::optional<View>> &&
           std::is_convertible_v<U&&, View>) constexpr OptionalView(U&& value)
      : view_(present(View(std::forward<U>(value)))) {}     // NOLINT(google-explicit-constructor)
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

  friend constexpr bool operator==(const OptionalView& a,
                                   const OptionalView& b) requires std::equality_comparable<View> {
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
  constexpr OptionalInt64(std::nullopt_t) noexcept {}   // NOLINT(google-explicit-constructor): as std::optional
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

/// A std::span<const T> in 12 bytes aligned to 4 (the address in two halves and a 32-bit
/// size), for the lists of unknown keys that nearly every story and dependency leaves empty.
/// Its lists are a tree's, whose sizes are 32-bit (json::Value); a longer one is refused.
template <class T>
class CompactSpan {
 public:
  using element_type = const T;
  using value_type = T;

  CompactSpan() noexcept = default;
  template <class U>
  requires(!std::is_same_v<std::remove_cvref_t<U>, CompactSpan> && std::is_convertible_v<U&&, std::span<const T>>)
      CompactSpan(U&& items) {  // NOLINT(google-explicit-constructor)
    const std::span<const T> span = std::forward<U>(items);
    if (span.size() > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("a list of over 2^32 items");
    const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(span.data()));
    low_ = static_cast<std::uint32_t>(address);
    high_ = static_cast<std::uint32_t>(address >> 32U);
    size_ = static_cast<std::uint32_t>(span.size());
  }

  [[nodiscard]] const T* data() const noexcept {
    return reinterpret_cast<const T*>(static_cast<std::uintptr_t>(static_cast<std::uint64_t>(high_) << 32U | low_));
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] const T* begin() const noexcept { return data(); }
  [[nodiscard]] const T* end() const noexcept { return data() + size_; }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  operator std::span<const T>() const noexcept { return {data(), size_}; }  // NOLINT(google-explicit-constructor)

 private:
  std::uint32_t low_ = 0;
  std::uint32_t high_ = 0;
  std::uint32_t size_ = 0;
};

static_assert(sizeof(OptionalView<std::string_view>) == 16 && sizeof(OptionalInt64) == 12 &&
              alignof(OptionalInt64) == 4 && sizeof(CompactSpan<int>) == 12 && alignof(CompactSpan<int>) == 4);

}  // namespace ptmpl
