// "Did you mean" suggestions: the one measure of a near miss, for the rules (key-misspelt,
// currency-invalid), the configuration and the command line.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ptmpl {

/// Optimal string alignment distance (Levenshtein with adjacent transpositions), stopping
/// early once it exceeds `limit` (then returns limit + 1).
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit);

/// The candidate `word` was most likely meant as: equal ignoring case, '_' and '-', or within
/// an edit distance of 1 (words under 5 characters) or 2, or else the only candidate one word
/// away (words are the parts between '_' and '-', compared ignoring case: one dropped or added
/// after the first word, or two swapped, both names keeping at least two words in common);
/// nullopt when none is that close.
[[nodiscard]] std::optional<std::string_view> closest(std::string_view word,
                                                      std::span<const std::string_view> candidates);

}  // namespace ptmpl
