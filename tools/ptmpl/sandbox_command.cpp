// `ptmpl sandbox`: the local stand-in for the service, served until SIGTERM or SIGINT.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "commands.hpp"
#include "libtemplate/sandbox/sandbox.hpp"

namespace ptmpl::cli {

std::function<int()> setup_sandbox(CLI::App& app) {
  struct Options {
    SandboxOptions sandbox;
    std::string listen = "127.0.0.1:0";
    std::string faults = "429,503,drop";
  };
  auto o = std::make_shared<Options>();
  app.add_option("--listen", o->listen, "address and port to serve on (port 0: any free port)")->capture_default_str();
  app.add_option("--data-dir", o->sandbox.data_dir, "directory of the stored templates (and the generated TLS files)")
      ->required();
  app.add_option("--tokens-file", o->sandbox.tokens_file, "accepted bearer tokens: one `token user_id` per line")
      ->required();
  app.add_flag("--http", o->sandbox.http, "serve plain HTTP instead of HTTPS (on a loopback address only)");
  app.add_option("--cert", o->sandbox.cert_file, "server certificate (PEM) to use instead of a generated one");
  app.add_option("--key", o->sandbox.key_file, "private key (PEM) of --cert");
  app.add_option("--ca", o->sandbox.ca_file, "CA certificate to print for clients with --cert (default: --cert)");
  app.add_option("--fail-rate", o->sandbox.fail_rate, "fraction of requests answered with an injected fault")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--faults", o->faults, "kinds of injected faults: 429, 503, drop, drop-after")->capture_default_str();
  app.add_option("--retry-after", o->sandbox.retry_after_seconds, "Retry-After seconds sent with an injected 429")
      ->capture_default_str()
      ->check(CLI::Range(0, 3600));
  app.add_option("--seed", o->sandbox.seed, "random seed of the injected faults")->capture_default_str();
  app.add_option("--hold-after", o->sandbox.hold_after,
                 "after this many templates are created or updated, hold every further request unanswered")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--oauth-clients", o->sandbox.oauth_clients_file,
                 "OAuth applications, one `client_id client_secret redirect_uri` per line (enables /oauth/…)");
  app.add_option("--oauth-user", o->sandbox.oauth_user_id, "user id who approves at /oauth/authorize")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--head-timeout", o->sandbox.head_timeout_seconds,
                 "seconds a request's TLS handshake, request line and headers may take as a whole")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-connections-per-client", o->sandbox.max_connections_per_client,
                 "connections open at once from one client address; more are closed unread")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.footer(
      "Prints `listening on <base-url> ca=<CA certificate>` as its first line, then serves until SIGTERM.\n"
      "Exit codes: 0 stopped by SIGTERM or SIGINT, 2 usage error, cannot listen or bad data\n"
      "directory, 3 the server stopped with an error.\n\n"
      "Example:\n  echo 'sandbox-token 1' > tokens && chmod 600 tokens\n"
      "  ptmpl sandbox --listen 127.0.0.1:8443 --data-dir sandbox-data --tokens-file tokens");
  return [o] {
    if (auto address = set_listen_address(o->sandbox, o->listen); !address.ok())
      return report_error("sandbox", address.error());
    o->sandbox.faults = fault_kinds(o->faults);

    // Until it serves, SIGTERM ends the sandbox as it ends any program, whatever start() is
    // waiting for. start() starts no thread: serve() does.
    auto sandbox = Sandbox::start(o->sandbox);
    if (!sandbox.ok()) {
      return report_error("sandbox", sandbox.error());
    }
    Sandbox& server = *sandbox.value();
    // Every thread the server starts inherits this mask, so SIGTERM reaches only sigwait below.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    std::cout << "listening on " << server.base_url() << " ca=" << server.ca_path() << std::endl;
    bool served = true;
    std::thread serving([&] {
      served = server.serve();
      // Serving ended by itself: wake the sigwait below (a process-directed signal).
      if (!served) ::kill(::getpid(), SIGTERM);
    });
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    server.stop();
    serving.join();
    if (!served) {
      return report_error("sandbox", Error::network("the server stopped with an error"));
    }
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
