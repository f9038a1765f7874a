// Writing a value of a RapidJSON DOM (the service's responses, as the client reads them)
// through JsonEmitter, so that its text is escaped and laid out as everything else ptmpl writes.
// Private to the library.
#pragma once

#include <cstdint>
#include <string_view>

#include <rapidjson/document.h>

#include "libtemplate/json_emitter.hpp"

namespace ptmpl::detail {

/// Writes `value` through `out`. Numbers are written as RapidJSON read them (integers as
/// integers, other numbers as doubles). Recurses once per level of nesting (Accept() does):
/// check json_nesting() first.
inline void emit(const rapidjson::Value& value, JsonEmitter& out) {
  // RapidJSON's Handler concept: Accept() calls one of these per token.
  struct Handler {
    JsonEmitter& out;
    bool Null() {
      out.null();
      return true;
    }
    bool Bool(bool b) {
      out.boolean(b);
      return true;
    }
    bool Int(int n) {
      out.integer(n);
      return true;
    }
    bool Uint(unsigned n) {
      out.integer(n);
      return true;
    }
    bool Int64(std::int64_t n) {
      out.integer(n);
      return true;
    }
    bool Uint64(std::uint64_t n) {
      out.integer(n);
      return true;
    }
    bool Double(double d) {
      out.number(d);
      return true;
    }
    bool RawNumber(const char* text, rapidjson::SizeType length, bool) {
      out.number(std::string_view(text, length));
      return true;
    }
    bool String(const char* text, rapidjson::SizeType length, bool) {
      out.string(std::string_view(text, length));
      return true;
    }
    bool Key(const char* text, rapidjson::SizeType length, bool) {
      out.key(std::string_view(text, length));
      return true;
    }
    bool StartObject() {
      out.begin_object();
      return true;
    }
    bool EndObject(rapidjson::SizeType) {
      out.end_object();
      return true;
    }
    bool StartArray() {
      out.begin_array();
      return true;
    }
    bool EndArray(rapidjson::SizeType) {
      out.end_array();
      return true;
    }
  };
  Handler handler{out};
  value.Accept(handler);
}

}  // namespace ptmpl::detail
