// What every command that talks to the service shares: its options, the client made from
// them, and where this machine keeps the service's state.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::cli {

/// Options every command that talks to the service takes (docs/semantics.md §8; fixed interface).
struct ServiceOptions {
  std::string base_url;
  std::string cacert;
  std::string token_file;
  bool verbose = false;
  int attempts = publish::RetryPolicy{}.max_attempts;
  /// Seconds one request may take, its retries and waits included (ClientOptions::deadline).
  int timeout = static_cast<int>(publish::TransportOptions::kDefaultDeadline.count() / 1000);
  /// MiB of the largest response taken (TransportOptions::max_response_bytes).
  int max_response = static_cast<int>(publish::TransportOptions::kMaxResponseBytes >> 20);
};

void add_service_options(CLI::App& app, ServiceOptions& o);

/// The value of the environment variable `name`; nullopt when unset. The library reads no
/// environment: what it needs of it comes from here.
std::optional<std::string_view> environment(const char* name);

/// `--base-url`, else $PTMPL_BASE_URL, else "".
std::string base_url_of(const std::string& option);

/// `--cacert`, else $PTMPL_CACERT, else "" (the system's CA store).
std::string cacert_of(const std::string& option);

/// The client for `o`, or a message (usage or set-up problem: exit code 2).
Result<std::unique_ptr<publish::Client>> make_client(const ServiceOptions& o,
                                                     std::shared_ptr<publish::Pacer> pacer = nullptr);

/// Where the bases of templates on `client`'s service are recorded on this machine
/// (publish::base_store_dir); "" when neither XDG_STATE_HOME nor HOME is set.
std::string base_dir_of(const publish::Client& client);

/// Prints what list_all noticed: warnings, and each template it could not use (those make the
/// command exit 3 once it has done the rest). Returns that exit code.
int report_listing(std::string_view command, const publish::ListNotes& notes);

}  // namespace ptmpl::cli
