// `ptmpl auth`: the OAuth authorization code flow, for a CI job or a tool acting for a user.
#include <memory>
#include <string>

#include "commands.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/publish/oauth.hpp"
#include "service_client.hpp"

namespace ptmpl::cli {

std::function<int()> setup_auth(CLI::App& app) {
  struct Options {
    std::string base_url;
    std::string app_url;
    std::string client_id;
    std::string redirect_uri;
    std::string state;
    std::string code;
    std::string client_secret_file;
    std::string output;
    std::string cacert;
    CLI::App* url = nullptr;
    CLI::App* token = nullptr;
  };
  auto o = std::make_shared<Options>();
  app.require_subcommand(1);
  auto common = [o](CLI::App* sub) {
    sub->add_option("--client-id", o->client_id, "the registered application's client id")->required();
    sub->add_option("--redirect-uri", o->redirect_uri, "the registered callback URL")->required();
    sub->add_option("--app-url", o->app_url, "the web application's address (default: --base-url without /api/v1)");
    sub->add_option("--base-url", o->base_url, "the API root (default: $PTMPL_BASE_URL)");
  };
  o->url = app.add_subcommand("url", "print the address that sends a user to approve the application");
  common(o->url);
  o->url->add_option("--state", o->state, "opaque value the redirect carries back");
  o->token = app.add_subcommand("token", "exchange an authorization code for an access token, written to a file");
  common(o->token);
  o->token->add_option("--code", o->code, "the code the redirect carried (valid for 5 minutes)")->required();
  o->token->add_option("--client-secret-file", o->client_secret_file,
                       "file holding the client secret, mode 600 (default: $PTMPL_CLIENT_SECRET)");
  o->token->add_option("-o,--output", o->output, "file to write the access token to (mode 600)")->required();
  o->token->add_option("--cacert", o->cacert,
                       "CA certificate (PEM) to verify the service with (default: $PTMPL_CACERT)");
  app.footer(
      "Output: the address (url), or the token written to -o (token).\n"
      "Exit codes: 0 ok, 2 usage error or unwritable file, 3 network or service error.\n\n"
      "Example:\n  ptmpl auth url --client-id ID --redirect-uri https://ci.example/callback\n"
      "  ptmpl auth token --client-id ID --redirect-uri https://ci.example/callback --code CODE -o ~/.ptmpl-token");
  return [o] {
    publish::OAuthApp oauth{o->app_url, o->client_id, o->redirect_uri};
    if (oauth.app_url.empty()) {
      oauth.app_url = publish::app_url_of(base_url_of(o->base_url));
    }
    while (!oauth.app_url.empty() && oauth.app_url.back() == '/') oauth.app_url.pop_back();
    if (oauth.app_url.empty()) {
      return report_error("auth",
                          Error::usage("no service address: pass --app-url or --base-url, or set PTMPL_BASE_URL"));
    }
    if (auto allowed = publish::check_base_url(oauth.app_url); !allowed.ok()) {
      return report_error("auth", allowed.error());
    }
    if (o->url->parsed()) {
      std::cout << publish::authorize_url(oauth, o->state) << "\n";
      return int{kOk};
    }
    auto secret = publish::load_secret(o->client_secret_file, environment("PTMPL_CLIENT_SECRET"), "PTMPL_CLIENT_SECRET",
                                       "client secret");
    if (!secret.ok()) {
      return report_error("auth token", secret.error());
    }
    // The token goes only into a private file, made ready before the one-time code is spent:
    // a place it cannot be written is refused while the code is still valid.
    auto target = publish::TokenFile::prepare(o->output);
    if (!target.ok()) {
      return report_error("auth token", target.error());
    }
    publish::TransportOptions transport_options;
    transport_options.cacert = cacert_of(o->cacert);
    auto transport = publish::make_curl_transport(transport_options);
    auto token = publish::exchange_code(*transport, oauth, secret.value(), o->code);
    if (!token.ok()) {
      return report_error("auth token", token.error());
    }
    if (auto kept = target.value().keep(token.value()); !kept.ok()) {
      int exit = report_error("auth token", kept.error());
      if (target.value().lost()) {
        // The code is spent: this token is the only one. Better shown once than lost.
        report_note("auth token", "the token follows on standard output; store it privately");
        if (auto shown = write_stdout(token.value() + "\n"); !shown.ok()) report_error("auth token", shown.error());
      }
      return exit;
    }
    report_note("auth token", "wrote the access token to " + o->output + " (use --token-file " + o->output + ")");
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
