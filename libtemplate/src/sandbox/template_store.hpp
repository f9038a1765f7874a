// The sandbox's templates: kept in memory, each one also in its own file in the data directory.
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

/// One project template as the service stores it (API reference, "Project template").
struct StoredTemplate {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string title;
  std::string description;
  bool shared = false;
  bool is_budgeted = false;
  std::optional<double> budget;
  std::string currency = "USD";
  std::optional<std::int64_t> duration;
  std::int64_t item_count = 0;
  std::string raw_json = "[]";  // JSON text, as the service keeps it: a string (no stories: [])
  std::string created_at;
  std::string updated_at;  // ISO 8601 with milliseconds, UTC; strictly increasing across the store
};

/// Filters and order of `GET /project_templates.json`.
struct TemplateQuery {
  bool mine = false;
  std::string by_title;  // case-insensitive substring; empty: no filter
  std::optional<std::vector<std::int64_t>> only;
  std::string order_field = "updated_at";
  bool descending = true;
};

/// Writes `t` as the JSON object the API returns (raw_json only when asked).
void write_template_json(const StoredTemplate& t, bool with_raw_json, JsonEmitter& out);

/// Reads a template as write_template_json() wrote it (one file of the store); `path` names it
/// in the error.
Result<StoredTemplate> parse_stored(const std::string& path, std::string_view text);

/// Counts the stories (with sub_stories) of a raw_json text; 0 when it is not a story list.
std::int64_t count_stories(const std::string& raw_json);

/// Durable store: every create and update replaces `<dir>/templates/<id>.json` atomically
/// (RecordFiles) before it is acknowledged. Thread-safe.
class TemplateStore {
 public:
  /// Reads every `<id>.json` under `<dir>/templates` (created if missing) and removes temporary
  /// files a killed writer left behind. Fails naming a file that cannot be read back.
  static Result<std::unique_ptr<TemplateStore>> open(const std::string& dir);

  /// Templates `caller` may see (own or shared) that pass `query`, in its order (ties by id).
  [[nodiscard]] std::vector<StoredTemplate> query(std::int64_t caller, const TemplateQuery& query) const;
  [[nodiscard]] std::optional<StoredTemplate> find(std::int64_t id) const;
  /// Assigns the id and timestamps, stores durably, returns what was stored.
  Result<StoredTemplate> create(StoredTemplate t);
  /// Replaces the template with `t.id` (stamping updated_at), durably.
  Result<StoredTemplate> update(StoredTemplate t);

 private:
  TemplateStore() = default;
  Status persist(const StoredTemplate& t) const;

  std::optional<RecordFiles> files_;  // set by open()
  mutable std::mutex mutex_;
  std::map<std::int64_t, StoredTemplate> by_id_;
  std::int64_t next_id_ = 1;
  Stamps stamps_;  // updated_at, strictly increasing across the store
};

}  // namespace ptmpl::sandbox
