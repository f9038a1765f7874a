// Where each .mpp format keeps its tables (plan.hpp, Layout).
#include <cstdlib>

#include "convert/mpp/plan.hpp"
#include "libtemplate/json.hpp"

namespace ptmpl::detail::mpp {

namespace {

// "Microsoft.Project 15.0" and later: Project 2013 moved the milestone bit, the manual bit and
// the link lag inside MPP14.
bool written_by_2013_or_later(const std::string& application) {
  const std::size_t space = application.rfind(' ');
  if (space == std::string::npos) return true;
  return std::atoi(application.c_str() + space + 1) >= 15;
}

}  // namespace

Result<Layout> layout_of(const MppFormat& format, const std::string& path) {
  Layout layout;
  layout.version = format.version;
  switch (format.version) {
    case 14:
      layout.folder = "   114";
      layout.root_props = "Props14";
      layout.written_2013_or_later = written_by_2013_or_later(format.application);
      return layout;
    case 12:
      layout.folder = "   112";
      layout.root_props = "Props12";
      return layout;
    case 9:
      layout.folder = "   19";
      layout.root_props = "Props9";
      layout.var_entry_size = 8;
      layout.var_key_in_field_map = true;
      return layout;
    default:
      return Error::invalid(path + ": " + describe(format) +
                            ": reading this .mpp format is not built yet (ptmpl reads MPP14, written by Project "
                            "2010 and later); save the plan from Microsoft Project as XML (MSPDI) and convert that");
  }
}

Result<std::optional<std::string_view>> Source::stream(std::initializer_list<std::string_view> steps, bool optional) {
  std::vector<std::string_view> path{layout_.folder};
  path.insert(path.end(), steps.begin(), steps.end());
  const cfb::Entry* entry = file_.find(std::span<const std::string_view>(path));
  if (entry == nullptr || entry->is_storage()) {
    if (optional) return std::optional<std::string_view>();
    std::string where;
    for (std::string_view step : path) where += (where.empty() ? "" : "/") + json::quoted(std::string(step));
    return invalid("without the stream " + where +
                   " that every such file has; it is damaged or not written by Microsoft Project");
  }
  Result<std::string> bytes = file_.read_stream(*entry);
  if (!bytes.ok()) return bytes.error();
  held_.push_back(std::make_unique<std::string>(std::move(bytes).value()));
  return std::optional<std::string_view>(*held_.back());
}

Error Source::invalid(const std::string& what) const {
  return Error::invalid(path_ + ": " + describe(format_) + " " + what);
}

}  // namespace ptmpl::detail::mpp
