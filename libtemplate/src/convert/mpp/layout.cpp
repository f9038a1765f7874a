// Where each .mpp format keeps its tables (plan.hpp, Layout).
#include <cstdlib>
#include <span>

#include "convert/mpp/plan.hpp"
#include "libtemplate/core/json.hpp"

namespace ptmpl::detail::mpp {

namespace {

// The root Props' password flag (1: read password, 2: write password) and the code its
// protected streams are XORed with.
constexpr std::int32_t kPasswordFlagKey = 893386752;
constexpr std::int32_t kXorCodeKey = 893386759;

// A protected file XORs its folder's Props and every table's FixedData (TBknd*/FixedData); the
// meta and var data streams are stored as they are.
bool xored(std::span<const std::string_view> steps) {
  if (steps.size() == 2) return steps[1] == "Props";
  return steps.size() == 3 && steps[1].starts_with("TBknd") && steps[2] == "FixedData";
}

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
      layout.manual_scheduling = true;
      return layout;
    case 12:
      layout.folder = "   112";
      layout.root_props = "Props12";
      layout.task_fixed2_size = 86;
      layout.resource_fixed2_size = 49;
      return layout;
    case 9:
      layout.folder = "   19";
      layout.root_props = "Props9";
      layout.var_entry_size = 8;
      layout.var_key_in_field_map = true;
      layout.second_block = false;
      layout.blank_task_size = 8;
      layout.order_by_id = true;
      return layout;
    default:
      return Error::invalid(path + ": " + describe(format) +
                            ": reading this .mpp format is not built (ptmpl reads MPP9, MPP12 and MPP14: Project "
                            "2000 and later); save the plan from Microsoft Project as XML (MSPDI) and convert that");
  }
}

Status read_protection(const MppStreams& streams, const MppFormat& format, Layout& layout, const std::string& path) {
  const std::string_view root_props[] = {layout.root_props};
  Result<std::string> bytes = streams.read(root_props);
  if (!bytes.ok()) return Done{};  // no root Props: no password either
  const Props root = read_props(bytes.value());
  auto flag = root.find(kPasswordFlagKey);
  if (flag == root.end() || flag->second.empty() || u8(flag->second, 0) == 0) return Done{};
  // Project 2000-2003 only XOR a read-protected plan with the code below; how Project 2007 and
  // later keep one is not known to ptmpl (no such file to learn it from), so it is refused.
  if ((u8(flag->second, 0) & 1) != 0 && layout.version != 9)
    return Error::invalid(path + ": " + describe(format) +
                          " is protected by a read password; ptmpl reads protected plans only in the MPP9 format "
                          "(Project 2000-2003): remove the password in Microsoft Project, or save the plan as XML "
                          "(MSPDI)");
  auto code = root.find(kXorCodeKey);
  const std::uint8_t value = code == root.end() || code->second.empty() ? 0 : u8(code->second, 0);
  layout.xor_mask = value == 0 ? 0 : static_cast<std::uint8_t>(0xFF - value);
  return Done{};
}

Result<std::optional<std::string_view>> Source::stream(std::initializer_list<std::string_view> steps, bool optional) {
  std::vector<std::string_view> path{layout_.folder};
  path.insert(path.end(), steps.begin(), steps.end());
  Result<std::string> bytes = streams_.read(path);
  if (!bytes.ok() && bytes.error().code == ErrorCode::kNotFound) {
    if (optional) return std::optional<std::string_view>();
    std::string where;
    for (std::string_view step : path) where += (where.empty() ? "" : "/") + json::quoted(std::string(step));
    return invalid("without the stream " + where +
                   " that every such file has; it is damaged or not written by Microsoft Project");
  }
  if (!bytes.ok()) return bytes.error();
  held_.push_back(std::make_unique<std::string>(std::move(bytes).value()));
  if (layout_.xor_mask != 0 && xored(path))
    for (char& c : *held_.back()) c = static_cast<char>(static_cast<std::uint8_t>(c) ^ layout_.xor_mask);
  return std::optional<std::string_view>(*held_.back());
}

Error Source::invalid(const std::string& what) const {
  return Error::invalid(path_ + ": " + describe(format_) + " " + what);
}

}  // namespace ptmpl::detail::mpp
