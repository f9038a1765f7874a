// Publishing template documents (docs/semantics.md §8): what `ptmpl push` sends and decides, and how
// `ptmpl diff` compares a local document with the service's copy.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {

/// The template fields the service stores and a document may set, in the order of the API
/// reference's create fields (raw_json apart). Push compares these, and the stories, to tell
/// whether the service's copy already holds what a document says.
inline constexpr const char* kStoredFields[] = {"title",  "description", "shared",  "is_budgeted",
                                                "budget", "currency",    "duration"};

/// A template document read for publishing.
struct LocalTemplate {
  std::string path;
  std::string text;  ///< the file's bytes, to write the id back into
  std::string title;
  std::optional<std::int64_t> id;  ///< "id": the template on the service it was pulled from or pushed to
  std::string updated_at;          ///< "updated_at": the service's version then; "" when absent
  /// The create/update body: `{"project_template": {…}}` with raw_json as a string, every key
  /// the document has except `id` and `updated_at` (the URL carries the one, the service sets the other).
  std::string body;
  /// Each stored field the document sets, as compact JSON text.
  std::vector<std::pair<std::string, std::string>> fields;
  /// The story list in compact canonical form; nullopt when the document has no raw_json.
  std::optional<std::string> stories;
};

/// Reads the template document `text` of file `path`. Fails (naming the file) when it is not a
/// template document (a bare story list has no title to publish it under) or not valid JSON.
Result<LocalTemplate> read_local_template(std::string path, std::string text);

/// Whether the service's copy `remote` (read with raw_json) holds every stored field `local`
/// sets and the same stories (compared in canonical form; numbers by value).
[[nodiscard]] bool same_content(const LocalTemplate& local, const RemoteTemplate& remote);

/// `text` (a template document) with `"id"` and `"updated_at"` of its project_template set to
/// `id` and `updated_at`: existing values are replaced where they stand, missing keys are
/// inserted where the canonical order puts them (a canonical file stays canonical); every other
/// byte is kept.
Result<std::string> with_identity(std::string_view text, std::int64_t id, const std::string& updated_at);

/// `ptmpl list`'s table: a header line, then one line per template (id, title, item count,
/// duration, shared, updated_at), each column padded to the widest value in terminal columns
/// (a title is cut to 60 columns with "…", control characters shown as spaces).
[[nodiscard]] std::string list_table(const std::vector<RemoteTemplate>& templates);

/// The name `ptmpl pull` gives a new file for template `id`: `<id>-<slug>.json`, the slug the
/// title in lower-case ASCII, accented Latin letters written without their marks ("Zürich" →
/// "zurich", "Straße" → "strasse"), every other run of characters a single "-", at most 60
/// characters ("template" when nothing is left).
[[nodiscard]] std::string pulled_file_name(std::int64_t id, std::string_view title);

/// Files read once each, as push and pull take them: the bytes of each readable file, and why
/// the others could not be read.
struct ReadFiles {
  std::vector<std::string> paths;
  std::vector<std::string> texts;  ///< the bytes of paths[i]
  std::vector<Error> unreadable;
};

/// Reads each of `paths` (as expand_paths gives them) once.
[[nodiscard]] ReadFiles read_files(const std::vector<std::string>& paths);

/// Template documents, each file once, with the template each names on the service: the one
/// way push (two files for one template are refused) and pull (which file already holds a
/// template) tell which file holds which template.
class LocalDocuments {
 public:
  /// Reads the template documents among `files` (taken over). A file that is not a template
  /// document is refused (kInvalid), and so is one that holds the id of a file before it, or
  /// has no id and the title of one before it without an id (kConflict, naming both files).
  static LocalDocuments read(ReadFiles files);

  /// The documents taken, in the order of the files.
  [[nodiscard]] std::vector<LocalTemplate>& documents() { return documents_; }
  /// The files refused, each with its reason.
  [[nodiscard]] const std::vector<Error>& refused() const { return refused_; }
  /// The file that holds template `id`: nullopt when none does; kConflict (naming them) when
  /// several files do, so none of them can be told to be the one.
  [[nodiscard]] Result<std::optional<std::string>> file_of(std::int64_t id) const;

 private:
  std::vector<LocalTemplate> documents_;
  std::vector<Error> refused_;
  std::map<std::int64_t, std::vector<std::string>> holders_;  ///< id → every file that names it
};

/// What a push will publish, decided before anything is sent: each file read once, and linted
/// on exactly the bytes that would be sent (an edit saved after the plan is neither linted nor
/// pushed). Whether each document creates, updates or leaves a template alone is decided
/// against the service as it is pushed (`push_template`; `--dry-run` shows it, sending nothing).
struct PushPlan {
  std::vector<LocalTemplate> documents;  ///< to publish, in the order of the paths
  LintRun lint;                          ///< the gate: nothing is pushed while it failed
  /// Files that cannot be published, each with its reason: unreadable (kUnreadable), not a
  /// template document (kInvalid), two files for one template (kConflict: the same id, or the
  /// same title and no id).
  std::vector<Error> refused;
  /// Whether everything may be pushed: no refusal, no lint error, no unreadable configuration.
  [[nodiscard]] bool ready() const { return refused.empty() && !lint.has_errors() && !lint.failed; }
};

/// Plans the push of the files `paths` (each file once, as expand_paths gives them), linted
/// with `lint_settings`.
[[nodiscard]] PushPlan plan_push(const std::vector<std::string>& paths, const LintSettings& lint_settings);

/// The service's copy a document publishes to: the template of its "id", else the caller's
/// one template with exactly its title, else none (nullopt: it would be created). Fails with
/// kNotFound when the id is not on the service, kConflict when several of the caller's
/// templates have the title, or the client's error.
Result<std::optional<RemoteTemplate>> find_remote(Client& client, const LocalTemplate& local);

enum class PushAction {
  Created,
  Updated,
  Unchanged,    ///< the service already holds it; nothing sent
  WouldCreate,  ///< --dry-run
  WouldUpdate,  ///< --dry-run
  Conflict,     ///< changed on the service since pulled; not overwritten without --force
  Failed,
};

[[nodiscard]] std::string_view to_string(PushAction action);

struct PushOptions {
  bool dry_run = false;
  /// Overwrite a template changed on the service since the document was pulled.
  bool force = false;
  /// Where the service's version is saved before it is overwritten (backup_store_dir by
  /// default: never in the user's repository).
  std::string backup_dir;
  /// Threads, each with its own client (and connection); at least 1.
  unsigned jobs = 4;
  /// Where each template's base is recorded after it is created, updated or found unchanged
  /// (base_store_dir); "": not recorded.
  std::string base_dir;
};

/// A value that differs between the two sides of a comparison, each side whole, as compact JSON
/// text (nothing cut); nullopt where the side does not have it.
struct ValueChange {
  std::string key;
  std::optional<std::string> before;  ///< the service's copy (three ways: the base)
  std::optional<std::string> after;   ///< the document (three ways: the side compared with the base)
};

/// A story as a change names it.
struct StoryName {
  std::string temp_id;  ///< as JSON text (`12`, `"survey"`); "" when the story has none
  std::string title;
  std::string label;  ///< `[12] "Kick-off"`: temp_id and title as shown
};

/// A dependency of a changed story that differs: removed (`before` alone), added (`after`
/// alone), or the one dependency on a target with another type or lag (both), each as compact
/// JSON text. Dependencies that read the same (target, type and lag) are not changes.
struct DependencyChange {
  std::optional<std::string> before;
  std::optional<std::string> after;
};

/// One story that differs between a document and the service's copy.
struct StoryChange {
  enum class Kind { Added, Changed, Removed };
  Kind kind = Kind::Changed;
  std::string temp_id;  ///< as JSON text (`12`, `"survey"`); "" when the story has none
  std::string title;
  std::string label;              ///< `[12] "Kick-off"`: temp_id and title as shown
  std::vector<std::string> path;  ///< the titles from the top level down to the story's own
  /// The parent (changed: the document's); nullopt at the top level.
  std::optional<StoryName> parent;
  /// Changed: the keys that differ (sub_stories and dependencies apart), in the document's order.
  std::vector<ValueChange> keys;
  /// Changed: under another parent; `moved_from` is the parent on the service (nullopt: the top level).
  bool moved = false;
  std::optional<StoryName> moved_from;
  /// Changed: removed ones (the service's order), then changed ones, then added ones (the document's).
  std::vector<DependencyChange> dependencies;
};

/// A template field a document sets that the service's copy does not hold (`before` nullopt: the
/// copy lacks it).
using FieldChange = ValueChange;

/// How a document differs from the service's copy (what `ptmpl diff` and `push --dry-run` show).
struct TemplateChanges {
  bool to_create = false;  ///< compared with nothing: every field and story the document has is new
  std::vector<FieldChange> fields;
  /// Added and changed stories in the document's order, then removed ones in the service's.
  std::vector<StoryChange> stories;
  bool stories_compared = false;  ///< the document has raw_json
  bool reordered = false;         ///< the same stories, in another order
  [[nodiscard]] std::size_t count(StoryChange::Kind kind) const;
  [[nodiscard]] bool empty() const { return fields.empty() && stories.empty() && !reordered; }
};

/// Compares `local` with the service's copy `remote` (read with raw_json): template fields that
/// differ, then stories added, removed, moved or changed (matched by temp_id, else by title and
/// place), field by field, dependencies by target. `remote` nullptr: with nothing (a template
/// to create), so every field the document sets and every story is new.
[[nodiscard]] TemplateChanges compare_template(const LocalTemplate& local, const RemoteTemplate* remote);

struct PushOutcome {
  PushAction action = PushAction::Failed;
  std::int64_t id = 0;
  std::string updated_at;
  std::string message;  ///< why it failed or conflicts
  /// Dry runs (WouldCreate, WouldUpdate): the request that would be sent (its body is the
  /// document's), and what it would change on the service.
  std::string method;
  std::string url;
  TemplateChanges changes;
  std::string backup;  ///< the file the previous remote version was saved to, if any
  /// Why it failed (action Failed): kNetwork when the service did not answer at all, kService
  /// when it refused, kNotFound, kConflict or a local code (the id could not be written back).
  ErrorCode failure = ErrorCode::kInternal;
  /// Done, but the base could not be recorded (a later `pull --merge` has none): why.
  std::string warning;
};

/// Publishes one document: by its id when it has one, else by exact title among the caller's
/// templates (several with that title: an error), else as a new template. An update first
/// reads the service's copy: the same content is left alone; a copy whose updated_at differs
/// from the document's is a Conflict unless `force`; otherwise the copy is saved under
/// `backup_dir` and then overwritten. Unless `dry_run`, the document's file then gets the id
/// and updated_at written back (atomically).
PushOutcome push_template(Client& client, const LocalTemplate& local, const PushOptions& options);

/// Pushes `locals` with `options.jobs` workers, each with a client from `make_client`; the
/// workers share `pacer`, which the clients should be given, so that a 429 holds them all back.
/// Once the service stops answering, no further document is started (those get Failed with
/// "not attempted"). `done` is called, one call at a time, as each document finishes.
std::vector<PushOutcome> push_templates(const std::vector<LocalTemplate>& locals, const PushOptions& options,
                                        const std::function<std::unique_ptr<Client>()>& make_client,
                                        const std::function<void(std::size_t, const PushOutcome&)>& done = {});

/// One push at a time per service address on this machine: pushes that overlap would each
/// look a new title up, find nothing, and create it twice (the API has no idempotency key and
/// no delete). Held from before the first lookup until the push ends.
class PushLock {
 public:
  /// Takes `dir`/push-<hash of base_url>.lock with flock(2), creating `dir`. When another
  /// push holds it, calls `waiting` once with a message naming the file, then waits for it.
  /// Fails (kOutputFailed) when the file cannot be created or locked.
  static Result<PushLock> take(const std::string& dir, const std::string& base_url,
                               const std::function<void(const std::string&)>& waiting);
  PushLock(PushLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  PushLock& operator=(PushLock&&) = delete;
  PushLock(const PushLock&) = delete;
  PushLock& operator=(const PushLock&) = delete;
  ~PushLock();

 private:
  explicit PushLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

/// ptmpl's own state on this machine: `$XDG_STATE_HOME/ptmpl`, else `$HOME/.local/state/ptmpl`
/// (the caller passes the variables' values; nullopt: unset; a relative XDG_STATE_HOME is
/// ignored, as XDG says); "" when neither is set. Locks, bases and backups live below it.
[[nodiscard]] std::string state_dir(std::optional<std::string_view> xdg_state_home,
                                    std::optional<std::string_view> home);

/// Where push locks live: `state_dir()/locks`; "" without a state directory.
[[nodiscard]] std::string push_lock_dir(std::optional<std::string_view> xdg_state_home,
                                        std::optional<std::string_view> home);

/// Where push saves the service's version of a template at `base_url` before it overwrites it:
/// `state_dir()/backups/<hash of the address>`, beside its bases (base_store_dir); "" without
/// a state directory.
[[nodiscard]] std::string backup_store_dir(std::optional<std::string_view> xdg_state_home,
                                           std::optional<std::string_view> home, const std::string& base_url);

/// What write_pulled did.
struct PulledFile {
  bool unchanged = false;  ///< the file already held exactly this document
  std::string backup;      ///< with force: where the file's previous bytes were saved; "" if none
};

/// Writes the template document of `remote` to `path` (pull). A file already there is replaced
/// only when nothing in it would be lost: it holds the same content as the service's copy
/// (comparing what push compares: the stored fields and the stories; id, updated_at and
/// layout may differ). Otherwise it holds something the service does not (edits not pushed
/// yet, or an older version the service has since changed: a file cannot tell which), and it
/// is refused (kConflict, naming the file) unless `force`, which first saves its bytes to
/// `<path>.bak` (or `.bak.N`, never over another backup). The replacement happens only if the
/// file still holds the bytes that were compared.
Result<PulledFile> write_pulled(const std::string& path, const RemoteTemplate& remote, bool force);

/// Where the bases of templates on the service at `base_url` are recorded:
/// `$XDG_STATE_HOME/ptmpl/bases/<hash of the address>`, else
/// `$HOME/.local/state/ptmpl/bases/<hash>` (the caller passes the variables' values; nullopt:
/// unset); "" when neither is set. The address is taken as push's lock takes it (no trailing
/// slash; scheme and host in lower case).
[[nodiscard]] std::string base_store_dir(std::optional<std::string_view> xdg_state_home,
                                         std::optional<std::string_view> home, const std::string& base_url);

/// Records `remote` (read with raw_json) as the base of template `remote.id`: the version a
/// pull or push last agreed on with the service. Its template document (template_document's
/// canonical form, with updated_at) is written atomically to `dir/<id>.json`, creating `dir`.
Status record_base(const std::string& dir, const RemoteTemplate& remote);

/// The base recorded for template `id` under `dir`: its template document's text; nullopt when
/// none was recorded.
Result<std::optional<std::string>> load_base(const std::string& dir, std::int64_t id);

/// The service's copy as a push records it after an update or create: `answer` (the service's
/// reply), with the stories that were sent when the reply does not carry raw_json.
[[nodiscard]] RemoteTemplate pushed_version(const LocalTemplate& local, RemoteTemplate answer);

/// One place where the file and the service changed the same thing differently since the base.
struct MergeConflict {
  std::optional<StoryName> story;  ///< nullopt for a template field
  std::string key;                 ///< the key both changed; "" when the conflict is about the whole story
  std::string what;  ///< `locally 5, on the service 9 (base 7)`, `removed locally, changed on the service`, …
  /// A key changed differently on each side: its value on each, whole, as compact JSON text
  /// (nullopt where absent).
  struct Values {
    std::optional<std::string> base;
    std::optional<std::string> local;
    std::optional<std::string> service;
  };
  std::optional<Values> values = {};
};

/// A three-way merge of template documents.
struct MergeResult {
  /// The merged template document (canonical), with the service's id and updated_at; "" when
  /// there are conflicts.
  std::string document;
  std::vector<MergeConflict> conflicts;  ///< in the local order: template fields, then stories
};

/// Merges the template documents `local` (the file) and `remote` (the service's copy) from
/// their common `base`. Template fields, then stories paired by temp_id, then each story's
/// keys: a change on one side is taken, the same change on both sides once; different changes
/// of one key, a story removed on one side and changed on the other, or added on both with
/// different content, are conflicts (so is a story without a temp_id, or a temp_id that names
/// several stories: they cannot be paired). Stories keep the local order; ones only the
/// service added follow their predecessor in its order. Unknown keys are kept, and so is
/// everything beside project_template in `local`. Fails (kInvalid) when a text is not a
/// template document or its raw_json is not a story list.
Result<MergeResult> merge_templates(std::string_view base, std::string_view local, std::string_view remote);

/// What merge_pulled did.
struct MergedFile {
  enum class Outcome {
    Replaced,   ///< the file held what the service holds, or nothing yet: written as pull writes it
    Merged,     ///< the service's changes since the base merged with the file's edits, and written
    Kept,       ///< the service's copy has not changed since the base: the file's edits are kept as they are
    Conflicts,  ///< both changed the same things differently: nothing written
  };
  Outcome outcome = Outcome::Replaced;
  std::vector<MergeConflict> conflicts;  ///< Conflicts: each one
  std::string base_updated_at;           ///< the base's version (Merged, Kept, Conflicts)
};

/// `pull --merge`: writes `remote` to `path` as write_pulled does when nothing in the file
/// would be lost; a file with edits not pushed is merged three-way with the base recorded under
/// `base_dir` (merge_templates), and the result written (only if the file still holds the
/// bytes that were read). Fails (kConflict) when there is no base for the file: it has no id,
/// none was recorded, or the recorded one is not the version the file was pulled at.
Result<MergedFile> merge_pulled(const std::string& path, const RemoteTemplate& remote, const std::string& base_dir);

/// What `ptmpl diff --three-way` shows: what changed in `local` since `base` and what changed in
/// `remote` (both template documents as read), then the conflicts a merge would meet.
struct ThreeWayDiff {
  TemplateChanges local;
  TemplateChanges remote;
  std::vector<MergeConflict> conflicts;
};

/// Compares `local` and `remote` with their `base` (template document texts).
Result<ThreeWayDiff> diff_three_way(const LocalTemplate& base, const LocalTemplate& local, const LocalTemplate& remote);

/// `changes` as `ptmpl diff` shows them ("template:" and "stories: …" sections with their lines),
/// each line starting with `indent`; "" when empty.
[[nodiscard]] std::string changes_text(const TemplateChanges& changes, std::string_view indent);

}  // namespace ptmpl::publish
