#include "libtemplate/writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "libtemplate/model.hpp"

namespace ptmpl {

namespace {

// What a value is, as far as key order is concerned.
enum class Context {
  Generic,
  StoryList,
  Story,
  DependencyList,
  Dependency,
  AssignmentList,
  Assignment,
  TemplateDocument,
  Template,
  TemplateAssignmentList,
  TemplateAssignment,
  StoriesObject,
  Envelope,
  EnvelopeTemplates,
};

constexpr std::array<std::string_view, 1> kAssignmentKeys = {"assignee_id"};
constexpr std::array<std::string_view, 2> kDocumentKeys = {"project_template", "project_template_assignments"};
constexpr std::array<std::string_view, 2> kTemplateAssignmentKeys = {"id", "name"};

std::span<const std::string_view> ordered_keys(Context context) {
  switch (context) {
    case Context::Story:
      return story_keys();
    case Context::Dependency:
      return dependency_keys();
    case Context::Assignment:
      return kAssignmentKeys;
    case Context::TemplateDocument:
      return kDocumentKeys;
    case Context::Template:
      return template_keys();
    case Context::TemplateAssignment:
      return kTemplateAssignmentKeys;
    default:
      return {};
  }
}

Context member_context(Context context, std::string_view key) {
  switch (context) {
    case Context::Story:
      if (key == "sub_stories") return Context::StoryList;
      if (key == "dependencies") return Context::DependencyList;
      if (key == "assignments") return Context::AssignmentList;
      return Context::Generic;
    case Context::TemplateDocument:
      if (key == "project_template") return Context::Template;
      if (key == "project_template_assignments") return Context::TemplateAssignmentList;
      return Context::Generic;
    case Context::Template:
      return key == "raw_json" ? Context::StoryList : Context::Generic;
    case Context::StoriesObject:
      return key == "stories" ? Context::StoryList : Context::Generic;
    case Context::Envelope:
      return key == "project_templates" ? Context::EnvelopeTemplates : Context::Generic;
    case Context::EnvelopeTemplates:
      return Context::Template;
    default:
      return Context::Generic;
  }
}

Context item_context(Context context) {
  switch (context) {
    case Context::StoryList:
      return Context::Story;
    case Context::DependencyList:
      return Context::Dependency;
    case Context::AssignmentList:
      return Context::Assignment;
    case Context::TemplateAssignmentList:
      return Context::TemplateAssignment;
    default:
      return Context::Generic;
  }
}

Context root_context(Shape shape) {
  switch (shape) {
    case Shape::StoryList:
      return Context::StoryList;
    case Shape::StoriesObject:
      return Context::StoriesObject;
    case Shape::TemplateDocument:
      return Context::TemplateDocument;
    case Shape::Envelope:
      return Context::Envelope;
    case Shape::Unknown:
      return Context::Generic;
  }
  return Context::Generic;
}

class Writer {
 public:
  Writer(std::string& out, bool pretty) : out_(out), pretty_(pretty) {}

  void value(const json::Value& v, Context context, int depth) {
    switch (v.kind()) {
      case json::Kind::Null:
      case json::Kind::Truncated:
        out_ += "null";
        break;
      case json::Kind::True:
        out_ += "true";
        break;
      case json::Kind::False:
        out_ += "false";
        break;
      case json::Kind::Number:
        out_ += v.text();
        break;
      case json::Kind::String:
        json::append_quoted(out_, v.text());
        break;
      case json::Kind::Array:
        array(v, context, depth);
        break;
      case json::Kind::Object:
        object(v, context, depth);
        break;
    }
  }

 private:
  void newline(int depth) {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
  }

  void array(const json::Value& v, Context context, int depth) {
    auto items = v.items();
    if (items.empty()) {
      out_ += "[]";
      return;
    }
    Context inner = item_context(context);
    out_ += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += ',';
      newline(depth + 1);
      value(items[i], inner, depth + 1);
    }
    newline(depth);
    out_ += ']';
  }

  void object(const json::Value& v, Context context, int depth) {
    auto members = v.members();
    if (members.empty()) {
      out_ += "{}";
      return;
    }
    // Documented keys by rank, unknown keys (rank == keys.size()) after them, stable, so
    // unknown and duplicate keys keep their original order. A canonical file is already in
    // that order, and then nothing is sorted.
    auto keys = ordered_keys(context);
    order_.clear();
    bool sorted = true;
    std::size_t previous = 0;
    for (std::size_t i = 0; i < members.size(); ++i) {
      std::size_t rank = keys.size();
      if (!keys.empty())
        rank = static_cast<std::size_t>(std::find(keys.begin(), keys.end(), members[i].key.text()) - keys.begin());
      sorted = sorted && rank >= previous;
      previous = rank;
      order_.push_back({rank, i});
    }
    std::vector<std::size_t> sequence;
    if (!sorted) {
      std::stable_sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      sequence.reserve(order_.size());
      for (const auto& entry : order_) sequence.push_back(entry.second);
    }
    out_ += '{';
    for (std::size_t n = 0; n < members.size(); ++n) {
      const json::Member& m = members[sorted ? n : sequence[n]];
      if (n > 0) out_ += ',';
      newline(depth + 1);
      json::append_quoted(out_, m.key.text());
      out_ += pretty_ ? ": " : ":";
      value(m.value, member_context(context, m.key.text()), depth + 1);
    }
    newline(depth);
    out_ += '}';
  }

  std::string& out_;
  bool pretty_;
  std::vector<std::pair<std::size_t, std::size_t>> order_;
};

}  // namespace

std::string write_canonical(const json::Value& root, Shape shape) {
  std::string out;
  Writer(out, true).value(root, root_context(shape), 0);
  out += '\n';
  return out;
}

std::string write_compact(const json::Value& root, Shape shape) {
  std::string out;
  Writer(out, false).value(root, root_context(shape), 0);
  return out;
}

std::string write_api_body(const json::Value& project_template) {
  json::Arena arena;
  json::Builder build(arena);
  std::vector<json::Member> fields;
  for (const json::Member& m : project_template.members()) {
    if (m.key.text() == "raw_json" && m.value.is_array())
      fields.push_back({m.key, build.string(write_compact(m.value, Shape::StoryList))});
    else
      fields.push_back(m);
  }
  json::Member body = build.member("project_template", build.object(fields));
  return write_compact(build.object({&body, 1}), Shape::TemplateDocument);
}

void JsonEmitter::newline() {
  *out_ += '\n';
  out_->append(has_items_.size() * 2, ' ');
}

void JsonEmitter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (has_items_.empty()) return;  // the root
  if (has_items_.back()) *out_ += ',';
  has_items_.back() = true;
  newline();
}

void JsonEmitter::key(std::string_view name) {
  if (has_items_.back()) *out_ += ',';
  has_items_.back() = true;
  newline();
  json::append_quoted(*out_, name);
  *out_ += ": ";
  after_key_ = true;
}

void JsonEmitter::begin_object() {
  before_value();
  *out_ += '{';
  has_items_.push_back(false);
}

void JsonEmitter::begin_array() {
  before_value();
  *out_ += '[';
  has_items_.push_back(false);
}

void JsonEmitter::close(char bracket) {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) newline();
  *out_ += bracket;
}

void JsonEmitter::end_object() {
  close('}');
}

void JsonEmitter::end_array() {
  close(']');
}

void JsonEmitter::string(std::string_view text) {
  before_value();
  json::append_quoted(*out_, text);
}

void JsonEmitter::integer(std::int64_t n) {
  before_value();
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
  out_->append(digits, static_cast<std::size_t>(end - digits));
}

void JsonEmitter::boolean(bool b) {
  before_value();
  *out_ += b ? "true" : "false";
}

void JsonEmitter::number(std::string_view spelling) {
  before_value();
  *out_ += spelling;
}

void JsonEmitter::null() {
  before_value();
  *out_ += "null";
}

void JsonEmitter::raw(std::string_view json_text) {
  before_value();
  *out_ += json_text;
}

}  // namespace ptmpl
