// Recognising Microsoft Project's .mpp files by content (mpp.hpp).
#include <charconv>

#include "convert/mpp/mpp.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::detail {

namespace {

constexpr std::string_view kFormatPrefix = "MSProject.MPP";

// The storage each format keeps its plan in, newest first; "   1" with a root Props is MPP8's.
struct PlanFolder {
  std::string_view name;
  int version;
};
constexpr PlanFolder kPlanFolders[] = {{"   114", 14}, {"   112", 12}, {"   19", 9}};

bool has_storage(const cfb::CompoundFile& file, std::string_view name) {
  const cfb::Entry* entry = file.find({name});
  return entry != nullptr && entry->is_storage();
}

// The format the file's storages show: the newest plan folder present, 0 when none is.
int version_by_content(const cfb::CompoundFile& file) {
  for (const PlanFolder& folder : kPlanFolders)
    if (has_storage(file, folder.name)) return folder.version;
  const cfb::Entry* props = file.find({"Props"});
  if (has_storage(file, "   1") && props != nullptr && !props->is_storage()) return 8;
  return 0;
}

bool has_folder_of(const cfb::CompoundFile& file, int version) {
  if (version == 8) return version_by_content(file) == 8;
  for (const PlanFolder& folder : kPlanFolders)
    if (folder.version == version) return has_storage(file, folder.name);
  return false;
}

}  // namespace

// The `\1CompObj` names the format; the storages confirm it. A file whose CompObj is missing,
// names no Project format, or names one whose storage is absent is identified by the storage it
// has (files rewritten by other tools lose or garble their CompObj, never their tables).
Result<MppFormat> identify_mpp(const cfb::CompoundFile& file) {
  const std::string what =
      file.path() + ": a compound file (the container of Microsoft Project .mpp and Office 97-2003 files)";
  Result<cfb::CompObj> comp_obj = cfb::read_comp_obj(file);
  if (!comp_obj.ok() && comp_obj.error().code != ErrorCode::kNotFound) return comp_obj.error();
  const cfb::CompObj names = comp_obj.ok() ? comp_obj.value() : cfb::CompObj{};
  MppFormat format;
  format.application = names.user_type;
  if (names.format.starts_with(kFormatPrefix)) {
    format.format = names.format;
    const std::string_view digits = std::string_view(names.format).substr(kFormatPrefix.size());
    int version = 0;
    if (auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
        error == std::errc() && end == digits.data() + digits.size())
      format.version = version;
    if (format.version != 0 && has_folder_of(file, format.version)) return format;
  }
  if (const int version = version_by_content(file); version != 0) {
    format.version = version;
    format.format = std::string(kFormatPrefix) + std::to_string(version);
    return format;
  }
  if (!format.format.empty()) return format;  // named by its CompObj, its tables checked when read
  if (!comp_obj.ok())
    return Error::invalid(what +
                          " without the \"\\u0001CompObj\" stream that names its format; not a plan ptmpl reads");
  std::string holds = names.format.empty() ? std::string("no format") : json::quoted(names.format);
  if (!names.user_type.empty()) holds += " (" + json::quoted(names.user_type) + ")";
  return Error::invalid(what + " holding " + holds + ", not a Microsoft Project plan; not a plan ptmpl reads");
}

std::string describe(const MppFormat& format) {
  std::string out = "Microsoft Project .mpp (";
  out += format.version > 0 ? "MPP" + std::to_string(format.version) : json::quoted(format.format);
  if (!format.application.empty()) out += ", written by " + format.application;
  return out + ")";
}

bool is_mpp(std::string_view bytes) {
  if (!cfb::has_signature(bytes)) return false;
  Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), "");
  return file.ok() && identify_mpp(file.value()).ok();
}

}  // namespace ptmpl::detail
