// Microsoft Project's own .mpp files: recognising them (a compound file whose `\1CompObj` names
// an MSProject.MPP format), and converting them (reader.cpp).
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "convert/cfb/compound_file.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/result.hpp"

namespace ptmpl::detail {

/// Which Microsoft Project format a file is, from its `\1CompObj`.
struct MppFormat {
  std::string format;       ///< "MSProject.MPP14"
  int version = 0;          ///< 14 (8: Project 98; 9: 2000–2003; 12: 2007; 14: 2010 and later); 0 if unnumbered
  std::string application;  ///< the writer: "Microsoft.Project 15.0"
};

/// The format a compound file's `\1CompObj` names. A compound file without one, or naming
/// another format (a Word or Excel document), is ErrorCode::kInvalid with a message that names
/// the file and what it holds instead.
[[nodiscard]] Result<MppFormat> identify_mpp(const cfb::CompoundFile& file);

/// "Microsoft Project .mpp (MPP14, written by Microsoft.Project 15.0)".
[[nodiscard]] std::string describe(const MppFormat& format);

/// Whether `bytes` are a compound file that identify_mpp() takes for a Microsoft Project plan.
[[nodiscard]] bool is_mpp(std::string_view bytes);

/// Where the reader finds a plan's streams: a compound file (convert_mpp()), or streams given
/// by their paths (StreamMap: the mpp_reader fuzz target feeds the tables without a container).
class MppStreams {
 public:
  virtual ~MppStreams() = default;
  /// The stream at `path` from the root ({"   114", "TBkndTask", "FixedMeta"}); a missing one,
  /// or a storage, is ErrorCode::kNotFound.
  [[nodiscard]] virtual Result<std::string> read(std::span<const std::string_view> path) const = 0;
};

/// The streams of a compound file, which must outlive this.
class CompoundFileStreams final : public MppStreams {
 public:
  explicit CompoundFileStreams(const cfb::CompoundFile& file) : file_(file) {}
  [[nodiscard]] Result<std::string> read(std::span<const std::string_view> path) const override;

 private:
  const cfb::CompoundFile& file_;
};

/// Streams by their path from the root, the steps joined with '/'.
class StreamMap final : public MppStreams {
 public:
  std::map<std::string, std::string, std::less<>> streams;
  [[nodiscard]] Result<std::string> read(std::span<const std::string_view> path) const override;
};

/// A plan of `format` held in `streams` → template document: what convert_mpp() does once it
/// has identified the file. Every failure names `path`.
[[nodiscard]] Result<Conversion> convert_mpp_streams(const MppStreams& streams, const MppFormat& format,
                                                     const std::string& path, const ConvertOptions& options);

/// A .mpp file → template document. `bytes` start with the compound file signature; a file
/// that is no readable compound file, or no Microsoft Project plan, fails with a message naming
/// the file and why.
[[nodiscard]] Result<Conversion> convert_mpp(std::string_view bytes, const std::string& path,
                                             const ConvertOptions& options);
/// convert_mpp() of an opened file (a compound file), reading only the sectors it names.
[[nodiscard]] Result<Conversion> convert_mpp(RandomAccessFile file, const std::string& path,
                                             const ConvertOptions& options);

}  // namespace ptmpl::detail
