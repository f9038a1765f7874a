#include "fuzz_entries.hpp"

#include <httplib.h>
#include <zip.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "json/reader.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/fix.hpp"
#include "libtemplate/core/git_ignore.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/report.hpp"
#include "libtemplate/core/template_file.hpp"
#include "libtemplate/core/writer.hpp"
#include "sandbox/request.hpp"
#include "sandbox/template_store.hpp"

namespace ptmpl::fuzz {
namespace {

constexpr std::array kTargets = {
    Target{"template_reader", "fuzz.json", read_template},
    Target{"lint", "fuzz.json", lint_template},
    Target{"mspdi_reader", "fuzz.xml", convert_mspdi_plan},
    Target{"gan_reader", "fuzz.gan", convert_gan_plan},
    Target{"csv_reader", "fuzz.csv", convert_csv_plan},
    Target{"sandbox_request", "request", sandbox_request},
    Target{"cfb_reader", "fuzz.mpp", read_compound_file},
    Target{"mpp_reader", "fuzz.mpp", read_mpp_streams},
    Target{"ignore_rules", ".gitignore", match_ignore_rules},
    Target{"xer_reader", "fuzz.xer", convert_xer_plan},
    Target{"pmxml_reader", "fuzz.xml", convert_pmxml_plan},
    Target{"xlsx_reader", "fuzz.xlsx", convert_workbook_parts},
};

/// A broken promise of the library: a crash for the fuzzer, a failed test for the replay.
[[noreturn]] void broken(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz invariant broken: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

std::string place(const TemplateFile& file, std::uint64_t offset) {
  json::Position p = file.document().position(offset);
  return file.path() + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

/// What the converters return must be a template document in canonical form with no syntax
/// issue: `ptmpl convert` writes it as the user's new file.
Outcome check_conversion(const Result<Conversion>& converted, const std::string& path) {
  if (!converted.ok()) {
    if (converted.error().message.empty()) broken("a conversion failed without a message");
    return {false, converted.error().message};
  }
  const std::string& document = converted.value().document;
  TemplateFile file = TemplateFile::parse(path + ".json", FileText::borrow(document));
  if (!file.document().ok()) broken("a conversion is not valid JSON", document);
  if (file.shape() != Shape::TemplateDocument) broken("a conversion is not a template document", document);
  if (file.document().truncated()) return {true, ""};  // deeper than the reader keeps: lint reports it
  if (write_canonical(file.document().root(), file.shape()) != document)
    broken("a conversion is not in canonical form", document);
  for (const Diagnostic& d : converted.value().diagnostics)
    if (d.rule.empty() || d.message.empty()) broken("a conversion finding without a rule or message", d.message);
  return {true, ""};
}

}  // namespace

std::span<const Target> targets() {
  return kTargets;
}

const Target& target(std::string_view name) {
  for (const Target& t : kTargets)
    if (t.name == name) return t;
  broken("no fuzz target named", name);
}

Outcome read_template(std::string_view data) {
  const std::string path(target("template_reader").input_name);
  // The fast reader and RapidJSON's (its fallback and reference) read every text alike.
  if (std::string difference = json::reading_difference(data); !difference.empty())
    broken("the fast reader's reading differs from the reference's", difference);
  TemplateFile file = TemplateFile::parse(path, FileText::borrow(data));
  const json::Document& doc = file.document();
  if (!doc.ok()) {
    if (doc.issues().empty()) broken("a syntax error without an issue");
    const json::ParseIssue& issue = doc.issues().front();
    return {false, place(file, issue.offset) + ": error: " + issue.message + " [json-syntax]"};
  }
  if (doc.truncated()) return {false, path + ": nesting deeper than the bound; fmt does not rewrite it"};
  // What fmt writes; its canonical form is a fixed point.
  std::string canonical = write_canonical(doc.root(), file.shape());
  {
    // The tree after its text is let go (lint, schedule and stats of a file) is the same tree:
    // its strings and numbers moved within its own bytes, the rest of them wiped.
    std::string bytes(data);
    json::Document detached = json::Document::parse(bytes);
    const std::size_t used =
        detached.detach_text(bytes.data(), []() -> std::pair<std::shared_ptr<const void>, std::string_view> {
          broken("writing a tree whose text was let go asked for the text");
        });
    std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(used), bytes.end(), '\0');
    if (write_canonical(detached.root(), file.shape()) != canonical)
      broken("the tree whose text was let go writes another canonical form", canonical);
  }
  TemplateFile again = TemplateFile::parse(path, FileText::borrow(canonical));
  if (!again.document().ok()) broken("the canonical form does not parse", canonical);
  if (again.shape() != file.shape()) broken("the canonical form changes the shape", canonical);
  if (write_canonical(again.document().root(), again.shape()) != canonical)
    broken("the canonical form of the canonical form differs", canonical);
  (void)write_compact(doc.root(), file.shape());
  for (const TemplateSource& source : file.templates()) {
    if (source.template_pointer.empty()) continue;
    const json::Value* project_template = json::resolve_pointer(doc.root(), source.template_pointer);
    if (project_template == nullptr) broken("a template pointer that does not resolve", source.template_pointer);
    if (project_template->is_object()) (void)write_api_body(*project_template);
  }
  return {true, ""};
}

Outcome lint_template(std::string_view data) {
  const std::string path(target("lint").input_name);
  LintRun run;
  run.files.push_back({.path = path, .error = {}});
  run.diagnostics = lint_text(path, data);
  for (ReportFormat format : {ReportFormat::Text, ReportFormat::Json, ReportFormat::Sarif, ReportFormat::Github,
                              ReportFormat::Junit, ReportFormat::Gitlab}) {
    ReportOptions options;
    options.excerpt = options.statistics = true;
    // Every format says something, even about a clean file, except GitHub's annotations.
    if (format_report(format, run, options).empty() && format != ReportFormat::Github) broken("an empty report");
  }
  FixResult fixed = apply_fixes(data, run.diagnostics);
  (void)unified_diff(path, data, fixed.text);
  for (const Diagnostic& d : run.diagnostics) {
    if (d.path != path || d.rule.empty() || d.message.empty()) broken("a finding without its file, rule or message");
    if (d.rule == "json-syntax" || d.rule == "nesting-depth") {
      if (d.line == 0) broken("a syntax finding without a line", d.message);
      return {false, d.path + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message};
    }
  }
  return {true, ""};
}

Outcome convert_mspdi_plan(std::string_view data) {
  const std::string path(target("mspdi_reader").input_name);
  return check_conversion(convert_mspdi(data, path), path);
}

Outcome convert_gan_plan(std::string_view data) {
  const std::string path(target("gan_reader").input_name);
  return check_conversion(convert_gan(data, path), path);
}

Outcome convert_csv_plan(std::string_view data) {
  const std::string path(target("csv_reader").input_name);
  return check_conversion(convert_csv(data, path), path);
}

// A refusal of `path`'s conversion names the file.
Outcome check_named_conversion(const Result<Conversion>& converted, const std::string& path) {
  if (!converted.ok() && !converted.error().message.starts_with(path))
    broken("a conversion error that does not name the file", converted.error().message);
  return check_conversion(converted, path);
}

Outcome convert_xer_plan(std::string_view data) {
  const std::string path(target("xer_reader").input_name);
  return check_named_conversion(convert_plan(data, path), path);
}

Outcome convert_pmxml_plan(std::string_view data) {
  const std::string path(target("pmxml_reader").input_name);
  return check_named_conversion(convert_plan(data, path), path);
}

namespace {

void put_u16(std::string& out, std::uint32_t value) {
  out += static_cast<char>(value & 0xFF);
  out += static_cast<char>((value >> 8) & 0xFF);
}
void put_u32(std::string& out, std::uint32_t value) {
  put_u16(out, value & 0xFFFF);
  put_u16(out, value >> 16);
}

// The CRC-32 of zip entries (the reflected polynomial 0xEDB88320).
std::uint32_t crc32_of(std::string_view bytes) {
  std::uint32_t crc = 0xFFFFFFFF;
  for (const char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320 & (0 - (crc & 1)));
  }
  return ~crc;
}

// A zip archive of stored (uncompressed) entries, as APPNOTE 6.3 lays one out: each local header
// and its bytes, then the central directory and its end record.
std::string stored_zip(const std::vector<std::pair<std::string, std::string>>& parts) {
  std::string zip, directory;
  for (const auto& [name, bytes] : parts) {
    const std::uint32_t crc = crc32_of(bytes);
    const auto offset = static_cast<std::uint32_t>(zip.size());
    const auto size = static_cast<std::uint32_t>(bytes.size());
    const auto name_size = static_cast<std::uint32_t>(name.size());
    put_u32(zip, 0x04034b50);
    put_u16(zip, 20);  // version needed
    put_u16(zip, 0);   // flags
    put_u16(zip, 0);   // stored
    put_u32(zip, 0);   // time and date
    put_u32(zip, crc);
    put_u32(zip, size);
    put_u32(zip, size);
    put_u16(zip, name_size);
    put_u16(zip, 0);
    zip += name;
    zip += bytes;
    put_u32(directory, 0x02014b50);
    put_u16(directory, 20);
    put_u16(directory, 20);
    put_u16(directory, 0);
    put_u16(directory, 0);
    put_u32(directory, 0);
    put_u32(directory, crc);
    put_u32(directory, size);
    put_u32(directory, size);
    put_u16(directory, name_size);
    put_u16(directory, 0);  // extra
    put_u16(directory, 0);  // comment
    put_u16(directory, 0);  // disk
    put_u16(directory, 0);  // internal attributes
    put_u32(directory, 0);  // external attributes
    put_u32(directory, offset);
    directory += name;
  }
  const auto directory_at = static_cast<std::uint32_t>(zip.size());
  zip += directory;
  put_u32(zip, 0x06054b50);
  put_u16(zip, 0);
  put_u16(zip, 0);
  put_u16(zip, static_cast<std::uint32_t>(parts.size()));
  put_u16(zip, static_cast<std::uint32_t>(parts.size()));
  put_u32(zip, static_cast<std::uint32_t>(directory.size()));
  put_u32(zip, directory_at);
  put_u16(zip, 0);
  return zip;
}

}  // namespace

Outcome convert_workbook_parts(std::string_view data) {
  const std::string path(target("xlsx_reader").input_name);
  std::vector<std::pair<std::string, std::string>> parts;
  while (!data.empty() && parts.size() < 64) {
    const std::size_t line_end = data.find('\n');
    if (line_end == std::string_view::npos || line_end > 256) break;
    std::string name(data.substr(0, line_end));
    data.remove_prefix(line_end + 1);
    if (data.size() < 4) break;
    std::uint32_t size = 0;
    for (int i = 3; i >= 0; --i) size = size << 8 | static_cast<unsigned char>(data[static_cast<std::size_t>(i)]);
    data.remove_prefix(4);
    const std::string_view bytes = data.substr(0, size);
    data.remove_prefix(bytes.size());
    parts.emplace_back(std::move(name), std::string(bytes));
  }
  return check_named_conversion(convert_plan(stored_zip(parts), path), path);
}

std::string workbook_part_archive(std::string_view xlsx) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(xlsx.data(), xlsx.size(), 0, &error);
  if (source == nullptr) return "";
  zip_t* archive = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_source_free(source);
    return "";
  }
  std::string out;
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t stat;
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &stat) != 0 || stat.size > (64u << 20)) continue;
    zip_file_t* file = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    if (file == nullptr) continue;
    std::string bytes(stat.size, '\0');
    const zip_int64_t read = zip_fread(file, bytes.data(), bytes.size());
    zip_fclose(file);
    if (read < 0) continue;
    bytes.resize(static_cast<std::size_t>(read));
    out += stat.name;
    out += '\n';
    put_u32(out, static_cast<std::uint32_t>(bytes.size()));
    out += bytes;
  }
  zip_close(archive);
  return out;
}

Outcome read_compound_file(std::string_view data) {
  const std::string path(target("cfb_reader").input_name);
  auto named = [&](const Error& error) {
    if (!error.message.starts_with(path + ": "))
      broken("a compound file error that does not name the file", error.message);
  };
  // What `convert` says of the bytes: a compound file converts (an MPP14 .mpp) or is refused
  // with a reason, never read as another format.
  if (cfb::has_signature(data)) {
    if (Result<Conversion> converted = convert_plan(data, path); converted.ok()) {
      (void)check_conversion(converted, path);
    } else {
      named(converted.error());
    }
  }
  Result<cfb::CompoundFile> opened = cfb::CompoundFile::open(FileText::borrow(data), path);
  if (!opened.ok()) {
    named(opened.error());
    return {false, opened.error().message};
  }
  const cfb::CompoundFile& file = opened.value();
  if (file.root().type != cfb::EntryType::Root) broken("the first entry is not the root");
  // Each entry is some storage's child once; the tree holds no more entries than the file has
  // room for.
  std::vector<int> parents(file.entry_count(), 0);
  for (std::size_t i = 0; i < file.entry_count(); ++i) {
    const cfb::Entry& entry = file.entry(static_cast<std::uint32_t>(i));
    if (!entry.is_storage() && !entry.children.empty()) broken("a stream with children");
    for (std::uint32_t child : entry.children) {
      if (child >= file.entry_count() || child == 0) broken("a child outside the tree");
      if (++parents[child] != 1) broken("an entry in two storages");
      if (file.entry(child).parent != i) broken("a child whose parent is another storage");
    }
  }
  if (file.entry_count() > data.size() / 128) broken("more entries than the file holds");
  // Every stream reads whole with its size, or is refused naming the file; reading stops after
  // 64 times the input (entries may share one chain: each read is bounded, not their sum).
  std::uint64_t read = 0;
  std::string first_refusal;
  for (std::size_t i = 0; i < file.entry_count() && read <= 64 * std::uint64_t{data.size()}; ++i) {
    const cfb::Entry& entry = file.entry(static_cast<std::uint32_t>(i));
    if (entry.is_storage()) continue;
    Result<std::string> bytes = file.read_stream(entry);
    if (bytes.ok()) {
      if (bytes.value().size() != entry.size) broken("a stream read with another size than its entry's");
      read += bytes.value().size();
    } else {
      named(bytes.error());
      if (first_refusal.empty()) first_refusal = bytes.error().message;
    }
  }
  if (Result<cfb::CompObj> comp_obj = cfb::read_comp_obj(file); !comp_obj.ok()) {
    if (comp_obj.error().code != ErrorCode::kNotFound) named(comp_obj.error());
  }
  if (Result<detail::MppFormat> format = detail::identify_mpp(file); !format.ok()) named(format.error());
  if (!first_refusal.empty()) return {false, first_refusal};
  return {true, ""};
}

namespace {

constexpr std::string_view kFormatPrefix = "MSProject.MPP";

// The next line of `data` from `at` (without its newline); npos-safe.
std::string_view next_line(std::string_view data, std::size_t& at) {
  const std::size_t end = std::min(data.find('\n', at), data.size());
  std::string_view line = data.substr(at, end - at);
  at = end < data.size() ? end + 1 : data.size();
  return line;
}

// Whether a stream is one the .mpp reader reads: the root's Props, the folder's Props and its
// tables; the rest (views, filters, summary information) is left out of the archives.
bool read_by_the_reader(const std::vector<std::string_view>& steps) {
  if (steps.size() == 1) return steps[0].starts_with("Props");
  if (steps.size() == 2) return steps[1] == "Props";
  return steps.size() == 3 && steps[1].starts_with("TBknd");
}

}  // namespace

Outcome read_mpp_streams(std::string_view data) {
  const std::string path(target("mpp_reader").input_name);
  std::size_t at = 0;
  detail::MppFormat format;
  format.format = std::string(next_line(data, at));
  format.application = std::string(next_line(data, at));
  if (format.format.starts_with(kFormatPrefix)) {
    const std::string_view digits = std::string_view(format.format).substr(kFormatPrefix.size());
    int version = 0;
    if (auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
        error == std::errc() && end == digits.data() + digits.size())
      format.version = version;
  }
  detail::StreamMap streams;
  while (at < data.size()) {
    const std::string name(next_line(data, at));
    std::uint32_t size = 0;
    const std::size_t header = std::min<std::size_t>(4, data.size() - at);
    std::memcpy(&size, data.data() + at, header);
    at += header;
    const std::size_t taken = std::min<std::size_t>(size, data.size() - at);
    streams.streams[name] = std::string(data.substr(at, taken));
    at += taken;
  }
  Result<Conversion> converted = detail::convert_mpp_streams(streams, format, path, ConvertOptions{});
  if (!converted.ok() && !converted.error().message.starts_with(path + ": "))
    broken("an .mpp error that does not name the file", converted.error().message);
  return check_conversion(converted, path);
}

std::string mpp_stream_archive(std::string_view mpp) {
  Result<cfb::CompoundFile> opened = cfb::CompoundFile::open(FileText::borrow(mpp), "seed.mpp");
  if (!opened.ok()) return {};
  const cfb::CompoundFile& file = opened.value();
  Result<detail::MppFormat> format = detail::identify_mpp(file);
  if (!format.ok()) return {};
  std::string out = format.value().format + "\n" + format.value().application + "\n";
  // Entries in the directory's order, each with its path from the root.
  for (std::size_t i = 1; i < file.entry_count(); ++i) {
    const cfb::Entry& entry = file.entry(static_cast<std::uint32_t>(i));
    if (entry.is_storage()) continue;
    std::vector<std::string_view> steps;
    for (std::uint32_t at = static_cast<std::uint32_t>(i); at != 0; at = file.entry(at).parent)
      steps.insert(steps.begin(), file.entry(at).name);
    if (!read_by_the_reader(steps)) continue;
    Result<std::string> bytes = file.read_stream(entry);
    if (!bytes.ok()) continue;
    std::string name;
    for (std::string_view step : steps) name += (name.empty() ? "" : "/") + std::string(step);
    const auto size = static_cast<std::uint32_t>(bytes.value().size());
    out += name + "\n";
    out.append(reinterpret_cast<const char*>(&size), 4);
    out += bytes.value();
  }
  return out;
}

Outcome sandbox_request(std::string_view data) {
  auto newline = data.find('\n');
  std::string_view line = data.substr(0, newline);
  std::string_view body = newline == std::string_view::npos ? std::string_view() : data.substr(newline + 1);
  auto space = line.find(' ');
  if (space == std::string_view::npos) return {false, "not a request line"};
  std::string method(line.substr(0, space));
  std::string target_text(line.substr(space + 1));
  auto question = target_text.find('?');
  std::string path = target_text.substr(0, question);
  sandbox::Params params;
  if (question != std::string::npos) httplib::detail::parse_query_text(target_text.substr(question + 1), params);

  auto refused = [](const sandbox::RequestError& error) {
    if (error.status < 400 || error.status > 499 || error.errors.empty()) broken("a refusal without a 4xx and errors");
    std::string message = std::to_string(error.status);
    for (const auto& e : error.errors) {
      if (e.type.empty() || e.message.empty()) broken("an error without a type or message");
      message += " " + e.message + ";";
    }
    return Outcome{false, message};
  };
  // What the store writes for a template must read back when the sandbox restarts.
  auto stored = [](sandbox::StoredTemplate t) {
    t.item_count = sandbox::count_stories(t.raw_json);
    JsonEmitter json(JsonLayout::Compact);
    sandbox::write_template_json(t, true, json);
    const std::string text = json.finish();
    auto back = sandbox::parse_stored("1.json", text);
    if (!back.ok()) broken("a stored template does not read back", back.error().message);
    const sandbox::StoredTemplate& r = back.value();
    if (r.title != t.title || r.description != t.description || r.raw_json != t.raw_json || r.currency != t.currency ||
        r.duration != t.duration || r.item_count != t.item_count || r.shared != t.shared ||
        r.is_budgeted != t.is_budgeted || r.budget.has_value() != t.budget.has_value())
      broken("a stored template reads back different", text);
    return Outcome{true, ""};
  };

  static const std::regex member(R"(/api/v1/project_templates/(\d+)\.json)");
  if (path == "/api/v1/project_templates.json") {
    if (method == "GET") {
      auto read = sandbox::read_list_request(params);
      if (const auto* error = std::get_if<sandbox::RequestError>(&read)) return refused(*error);
      const auto& request = std::get<sandbox::ListRequest>(read);
      if (request.page < 1 || request.per_page < 1) broken("a list request with an empty page");
      return {true, ""};
    }
    if (method == "POST") {
      sandbox::StoredTemplate t;
      t.id = 1;
      t.user_id = 1;
      if (auto error = sandbox::apply_template_body(body, t, true)) return refused(*error);
      return stored(std::move(t));
    }
    return {false, "no route"};
  }
  std::smatch match;
  if (!std::regex_match(path, match, member)) return {false, "no route"};
  auto id = sandbox::parse_int(match[1].str());
  if (!id) return {false, "project template " + match[1].str() + " not found"};
  if (method == "GET") {
    (void)sandbox::wants_raw_json(params);
    return {true, ""};
  }
  if (method == "PUT") {
    sandbox::StoredTemplate t;
    t.id = *id;
    t.user_id = 1;
    t.title = "Existing";
    if (auto error = sandbox::apply_template_body(body, t, false)) return refused(*error);
    return stored(std::move(t));
  }
  return {false, "no route"};
}

namespace {

// `path` as a pattern that matches exactly it: every character a pattern gives a meaning to
// escaped; nullopt for a path no pattern names so (empty names, a leading or trailing '/',
// control characters, which no file name in a walk has here), or one too long for a pattern.
std::optional<std::string> literal_pattern(std::string_view path) {
  if (path.empty() || path.front() == '/' || path.back() == '/' || path.find("//") != std::string_view::npos)
    return std::nullopt;
  std::string out;
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return std::nullopt;
    if (std::string_view("*?[]\\!# ").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  if (out.size() > IgnorePatterns::kMaxPatternBytes) return std::nullopt;
  return out;
}

}  // namespace

Outcome match_ignore_rules(std::string_view data) {
  const std::string name(target("ignore_rules").input_name);
  const std::size_t cut = data.find('\0');
  const std::string_view text = data.substr(0, cut);
  std::string_view paths = cut == std::string_view::npos ? std::string_view() : data.substr(cut + 1);
  std::vector<Error> problems;
  const IgnorePatterns patterns = IgnorePatterns::parse(text, "", name, problems);
  for (int count = 0; !paths.empty() && count < 32; ++count) {
    const std::string_view path = paths.substr(0, paths.find('\n'));
    paths.remove_prefix(std::min(paths.size(), path.size() + 1));
    for (const bool directory : {false, true})
      for (const bool ignore_case : {false, true}) (void)patterns.verdict(path, directory, ignore_case);
    // The file's patterns, then the path's own as the last line: the last match decides.
    if (const auto literal = literal_pattern(path)) {
      std::vector<Error> ignored;
      const IgnorePatterns own = IgnorePatterns::parse(std::string(text) + "\n" + *literal, "", name, ignored);
      if (own.verdict(path, false, false) != std::optional<bool>(true))
        broken("a path's own literal pattern, last, does not ignore it", *literal);
    }
  }
  for (const Error& problem : problems)
    if (problem.message.find(name + ":") == std::string::npos) broken("a problem that names no line", problem.message);
  return {problems.empty(), problems.empty() ? std::string() : problems.front().message};
}

}  // namespace ptmpl::fuzz
