// The story keys MSPDI has no element of its own for, which an export writes as MS Project
// extended attributes (custom task text fields) named by an alias, so that template → MSPDI →
// template keeps them (docs/commands/convert.md, "Template → Microsoft Project XML"). Shared by
// the MSPDI writer and reader. Private to the converters.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptmpl::detail::mspdi {

enum class StoryField : std::uint8_t { Tags, Checklist, Weight, TempId };

struct ExtendedField {
  StoryField field;
  std::string_view field_id;    ///< MS Project's FieldID of the custom field
  std::string_view field_name;  ///< its name in MS Project
  /// The name the export gives it, which the reader recognises it by: another file may use the
  /// same field for something else.
  std::string_view alias;
};

// MS Project's task custom fields Text1–Text4 (pjCustomTaskText1 = 188743731, Text2 …734,
// Text3 …737, Text4 …740). Values: the tag_list as written (commas and all); the checklist as
// a JSON array of strings on one line; the weight and the temp_id as their text.
inline constexpr ExtendedField kExtendedFields[] = {
    {StoryField::Tags, "188743731", "Text1", "ptmpl tags"},
    {StoryField::Checklist, "188743734", "Text2", "ptmpl checklist"},
    {StoryField::Weight, "188743737", "Text3", "ptmpl weight"},
    {StoryField::TempId, "188743740", "Text4", "ptmpl temp_id"},
};

/// The field whose alias is `alias`; nullopt for any other.
[[nodiscard]] inline std::optional<StoryField> field_of_alias(std::string_view alias) {
  for (const ExtendedField& f : kExtendedFields)
    if (f.alias == alias) return f.field;
  return std::nullopt;
}

[[nodiscard]] inline const ExtendedField& extended_field(StoryField field) {
  return kExtendedFields[static_cast<std::size_t>(field)];
}

}  // namespace ptmpl::detail::mspdi
