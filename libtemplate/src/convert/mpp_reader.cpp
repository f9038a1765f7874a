// Microsoft Project .mpp → template document (mpp.hpp). The reader of the plan itself is not
// built yet: this is the one place that refuses a recognised .mpp, naming its format and writer.
#include "convert/mpp.hpp"

namespace ptmpl::detail {

Result<Conversion> convert_mpp(std::string_view bytes, const std::string& path, const ConvertOptions& /*options*/) {
  Result<cfb::CompoundFile> file = cfb::CompoundFile::open(FileText::borrow(bytes), path);
  if (!file.ok()) return file.error();
  Result<MppFormat> format = identify_mpp(file.value());
  if (!format.ok()) return format.error();
  return Error::invalid(path + ": " + describe(format.value()) +
                        ": reading .mpp is not built yet; save the plan from Microsoft Project as XML (MSPDI) and "
                        "convert that");
}

}  // namespace ptmpl::detail
