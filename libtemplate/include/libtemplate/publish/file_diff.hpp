// `ptmpl diff`: a template document's file against the service's copy, and against the base
// both started from (`--three-way`).
#pragma once

#include <string>

#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

/// What a diff found: the text to show, and whether there is any difference.
struct DiffReport {
  std::string text;
  bool differs = false;
};

/// Reads the file `path` as a template document (read_local_template). Fails when it cannot be
/// read or is not one.
[[nodiscard]] Result<LocalTemplate> read_template_document(const std::string& path);

/// `ptmpl diff FILE`: `local` against the service's copy find_remote finds. The text is the
/// differences (diff_template), or one line saying they are the same or that push would
/// create the template (`differs`). Fails with find_remote's error.
[[nodiscard]] Result<DiffReport> diff_with_service(Client& client, const LocalTemplate& local);

/// Done when `local` has an "id", the one thing a base is recorded by; kUsage otherwise,
/// saying that there is nothing to compare it with three ways.
[[nodiscard]] Status check_has_base(const LocalTemplate& local);

/// `ptmpl diff --three-way FILE`: what changed in `local` and in the service's copy since the
/// base recorded under `base_dir` for the file's template, and the conflicts a merge would
/// meet: a header naming the three, "local changes:", "service changes:" and "conflicts:"
/// sections (`differs` when either side changed). Fails (kUsage) when the file has no id, no
/// base is recorded, or the base is not the version the file was pulled at; with the
/// client's error; kInvalid when a side is not a template document.
[[nodiscard]] Result<DiffReport> diff_three_way_with_service(Client& client, const LocalTemplate& local,
                                                             const std::string& base_dir);

}  // namespace ptmpl::publish
