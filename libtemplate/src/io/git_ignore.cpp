#include "libtemplate/core/git_ignore.hpp"

#include <bitset>
#include <utility>

#include "libtemplate/core/file_io.hpp"

namespace ptmpl {

namespace detail {

// One position of a name a pattern matches: a byte, any byte ('?'), a set of bytes ('[...]'),
// or any run of bytes ('*'). None matches '/': a pattern matches a path a name at a time.
struct IgnoreToken {
  enum class Kind : std::uint8_t { kByte, kAny, kClass, kStar };
  Kind kind = Kind::kByte;
  unsigned char byte = 0;
  std::uint32_t set = 0;  // kClass: the index of its set
};

// The pattern between two slashes; "**" alone there is a globstar (any number of names).
struct IgnoreSegment {
  bool globstar = false;
  std::vector<IgnoreToken> tokens;
};

}  // namespace detail

namespace {

using Token = detail::IgnoreToken;
using Segment = detail::IgnoreSegment;

unsigned char lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}
unsigned char upper(unsigned char c) {
  return c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c;
}

// The bytes of a POSIX class of wildmatch ("[[:alpha:]]"), ASCII only as git's are; false for a
// name git does not know (the pattern then matches nothing).
bool add_posix_class(std::string_view name, std::bitset<256>& set) {
  auto add_if = [&](auto predicate) {
    for (int c = 0; c < 128; ++c)
      if (predicate(c)) set.set(c);
  };
  auto alpha = [](int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto digit = [](int c) { return c >= '0' && c <= '9'; };
  auto graph = [](int c) { return c > 0x20 && c < 0x7f; };
  if (name == "alnum")
    add_if([&](int c) { return alpha(c) || digit(c); });
  else if (name == "alpha")
    add_if(alpha);
  else if (name == "blank")
    add_if([](int c) { return c == ' ' || c == '\t'; });
  else if (name == "cntrl")
    add_if([](int c) { return c < 0x20 || c == 0x7f; });
  else if (name == "digit")
    add_if(digit);
  else if (name == "graph")
    add_if(graph);
  else if (name == "lower")
    add_if([](int c) { return c >= 'a' && c <= 'z'; });
  else if (name == "print")
    add_if([&](int c) { return graph(c) || c == ' '; });
  else if (name == "punct")
    add_if([&](int c) { return graph(c) && !alpha(c) && !digit(c); });
  else if (name == "space")
    add_if([](int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
  else if (name == "upper")
    add_if([](int c) { return c >= 'A' && c <= 'Z'; });
  else if (name == "xdigit")
    add_if([&](int c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); });
  else
    return false;
  return true;
}

// Reads the class that starts after the '[' at `text[i]`, as git's wildmatch reads it ("[!a-z]",
// "[]x]", "[[:digit:]_]", '\' escaping): the set, and where the class ends (after its ']').
// nullopt when the class is not closed or names an unknown POSIX class: git's pattern then
// matches nothing.
std::optional<std::pair<std::bitset<256>, std::size_t>> read_class(std::string_view text, std::size_t i) {
  std::bitset<256> set;
  const bool negated = i < text.size() && (text[i] == '!' || text[i] == '^');
  if (negated) ++i;
  int previous = -1;  // the byte before a '-', when it can start a range
  do {
    if (i >= text.size()) return std::nullopt;
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      if (++i >= text.size()) return std::nullopt;
      c = static_cast<unsigned char>(text[i]);
      set.set(c);
      previous = c;
    } else if (c == '-' && previous >= 0 && i + 1 < text.size() && text[i + 1] != ']') {
      auto last = static_cast<unsigned char>(text[++i]);
      if (last == '\\') {
        if (++i >= text.size()) return std::nullopt;
        last = static_cast<unsigned char>(text[i]);
      }
      for (int b = previous; b <= last; ++b) set.set(b);
      previous = -1;
    } else if (c == '[' && i + 1 < text.size() && text[i + 1] == ':') {
      const std::size_t close = text.find(']', i + 2);
      if (close == std::string_view::npos) return std::nullopt;
      if (close - (i + 2) < 1 || text[close - 1] != ':') {
        set.set('[');  // no ":]": an ordinary '['
        previous = '[';
      } else {
        if (!add_posix_class(text.substr(i + 2, close - 1 - (i + 2)), set)) return std::nullopt;
        i = close;
        previous = -1;
      }
    } else {
      set.set(c);
      previous = c;
    }
    ++i;
  } while (i >= text.size() || text[i] != ']');
  if (negated) set.flip();
  set.reset('/');
  return std::pair{set, i + 1};
}

// The greedy match of a name against one segment's tokens, going back only to the last '*':
// O(name × tokens) at worst, never exponential. `classes` holds the sets of kClass tokens.
bool match_name(const std::vector<Token>& tokens, std::string_view name, const std::vector<std::bitset<256>>& classes,
                bool ignore_case) {
  auto matches = [&](const Token& token, unsigned char c) {
    switch (token.kind) {
      case Token::Kind::kByte:
        return token.byte == c || (ignore_case && lower(token.byte) == lower(c));
      case Token::Kind::kAny:
        return true;
      case Token::Kind::kClass: {
        const std::bitset<256>& set = classes[token.set];
        return set.test(c) || (ignore_case && (set.test(lower(c)) || set.test(upper(c))));
      }
      case Token::Kind::kStar:
        return false;
    }
    return false;
  };
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, star_text = 0;
  while (t < name.size()) {
    if (p < tokens.size() && tokens[p].kind == Token::Kind::kStar) {
      star = ++p;
      star_text = t;
    } else if (p < tokens.size() && matches(tokens[p], static_cast<unsigned char>(name[t]))) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < tokens.size() && tokens[p].kind == Token::Kind::kStar) ++p;
  return p == tokens.size();
}

std::vector<std::string_view> split_names(std::string_view path) {
  std::vector<std::string_view> names;
  for (std::size_t start = 0;;) {
    const std::size_t slash = path.find('/', start);
    names.push_back(path.substr(start, slash - start));
    if (slash == std::string_view::npos) return names;
    start = slash + 1;
  }
}

// git drops trailing spaces unless the last is escaped ("a\ ").
std::string_view trim_trailing_spaces(std::string_view line) {
  std::size_t end = line.size();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ' ') {
      if (end == line.size()) end = i;
      continue;
    }
    if (line[i] == '\\' && ++i == line.size()) return line;
    end = line.size();
  }
  return line.substr(0, end);
}

}  // namespace

struct IgnorePatterns::Pattern {
  bool negative = false;
  bool directory_only = false;   // a trailing '/'
  bool name_only = false;        // no '/' but a trailing one: matches the last name at any depth
  bool matches_nothing = false;  // a '[' not closed, an unknown class, a trailing '\'
  bool has_globstar = false;
  std::vector<Segment> segments;
  std::vector<std::bitset<256>> classes;

  // Reads `text` (without '!' and the trailing '/'). A name-only pattern is one segment, in
  // which "**" is '*' (no name holds '/').
  void compile(std::string_view text) {
    segments.emplace_back();
    std::size_t stars = 0;  // the '*' of the current segment, while it holds nothing else
    bool only_stars = true;
    auto close_segment = [&] {
      if (name_only || !only_stars || stars < 2) return;
      segments.back() = Segment{true, {}};
      has_globstar = true;
    };
    for (std::size_t i = 0; i < text.size();) {
      const char c = text[i];
      std::vector<Token>& tokens = segments.back().tokens;
      if (c == '*') {
        if (tokens.empty() || tokens.back().kind != Token::Kind::kStar) tokens.push_back(Token{Token::Kind::kStar});
        ++stars;
        ++i;
        continue;
      }
      if (c == '/' || (c == '\\' && i + 1 < text.size() && text[i + 1] == '/')) {
        close_segment();
        segments.emplace_back();
        stars = 0;
        only_stars = true;
        i += c == '/' ? 1 : 2;
        continue;
      }
      only_stars = false;
      if (c == '?') {
        tokens.push_back(Token{Token::Kind::kAny});
        ++i;
      } else if (c == '[') {
        auto read = read_class(text, i + 1);
        if (!read) {
          matches_nothing = true;
          return;
        }
        tokens.push_back(Token{Token::Kind::kClass, 0, static_cast<std::uint32_t>(classes.size())});
        classes.push_back(read->first);
        i = read->second;
      } else {
        if (c == '\\' && ++i == text.size()) {
          matches_nothing = true;
          return;
        }
        tokens.push_back(Token{Token::Kind::kByte, static_cast<unsigned char>(text[i])});
        ++i;
      }
    }
    close_segment();
  }

  bool matches_segment(std::size_t i, std::string_view name, bool ignore_case) const {
    return match_name(segments[i].tokens, name, classes, ignore_case);
  }

  // Whether the segments match the names: a globstar takes any number of names, but one at the
  // end at least one ("a/**" is what is inside a, not a). Dynamic programming over (segment,
  // name): O(segments × names) matches of a name, never exponential.
  bool matches_names(const std::vector<std::string_view>& names, bool ignore_case) const {
    const std::size_t count = segments.size();
    if (!has_globstar) {
      if (names.size() != count) return false;
      for (std::size_t i = 0; i < count; ++i)
        if (!matches_segment(i, names[i], ignore_case)) return false;
      return true;
    }
    // next[j]: segments i+1.. match names j..; row for segment i computed from it.
    std::vector<char> next(names.size() + 1, 0), row(names.size() + 1, 0);
    next[names.size()] = 1;
    for (std::size_t i = count; i-- > 0;) {
      const bool last = i + 1 == count;
      for (std::size_t j = names.size() + 1; j-- > 0;) {
        if (segments[i].globstar)
          row[j] = last ? j < names.size() : (next[j] || (j < names.size() && row[j + 1]));
        else
          row[j] = j < names.size() && next[j + 1] && matches_segment(i, names[j], ignore_case);
      }
      std::swap(row, next);
    }
    return next[0] != 0;
  }
};

IgnorePatterns::IgnorePatterns() = default;
IgnorePatterns::IgnorePatterns(IgnorePatterns&&) noexcept = default;
IgnorePatterns& IgnorePatterns::operator=(IgnorePatterns&&) noexcept = default;
IgnorePatterns::~IgnorePatterns() = default;

IgnorePatterns IgnorePatterns::parse(std::string_view text, std::string base, const std::string& name,
                                     std::vector<Error>& problems) {
  IgnorePatterns out;
  out.base_ = std::move(base);
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    if (line.ends_with('\r')) line.remove_suffix(1);
    line = trim_trailing_spaces(line);
    if (line.size() > kMaxPatternBytes) {
      problems.push_back(Error::invalid(name + ":" + std::to_string(line_number) + ": a pattern of " +
                                        std::to_string(line.size()) + " bytes, more than the " +
                                        std::to_string(kMaxPatternBytes) + " a pattern may have; skipped"));
      continue;
    }
    Pattern pattern;
    if (line.starts_with('!')) {
      pattern.negative = true;
      line.remove_prefix(1);
    }
    if (line.ends_with('/')) {
      pattern.directory_only = true;
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    pattern.name_only = line.find('/') == std::string_view::npos;
    if (!pattern.name_only && line.starts_with('/')) line.remove_prefix(1);
    pattern.compile(line);
    if (!pattern.matches_nothing) out.patterns_.push_back(std::move(pattern));
  }
  return out;
}

std::optional<bool> IgnorePatterns::verdict(std::string_view path, bool directory, bool ignore_case) const {
  if (!path.starts_with(base_) || path.size() == base_.size()) return std::nullopt;
  path.remove_prefix(base_.size());
  const std::vector<std::string_view> names = split_names(path);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->directory_only && !directory) continue;
    const bool matched =
        it->name_only ? it->matches_segment(0, names.back(), ignore_case) : it->matches_names(names, ignore_case);
    if (matched) return !it->negative;
  }
  return std::nullopt;
}

GitIgnoreRules::GitIgnoreRules(Settings settings) : settings_(std::move(settings)) {
  for (const std::string& file : settings_.global_files)
    if (auto patterns = read_file(file, "")) global_.push_back(std::move(*patterns));
}
GitIgnoreRules::GitIgnoreRules(GitIgnoreRules&&) noexcept = default;
GitIgnoreRules& GitIgnoreRules::operator=(GitIgnoreRules&&) noexcept = default;
GitIgnoreRules::~GitIgnoreRules() = default;

std::optional<IgnorePatterns> GitIgnoreRules::read_file(const std::string& path, const std::string& base) {
  auto text = FileText::read_regular(path, IgnorePatterns::kMaxFileBytes);
  if (!text.ok()) {
    if (text.error().code != ErrorCode::kNotFound)
      problems_.push_back(Error{text.error().code, text.error().message + "; its ignore patterns are not applied"});
    return std::nullopt;
  }
  return IgnorePatterns::parse(text.value().text(), base, path, problems_);
}

const IgnorePatterns* GitIgnoreRules::patterns_of_directory(const std::string& directory) {
  auto known = per_directory_.find(directory);
  if (known == per_directory_.end()) {
    const std::string base = directory.empty() ? std::string() : directory + "/";
    known = per_directory_.emplace(directory, read_file(settings_.work_tree + "/" + base + ".gitignore", base)).first;
  }
  return known->second ? &*known->second : nullptr;
}

bool GitIgnoreRules::ignored(std::string_view path, bool directory) {
  // Each directory above first, from the top: what is below an ignored one is ignored, and its
  // .gitignore is never read (git never reads it).
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1))
    if (directory_ignored(path.substr(0, slash))) return true;
  return directory ? directory_ignored(path) : decide(path, false);
}

bool GitIgnoreRules::directory_ignored(std::string_view directory) {
  auto known = directory_ignored_.find(directory);
  if (known == directory_ignored_.end())
    known = directory_ignored_.emplace(std::string(directory), decide(directory, true)).first;
  return known->second;
}

bool GitIgnoreRules::decide(std::string_view path, bool directory) {
  // The .gitignore of the nearest directory first, up to the top's.
  std::string_view above = path;
  do {
    const std::size_t cut = above.rfind('/');
    above = cut == std::string_view::npos ? std::string_view() : above.substr(0, cut);
    if (const IgnorePatterns* patterns = patterns_of_directory(std::string(above)))
      if (std::optional<bool> verdict = patterns->verdict(path, directory, settings_.ignore_case)) return *verdict;
  } while (!above.empty());
  for (const IgnorePatterns& patterns : global_)
    if (std::optional<bool> verdict = patterns.verdict(path, directory, settings_.ignore_case)) return *verdict;
  return false;
}

std::vector<Error> GitIgnoreRules::take_problems() {
  return std::exchange(problems_, {});
}

}  // namespace ptmpl
