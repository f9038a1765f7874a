// Rule `schema`: every value against the bundled JSON Schemas (RapidJSON's SchemaValidator).
//
// RapidJSON 1.1 stops at the first violation, so each story is validated on its own (with its
// sub_stories emptied, as they are validated in turn) and the template's own fields once (with
// raw_json emptied): one finding per story at most, each with an exact place. Values a
// dedicated rule reports (a missing or blank title, an invalid story_type) are replaced by
// valid ones during validation, so they are reported once, by that rule.
#include <cmath>
#include <cstdlib>
#include <memory>

// RapidJSON 1.1 has its own regex engine, which knows neither `\\S` nor `{n}`; the schemas
// need both. Defining this macro (to any value) makes schema.h use std::regex instead.
#define RAPIDJSON_SCHEMA_USE_INTERNALREGEX 0
#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include "libtemplate/bundled.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

class Schemas : public rapidjson::IRemoteSchemaDocumentProvider {
 public:
  Schemas() {
    raw_text_.Parse(bundled_schema("raw_json").value_or("{}").data(), bundled_schema("raw_json").value_or("{}").size());
    template_text_.Parse(bundled_schema("template").value_or("{}").data(),
                         bundled_schema("template").value_or("{}").size());
    story_text_.Parse(R"({"$ref": "raw_json.schema.json#/definitions/story"})");
    raw_ = std::make_unique<rapidjson::SchemaDocument>(raw_text_, this);
    template_ = std::make_unique<rapidjson::SchemaDocument>(template_text_, this);
    story_ = std::make_unique<rapidjson::SchemaDocument>(story_text_, this);
  }

  const rapidjson::SchemaDocument* GetRemoteDocument(const char* uri, rapidjson::SizeType length) override {
    // RapidJSON 1.1 passes the URI one character short ("raw_json.schema.jso"); match the stem.
    if (std::string_view(uri, length).starts_with("raw_json.schema.jso")) return raw_.get();
    return nullptr;
  }

  [[nodiscard]] const rapidjson::SchemaDocument& story() const { return *story_; }
  [[nodiscard]] const rapidjson::SchemaDocument& document() const { return *template_; }
  [[nodiscard]] const rapidjson::Document& raw_text() const { return raw_text_; }
  [[nodiscard]] const rapidjson::Document& template_text() const { return template_text_; }
  [[nodiscard]] const rapidjson::Document& story_text() const { return story_text_; }

  static const Schemas& get() {
    static const Schemas schemas;  // immutable once built; thread-safe initialisation
    return schemas;
  }

 private:
  rapidjson::Document raw_text_;
  rapidjson::Document template_text_;
  rapidjson::Document story_text_;
  std::unique_ptr<rapidjson::SchemaDocument> raw_;
  std::unique_ptr<rapidjson::SchemaDocument> template_;
  std::unique_ptr<rapidjson::SchemaDocument> story_;
};

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

// What to hold back or stand in for while replaying a value into the validator.
enum class Replay { Value, Story, Template };

// Sends `v` to the validator as SAX events. Only the last of duplicate keys is sent (the one
// the service keeps). Depth is bounded by the parser's nesting bound.
template <class Handler>
bool replay(const json::Value& v, Handler& h, Replay mode) {
  switch (v.kind()) {
    case json::Kind::Null:
    case json::Kind::Truncated: return h.Null();
    case json::Kind::True: return h.Bool(true);
    case json::Kind::False: return h.Bool(false);
    case json::Kind::String: return h.String(v.text().data(), static_cast<rapidjson::SizeType>(v.text().size()), true);
    case json::Kind::Number: {
      std::string spelling(v.text());
      if (v.is_integer_spelling()) {
        if (auto n = v.as_int64()) return h.Int64(*n);
        char* end = nullptr;
        errno = 0;
        unsigned long long u = std::strtoull(spelling.c_str(), &end, 10);
        if (errno == 0 && spelling[0] != '-') return h.Uint64(u);
      }
      return h.Double(std::strtod(spelling.c_str(), nullptr));
    }
    case json::Kind::Array: {
      if (!h.StartArray()) return false;
      for (const json::Value& item : v.items())
        if (!replay(item, h, Replay::Value)) return false;
      return h.EndArray(static_cast<rapidjson::SizeType>(v.items().size()));
    }
    case json::Kind::Object: break;
  }
  if (!h.StartObject()) return false;
  rapidjson::SizeType count = 0;
  bool has_title = false;
  auto members = v.members();
  for (std::size_t i = 0; i < members.size(); ++i) {
    std::string_view key = members[i].key.text();
    if (v.find(key) != &members[i].value) continue;  // an earlier duplicate
    const json::Value& value = members[i].value;
    if (!h.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()), true)) return false;
    ++count;
    bool ok = true;
    if (mode != Replay::Value && key == "title" && value.is_string()) {
      has_title = true;
      ok = h.String(is_blank(value.text()) ? "title" : value.text().data(),
                    is_blank(value.text()) ? 5 : static_cast<rapidjson::SizeType>(value.text().size()), true);
    } else if (mode != Replay::Value && key == "title") {
      has_title = true;
      ok = replay(value, h, Replay::Value);
    } else if (mode == Replay::Story && key == "story_type" &&
               !(value.is_string() && parse_story_type(value.text()))) {
      ok = h.String("task", 4, true);
    } else if ((mode == Replay::Story && key == "sub_stories" && value.is_array()) ||
               (mode == Replay::Template && key == "raw_json" && value.is_array())) {
      ok = h.StartArray() && h.EndArray(0);
    } else {
      ok = replay(value, h, Replay::Value);
    }
    if (!ok) return false;
  }
  if (mode != Replay::Value && !has_title) {
    if (!h.Key("title", 5, true) || !h.String("title", 5, true)) return false;
    ++count;
  }
  return h.EndObject(count);
}

std::string describe_kind(const json::Value& v) {
  switch (v.kind()) {
    case json::Kind::Null: return "null";
    case json::Kind::True:
    case json::Kind::False: return "a boolean";
    case json::Kind::Number: return v.is_integer_spelling() ? "an integer" : "a number";
    case json::Kind::String: return "a string";
    case json::Kind::Array: return "an array";
    case json::Kind::Object: return "an object";
    case json::Kind::Truncated: return "a deeply nested value";
  }
  return "a value";
}

std::string describe_type(const rapidjson::Value& type) {
  auto one = [](std::string_view t) -> std::string {
    if (t == "integer") return "an integer";
    if (t == "array") return "an array";
    if (t == "object") return "an object";
    if (t == "null") return "null";
    return "a " + std::string(t);
  };
  if (type.IsString()) return one(type.GetString());
  std::string out;
  if (type.IsArray()) {
    for (rapidjson::SizeType i = 0; i < type.Size(); ++i) {
      if (i > 0) out += i + 1 == type.Size() ? " or " : ", ";
      out += one(type[i].GetString());
    }
  }
  return out;
}

std::string to_text(const rapidjson::Value& v) {
  if (v.IsString()) return "\"" + std::string(v.GetString()) + "\"";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  if (v.IsDouble()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.GetDouble());
    return buf;
  }
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  return "null";
}

std::string pointer_text(const rapidjson::Pointer& pointer) {
  rapidjson::StringBuffer buffer;
  pointer.Stringify(buffer);
  return buffer.GetString();
}

// The schema that governs the value at `pointer` (relative to the value validated with
// `schema`), following properties, items and $refs. RapidJSON 1.1 reports the failing schema's
// place only inside the validator's own document, which is not where $refs lead.
const rapidjson::Value* schema_at(const rapidjson::Value* schema, std::string_view pointer) {
  const Schemas& schemas = Schemas::get();
  const rapidjson::Document* doc = nullptr;
  auto follow_refs = [&](const rapidjson::Value* at) {
    for (int hops = 0; at != nullptr && at->IsObject() && hops < 8; ++hops) {
      auto ref = at->FindMember("$ref");
      if (ref == at->MemberEnd() || !ref->value.IsString()) break;
      std::string_view target = ref->value.GetString();
      if (target.starts_with("raw_json.schema.json")) {
        doc = &schemas.raw_text();
        target.remove_prefix(20);
      }
      if (target.starts_with("#")) target.remove_prefix(1);
      at = doc != nullptr ? rapidjson::Pointer(std::string(target).c_str()).Get(*doc) : nullptr;
    }
    return at;
  };
  doc = schema == &schemas.template_text() ? &schemas.template_text() : &schemas.raw_text();
  const rapidjson::Value* at = follow_refs(schema);
  while (at != nullptr && !pointer.empty()) {
    pointer.remove_prefix(1);
    std::size_t cut = pointer.find('/');
    std::string segment(pointer.substr(0, cut));
    pointer = cut == std::string_view::npos ? std::string_view{} : pointer.substr(cut);
    const rapidjson::Value* next = nullptr;
    if (auto items = at->FindMember("items"); items != at->MemberEnd() && !segment.empty() &&
                                               segment.find_first_not_of("0123456789") == std::string::npos) {
      next = &items->value;
    } else if (auto props = at->FindMember("properties"); props != at->MemberEnd()) {
      auto prop = props->value.FindMember(segment.c_str());
      if (prop != props->value.MemberEnd()) next = &prop->value;
    }
    at = follow_refs(next);
  }
  return at;
}

struct Violation {
  std::string pointer;  ///< relative to the validated value
  std::string message;
};

// Turns the validator's first violation into a sentence naming the value and what it must be.
// `file_prefix` replaces the leading `validated_prefix` of the validator's pointer to find the
// value in `root` (an envelope's template is validated as if it were a template document).
Violation explain(const rapidjson::SchemaValidator& validator, const rapidjson::Value& root_schema,
                  const json::Value& root, std::string_view validated_prefix = "", std::string_view file_prefix = "") {
  std::string keyword = validator.GetInvalidSchemaKeyword();
  std::string pointer = pointer_text(validator.GetInvalidDocumentPointer());
  const rapidjson::Value* schema = schema_at(&root_schema, pointer);
  if (!validated_prefix.empty() && pointer.starts_with(validated_prefix))
    pointer = std::string(file_prefix) + pointer.substr(validated_prefix.size());
  const json::Value* value = json::resolve_pointer(root, pointer);
  std::string name = pointer.empty() ? "the value" : "`" + pointer.substr(pointer.rfind('/') + 1) + "`";

  auto field = [&](const char* key) -> const rapidjson::Value* {
    if (schema == nullptr || !schema->IsObject()) return nullptr;
    auto it = schema->FindMember(key);
    return it == schema->MemberEnd() ? nullptr : &it->value;
  };

  std::string message;
  if (keyword == "type" && value != nullptr && value->is_integer_spelling() && !value->as_int64()) {
    message = name + " is out of range: " + std::string(value->text()) + " does not fit in a 64-bit integer";
  } else if (keyword == "type") {
    const rapidjson::Value* type = field("type");
    message = name + " must be " + (type != nullptr ? describe_type(*type) : "of another type") + ", found " +
              (value != nullptr ? describe_kind(*value) : "another type");
  } else if (keyword == "enum") {
    message = name + " must be one of ";
    if (const rapidjson::Value* values = field("enum"); values != nullptr && values->IsArray())
      for (rapidjson::SizeType i = 0; i < values->Size(); ++i) message += (i > 0 ? ", " : "") + to_text((*values)[i]);
    if (value != nullptr && (value->is_number() || value->is_string()))
      message += "; found " + std::string(value->is_string() ? "\"" : "") + std::string(value->text()) +
                 (value->is_string() ? "\"" : "");
  } else if (keyword == "minimum" || keyword == "maximum") {
    const rapidjson::Value* bound = field(keyword.c_str());
    message = name + " must be " + (keyword == "minimum" ? "at least " : "at most ") +
              (bound != nullptr ? to_text(*bound) : "in range");
    if (value != nullptr && value->is_number()) message += ", found " + std::string(value->text());
  } else if (keyword == "minLength") {
    message = name + " must not be empty";
  } else if (keyword == "pattern") {
    const rapidjson::Value* pattern = field("pattern");
    message = name + " must match the pattern " + (pattern != nullptr ? to_text(*pattern) : "of the schema");
    if (value != nullptr && value->is_string()) message += ", found \"" + std::string(value->text()) + "\"";
  } else if (keyword == "required") {
    std::string missing;
    if (const rapidjson::Value* required = field("required"); required != nullptr && required->IsArray())
      for (const auto& key : required->GetArray())
        if (value != nullptr && value->find(key.GetString()) == nullptr) {
          missing = key.GetString();
          break;
        }
    message = (pointer.empty() ? std::string("the object") : name) + " is missing the required key `" + missing + "`";
  } else if (keyword == "anyOf" || keyword == "oneOf") {
    message = name + " does not have an allowed form";
    if (const rapidjson::Value* description = field("description"); description != nullptr && description->IsString())
      message += " (" + std::string(description->GetString()) + ")";
  } else if (keyword == "additionalProperties") {
    message = (pointer.empty() ? std::string("the object") : name) + " has a key the schema does not allow";
  } else {
    message = name + " does not satisfy the schema's `" + keyword + "`";
  }
  return {pointer, message};
}

// Validates each story of `list` (and, recursively, of its sub_stories).
void check_story_list(Context& context, const TemplateSource& source, const json::Value& list,
                      const std::string& prefix) {
  const Schemas& schemas = Schemas::get();
  std::size_t index = 0;
  for (const json::Value& story : list.items()) {
    std::string pointer = prefix + "/" + std::to_string(index++);
    rapidjson::SchemaValidator validator(schemas.story());
    if (!replay(story, validator, Replay::Story) || !validator.IsValid()) {
      Violation v = explain(validator, schemas.story_text(), story);
      const json::Value* at = json::resolve_pointer(story, v.pointer);
      std::string message = v.pointer.empty() && !story.is_object()
                                ? "a story must be an object, found " + describe_kind(story)
                                : v.message;
      context.report("schema", Severity::Error, source, at != nullptr ? *at : story, pointer + v.pointer,
                     message);
    }
    if (const json::Value* children = story.find("sub_stories"); children != nullptr && children->is_array())
      check_story_list(context, source, *children, pointer + "/sub_stories");
  }
}

// The template document around the stories: wraps a template object as
// {"project_template": …} so an envelope's entries are checked like a document.
template <class Handler>
bool replay_document(const TemplateFile& file, const TemplateSource& source, Handler& h) {
  const json::Value& root = file.document().root();
  if (file.shape() == Shape::TemplateDocument) {
    if (!h.StartObject()) return false;
    rapidjson::SizeType count = 0;
    auto members = root.members();
    for (std::size_t i = 0; i < members.size(); ++i) {
      std::string_view key = members[i].key.text();
      if (root.find(key) != &members[i].value) continue;
      ++count;
      if (!h.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()), true)) return false;
      Replay mode = key == "project_template" ? Replay::Template : Replay::Value;
      if (!replay(members[i].value, h, mode)) return false;
    }
    return h.EndObject(count);
  }
  const json::Value* pt = json::resolve_pointer(root, source.template_pointer);
  return h.StartObject() && h.Key("project_template", 16, true) && replay(*pt, h, Replay::Template) &&
         h.EndObject(1);
}

}  // namespace

void check_schema(Context& context) {
  const TemplateFile& file = context.file();
  if (!file.document().ok()) return;
  if (file.shape() == Shape::Unknown) {
    context.report_at_offset("schema", Severity::Error, file.document().root().offset(), "",
                             "not a template: expected a story list (array), a template document "
                             "({\"project_template\": …}) or an API response with project_templates");
    return;
  }
  const Schemas& schemas = Schemas::get();
  for (const TemplateSource& source : file.templates()) {
    if (!source.template_pointer.empty()) {
      rapidjson::SchemaValidator validator(schemas.document());
      if (!replay_document(file, source, validator) || !validator.IsValid()) {
        bool envelope = file.shape() == Shape::Envelope;
        Violation v = explain(validator, schemas.template_text(), file.document().root(),
                              envelope ? "/project_template" : "", source.template_pointer);
        const json::Value* at = json::resolve_pointer(file.document().root(), v.pointer);
        context.report_at_offset("schema", Severity::Error, at != nullptr ? at->offset() : 0, v.pointer, v.message);
      }
    }
    if (source.raw_json_string && source.story_document->ok() && source.story_list == nullptr) {
      context.report("schema", Severity::Error, source, *source.raw_json_string, source.template_pointer + "/raw_json",
                     "the raw_json string must hold a JSON array of stories, found " +
                         describe_kind(source.story_document->root()));
    }
    if (source.story_list != nullptr) check_story_list(context, source, *source.story_list, source.story_prefix);
  }
}

}  // namespace ptmpl::rules
