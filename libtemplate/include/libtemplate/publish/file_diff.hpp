// `ptmpl diff`: a template document's file against the service's copy, and against the base
// both started from (`--three-way`): what each comparison found, as data, and the two ways it
// is shown (text for people, JSON for programs), both from that data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"
#include "libtemplate/publish/publish.hpp"

namespace ptmpl::publish {

/// A version of a template a diff names: the service's copy, or the base.
struct TemplateVersion {
  std::int64_t id = 0;
  std::string title;
  std::string updated_at;  ///< "" when unknown
};

/// `ptmpl diff FILE`: the file against the service's copy.
struct FileDiff {
  std::string path;
  std::string title;                       ///< the document's
  std::optional<TemplateVersion> service;  ///< nullopt: not on the service (push would create it)
  TemplateChanges changes;                 ///< service → file; empty when not on the service
  [[nodiscard]] bool differs() const { return !service || !changes.empty(); }
};

/// `ptmpl diff --three-way FILE`: the file and the service's copy, each against their base.
struct ThreeWayFileDiff {
  std::string path;
  std::string title;  ///< the document's
  TemplateVersion base;
  TemplateVersion service;
  ThreeWayDiff changes;
  [[nodiscard]] bool differs() const { return !changes.local.empty() || !changes.remote.empty(); }
};

/// Reads the file `path` as a template document (read_local_template). Fails when it cannot be
/// read or is not one.
[[nodiscard]] Result<LocalTemplate> read_template_document(const std::string& path);

/// Compares `local` with the service's copy find_remote finds (none: not on the service).
/// Fails with find_remote's error.
[[nodiscard]] Result<FileDiff> diff_with_service(Client& client, const LocalTemplate& local);

/// Done when `local` has an "id", the one thing a base is recorded by; kUsage otherwise,
/// saying that there is nothing to compare it with three ways.
[[nodiscard]] Status check_has_base(const LocalTemplate& local);

/// What changed in `local` and in the service's copy since the base recorded under `base_dir`
/// for the file's template, and the conflicts a merge would meet. Fails (kUsage) when the file
/// has no id, no base is recorded, or the base is not the version the file was pulled at; with
/// the client's error; kInvalid when a side is not a template document.
[[nodiscard]] Result<ThreeWayFileDiff> diff_three_way_with_service(Client& client, const LocalTemplate& local,
                                                                   const std::string& base_dir);

/// The text `ptmpl diff` prints: a header naming both sides, then the differences
/// (`template:` and `stories: …` sections, long values shown around where they differ); one
/// line when they are the same or the template is not on the service.
[[nodiscard]] std::string diff_text(const FileDiff& diff);

/// The text `ptmpl diff --three-way` prints: a header naming the three, then "local changes:",
/// "service changes:" and "conflicts:" sections.
[[nodiscard]] std::string diff_text(const ThreeWayFileDiff& diff);

/// One file's entry of `ptmpl diff --format json` (docs/commands/diff.md): the file, the result,
/// the versions compared and every change with both values whole, as JSON.
void write_diff_json(JsonEmitter& out, const FileDiff& diff);
void write_diff_json(JsonEmitter& out, const ThreeWayFileDiff& diff);

/// The entry of a file that could not be compared: `{"file", "result": "error", "error"}`.
void write_diff_error_json(JsonEmitter& out, const std::string& path, const Error& error);

}  // namespace ptmpl::publish
