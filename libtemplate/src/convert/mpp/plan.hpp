// What the .mpp reader takes out of a file, before it is written as MSPDI (mspdi_out.cpp): one
// struct per table, in the file's own units (tenths of a minute, MSPDI's date text).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "convert/cfb/compound_file.hpp"
#include "convert/mpp/mpp.hpp"
#include "convert/mpp/table.hpp"
#include "libtemplate/result.hpp"

namespace ptmpl::detail::mpp {

/// Where a format keeps its tables and how some of its records are laid out (layout.cpp).
struct Layout {
  int version = 14;                    ///< 9, 12 or 14
  std::string folder;                  ///< the storage of the plan's data: "   114"
  std::string root_props;              ///< the root's Props stream: "Props14"
  bool written_2013_or_later = false;  ///< MPP14 written by Project 2013 and later
  std::size_t task_meta_size = 47;     ///< a task's FixedMeta item
  std::size_t link_meta_size = 10;
  std::size_t var_entry_size = 12;    ///< VarMeta entries (8 in MPP9)
  bool var_key_in_field_map = false;  ///< MPP9: a var data field's key is the map entry's +6
};

/// The layout of `format`, or why it is not read (MPP8).
[[nodiscard]] Result<Layout> layout_of(const MppFormat& format, const std::string& path);

struct Project {
  std::string title;
  std::optional<std::string> start;
  double minutes_per_day = 480;
  double minutes_per_week = 2400;
  double days_per_month = 20;
  std::optional<std::int32_t> calendar_uid;  ///< the project's calendar, when Props names it
};

struct Task {
  std::int32_t uid = 0;
  std::string name;
  std::int64_t level = 1;
  bool milestone = false;
  bool manual = false;
  std::int64_t duration_tenths = 0;
  std::uint16_t duration_units = 7;
  std::optional<std::string> start;
  std::optional<std::string> finish;
  std::uint64_t order = 0;  ///< the row's place on screen
};

struct Link {
  std::int32_t predecessor = 0;
  std::int32_t successor = 0;
  std::int64_t type = 1;  ///< MSPDI's numbering: 0 FF, 1 FS, 2 SF, 3 SS
  std::int32_t lag_tenths = 0;
  std::uint16_t lag_units = 7;
};

/// A resource (TBkndRsc), in MSPDI's units: units as a fraction (1 = 100 %), rates and costs
/// as the file keeps them.
struct Resource {
  std::int32_t uid = 0;
  std::int32_t id = 0;
  std::string name;
  int type = 1;                ///< MSPDI's: 0 material (and cost), 1 work
  bool cost_resource = false;  ///< a cost resource (read from MPP14 only)
  std::string initials;
  std::string email;
  std::optional<double> max_units;
  double standard_rate = 0;
  double overtime_rate = 0;
  double cost_per_use = 0;
  std::optional<std::int32_t> calendar_uid;  ///< its own calendar, from the calendar table
};

/// A resource's assignment to a task (TBkndAssn).
struct Assignment {
  std::int32_t uid = 0;
  std::int32_t task_uid = 0;
  std::int32_t resource_uid = 0;  ///< -65535: no resource (MSPDI's value too)
  std::optional<double> units;    ///< 1 = 100 %
  std::optional<double> work_minutes;
  std::optional<double> cost;  ///< in the currency's hundredths, as the file keeps it
  std::optional<std::string> start;
  std::optional<std::string> finish;
};

struct Plan {
  Project project;
  std::vector<Task> tasks;  ///< in screen order
  std::vector<Link> links;
  std::vector<Resource> resources;      ///< in UID order
  std::vector<Assignment> assignments;  ///< in the file's order
};

/// The compound file, the plan's format and layout, and the streams read from it (kept for as
/// long as the Source, so that tables can hold views into them).
class Source {
 public:
  Source(const cfb::CompoundFile& file, MppFormat format, Layout layout, std::string path)
      : file_(file), format_(std::move(format)), layout_(std::move(layout)), path_(std::move(path)) {}

  [[nodiscard]] const MppFormat& format() const { return format_; }
  [[nodiscard]] const Layout& layout() const { return layout_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const cfb::CompoundFile& file() const { return file_; }

  /// The stream at `steps` inside the plan's folder. A missing one is an error naming it
  /// (every such file has it) unless `optional`, when it reads as std::nullopt.
  [[nodiscard]] Result<std::optional<std::string_view>> stream(std::initializer_list<std::string_view> steps,
                                                               bool optional = false);
  /// "<path>: Microsoft Project .mpp (MPP14, …) <what>".
  [[nodiscard]] Error invalid(const std::string& what) const;

 private:
  const cfb::CompoundFile& file_;
  MppFormat format_;
  Layout layout_;
  std::string path_;
  std::vector<std::unique_ptr<std::string>> held_;
};

/// The project's properties and the table field maps, from the folder's Props.
struct Properties {
  Props props;
  FieldMap task_fields;
  FieldMap resource_fields;    ///< empty when the file has no resource map
  FieldMap assignment_fields;  ///< empty when the file has no assignment map
};
[[nodiscard]] Result<Properties> read_properties(Source& source, Project& project);

/// Tasks and links (tasks.cpp).
[[nodiscard]] Status read_tasks(Source& source, const Properties& properties, Plan& plan);
[[nodiscard]] Status read_links(Source& source, Plan& plan);

/// Resources and their assignments (resources.cpp). A file without the tables, or without
/// their field maps, has none; rows that are deleted, blank or cut short are skipped.
[[nodiscard]] Status read_resources(Source& source, const Properties& properties, Plan& plan);

/// The plan as an MS Project XML (MSPDI) document (mspdi_out.cpp).
[[nodiscard]] std::string write_mspdi(const Plan& plan);

}  // namespace ptmpl::detail::mpp
