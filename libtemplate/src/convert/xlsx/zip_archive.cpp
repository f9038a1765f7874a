#include "convert/xlsx/zip_archive.hpp"

#include <zip.h>

#include <algorithm>
#include <cstdint>

namespace ptmpl::detail::xlsx {

struct ZipArchive::State {
  zip_t* archive = nullptr;
  std::string path;

  ~State() {
    if (archive != nullptr) zip_discard(archive);
  }
};

namespace {

std::string error_text(zip_error_t& error) {
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

}  // namespace

ZipArchive::ZipArchive(std::unique_ptr<State> state) : state_(std::move(state)) {}
ZipArchive::ZipArchive(ZipArchive&&) noexcept = default;
ZipArchive& ZipArchive::operator=(ZipArchive&&) noexcept = default;
ZipArchive::~ZipArchive() = default;

Result<ZipArchive> ZipArchive::open(std::string_view bytes, const std::string& path) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (source == nullptr) return Error::invalid(path + ": not a workbook: " + error_text(error));
  zip_t* archive = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_source_free(source);  // still ours when the open fails
    return Error::invalid(path + ": not a workbook (an .xlsx file is a zip archive): " + error_text(error));
  }
  zip_error_fini(&error);
  auto state = std::make_unique<State>();
  state->archive = archive;
  state->path = path;
  return ZipArchive(std::move(state));
}

bool ZipArchive::contains(std::string_view name) const {
  return zip_name_locate(state_->archive, std::string(name).c_str(), ZIP_FL_NOCASE) >= 0;
}

Result<std::string> ZipArchive::read(std::string_view name, std::size_t limit) const {
  const std::string part(name);
  const std::string where = state_->path + ": the part " + part;
  const zip_int64_t index = zip_name_locate(state_->archive, part.c_str(), ZIP_FL_NOCASE);
  if (index < 0) return Error::invalid(where + " is missing");
  zip_file_t* file = zip_fopen_index(state_->archive, static_cast<zip_uint64_t>(index), 0);
  if (file == nullptr) return Error::invalid(where + " cannot be read: " + std::string(zip_strerror(state_->archive)));
  // The size the archive declares is not trusted: it only sizes the buffer, as far as deflate
  // can expand the compressed bytes (1,032 times), and the bytes are read in chunks up to the
  // limit, straight into the buffer.
  constexpr std::size_t kChunk = 64 * 1024;
  std::string out;
  zip_stat_t stat;
  if (zip_stat_index(state_->archive, static_cast<zip_uint64_t>(index), 0, &stat) == 0 &&
      (stat.valid & ZIP_STAT_SIZE) != 0 && (stat.valid & ZIP_STAT_COMP_SIZE) != 0)
    out.reserve(std::min<std::uint64_t>({stat.size, stat.comp_size * 1032 + kChunk, limit}) + kChunk);
  for (std::size_t size = 0;;) {
    out.resize(size + kChunk);
    const zip_int64_t got = zip_fread(file, out.data() + size, kChunk);
    if (got < 0) {
      std::string problem = zip_error_strerror(zip_file_get_error(file));
      zip_fclose(file);
      return Error::invalid(where + " cannot be inflated: " + problem);
    }
    size += static_cast<std::size_t>(got);
    out.resize(size);
    if (got == 0) break;
    if (size > limit) {
      zip_fclose(file);
      return Error::invalid(where + " inflates to more than " + std::to_string(limit >> 20) +
                            " MiB, more than ptmpl reads of one part (a damaged file or a zip bomb)");
    }
  }
  zip_fclose(file);
  return out;
}

}  // namespace ptmpl::detail::xlsx
