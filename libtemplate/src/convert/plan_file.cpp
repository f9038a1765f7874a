// One plan file by its name (convert.hpp): a compound file read at the offsets its tables name,
// a workbook whole, any other as a text (to its first NUL byte).
#include <algorithm>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/foreign_plan.hpp"

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

namespace {

// Another program's plan, told from the file's first 64 KiB as convert tells it (docs/semantics.md §2).
bool is_plan_file(const std::string& path) {
  if (path == "-") return false;
  auto file = RandomAccessFile::open(path);
  if (!file.ok()) return false;  // TemplateFile::read says why
  std::string head;
  if (!file.value().read(0, std::min<std::uint64_t>(file.value().size(), 64 << 10), head).ok()) return false;
  // A compound file goes to the .mpp reader, which says what it holds when it is no plan.
  if (recognise_plan(head) == ForeignPlan::CompoundFile) return true;
  const PlanFormat format = detect_plan_format(head);
  return format != PlanFormat::Template && format != PlanFormat::Unknown;
}

}  // namespace

Result<TemplateOrPlan> read_template_or_plan(const std::string& path, const ReadOptions& options) {
  if (!is_plan_file(path)) {
    auto read = TemplateFile::read(path, options);
    if (!read.ok()) return read.error();
    return TemplateOrPlan{std::move(read).value(), ""};
  }
  auto converted = convert_plan_file(path);
  if (!converted.ok()) return converted.error();
  const std::size_t findings = converted.value().diagnostics.size();
  std::string note = path + ": a plan, converted to a template first";
  if (findings > 0)
    note += " (" + std::to_string(findings) + (findings == 1 ? " finding" : " findings") + ": ptmpl convert " + path +
            " lists them)";
  return TemplateOrPlan{TemplateFile::parse(path, FileText(std::move(converted.value().document)), options),
                        std::move(note)};
}

}  // namespace ptmpl
