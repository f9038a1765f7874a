// Recognising Microsoft Project's .mpp files by content (mpp.hpp).
#include <charconv>

#include "convert/mpp/mpp.hpp"
#include "libtemplate/json.hpp"

namespace ptmpl::detail {

namespace {

constexpr std::string_view kFormatPrefix = "MSProject.MPP";

}  // namespace

Result<MppFormat> identify_mpp(const cfb::CompoundFile& file) {
  const std::string what =
      file.path() + ": a compound file (the container of Microsoft Project .mpp and Office 97-2003 files)";
  Result<cfb::CompObj> comp_obj = cfb::read_comp_obj(file);
  if (!comp_obj.ok()) {
    if (comp_obj.error().code == ErrorCode::kNotFound)
      return Error::invalid(what +
                            " without the \"\\u0001CompObj\" stream that names its format; not a plan ptmpl reads");
    return comp_obj.error();
  }
  const cfb::CompObj& names = comp_obj.value();
  if (!names.format.starts_with(kFormatPrefix)) {
    std::string holds = names.format.empty() ? std::string("no format") : json::quoted(names.format);
    if (!names.user_type.empty()) holds += " (" + json::quoted(names.user_type) + ")";
    return Error::invalid(what + " holding " + holds + ", not a Microsoft Project plan; not a plan ptmpl reads");
  }
  MppFormat format;
  format.format = names.format;
  format.application = names.user_type;
  const std::string_view digits = std::string_view(names.format).substr(kFormatPrefix.size());
  int version = 0;
  if (auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
      error == std::errc() && end == digits.data() + digits.size())
    format.version = version;
  return format;
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
