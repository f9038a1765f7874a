#include "sandbox/record_files.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "libtemplate/core/file_io.hpp"

namespace ptmpl::sandbox {
namespace {

namespace fs = std::filesystem;

std::string iso8601(std::int64_t unix_millis) {
  std::time_t seconds = static_cast<std::time_t>(unix_millis / 1000);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(unix_millis % 1000));
  return text;
}

// Milliseconds since the epoch of a stamp written by iso8601(); 0 when it is not one.
std::int64_t parse_stamp(const std::string& stamp) {
  std::tm utc{};
  int millis = 0;
  if (std::sscanf(stamp.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                  &utc.tm_min, &utc.tm_sec, &millis) != 7)
    return 0;
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return static_cast<std::int64_t>(::timegm(&utc)) * 1000 + millis;
}

}  // namespace

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void Stamps::observe(const std::string& stamp) {
  last_ = std::max(last_, parse_stamp(stamp));
}

std::string Stamps::next() {
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                 .count();
  last_ = std::max<std::int64_t>(now, last_ + 1);
  return iso8601(last_);
}

Result<RecordFiles> RecordFiles::open(std::string dir, const Reader& read) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error::output_failed(dir + ": cannot create the directory: " + ec.message());
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    bool numbered = name.size() > 5 && name.ends_with(".json") &&
                    std::all_of(name.begin(), name.end() - 5, [](char c) { return c >= '0' && c <= '9'; });
    if (!numbered) {
      // A temporary file of a write that was killed before its rename: the record it was
      // replacing is intact, and the request was never acknowledged.
      if (name.find(".ptmpl-") != std::string::npos) fs::remove(entry.path(), ec);
      continue;
    }
    auto text = FileText::read_regular(entry.path().string());
    if (!text.ok()) return text.error();
    if (Status taken = read(entry.path().string(), text.value().text()); !taken.ok()) return taken.error();
  }
  if (ec) return Error::unreadable(dir + ": cannot list the directory: " + ec.message());
  return RecordFiles(std::move(dir));
}

Status RecordFiles::write(std::int64_t id, std::string_view text) const {
  return write_file_atomic((fs::path(dir_) / (std::to_string(id) + ".json")).string(), text);
}

}  // namespace ptmpl::sandbox
