// `ptmpl push` as a step of other commands: `apply` pushes a template without an id exactly as
// push does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libtemplate/publish/publish.hpp"
#include "service_client.hpp"

namespace ptmpl::cli {

/// What a push is asked to do (push's options).
struct PushRequest {
  ServiceOptions service;
  std::vector<std::string> paths;
  publish::PushOptions push;
  std::string config;  ///< the lint's configuration file; "": .ptmpl.json upward
  bool json = false;   ///< no line per file on standard output (the caller prints the outcomes)
};

/// What a push did.
struct PushRun {
  int exit = 0;
  /// Whether documents were published (or planned, with --dry-run): false when the push stopped
  /// before (lint findings, a refusal, no address or token; reported, `exit` says how).
  bool published = false;
  std::vector<publish::LocalTemplate> files;
  std::vector<publish::PushOutcome> outcomes;  ///< one per file
};

/// Pushes as `ptmpl push` does: lints, refuses what cannot be published, takes the lock, then
/// publishes each document with a line per file and the summary; every message said by
/// `command`. `request.push` gets the base and backup directories it used.
PushRun run_push(std::string_view command, PushRequest& request);

}  // namespace ptmpl::cli
