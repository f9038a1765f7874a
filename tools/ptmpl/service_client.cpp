// What every command that talks to the service shares.
#include "service_client.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::cli {

void add_service_options(CLI::App& app, ServiceOptions& o) {
  app.add_option("--base-url", o.base_url, "the service's API root, ending in /api/v1 (default: $PTMPL_BASE_URL)");
  app.add_option("--cacert", o.cacert,
                 "CA certificate (PEM) to verify the service with, e.g. the sandbox's (default: $PTMPL_CACERT)");
  app.add_option("--token-file", o.token_file,
                 "file holding the access token, mode 600 (without it, $PTMPL_TOKEN holds the token itself)");
  app.add_flag("--verbose", o.verbose, "trace requests and responses on standard error (the token redacted)");
  app.add_option("--attempts", o.attempts, "tries per request when the service is busy (429, 503) or unreachable")
      ->capture_default_str()
      ->check(CLI::Range(1, 20));
  app.add_option("--timeout", o.timeout, "seconds one request may take, its retries and their waits included")
      ->capture_default_str()
      ->check(CLI::Range(1, 86'400));
  app.add_option("--max-response", o.max_response, "MiB of the largest response taken (a page of 200 templates)")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
}

std::optional<std::string_view> environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::nullopt : std::optional<std::string_view>(value);
}

std::string base_url_of(const std::string& option) {
  return option.empty() ? std::string(environment("PTMPL_BASE_URL").value_or("")) : option;
}

std::string cacert_of(const std::string& option) {
  return option.empty() ? std::string(environment("PTMPL_CACERT").value_or("")) : option;
}

Result<std::unique_ptr<publish::Client>> make_client(const ServiceOptions& o, std::shared_ptr<publish::Pacer> pacer) {
  std::string base_url = base_url_of(o.base_url);
  // The API reference names no public host for {base_url}, so there is no default to fall back
  // on: guessing one would send the token to an address nobody chose (docs/design.md).
  if (base_url.empty())
    return Error::usage(
        "no service address: pass --base-url or set PTMPL_BASE_URL to the service's API root (ending in /api/v1); "
        "there is no default");
  if (auto allowed = publish::check_base_url(base_url); !allowed.ok()) return allowed.error();
  auto token = publish::load_token(o.token_file, environment("PTMPL_TOKEN"));
  if (!token.ok()) return token.error();
  publish::ClientOptions options;
  options.base_url = base_url;
  options.token = token.value();
  options.trace = o.verbose ? &std::cerr : nullptr;
  options.pacer = std::move(pacer);
  options.retry.max_attempts = o.attempts;
  options.deadline = std::chrono::seconds(o.timeout);
  publish::TransportOptions transport;
  transport.cacert = cacert_of(o.cacert);
  transport.timeout = options.deadline;
  transport.max_response_bytes = std::uint64_t(o.max_response) << 20;
  return std::make_unique<publish::Client>(options, publish::make_curl_transport(transport));
}

std::string base_dir_of(const publish::Client& client) {
  return publish::base_store_dir(environment("XDG_STATE_HOME"), environment("HOME"), client.base_url());
}

int report_listing(std::string_view command, const publish::ListNotes& notes) {
  for (const auto& warning : notes.warnings) report_note(command, "warning: " + warning);
  int exit = int{kOk};
  for (const Error& e : notes.skipped)
    exit = std::max(exit, report_error(command, {e.code, e.message + "; skipped, the others are shown"}));
  return exit;
}

}  // namespace ptmpl::cli
