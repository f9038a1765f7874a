// The publishing commands: sandbox (the local stand-in for the service).
#include <signal.h>

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "libtemplate/sandbox.hpp"

namespace ptmpl::cli {

// ---------------------------------------------------------------------------------------------
// sandbox

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
  app.add_flag("--http", o->sandbox.http, "serve plain HTTP instead of HTTPS");
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
  app.footer(
      "Prints `listening on <base-url> ca=<CA certificate>` as its first line, then serves until SIGTERM.\n\n"
      "Example:\n  echo 'sandbox-token 1' > tokens && chmod 600 tokens\n"
      "  ptmpl sandbox --listen 127.0.0.1:8443 --data-dir sandbox-data --tokens-file tokens");
  return [o] {
    auto colon = o->listen.rfind(':');
    auto port = colon == std::string::npos ? std::nullopt : std::optional<std::string>(o->listen.substr(colon + 1));
    int port_number = -1;
    try {
      if (port && !port->empty() && port->find_first_not_of("0123456789") == std::string::npos)
        port_number = std::stoi(*port);
    } catch (const std::exception&) {
      port_number = -1;
    }
    if (port_number < 0 || port_number > 65535) {
      std::cerr << "ptmpl sandbox: --listen: expected HOST:PORT, got '" << o->listen << "'\n";
      return int{kUsage};
    }
    std::string host = o->listen.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    o->sandbox.host = host;
    o->sandbox.port = port_number;
    o->sandbox.faults.clear();
    std::stringstream kinds(o->faults);
    for (std::string kind; std::getline(kinds, kind, ',');)
      if (!kind.empty()) o->sandbox.faults.push_back(kind);

    // Every thread the server starts inherits this mask, so SIGTERM reaches only sigwait below.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    auto sandbox = Sandbox::start(o->sandbox);
    if (!sandbox.ok()) {
      std::cerr << "ptmpl sandbox: " << sandbox.error().message << "\n";
      return int{kUsage};
    }
    Sandbox& server = *sandbox.value();
    std::cout << "listening on " << server.base_url() << " ca=" << server.ca_path() << std::endl;
    bool served = true;
    std::thread serving([&] { served = server.serve(); });
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    server.stop();
    serving.join();
    if (!served) {
      std::cerr << "ptmpl sandbox: the server stopped with an error\n";
      return int{kNetwork};
    }
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
