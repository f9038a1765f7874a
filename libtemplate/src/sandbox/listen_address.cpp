// `ptmpl sandbox`'s address and faults as the command line gives them.
#include <charconv>
#include <string>

#include "libtemplate/sandbox/sandbox.hpp"

namespace ptmpl {

Status set_listen_address(SandboxOptions& options, std::string_view address) {
  auto colon = address.rfind(':');
  int port = -1;
  if (colon != std::string_view::npos) {
    std::string_view digits = address.substr(colon + 1);
    int value = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos && error == std::errc{} &&
        end == digits.data() + digits.size())
      port = value;
  }
  if (port < 0 || port > 65535) return Error::usage("--listen: expected HOST:PORT, got '" + std::string(address) + "'");
  std::string_view host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  options.host = std::string(host);
  options.port = port;
  return Done{};
}

std::vector<std::string> fault_kinds(std::string_view list) {
  std::vector<std::string> kinds;
  while (!list.empty()) {
    auto comma = list.find(',');
    std::string_view kind = list.substr(0, comma);
    if (!kind.empty()) kinds.emplace_back(kind);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return kinds;
}

}  // namespace ptmpl
