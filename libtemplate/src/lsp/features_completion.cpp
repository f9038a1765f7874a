// The language server, by concern: completion. The author is typing, so the text seldom
// parses: the context comes from a tolerant scan of the text (strings, numbers, brackets,
// colons and commas, whatever their order), which knows at each point which container it is in,
// which key that container is held by, and whether a key or a value comes next. The temp_ids
// offered come from the same scan of the current text, not from the last text that parsed.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <unordered_set>

#include "libtemplate/core/json.hpp"
#include "libtemplate/core/schedule.hpp"
#include "lsp/features.hpp"
#include "lsp/features_document.hpp"

namespace ptmpl::lsp {

namespace {

// Completion offers at most this many temp_ids at once.
constexpr std::size_t kMaxIds = 1000;

// CompletionItemKind (LSP 3.17).
constexpr int kValueKind = 12;
constexpr int kPropertyKind = 10;
constexpr int kEnumMemberKind = 20;
constexpr int kReferenceKind = 18;

struct KeyDoc {
  std::string_view key;
  std::string_view documentation;
};

// The documented story keys (docs/semantics.md §3), in the canonical order.
constexpr std::array<KeyDoc, 16> kStoryKeys{{
    {"story_type", "`task`, `deliverable` or `milestone`; `task` when absent."},
    {"title", "The story's name: a non-empty string. Required."},
    {"temp_id",
     "The story's reference id: an integer or a string, unique across the whole template (sub_stories "
     "included). Dependencies name stories by it; `7` and `\"7\"` are the same id."},
    {"relative_start_date",
     "The story's first working day, in working days from the project start (day 0). Negative before "
     "the start. The scheduler reads it as start-no-earlier-than."},
    {"relative_due_date", "The story's last working day (inclusive), in working days from the project start."},
    {"duration", "Working days, an integer ≥ 0 (0 for a milestone)."},
    {"billable", "`true` or `false`."},
    {"description", "Free text."},
    {"budget_estimate_in_cents",
     "The budget estimate in cents, an integer ≥ 0. A story without one counts the sum of its sub_stories'."},
    {"time_estimate_in_minutes",
     "The time estimate in minutes, an integer ≥ 0 that fits 32 bits. A story without one counts the sum of "
     "its sub_stories'."},
    {"sub_stories",
     "The stories nested in this one (an array of stories): a story with sub_stories is a parent, whose "
     "dates roll up from them."},
    {"checklist", "An array of strings."},
    {"tag_list", "Tags in one string, separated by commas; each entry, trimmed, is one tag."},
    {"assignments", "An array of `{\"assignee_id\": <integer>}`: ids of the template's project_template_assignments."},
    {"dependencies",
     "Links from this story to the stories that follow it: an array of `{\"source_id\", \"target_id\", "
     "\"type\", \"lag\"}`, stored on the source story. Types: 0 = SS, 1 = SF, 2 = FS, 3 = FF."},
    {"weight", "An integer, meaningful on milestones."},
}};

constexpr std::array<KeyDoc, 4> kDependencyKeys{{
    {"source_id", "The temp_id of the predecessor: the story that holds this dependency."},
    {"target_id", "The temp_id of the successor, the story this one constrains."},
    {"type", "0 = start-to-start (SS), 1 = start-to-finish (SF), 2 = finish-to-start (FS), 3 = finish-to-finish (FF)."},
    {"lag", "Working days added to the link, an integer (negative for a lead); 0 when absent."},
}};

constexpr std::array<KeyDoc, 3> kStoryTypes{{
    {"task", "Work of one or more working days (the default)."},
    {"deliverable", "Work whose result is handed over."},
    {"milestone", "A point in time: duration 0, its start and due are the same day."},
}};

// What each link type ties, with predecessor A (source_id) and successor B (target_id), docs/semantics.md §5.
constexpr std::array<std::string_view, 4> kLinkRules{
    "B starts no earlier than A starts (+ lag)",
    "B finishes no earlier than A starts (+ lag)",
    "B starts no earlier than A finishes (+ lag)",
    "B finishes no earlier than A finishes (+ lag)",
};

// ---------------------------------------------------------------------------------------------
// The tolerant scan

struct Token {
  enum class Type : std::uint8_t { String, Scalar, Punct };
  Type type = Type::Punct;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool closed = true;  // a string with its closing quote
  char punct = 0;
};

// The next token at or after `at`, or none at the end. A string ends at its closing quote or,
// unterminated, at the end of its line (JSON strings hold no raw line break).
std::optional<Token> next_token(std::string_view text, std::uint64_t at) {
  while (at < text.size()) {
    const char c = text[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++at;
      continue;
    }
    Token token;
    token.begin = at;
    if (c == '"') {
      token.type = Token::Type::String;
      std::uint64_t i = at + 1;
      token.closed = false;
      while (i < text.size() && text[i] != '\n' && text[i] != '\r') {
        if (text[i] == '\\') {
          i += 2;
          continue;
        }
        if (text[i] == '"') {
          token.closed = true;
          ++i;
          break;
        }
        ++i;
      }
      token.end = std::min<std::uint64_t>(i, text.size());
      return token;
    }
    if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',') {
      token.punct = c;
      token.end = at + 1;
      return token;
    }
    const auto scalar_char = [](char x) {
      return std::isalnum(static_cast<unsigned char>(x)) != 0 || x == '-' || x == '+' || x == '.' || x == '_';
    };
    if (scalar_char(c)) {
      token.type = Token::Type::Scalar;
      std::uint64_t i = at;
      while (i < text.size() && scalar_char(text[i])) ++i;
      token.end = i;
      return token;
    }
    ++at;  // anything else (a comment, a stray quote mark) is skipped
  }
  return std::nullopt;
}

// A token as written: a string's bytes between its quotes (escapes left as they are; no key
// the scan looks for has one), any other token's bytes.
std::string_view raw_text(std::string_view text, const Token& token) {
  if (token.type != Token::Type::String) return text.substr(token.begin, token.end - token.begin);
  const std::uint64_t end = token.closed ? token.end - 1 : token.end;
  return text.substr(token.begin + 1, end - token.begin - 1);
}

// The text of a string token: between its quotes, its escapes decoded by the project's reader;
// as written when the reader cannot read it (an escape being typed, an unpaired surrogate).
std::string string_text(std::string_view text, const Token& token) {
  const std::string_view raw = raw_text(text, token);
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  const std::string quoted = '"' + std::string(raw) + '"';
  const json::Document read = json::Document::parse(quoted);
  if (!read.ok() || !read.root().is_string()) return std::string(raw);
  return std::string(read.root().text());
}

enum class Expect : std::uint8_t { Key, Colon, Value, Comma };
enum class Role : std::uint8_t { Other, StoryList, Story, DependencyList, Dependency };

struct Frame {
  bool object = false;
  Role role = Role::Other;
  Expect expect = Expect::Value;
  std::string_view key;                // objects: the current member's key, as written between its quotes
  std::size_t id = 0;                  // numbers the containers in the order they open
  std::uint64_t open = 0;              // the offset of its bracket
  std::size_t story = 0;               // Dependency: the id of the story frame that holds it
  std::optional<std::string> temp_id;  // Story: its temp_id as written (a JSON token)
  std::string title;                   // Story
};

// What the cursor is in: a key or a value of a story or dependency object.
struct Context {
  enum class Slot : std::uint8_t { None, Key, Value };
  Slot slot = Slot::None;
  Role role = Role::Other;
  std::string key;  // Value: the member's key
  std::uint64_t replace_begin = 0;
  std::uint64_t replace_end = 0;
  bool quoted = false;           // the token under the cursor is a string
  std::size_t frame = 0;         // the id of the object the cursor is in
  std::uint64_t frame_open = 0;  // the offset of its brace
  std::size_t owner = 0;         // a Dependency's story frame id
};

// One story seen by the scan.
struct SeenStory {
  std::size_t frame = 0;
  std::string temp_id;  // as written (a JSON token)
  std::string title;
};

struct Scan {
  Context context;
  std::vector<SeenStory> stories;
  std::vector<std::string> present_keys;      // written in the cursor's object, but the one being typed
  std::vector<std::string> other_story_keys;  // undocumented keys written in story objects
};

Role role_of_child(const std::vector<Frame>& stack, bool object, std::string_view key) {
  if (stack.empty()) return object ? Role::Other : Role::StoryList;
  const Frame& parent = stack.back();
  if (!object) {
    if (!parent.object) return Role::Other;
    if (key == "sub_stories" && parent.role == Role::Story) return Role::StoryList;
    if (key == "dependencies" && parent.role == Role::Story) return Role::DependencyList;
    if (key == "raw_json" || (key == "stories" && stack.size() == 1)) return Role::StoryList;
    return Role::Other;
  }
  if (parent.role == Role::StoryList) return Role::Story;
  if (parent.role == Role::DependencyList) return Role::Dependency;
  return Role::Other;
}

bool documented_story_key(std::string_view key) {
  return std::any_of(kStoryKeys.begin(), kStoryKeys.end(), [&](const KeyDoc& doc) { return doc.key == key; });
}

// The keys the object the cursor is in writes, but the one under the cursor: its members'
// strings followed by a colon, at its own level.
std::vector<std::string> keys_of_object(std::string_view text, const Context& context) {
  std::vector<std::string> keys;
  int depth = 0;
  std::optional<Token> previous;
  std::uint64_t at = context.frame_open + 1;
  while (auto token = next_token(text, at)) {
    at = token->end;
    if (token->type == Token::Type::Punct) {
      if (token->punct == '{' || token->punct == '[') ++depth;
      if (token->punct == '}' || token->punct == ']') {
        if (depth == 0) break;
        --depth;
      }
      if (token->punct == ':' && depth == 0 && previous && previous->type == Token::Type::String &&
          previous->begin != context.replace_begin)
        keys.push_back(string_text(text, *previous));
    }
    previous = token;
  }
  return keys;
}

Scan scan(std::string_view text, std::uint64_t cursor) {
  Scan out;
  std::vector<Frame> stack;
  std::size_t next_id = 0;
  bool decided = false;
  std::unordered_set<std::string_view> other_keys;

  // The slot of a token (or of the cursor) given the innermost container.
  auto decide = [&](std::uint64_t begin, std::uint64_t end, bool in_token, bool quoted, Token::Type type) {
    decided = true;
    if (stack.empty()) return;
    const Frame& top = stack.back();
    Context& c = out.context;
    c.replace_begin = in_token ? begin : cursor;
    c.replace_end = in_token ? end : cursor;
    c.quoted = quoted;
    c.role = top.role;
    c.frame = top.id;
    c.frame_open = top.open;
    c.owner = top.story;
    if (!top.object) return;
    const bool key_slot =
        top.expect == Expect::Key || (in_token && top.expect == Expect::Comma && type != Token::Type::Punct);
    if (key_slot) {
      c.slot = Context::Slot::Key;
    } else if (top.expect == Expect::Value) {
      c.slot = Context::Slot::Value;
      c.key = std::string(top.key);
    }
  };

  auto close_story = [&](Frame& frame) {
    if (!frame.object || frame.role == Role::Dependency || !frame.temp_id) return;
    out.stories.push_back({frame.id, std::move(*frame.temp_id), std::move(frame.title)});
  };
  auto pop = [&] {
    close_story(stack.back());
    stack.pop_back();
    if (!stack.empty() && stack.back().expect == Expect::Value) stack.back().expect = Expect::Comma;
  };

  std::uint64_t at = 0;
  while (auto token = next_token(text, at)) {
    at = token->end;
    if (!decided) {
      const bool inside =
          token->type == Token::Type::String
              ? token->begin < cursor && (cursor < token->end || (!token->closed && cursor <= token->end))
              : token->type == Token::Type::Scalar && token->begin < cursor && cursor <= token->end;
      if (inside)
        decide(token->begin, token->end, true, token->type == Token::Type::String, token->type);
      else if (token->begin >= cursor)
        decide(cursor, cursor, false, false, Token::Type::Punct);
    }
    const bool at_cursor = decided && token->begin < cursor && cursor <= token->end;  // the token being typed
    if (token->type == Token::Type::Punct) {
      switch (token->punct) {
        case '{':
        case '[': {
          const bool object = token->punct == '{';
          Frame frame;
          frame.object = object;
          frame.id = next_id++;
          frame.open = token->begin;
          frame.role = role_of_child(stack, object,
                                     stack.empty() || !stack.back().object ? std::string_view() : stack.back().key);
          frame.expect = object ? Expect::Key : Expect::Value;
          if (frame.role == Role::Dependency && stack.size() >= 2) frame.story = stack[stack.size() - 2].id;
          stack.push_back(std::move(frame));
          break;
        }
        case '}':
        case ']': {
          // Close up to the innermost container of the kind (a missing bracket is forgiven).
          const bool object = token->punct == '}';
          auto match = std::find_if(stack.rbegin(), stack.rend(), [&](const Frame& f) { return f.object == object; });
          if (match == stack.rend()) break;
          const std::size_t keep = static_cast<std::size_t>(stack.rend() - match) - 1;
          while (stack.size() > keep) pop();
          break;
        }
        case ':':
          if (!stack.empty() && stack.back().object) stack.back().expect = Expect::Value;
          break;
        case ',':
          if (!stack.empty()) stack.back().expect = stack.back().object ? Expect::Key : Expect::Value;
          break;
        default:
          break;
      }
      continue;
    }
    if (stack.empty()) continue;
    Frame& top = stack.back();
    if (!top.object) {
      top.expect = Expect::Comma;
      continue;
    }
    if (top.expect == Expect::Key || top.expect == Expect::Comma) {
      top.key = raw_text(text, *token);
      top.expect = Expect::Colon;
      if (!at_cursor && top.role == Role::Story && !documented_story_key(top.key) && other_keys.insert(top.key).second)
        out.other_story_keys.emplace_back(top.key);
      continue;
    }
    // A value (after its colon, or where a colon is missing). Any object with a temp_id is
    // taken for a story: in a text being typed, a story may sit where no story list is seen.
    if (top.role != Role::Dependency && !at_cursor) {
      if (top.key == "temp_id") {
        const bool number =
            token->type == Token::Type::Scalar &&
            (std::isdigit(static_cast<unsigned char>(text[token->begin])) != 0 || text[token->begin] == '-');
        if (number || (token->type == Token::Type::String && token->closed && token->end > token->begin + 2))
          top.temp_id = std::string(text.substr(token->begin, token->end - token->begin));
      } else if (top.key == "title" && token->type == Token::Type::String) {
        top.title = string_text(text, *token);
      }
    }
    top.expect = Expect::Comma;
  }
  if (!decided) decide(cursor, cursor, false, false, Token::Type::Punct);
  while (!stack.empty()) {  // an unfinished text: the stories still open count too
    close_story(stack.back());
    stack.pop_back();
  }
  // Stories are seen as they close; offer them in the order they open.
  std::sort(out.stories.begin(), out.stories.end(),
            [](const SeenStory& a, const SeenStory& b) { return a.frame < b.frame; });
  if (out.context.slot == Context::Slot::Key) out.present_keys = keys_of_object(text, out.context);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The items

class Items {
 public:
  Items(const TextPositions& positions, const Context& context, std::string_view text)
      : range_(positions.range(context.replace_begin, context.replace_end)), quoted_(context.quoted) {
    // A key not yet followed by its colon gets one.
    std::uint64_t after = context.replace_end;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
    colon_follows_ = after < text.size() && text[after] == ':';
    json_.begin_object();
    json_.key("items");
    json_.begin_array();
  }

  /// One item: `insert` is the JSON text written; `label` what the list shows.
  void add(std::string_view label, int kind, std::string_view detail, std::string_view documentation,
           std::string_view insert, std::string_view sort) {
    json_.begin_object();
    json_.member("label", label);
    json_.member("kind", kind);
    if (!detail.empty()) json_.member("detail", detail);
    if (!documentation.empty()) {
      json_.key("documentation");
      json_.begin_object();
      json_.member("kind", "markdown");
      json_.member("value", documentation);
      json_.end_object();
    }
    json_.member("sortText", sort);
    // The client filters by the text typed so far, quote included when the author typed one.
    json_.member("filterText", quoted_ ? json::quoted(label) : std::string(insert));
    json_.key("textEdit");
    json_.begin_object();
    json_.key("range");
    features::write_range(json_, range_);
    json_.member("newText", insert);
    json_.end_object();
    json_.end_object();
    ++count_;
  }

  void add_key(const KeyDoc& doc, std::string_view sort) {
    const std::string insert = json::quoted(doc.key) + (colon_follows_ ? "" : ": ");
    add(doc.key, kPropertyKind, "", doc.documentation, insert, sort);
  }

  /// `incomplete`: the list holds only some of the items (the client asks again as the author types).
  [[nodiscard]] Reply finish(bool incomplete = false) {
    if (count_ == 0) return {};
    json_.end_array();
    json_.key("isIncomplete");
    json_.boolean(incomplete);
    json_.end_object();
    return features::result_of(json_);
  }

 private:
  JsonEmitter json_{JsonLayout::Compact};
  Range range_;
  bool quoted_ = false;
  bool colon_follows_ = false;
  std::size_t count_ = 0;
};

std::string sort_key(char group, std::size_t n) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%c%08zu", group, n);
  return buffer;
}

}  // namespace

Reply completion(const OpenDocument& document, Position position) {
  const TextPositions positions(document.text);
  const std::uint64_t cursor = positions.offset(position);
  Scan found = scan(document.text, cursor);
  const Context& context = found.context;
  if (context.slot == Context::Slot::None) return {};
  Items items(positions, context, document.text);
  auto present = [&](std::string_view key) {
    return std::find(found.present_keys.begin(), found.present_keys.end(), key) != found.present_keys.end();
  };

  if (context.slot == Context::Slot::Key && context.role == Role::Story) {
    // The documented keys first, in canonical order (docs/semantics.md §3); then the other keys the document's stories
    // write.
    for (std::size_t i = 0; i < kStoryKeys.size(); ++i)
      if (!present(kStoryKeys[i].key)) items.add_key(kStoryKeys[i], sort_key('0', i));
    for (std::size_t i = 0; i < found.other_story_keys.size(); ++i)
      if (!present(found.other_story_keys[i]))
        items.add_key(
            {found.other_story_keys[i], "Not a documented story key: kept as written, reported at info level."},
            sort_key('1', i));
  } else if (context.slot == Context::Slot::Key && context.role == Role::Dependency) {
    for (std::size_t i = 0; i < kDependencyKeys.size(); ++i)
      if (!present(kDependencyKeys[i].key)) items.add_key(kDependencyKeys[i], sort_key('0', i));
  } else if (context.slot == Context::Slot::Value && context.role == Role::Story && context.key == "story_type") {
    for (std::size_t i = 0; i < kStoryTypes.size(); ++i)
      items.add(kStoryTypes[i].key, kEnumMemberKind, "", kStoryTypes[i].documentation, json::quoted(kStoryTypes[i].key),
                sort_key('0', i));
  } else if (context.slot == Context::Slot::Value && context.role == Role::Dependency && context.key == "type") {
    for (std::int64_t type = 0; type < 4; ++type) {
      const LinkEnds& ends = link_ends(static_cast<DependencyType>(type));
      const std::string detail = std::string(ends.abbreviation) + " · " + std::string(ends.name);
      const std::string documentation =
          "With A the source and B the target: " + std::string(kLinkRules[static_cast<std::size_t>(type)]) + ".";
      items.add(std::to_string(type), kValueKind, detail, documentation, std::to_string(type),
                sort_key('0', static_cast<std::size_t>(type)));
    }
  } else if (context.slot == Context::Slot::Value && context.role == Role::Dependency &&
             (context.key == "source_id" || context.key == "target_id")) {
    // Every temp_id written in the text, in document order; for source_id, the temp_id of the
    // story that holds the dependency first.
    // In a large template, only the first kMaxIds that start with what is typed.
    std::string_view typed =
        std::string_view(document.text).substr(context.replace_begin, cursor - context.replace_begin);
    if (context.quoted && !typed.empty()) typed.remove_prefix(1);
    const bool many = found.stories.size() > kMaxIds;
    bool incomplete = false;
    std::unordered_set<std::string_view> offered;
    for (std::size_t i = 0; i < found.stories.size(); ++i) {
      const SeenStory& story = found.stories[i];
      const bool string = story.temp_id.front() == '"';
      const std::string label =
          string ? string_text(story.temp_id, Token{Token::Type::String, 0, story.temp_id.size(), true, 0})
                 : story.temp_id;
      if (many && !label.starts_with(typed)) {
        incomplete = true;
        continue;
      }
      if (!offered.insert(story.temp_id).second) continue;
      if (offered.size() > kMaxIds) {
        incomplete = true;
        break;
      }
      const bool first = context.key == "source_id" && story.frame == context.owner;
      items.add(label, kReferenceKind, story.title.empty() ? "(untitled)" : story.title, "", story.temp_id,
                sort_key(first ? '0' : '1', i));
    }
    return items.finish(incomplete);
  }
  return items.finish();
}

}  // namespace ptmpl::lsp
