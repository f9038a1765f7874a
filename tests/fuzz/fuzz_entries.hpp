// The fuzz targets' bodies, shared by the libFuzzer programs (tests/fuzz/<target>_fuzz.cpp) and
// the regression test that replays tests/data/fuzz/<target>/ in every build. Each entry feeds
// one input to the library as the command line does, checks the invariants the library
// promises about what it returns, and aborts (a crash for the fuzzer) when one is broken.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ptmpl::fuzz {

/// What the library made of an input.
struct Outcome {
  /// True when the input was read (a template, a conversion, a stored request); false when it
  /// was refused with `message`, the error the user sees.
  bool accepted = false;
  std::string message;
};

/// One fuzz target: its name (the directory of its regression inputs under tests/data/fuzz/
/// and the program `<name>_fuzz`), the name its inputs get in messages, and its body.
struct Target {
  std::string_view name;
  std::string_view input_name;
  Outcome (*run)(std::string_view data);
};

/// Every target, by name.
[[nodiscard]] std::span<const Target> targets();
/// The target named `name`; aborts when there is none.
[[nodiscard]] const Target& target(std::string_view name);

/// TemplateFile::parse in the three shapes, then what `fmt` writes (canonical, compact, the
/// API body): the canonical form of the canonical form is the same text.
Outcome read_template(std::string_view data);
/// lint_text with the defaults, every report format, and the safe fixes as `--fix` applies them.
Outcome lint_template(std::string_view data);
/// convert_mspdi; a conversion is a template document in canonical form that reads cleanly.
Outcome convert_mspdi_plan(std::string_view data);
/// convert_gan; the same checks on the result.
Outcome convert_gan_plan(std::string_view data);
/// convert_csv; the same checks on the result.
Outcome convert_csv_plan(std::string_view data);
/// The compound file reader (src/convert/cfb/): open, every entry's place in the tree, every
/// stream (exactly its size, or refused naming the file), `\1CompObj`, the .mpp identification,
/// and what `convert_plan` says of the bytes. Refused: the file, or one of its streams, cannot
/// be read.
Outcome read_compound_file(std::string_view data);
/// The .mpp reader on its own, without a compound file around it: the input is an archive of
/// streams (mpp_stream_archive()): the \1CompObj format string and the application on the first
/// two lines, then for each stream its path from the root ("   114/TBkndTask/FixedMeta") on a
/// line, its size as 4 little-endian bytes and its bytes (cut short where the input ends). So
/// the fuzzer's mutations land in the tables. A conversion must be a canonical template
/// document; a refusal must name the file.
Outcome read_mpp_streams(std::string_view data);
/// The archive of the streams the .mpp reader reads from the .mpp file `mpp` ("" when it is no
/// Microsoft Project plan): the mpp_reader target's seeds.
std::string mpp_stream_archive(std::string_view mpp);
/// convert_plan of a Primavera P6 XER export (the bytes in any code page); a refusal names the
/// file. The same checks on the result.
Outcome convert_xer_plan(std::string_view data);
/// convert_plan of a Primavera P6 PMXML export; the same checks.
Outcome convert_pmxml_plan(std::string_view data);
/// The workbook reader without the deflate around its parts, so that the fuzzer's mutations land
/// in the XML: the input is an archive of parts (workbook_part_archive()), each its name on a
/// line, its size as 4 little-endian bytes and its bytes (cut short where the input ends), made
/// into a zip of stored entries and converted as `ptmpl convert` does. The same checks; a
/// refusal names the file.
Outcome convert_workbook_parts(std::string_view data);
/// The archive of the parts of the workbook `xlsx` (a zip): the xlsx_reader target's seeds.
/// Empty when the bytes are no zip ptmpl can open.
std::string workbook_part_archive(std::string_view xlsx);
/// The sandbox's reading of a request: the first line is `METHOD /path?query`, the rest the
/// body. Queries are decoded by cpp-httplib, as the server does; list requests are read with
/// read_list_request, bodies of POST and PUT with apply_template_body, and what a create or
/// update would store is written and read back as the store does on restart.
Outcome sandbox_request(std::string_view data);
/// git's ignore patterns (IgnorePatterns, src/io/git_ignore.cpp): the input is an ignore file,
/// then a NUL, then paths a line each (at most 32). Each path is matched as a file and as a
/// directory, with and without core.ignoreCase (the fuzzer's timeout holds every match to
/// its polynomial bound), and a pattern that names exactly the path, added last, must ignore
/// it. Refused: a line was skipped (too long), named `.gitignore:LINE`.
Outcome match_ignore_rules(std::string_view data);

}  // namespace ptmpl::fuzz
