// Rule `schema`: every value against the bundled JSON Schemas (RapidJSON's SchemaValidator).
//
// RapidJSON 1.1's validator stops at the first violation, so the rule validates each value on
// its own against the schema of its key (a story's `duration` against
// raw_json.schema.json#/definitions/story/properties/duration, and so on): one finding per
// bad value, each at its exact place. Values a dedicated rule reports are left to it (kOwned).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include "libtemplate/core/bundled.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/spelling.hpp"
#include "rules/rule.hpp"

namespace ptmpl::rules {

namespace {

// The schema of one key of one kind of object, ready to validate that key's value.
// A property schema that is only a type (with bounds), e.g. {"type": "integer", "minimum": 0}:
// most values are checked without building a validator. A value it does not accept still
// goes to the validator, which explains the violation.
struct PlainType {
  bool null = false, boolean = false, integer = false, number = false, string = false, array = false, object = false;
  std::optional<double> minimum, maximum;
  std::optional<std::uint64_t> min_length;  // of strings, in code points (JSON Schema's minLength)

  [[nodiscard]] bool accepts(const json::Value& v) const {
    switch (v.kind()) {
      case json::Kind::Null:
        return null;
      case json::Kind::True:
      case json::Kind::False:
        return boolean;
      case json::Kind::String:
        return string && (!min_length || code_points_at_least(v.text(), *min_length));
      case json::Kind::Array:
        return array;
      case json::Kind::Object:
        return object;
      case json::Kind::Truncated:
        return false;
      case json::Kind::Number:
        break;
    }
    const std::optional<std::int64_t> n = v.as_int64();
    if (!number && !(integer && n)) return false;
    if (!minimum && !maximum) return true;
    double x = n ? static_cast<double>(*n) : std::strtod(std::string(v.text()).c_str(), nullptr);
    // Near the ends of int64 a double is not exact: let the validator decide.
    if (std::abs(x) > 9.0e15) return false;
    return (!minimum || x >= *minimum) && (!maximum || x <= *maximum);
  }

  // The text is valid UTF-8 (the reader checked it): every byte that does not continue a
  // sequence starts a code point.
  static bool code_points_at_least(std::string_view text, std::uint64_t n) {
    if (text.size() < n) return false;
    std::uint64_t count = 0;
    for (char c : text)
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++count >= n) return true;
    return count >= n;
  }

  static std::optional<PlainType> of(const rapidjson::Value& schema) {
    if (!schema.IsObject()) return std::nullopt;
    PlainType plain;
    bool typed = false;
    for (const auto& m : schema.GetObject()) {
      std::string_view key = m.name.GetString();
      if (key == "description") continue;
      if (key == "minimum" && m.value.IsNumber()) {
        plain.minimum = m.value.GetDouble();
      } else if (key == "maximum" && m.value.IsNumber()) {
        plain.maximum = m.value.GetDouble();
      } else if (key == "minLength" && m.value.IsUint64()) {
        plain.min_length = m.value.GetUint64();
      } else if (key == "type") {
        typed = true;
        auto add = [&](std::string_view t) {
          if (t == "null")
            plain.null = true;
          else if (t == "boolean")
            plain.boolean = true;
          else if (t == "integer")
            plain.integer = true;
          else if (t == "number")
            plain.number = true;
          else if (t == "string")
            plain.string = true;
          else if (t == "array")
            plain.array = true;
          else if (t == "object")
            plain.object = true;
          else
            return false;
          return true;
        };
        if (m.value.IsString()) {
          if (!add(m.value.GetString())) return std::nullopt;
        } else if (m.value.IsArray()) {
          for (const auto& t : m.value.GetArray())
            if (!t.IsString() || !add(t.GetString())) return std::nullopt;
        } else {
          return std::nullopt;
        }
      } else {
        return std::nullopt;  // anything else (items, pattern, enum, $ref, …) needs the validator
      }
    }
    if (!typed) return std::nullopt;
    return plain;
  }
};

// Values a dedicated rule checks, which the schema rule therefore leaves alone — as soon as
// that rule is registered. `when` narrows it to values of one kind (a non-string title, say,
// is still a schema finding).
enum class When { Always, String, Array, Integer, Number };

struct Owned {
  std::string_view object;  // "story", "dependency", "project_template"
  std::string_view key;
  When when;
  std::string_view rule;
};

constexpr Owned kOwned[] = {
    {"story", "title", When::String, "title-missing"},
    {"story", "story_type", When::Always, "story-type-invalid"},
    {"story", "checklist", When::Array, "checklist-item-invalid"},
    {"story", "assignments", When::Array, "assignment-invalid"},
    {"story", "budget_estimate_in_cents", When::Integer, "amount-negative"},
    {"story", "time_estimate_in_minutes", When::Integer, "amount-negative"},
    {"dependency", "type", When::Always, "dependency-type-invalid"},
    {"dependency", "lag", When::Always, "dependency-lag-invalid"},
    {"project_template", "title", When::String, "template-title-missing"},
    {"project_template", "currency", When::String, "currency-invalid"},
    {"project_template", "budget", When::Number, "amount-negative"},
};

// The entry of kOwned that takes `key` of `object` away from the schema rule, if its rule is
// registered; looked up once per property, when the schemas are loaded.
const Owned* owner_of(std::string_view object, std::string_view key) {
  for (const Owned& owned : kOwned)
    if (owned.object == object && owned.key == key && find_rule(owned.rule) != nullptr) return &owned;
  return nullptr;
}

bool owned_elsewhere(const Owned* owned, const json::Value& value) {
  if (owned == nullptr) return false;
  switch (owned->when) {
    case When::Always:
      return true;
    case When::String:
      return value.is_string();
    case When::Array:
      return value.is_array();
    case When::Integer:
      return value.is_integer_spelling();
    case When::Number:
      return value.is_number();
  }
  return false;
}

bool owned_elsewhere(std::string_view object, std::string_view key, const json::Value& value) {
  return owned_elsewhere(owner_of(object, key), value);
}

struct PropertySchema {
  std::unique_ptr<rapidjson::Document> wrapper;  // {"$ref": "<file>#<pointer>"}
  std::unique_ptr<rapidjson::SchemaDocument> validator;
  std::optional<PlainType> plain;
  const Owned* owned = nullptr;  // the rule that checks values of this key instead, if any
};

// The properties of one kind of object, in the schema's order. Objects usually list their keys
// in that order too (the canonical form does), so a lookup starts after the previous match
// (`cursor`, one per object) and most keys are found at the first comparison.
class Properties {
 public:
  void add(std::string key, PropertySchema schema) { entries_.push_back({std::move(key), std::move(schema)}); }

  /// The schema of `key` and its index (< size()), or nullptr.
  const PropertySchema* find(std::string_view key, std::size_t& cursor, std::size_t* index = nullptr) const {
    for (std::size_t n = 0, i = cursor; n < entries_.size(); ++n, ++i) {
      if (i >= entries_.size()) i = 0;
      const std::string& name = entries_[i].first;
      if (name.size() != key.size() || name != key) continue;
      cursor = i + 1;
      if (index != nullptr) *index = i;
      return &entries_[i].second;
    }
    return nullptr;
  }
  [[nodiscard]] std::size_t size() const { return entries_.size(); }

 private:
  std::vector<std::pair<std::string, PropertySchema>> entries_;
};

// A key an object must write, and its index among the object's properties (npos if none).
struct RequiredKey {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::string key;
  std::size_t property = npos;
};

class Schemas : public rapidjson::IRemoteSchemaDocumentProvider {
 public:
  Schemas() {
    parse(raw_text_, "raw_json");
    parse(template_text_, "template");
    parse(config_text_, "config");
    raw_ = std::make_unique<rapidjson::SchemaDocument>(raw_text_, this);
    template_ = std::make_unique<rapidjson::SchemaDocument>(template_text_, this);
    config_ = std::make_unique<rapidjson::SchemaDocument>(config_text_, this);
    whole_config_ = made_for("config.schema.json#");
    story_ = properties("raw_json.schema.json", raw_text_, "/definitions/story", "story");
    dependency_ = properties("raw_json.schema.json", raw_text_, "/definitions/dependency", "dependency");
    project_template_ =
        properties("template.schema.json", template_text_, "/definitions/project_template", "project_template");
    document_ = properties("template.schema.json", template_text_, "", "document");
    dependency_required_ = required(raw_text_, "/definitions/dependency", dependency_);
  }

  const rapidjson::SchemaDocument* GetRemoteDocument(const char* uri, rapidjson::SizeType length) override {
    // RapidJSON 1.1 passes the URI one character short ("raw_json.schema.jso"); match the stem.
    std::string_view name(uri, length);
    if (name.starts_with("raw_json.schema.jso")) return raw_.get();
    if (name.starts_with("template.schema.jso")) return template_.get();
    if (name.starts_with("config.schema.jso")) return config_.get();
    return nullptr;
  }

  [[nodiscard]] const Properties& story() const { return story_; }
  [[nodiscard]] const Properties& dependency() const { return dependency_; }
  [[nodiscard]] const Properties& project_template() const { return project_template_; }
  [[nodiscard]] const Properties& document() const { return document_; }
  [[nodiscard]] const std::vector<RequiredKey>& dependency_required() const { return dependency_required_; }
  [[nodiscard]] const PropertySchema& whole_config() const { return whole_config_; }
  [[nodiscard]] const rapidjson::Document* file(std::string_view name) const {
    if (name.starts_with("raw_json.schema.json")) return &raw_text_;
    if (name.starts_with("template.schema.json")) return &template_text_;
    if (name.starts_with("config.schema.json")) return &config_text_;
    return nullptr;
  }

  /// A validator of the schema `ref` names ("<file>#<pointer>"), made when a message needs one.
  [[nodiscard]] PropertySchema made_for(const std::string& ref) const {
    PropertySchema p;
    p.wrapper = std::make_unique<rapidjson::Document>();
    p.wrapper->SetObject();
    p.wrapper->AddMember("$ref", rapidjson::Value(ref.c_str(), p.wrapper->GetAllocator()), p.wrapper->GetAllocator());
    // The provider only reads: GetRemoteDocument() hands out the documents built above.
    p.validator = std::make_unique<rapidjson::SchemaDocument>(*p.wrapper, const_cast<Schemas*>(this));
    return p;
  }

  static const Schemas& get() {
    static const Schemas schemas;  // immutable once built; thread-safe initialisation
    return schemas;
  }

 private:
  static void parse(rapidjson::Document& doc, std::string_view name) {
    std::string_view text = bundled_schema(name).value_or("{}");
    doc.Parse(text.data(), text.size());
  }

  Properties properties(const std::string& file, const rapidjson::Document& doc, const std::string& object,
                        std::string_view kind) {
    Properties out;
    const rapidjson::Value* props = rapidjson::Pointer((object + "/properties").c_str()).Get(doc);
    if (props == nullptr || !props->IsObject()) return out;
    for (const auto& m : props->GetObject()) {
      std::string key = m.name.GetString();
      PropertySchema p;
      p.wrapper = std::make_unique<rapidjson::Document>();
      std::string ref = file;
      ref.append("#").append(object).append("/properties/").append(json::pointer_escape(key));
      p.wrapper->SetObject();
      p.wrapper->AddMember("$ref", rapidjson::Value(ref.c_str(), p.wrapper->GetAllocator()), p.wrapper->GetAllocator());
      p.validator = std::make_unique<rapidjson::SchemaDocument>(*p.wrapper, this);
      p.plain = PlainType::of(m.value);
      p.owned = owner_of(kind, key);
      out.add(key, std::move(p));
    }
    return out;
  }

  static std::vector<RequiredKey> required(const rapidjson::Document& doc, const std::string& object,
                                           const Properties& properties) {
    std::vector<RequiredKey> out;
    const rapidjson::Value* list = rapidjson::Pointer((object + "/required").c_str()).Get(doc);
    if (list != nullptr && list->IsArray()) {
      for (const auto& key : list->GetArray()) {
        RequiredKey& required = out.emplace_back();
        required.key = key.GetString();
        std::size_t cursor = 0;
        if (properties.find(required.key, cursor, &required.property) == nullptr) required.property = RequiredKey::npos;
      }
    }
    return out;
  }

  rapidjson::Document raw_text_;
  rapidjson::Document template_text_;
  rapidjson::Document config_text_;
  std::unique_ptr<rapidjson::SchemaDocument> raw_;
  std::unique_ptr<rapidjson::SchemaDocument> template_;
  std::unique_ptr<rapidjson::SchemaDocument> config_;
  PropertySchema whole_config_;
  Properties story_, dependency_, project_template_, document_;
  std::vector<RequiredKey> dependency_required_;
};

// Sends `v` to the validator as SAX events; of duplicate keys only the last (the one the
// service keeps). Depth is bounded by the parser's nesting bound.
template <class Handler>
bool replay(const json::Value& v, Handler& h) {
  switch (v.kind()) {
    case json::Kind::Null:
    case json::Kind::Truncated:
      return h.Null();
    case json::Kind::True:
      return h.Bool(true);
    case json::Kind::False:
      return h.Bool(false);
    case json::Kind::String:
      return h.String(v.text().data(), static_cast<rapidjson::SizeType>(v.text().size()), true);
    case json::Kind::Number: {
      // Integers are what the model reads: those that fit int64. Anything else goes as a
      // double, so a larger integer is a schema finding ("out of range"), not a silent gap.
      if (auto n = v.as_int64()) return h.Int64(*n);
      std::string spelling(v.text());
      return h.Double(std::strtod(spelling.c_str(), nullptr));
    }
    case json::Kind::Array: {
      if (!h.StartArray()) return false;
      for (const json::Value& item : v.items())
        if (!replay(item, h)) return false;
      return h.EndArray(static_cast<rapidjson::SizeType>(v.items().size()));
    }
    case json::Kind::Object:
      break;
  }
  if (!h.StartObject()) return false;
  rapidjson::SizeType count = 0;
  std::vector<bool> last = json::last_occurrences(v);
  for (std::size_t i = 0; i < v.members().size(); ++i) {
    const json::Member& m = v.members()[i];
    std::string_view key = m.key.text();
    if (!last[i]) continue;  // an earlier duplicate
    ++count;
    if (!h.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()), true) || !replay(m.value, h)) return false;
  }
  return h.EndObject(count);
}

std::string describe_kind(const json::Value& v) {
  return std::string(json::kind_name(v));
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
  if (v.IsString()) return json::quoted(std::string_view(v.GetString(), v.GetStringLength()));
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

// A JSON pointer's segment as the key it names (RFC 6901: "~1" is '/', "~0" is '~').
std::string pointer_unescape(std::string_view segment) {
  std::string key;
  for (std::size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] == '~' && i + 1 < segment.size() && (segment[i + 1] == '0' || segment[i + 1] == '1')) {
      key += segment[++i] == '1' ? '/' : '~';
    } else {
      key += segment[i];
    }
  }
  return key;
}

// A schema and where it is: `ref` is "<file>#<pointer>", as a $ref names it.
struct SchemaPlace {
  const rapidjson::Value* json = nullptr;
  std::string ref;
};

// The schema `ref` names, following its $refs (at most 8 hops).
SchemaPlace resolve_ref(std::string ref) {
  const Schemas& schemas = Schemas::get();
  SchemaPlace place;
  for (int hops = 0; hops < 8; ++hops) {
    std::size_t hash = ref.find('#');
    const rapidjson::Document* file = schemas.file(ref);
    if (hash == std::string::npos || file == nullptr) return {};
    place = {rapidjson::Pointer(ref.substr(hash + 1).c_str()).Get(*file), ref};
    if (place.json == nullptr || !place.json->IsObject()) break;
    auto next = place.json->FindMember("$ref");
    if (next == place.json->MemberEnd() || !next->value.IsString()) break;
    std::string_view target = next->value.GetString();
    ref = target.starts_with('#') ? ref.substr(0, hash) + std::string(target) : std::string(target);
  }
  return place;
}

// The schema that governs the value at `pointer` below a property's schema, following
// properties (or additionalProperties, for keys it does not name), items and $refs.
// (RapidJSON 1.1 reports the failing schema's place only inside the validator's own document,
// which is not where $refs lead.)
SchemaPlace schema_at(const PropertySchema& property, std::string_view pointer) {
  SchemaPlace at = resolve_ref((*property.wrapper)["$ref"].GetString());
  while (at.json != nullptr && at.json->IsObject() && !pointer.empty()) {
    pointer.remove_prefix(1);
    std::size_t cut = pointer.find('/');
    std::string segment(pointer.substr(0, cut));
    pointer = cut == std::string_view::npos ? std::string_view{} : pointer.substr(cut);
    std::string next;
    bool index = !segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos;
    if (auto items = at.json->FindMember("items"); index && items != at.json->MemberEnd()) {
      next = at.ref + "/items";
    } else if (auto props = at.json->FindMember("properties");
               props != at.json->MemberEnd() && props->value.HasMember(pointer_unescape(segment).c_str())) {
      next = at.ref + "/properties/" + segment;
    } else if (at.json->HasMember("additionalProperties")) {
      next = at.ref + "/additionalProperties";
    } else {
      return {};
    }
    at = resolve_ref(std::move(next));
  }
  return at;
}

struct Violation {
  std::string pointer;  ///< below the validated value
  std::string message;
};

std::optional<Violation> validate(const PropertySchema& property, const json::Value& value, std::string_view key);

// True when the schema's "type" admits a value of `v`'s kind (false when it has no "type").
bool type_admits(const rapidjson::Value& schema, const json::Value& v) {
  if (!schema.IsObject() || !schema.HasMember("type")) return false;
  auto admits = [&](std::string_view t) {
    switch (v.kind()) {
      case json::Kind::Null:
        return t == "null";
      case json::Kind::True:
      case json::Kind::False:
        return t == "boolean";
      case json::Kind::String:
        return t == "string";
      case json::Kind::Array:
        return t == "array";
      case json::Kind::Object:
        return t == "object";
      case json::Kind::Number:
        return t == "number" || (t == "integer" && v.is_integer_spelling());
      case json::Kind::Truncated:
        break;
    }
    return false;
  };
  const rapidjson::Value& type = schema["type"];
  if (type.IsString()) return admits(type.GetString());
  if (type.IsArray())
    for (const auto& t : type.GetArray())
      if (t.IsString() && admits(t.GetString())) return true;
  return false;
}

// The violation of `value` against the one form of the anyOf (or oneOf) at `place` whose type
// admits it; nullopt when no form or several do.
std::optional<Violation> validate_against_form(const SchemaPlace& place, const json::Value& value,
                                               std::string_view path) {
  if (place.json == nullptr || !place.json->IsObject()) return std::nullopt;
  for (const char* keyword : {"anyOf", "oneOf"}) {
    auto forms = place.json->FindMember(keyword);
    if (forms == place.json->MemberEnd() || !forms->value.IsArray()) continue;
    std::optional<std::string> chosen;
    for (rapidjson::SizeType i = 0; i < forms->value.Size(); ++i) {
      std::string ref = place.ref + "/" + keyword + "/" + std::to_string(i);
      SchemaPlace form = resolve_ref(ref);
      if (form.json == nullptr || !type_admits(*form.json, value)) continue;
      if (chosen) return std::nullopt;
      chosen = std::move(ref);
    }
    if (!chosen) return std::nullopt;
    return validate(Schemas::get().made_for(*chosen), value, path);
  }
  return std::nullopt;
}

// "`owner` does not allow the key `member`", with the key of `owner_schema`'s properties it was
// probably meant to be.
std::string key_not_allowed(std::string_view owner, std::string_view member, const rapidjson::Value* owner_schema) {
  std::string message = "`" + std::string(owner) + "` does not allow the key `" + std::string(member) + "`";
  if (owner_schema != nullptr && owner_schema->IsObject() && owner_schema->HasMember("properties")) {
    std::vector<std::string_view> keys;
    for (const auto& m : (*owner_schema)["properties"].GetObject())
      keys.emplace_back(m.name.GetString(), m.name.GetStringLength());
    if (auto suggestion = closest(member, keys)) message += " (did you mean `" + std::string(*suggestion) + "`?)";
  }
  return message;
}

// Validates one value against its key's schema; the first violation as a sentence that names
// the value (by its path below `owner`) and what it must be.
std::optional<Violation> validate(const PropertySchema& property, const json::Value& value, std::string_view key) {
  if (property.plain && property.plain->accepts(value)) return std::nullopt;
  rapidjson::SchemaValidator validator(*property.validator);
  if (replay(value, validator) && validator.IsValid()) return std::nullopt;

  std::string keyword = validator.GetInvalidSchemaKeyword();
  rapidjson::StringBuffer buffer;
  validator.GetInvalidDocumentPointer().Stringify(buffer);
  std::string pointer = buffer.GetString();
  const SchemaPlace place = schema_at(property, pointer);
  const rapidjson::Value* schema = place.json;
  const json::Value* at = json::resolve_pointer(value, pointer);
  // `key` is the validated value's path ("duration", or "config/rules/schema" when an anyOf
  // branch is validated below); the value at fault is named by its last segment, an array item
  // with its array.
  std::string path = std::string(key) + pointer;
  std::string name = path.substr(path.rfind('/') + 1);
  name = "`" + (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos ? path : name) + "`";

  auto field = [&](const char* k) -> const rapidjson::Value* {
    if (schema == nullptr || !schema->IsObject()) return nullptr;
    auto it = schema->FindMember(k);
    return it == schema->MemberEnd() ? nullptr : &it->value;
  };

  std::string message;
  if (keyword == "type" && at != nullptr && at->is_integer_spelling() && !at->as_int64()) {
    message = name + " is out of range: " + std::string(at->text()) + " does not fit in a 64-bit integer";
  } else if (keyword == "type") {
    const rapidjson::Value* type = field("type");
    message = name + " must be " + (type != nullptr ? describe_type(*type) : "of another type") + ", found " +
              (at != nullptr ? describe_kind(*at) : "another type");
  } else if (keyword == "enum") {
    message = name + " must be one of ";
    if (const rapidjson::Value* values = field("enum"); values != nullptr && values->IsArray())
      for (rapidjson::SizeType i = 0; i < values->Size(); ++i) message += (i > 0 ? ", " : "") + to_text((*values)[i]);
    if (at != nullptr && (at->is_number() || at->is_string()))
      message += "; found " + std::string(at->is_string() ? "\"" : "") + std::string(at->text()) +
                 (at->is_string() ? "\"" : "");
    if (const rapidjson::Value* values = field("enum"); at != nullptr && at->is_string() && values != nullptr) {
      std::vector<std::string_view> allowed;
      for (const auto& v : values->GetArray())
        if (v.IsString()) allowed.emplace_back(v.GetString(), v.GetStringLength());
      if (auto suggestion = closest(at->text(), allowed))
        message += " (did you mean " + json::quoted(*suggestion) + "?)";
    }
  } else if (keyword == "minimum" || keyword == "maximum") {
    const rapidjson::Value* bound = field(keyword.c_str());
    message = name + " must be " + (keyword == "minimum" ? "at least " : "at most ") +
              (bound != nullptr ? to_text(*bound) : "in range");
    if (at != nullptr && at->is_number()) message += ", found " + std::string(at->text());
  } else if (keyword == "minLength") {
    message = name + " must not be empty";
  } else if (keyword == "pattern") {
    const rapidjson::Value* pattern = field("pattern");
    message = name + " must match the pattern " + (pattern != nullptr ? to_text(*pattern) : "of the schema");
    if (at != nullptr && at->is_string()) message += ", found \"" + std::string(at->text()) + "\"";
  } else if (keyword == "required") {
    std::string missing;
    if (const rapidjson::Value* required = field("required"); required != nullptr && required->IsArray())
      for (const auto& k : required->GetArray())
        if (at != nullptr && at->find(k.GetString()) == nullptr) {
          missing = k.GetString();
          break;
        }
    message = "`" + path + "` is missing the required key `" + missing + "`";
  } else if (keyword == "additionalProperties") {
    // RapidJSON points at the member that is not allowed.
    std::string owner = pointer.empty() ? std::string(key) : std::string(key) + pointer.substr(0, pointer.rfind('/'));
    std::string member = pointer_unescape(std::string_view(pointer).substr(pointer.rfind('/') + 1));
    message = key_not_allowed(owner, member, schema_at(property, pointer.substr(0, pointer.rfind('/'))).json);
  } else if (keyword == "anyOf" || keyword == "oneOf") {
    // When only one of the forms takes a value of this kind ("error" or {"severity": …}), the
    // value is explained against that form: which values it allows, which keys.
    if (at != nullptr)
      if (auto violation = validate_against_form(place, *at, path))
        return Violation{pointer + violation->pointer, violation->message};
    message = name + " does not have an allowed form";
    if (const rapidjson::Value* description = field("description"); description != nullptr && description->IsString())
      message += " (" + std::string(description->GetString()) + ")";
  } else {
    message = name + " does not satisfy the schema's `" + keyword + "`";
  }
  return Violation{pointer, message};
}

// Reports where a value is: inside the story tree of `source`, or (for template-level values)
// in the file itself.
class Reporter {
 public:
  Reporter(Context& context, const TemplateSource& source, bool in_stories)
      : context_(context), source_(source), in_stories_(in_stories) {}

  void operator()(const json::Value& at, std::string pointer, std::string message) const {
    if (in_stories_)
      context_.report("schema", Severity::Error, source_, at, std::move(pointer), std::move(message));
    else
      context_.report_at_offset("schema", Severity::Error, at.offset(), std::move(pointer), std::move(message));
  }

 private:
  Context& context_;
  const TemplateSource& source_;
  bool in_stories_;
};

// Appends "/<index>" to a JSON pointer.
void append_index(std::string& pointer, std::size_t index) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, index);
  pointer += '/';
  pointer.append(digits, end);
}

// Each member of `object` (last of duplicates) against the schema of its key, except those
// `checked_elsewhere` leaves to other checks. Returns the properties the object writes, for
// its required keys: bit i for the property at index i of `properties` (the first 64).
template <class CheckedElsewhere>
std::uint64_t check_members(const Reporter& report, const json::Value& object, std::string_view pointer,
                            const Properties& properties, CheckedElsewhere&& checked_elsewhere) {
  std::vector<bool> last;  // which members are the last of their key; only needed with duplicates
  if (!object.unique_keys()) last = json::last_occurrences(object);
  std::uint64_t written = 0;
  std::size_t cursor = 0;
  const std::span<const json::Member> members = object.members();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const json::Member& m = members[i];
    std::string_view key = m.key.text();
    std::size_t index = 0;
    const PropertySchema* property = properties.find(key, cursor, &index);
    if (property == nullptr) continue;  // unknown keys are allowed
    if (index < 64) written |= std::uint64_t{1} << index;
    // Values below the nesting bound were not read; nesting-depth reports them.
    if ((!last.empty() && !last[i]) || m.value.kind() == json::Kind::Truncated ||
        checked_elsewhere(key, m.value, *property))
      continue;
    if (auto violation = validate(*property, m.value, key)) {
      const json::Value* at = json::resolve_pointer(m.value, violation->pointer);
      std::string place(pointer);
      place += '/';
      place += json::pointer_escape(key);
      place += violation->pointer;
      report(at != nullptr ? *at : m.value, std::move(place), violation->message);
    }
  }
  return written;
}

// `path` is the pointer of the list; it is restored before returning.
void check_dependencies(const Reporter& report, const json::Value& list, std::string& path) {
  const Schemas& schemas = Schemas::get();
  const std::size_t list_size = path.size();
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    const json::Value& dep = list.items()[i];
    if (dep.kind() == json::Kind::Truncated) continue;
    path.resize(list_size);
    append_index(path, i);
    if (!dep.is_object()) {
      report(dep, path, "a dependency must be an object, found " + describe_kind(dep));
      continue;
    }
    const std::uint64_t written =
        check_members(report, dep, path, schemas.dependency(),
                      [](std::string_view, const json::Value& v, const PropertySchema& property) {
                        return owned_elsewhere(property.owned, v);
                      });
    for (const RequiredKey& required : schemas.dependency_required()) {
      const bool present =
          required.property < 64 ? (written >> required.property & 1) != 0 : dep.find(required.key) != nullptr;
      if (!present && !owned_elsewhere("dependency", required.key, json::Value{}))
        report(dep, path, "the dependency is missing the required key `" + required.key + "`");
    }
  }
  path.resize(list_size);
}

// One story's own values (`story` is an object); returns its sub_stories array, if it has
// one, for the caller. `path` is the story's pointer; it is restored before returning.
const json::Value* check_story(const Reporter& report, const json::Value& story, std::string& path) {
  // Lists of stories and dependencies (the last of each key, as the model reads them) are
  // checked item by item.
  const json::Value* children = nullptr;
  const json::Value* dependencies = nullptr;
  check_members(report, story, path, Schemas::get().story(),
                [&](std::string_view key, const json::Value& v, const PropertySchema& property) {
                  if (key == "sub_stories") {
                    children = v.is_array() ? &v : nullptr;
                    return children != nullptr;
                  }
                  if (key == "dependencies") {
                    dependencies = v.is_array() ? &v : nullptr;
                    return dependencies != nullptr;
                  }
                  return owned_elsewhere(property.owned, v);
                });
  if (dependencies != nullptr) {
    const std::size_t story_size = path.size();
    path += "/dependencies";
    check_dependencies(report, *dependencies, path);
    path.resize(story_size);
  }
  return children;
}

// The items of a story list that are not objects (the model, and so the story checks, see
// only the objects). Values below the nesting bound are nesting-depth's.
void check_non_objects(const Reporter& report, const json::Value& list, std::string& path) {
  const std::size_t list_size = path.size();
  for (std::size_t i = 0; i < list.items().size(); ++i) {
    const json::Value& item = list.items()[i];
    if (item.is_object() || item.kind() == json::Kind::Truncated) continue;
    path.resize(list_size);
    append_index(path, i);
    report(item, path, "a story must be an object, found " + describe_kind(item));
  }
  path.resize(list_size);
}

// False when the file is not a template at all: check_schema() reports that alone.
bool stories_checked(const TemplateFile& file) {
  if (!file.document().ok() || file.shape() == Shape::Unknown) return false;
  return file.shape() != Shape::TemplateDocument || file.document().root().find("project_template")->is_object();
}

// The stories, in the walk that every story check shares (run_all_rules()): each story is
// the model's, which holds every object of the story lists, with its pointer.
class SchemaStories final : public StoryCheck {
 public:
  void start(Context& context, const TemplateSource& source) override {
    active_ = stories_checked(context.file());
    if (!active_ || source.story_list == nullptr) return;
    path_ = source.story_prefix;
    check_non_objects(Reporter(context, source, true), *source.story_list, path_);
  }

  void check(Context& context, const TemplateSource& source, const Story& story) override {
    // Every documented key holds a value of its schema's type and bounds (and every list item
    // its shape): the model checked that while reading; only irregular stories need the tree.
    if (!active_ || story.irregular_keys == 0) return;
    const Reporter report(context, source, true);
    path_ = story.pointer();
    if (const json::Value* children = check_story(report, story.origin.node, path_)) {
      path_ += "/sub_stories";
      check_non_objects(report, *children, path_);
    }
  }

 private:
  bool active_ = false;
  std::string path_;  // the pointer of the story being checked, reused
};

void check_template_fields(Context& context, const TemplateSource& source) {
  const TemplateFile& file = context.file();
  const Schemas& schemas = Schemas::get();
  Reporter report(context, source, false);
  const json::Value& root = file.document().root();
  const json::Value* pt = json::resolve_pointer(root, source.template_pointer);
  if (pt == nullptr) return;
  if (file.shape() == Shape::TemplateDocument)
    check_members(report, root, "", schemas.document(),
                  [](std::string_view key, const json::Value&, const PropertySchema&) {
                    // The calendar block is calendar-invalid's, which says what is wrong in its terms.
                    return key == "project_template" || (key == "calendar" && find_rule("calendar-invalid") != nullptr);
                  });
  check_members(report, *pt, source.template_pointer, schemas.project_template(),
                [](std::string_view key, const json::Value& v, const PropertySchema& property) {
                  return owned_elsewhere(property.owned, v) || (key == "raw_json" && (v.is_array() || v.is_string()));
                });
}

}  // namespace

namespace {

// Every violation of `value` (named `key` in messages) against the schema `property`. RapidJSON stops at the first
// violation, so an object or array that fails is looked into: each member or item against its own schema, and a key the
// object does not allow named; only when none of them fails is the violation the container's own (a required key
// missing). A value is so named once, with the first thing wrong in it. Stops once `out` holds `limit`.
void collect_violations(const PropertySchema& property, const json::Value& value, const std::string& key,
                        std::size_t limit, std::vector<SchemaViolation>& out) {
  if (out.size() >= limit) return;
  std::optional<Violation> violation = validate(property, value, key);
  if (!violation) return;
  const SchemaPlace place = schema_at(property, "");
  const std::size_t before = out.size();
  auto look_into = [&](const json::Value& child, const std::string& segment) {
    const SchemaPlace at = schema_at(property, "/" + segment);
    if (at.json != nullptr && at.json->IsObject())
      collect_violations(Schemas::get().made_for(at.ref), child, key + "/" + segment, limit, out);
    else if (at.json != nullptr && at.json->IsFalse() && out.size() < limit)  // additionalProperties: false
      out.push_back({&child, key_not_allowed(key, pointer_unescape(segment), place.json)});
  };
  auto has = [&](const char* keyword) {
    return place.json != nullptr && place.json->IsObject() && place.json->HasMember(keyword);
  };
  if (value.is_object() && (has("properties") || has("additionalProperties"))) {
    const std::vector<bool> last = json::last_occurrences(value);
    for (std::size_t i = 0; i < value.members().size(); ++i)
      if (last[i]) look_into(value.members()[i].value, json::pointer_escape(value.members()[i].key.text()));
  } else if (value.is_array() && has("items")) {
    for (std::size_t i = 0; i < value.items().size(); ++i) look_into(value.items()[i], std::to_string(i));
  }
  if (out.size() == before) {
    const json::Value* at = json::resolve_pointer(value, violation->pointer);
    out.push_back({at != nullptr ? at : &value, std::move(violation->message)});
  }
}

}  // namespace

std::vector<SchemaViolation> check_config_schema(const json::Value& config, std::size_t limit) {
  std::vector<SchemaViolation> out;
  collect_violations(Schemas::get().whole_config(), config, "config", limit, out);
  return out;
}

void check_schema(Context& context) {
  // The template's own fields; its stories are schema_check()'s.
  const TemplateFile& file = context.file();
  if (!file.document().ok()) return;
  const json::Value& root = file.document().root();
  if (file.shape() == Shape::Unknown) {
    context.report_at_offset("schema", Severity::Error, root.offset(), "",
                             "not a template: expected a story list (array), a template document "
                             "({\"project_template\": …}) or an API response with project_templates");
    return;
  }
  if (file.shape() == Shape::TemplateDocument && !root.find("project_template")->is_object()) {
    const json::Value& pt = *root.find("project_template");
    context.report_at_offset("schema", Severity::Error, pt.offset(), "/project_template",
                             "`project_template` must be an object, found " + describe_kind(pt));
    return;
  }
  for (const TemplateSource& source : file.templates()) {
    if (!source.template_pointer.empty()) check_template_fields(context, source);
    if (source.raw_json_string && source.story_document->ok() && source.story_list == nullptr) {
      context.report("schema", Severity::Error, source, *source.raw_json_string, source.template_pointer + "/raw_json",
                     "the raw_json string must hold a JSON array of stories, found " +
                         describe_kind(source.story_document->root()));
    }
  }
}

std::unique_ptr<StoryCheck> schema_check() {
  return std::make_unique<SchemaStories>();
}

}  // namespace ptmpl::rules
