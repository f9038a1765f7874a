// The sandbox's workspaces (projects): kept in memory, each one also in its own file in the data
// directory, as the templates are.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/json_emitter.hpp"
#include "libtemplate/core/result.hpp"
#include "sandbox/record_files.hpp"

namespace ptmpl::sandbox {

/// One workspace as the sandbox stores it: the read attributes of the API reference's
/// "Workspace (project)" that its create and update fields set.
struct StoredWorkspace {
  std::int64_t id = 0;
  std::int64_t creator_id = 0;  // the user who created it: its one participant here
  std::string title;
  std::string description;
  std::string creator_role;  // "maven" or "buyer"
  bool archived = false;
  bool budgeted = false;
  std::string currency = "USD";
  std::optional<std::int64_t> price_in_cents;
  std::string start_date;  // YYYY-MM-DD, or "" when not set
  std::string due_date;
  std::string access_level = "invitation";
  std::optional<std::int64_t> project_tracker_template_id;
  std::string created_at;
  std::string updated_at;  // ISO 8601 with milliseconds, UTC; strictly increasing across the store
};

/// Filters and order of `GET /workspaces.json` (API reference, "Workspace filters").
struct WorkspaceQuery {
  bool include_archived = false;
  std::optional<bool> budgeted;
  std::string matching;  // case-insensitive substring of the title; empty: no filter
  std::optional<std::int64_t> has_participant;
  std::optional<std::vector<std::int64_t>> only;
  bool descending = true;  // by updated_at, the one order field
};

/// Writes `w` as the JSON object the API returns.
void write_workspace_json(const StoredWorkspace& w, JsonEmitter& out);

/// Reads a workspace as write_workspace_json() wrote it (one file of the store); `path` names it
/// in the error.
Result<StoredWorkspace> parse_stored_workspace(const std::string& path, std::string_view text);

/// Durable store: every create and update replaces `<dir>/workspaces/<id>.json` atomically
/// (RecordFiles) before it is acknowledged. Thread-safe.
class WorkspaceStore {
 public:
  /// Reads every `<id>.json` under `<dir>/workspaces` (created if missing). Fails naming a file
  /// that cannot be read back.
  static Result<std::unique_ptr<WorkspaceStore>> open(const std::string& dir);

  /// Workspaces `caller` participates in that pass `query`, by updated_at (ties by id).
  [[nodiscard]] std::vector<StoredWorkspace> query(std::int64_t caller, const WorkspaceQuery& query) const;
  [[nodiscard]] std::optional<StoredWorkspace> find(std::int64_t id) const;
  /// Assigns the id and timestamps, stores durably, returns what was stored.
  Result<StoredWorkspace> create(StoredWorkspace w);
  /// Replaces the workspace with `w.id` (stamping updated_at), durably.
  Result<StoredWorkspace> update(StoredWorkspace w);

 private:
  WorkspaceStore() = default;
  Status persist(const StoredWorkspace& w) const;

  std::optional<RecordFiles> files_;  // set by open()
  mutable std::mutex mutex_;
  std::map<std::int64_t, StoredWorkspace> by_id_;
  std::int64_t next_id_ = 1;
  Stamps stamps_;
};

}  // namespace ptmpl::sandbox
