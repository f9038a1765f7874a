#include "libtemplate/core/writer.hpp"

#include <algorithm>
#include <array>

#include "libtemplate/core/model.hpp"

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
  Calendar,
  StoriesObject,
  Envelope,
  EnvelopeTemplates,
};

constexpr std::array<std::string_view, 1> kAssignmentKeys = {"assignee_id"};
constexpr std::array<std::string_view, 3> kDocumentKeys = {"project_template", "project_template_assignments",
                                                           "calendar"};
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
    case Context::Calendar:
      return calendar_block_keys();
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
      if (key == "calendar") return Context::Calendar;
      return Context::Generic;
    case Context::Template:
      if (key == "project_template_assignments")
        return Context::TemplateAssignmentList;  // docs/semantics.md §2: either place
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

// Walks a tree and writes it through the emitter, reordering the keys of the objects whose
// context documents an order. Iterative: the depth of the tree (which the input sets) uses heap,
// not stack.
class TreeWriter {
 public:
  explicit TreeWriter(JsonEmitter& out) : out_(out) {}

  void write(const json::Value& root, Context context) {
    open(root, context);
    while (!stack_.empty()) {
      // `frame` is not used once open() may have pushed another.
      Frame& frame = stack_.back();
      if (frame.container->kind() == json::Kind::Array) {
        const auto items = frame.container->items();
        if (frame.next == items.size()) {
          out_.end_array();
          stack_.pop_back();
          continue;
        }
        open(items[frame.next++], item_context(frame.context));
      } else {
        const auto members = frame.container->members();
        if (frame.next == members.size()) {
          out_.end_object();
          stack_.pop_back();
          continue;
        }
        const std::size_t n = frame.next++;
        const json::Member& m = members[frame.sequence.empty() ? n : frame.sequence[n]];
        out_.key(m.key.text());
        open(m.value, member_context(frame.context, m.key.text()));
      }
    }
  }

 private:
  // An array or object being written: its members or items from `next` on are still to come.
  struct Frame {
    const json::Value* container = nullptr;
    Context context = Context::Generic;
    std::size_t next = 0;
    std::vector<std::size_t> sequence;  // the order of an object's members; empty: as written
  };

  // Writes a scalar, or begins a container and pushes its frame.
  void open(const json::Value& v, Context context) {
    switch (v.kind()) {
      case json::Kind::Null:
      case json::Kind::Truncated:
        out_.null();
        break;
      case json::Kind::True:
        out_.boolean(true);
        break;
      case json::Kind::False:
        out_.boolean(false);
        break;
      case json::Kind::Number:
        out_.number(v.text());
        break;
      case json::Kind::String:
        out_.string(v.text());
        break;
      case json::Kind::Array:
        out_.begin_array();
        stack_.push_back({&v, context, 0, {}});
        break;
      case json::Kind::Object:
        out_.begin_object();
        stack_.push_back({&v, context, 0, member_order(v, context)});
        break;
    }
  }

  // Documented keys by rank, unknown keys (rank == keys.size()) after them, stable, so unknown
  // and duplicate keys keep their original order. A canonical file is already in that order,
  // and then nothing is sorted (and the result is empty).
  std::vector<std::size_t> member_order(const json::Value& v, Context context) {
    const auto members = v.members();
    const auto keys = ordered_keys(context);
    order_.clear();
    bool sorted = true;
    std::size_t previous = 0;
    for (std::size_t i = 0; i < members.size() && !keys.empty(); ++i) {
      const auto rank =
          static_cast<std::size_t>(std::find(keys.begin(), keys.end(), members[i].key.text()) - keys.begin());
      sorted = sorted && rank >= previous;
      previous = rank;
      order_.push_back({rank, i});
    }
    std::vector<std::size_t> sequence;
    if (sorted) return sequence;
    std::stable_sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    sequence.reserve(order_.size());
    for (const auto& entry : order_) sequence.push_back(entry.second);
    return sequence;
  }

  JsonEmitter& out_;
  std::vector<Frame> stack_;
  std::vector<std::pair<std::size_t, std::size_t>> order_;
};

}  // namespace

void write_value(JsonEmitter& out, const json::Value& value, Shape shape) {
  TreeWriter(out).write(value, root_context(shape));
}

std::string write_canonical(const json::Value& root, Shape shape) {
  JsonEmitter out(JsonLayout::Pretty);
  write_value(out, root, shape);
  return out.finish();
}

bool is_canonical(const json::Value& root, Shape shape, std::string_view text) {
  JsonEmitter out(JsonLayout::Pretty);
  std::size_t compared = 0;
  bool same = true;
  out.drain_into([&](std::string_view piece) {
    same = same && text.substr(compared, piece.size()) == piece;
    compared += piece.size();
  });
  write_value(out, root, shape);
  (void)out.finish();
  return same && compared == text.size();
}

std::string write_compact(const json::Value& root, Shape shape) {
  JsonEmitter out(JsonLayout::Compact);
  write_value(out, root, shape);
  return out.finish();
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

}  // namespace ptmpl
