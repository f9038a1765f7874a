// One plan file by its name (convert.hpp): a compound file read at the offsets its tables name,
// any other as a text (to its first NUL byte).
#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/file_io.hpp"

namespace ptmpl {

Result<Conversion> convert_plan_file(const std::string& path, const ConvertOptions& options) {
  // Standard input, a FIFO or a device cannot be read at offsets: they are read whole.
  if (path != "-") {
    if (Result<RandomAccessFile> file = RandomAccessFile::open(path); file.ok()) {
      std::string start;
      if (file.value().size() >= cfb::kSignature.size() && file.value().read(0, cfb::kSignature.size(), start).ok() &&
          cfb::has_signature(start))
        return detail::convert_mpp(std::move(file.value()), path, options);
    }
  }
  // A text plan ends at its first NUL byte: a file padded with zeros is read as far as them.
  Result<FileText> bytes = FileText::read_text(path, FileText::Compound::kWhole);
  if (!bytes.ok()) return bytes.error();
  return convert_plan(bytes.value().text(), path, options);
}

}  // namespace ptmpl
