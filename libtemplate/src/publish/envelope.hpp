// Reading the service's answers (API reference: envelopes, errors, Retry-After), shared by the
// client's files. Private to ptmpl::publish.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish::detail {

/// "0x1B".
[[nodiscard]] std::string hex_byte(unsigned char byte);
/// ASCII case-insensitive equality (header names, URL schemes, "localhost").
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);
/// The service's error envelope as one line: `validation: title can't be blank (field title); …`.
[[nodiscard]] std::string describe_errors(const std::string& body);
/// The collection an envelope holds: its key, and what one of its objects is called in messages.
struct Collection {
  std::string_view key;
  std::string_view noun;
};
inline constexpr Collection kTemplates{"project_templates", "template"};
inline constexpr Collection kWorkspaces{"workspaces", "workspace"};

/// A page of a list envelope's objects (templates, or others read as they are: id, title,
/// updated_at and the object's JSON), in the order of `results`; kService when the envelope is
/// unusable.
Result<TemplatePage> read_envelope(const std::string& body, Collection collection = kTemplates);
/// The one object of an envelope; kService otherwise.
Result<RemoteTemplate> single(const std::string& body, Collection collection = kTemplates);
/// The wait a Retry-After header asks for (delta-seconds); nullopt when absent or not a number.
[[nodiscard]] std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response);

}  // namespace ptmpl::publish::detail
