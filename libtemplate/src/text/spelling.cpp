#include "libtemplate/core/spelling.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace ptmpl {

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if (a.size() > b.size() + limit || b.size() > a.size() + limit) return limit + 1;
  // Three rows of the dynamic programme: two back (for transpositions), previous, current.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    std::size_t row_min = current[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
      row_min = std::min(row_min, current[j]);
    }
    if (row_min > limit) return limit + 1;
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return std::min(previous[b.size()], limit + 1);
}

namespace {

std::string folded(std::string_view word) {
  std::string out;
  for (char c : word)
    if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

using Words = std::vector<std::string_view>;

// The words of a name: its non-empty parts between '_' and '-'.
Words words_of(std::string_view name) {
  Words words;
  while (!name.empty()) {
    std::size_t end = name.find_first_of("_-");
    if (end != 0) words.push_back(name.substr(0, end));
    if (end == std::string_view::npos) break;
    name.remove_prefix(end + 1);
  }
  return words;
}

bool same_word(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

// True when `longer` is `shorter` with one word more, after the first: the first word
// qualifies the rest (`start_date` is a date of its own, not `relative_start_date`).
bool one_word_more(const Words& longer, const Words& shorter) {
  if (longer.size() != shorter.size() + 1 || !same_word(longer[0], shorter[0])) return false;
  std::size_t i = 1;
  while (i < shorter.size() && same_word(shorter[i], longer[i])) ++i;
  return std::equal(shorter.begin() + static_cast<std::ptrdiff_t>(i), shorter.end(),
                    longer.begin() + static_cast<std::ptrdiff_t>(i) + 1, same_word);
}

// True when `a` is `b` with two of its words exchanged.
bool two_words_exchanged(const Words& a, const Words& b) {
  if (a.size() != b.size()) return false;
  std::vector<std::size_t> differ;
  for (std::size_t i = 0; i < a.size() && differ.size() <= 2; ++i)
    if (!same_word(a[i], b[i])) differ.push_back(i);
  return differ.size() == 2 && same_word(a[differ[0]], b[differ[1]]) && same_word(a[differ[1]], b[differ[0]]);
}

// One word dropped or added (not the first), or two swapped, the names keeping at least two
// words in common (a one-word name is no word away from anything).
bool one_word_apart(const Words& a, const Words& b) {
  if (std::min(a.size(), b.size()) < 2) return false;
  return one_word_more(a, b) || one_word_more(b, a) || two_words_exchanged(a, b);
}

}  // namespace

std::optional<std::string_view> closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::string key = folded(word);
  for (std::string_view candidate : candidates)
    if (folded(candidate) == key) return candidate;
  std::size_t limit = word.size() < 5 ? 1 : 2;
  std::optional<std::string_view> best;
  std::size_t best_distance = limit + 1;
  for (std::string_view candidate : candidates) {
    std::size_t d = edit_distance(word, candidate, limit);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  if (best) return best;
  // Whole words: the one candidate a word away (several are no answer).
  const Words words = words_of(word);
  if (words.size() < 2) return std::nullopt;
  std::optional<std::string_view> only;
  for (std::string_view candidate : candidates) {
    if (!one_word_apart(words, words_of(candidate))) continue;
    if (only) return std::nullopt;
    only = candidate;
  }
  return only;
}

}  // namespace ptmpl
