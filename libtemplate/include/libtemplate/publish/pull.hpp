// `ptmpl pull`: the service's templates written into a directory, each into the file that
// already holds it or into a new one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libtemplate/core/result.hpp"
#include "libtemplate/publish/api_client.hpp"

namespace ptmpl::publish {

/// Which templates to pull: the templates of `ids`, every one the token's user can see
/// (`all`), the user's own (`mine`), or those titled exactly `title`.
struct PullSelection {
  std::vector<std::int64_t> ids;
  bool all = false;
  bool mine = false;
  std::string title;

  /// Done when exactly one of the four is given; kUsage otherwise.
  [[nodiscard]] Status check() const;
};

struct PullOptions {
  std::string output_dir = ".";  ///< where new files go (created when missing)
  /// Overwrite a file with edits not pushed, saving it first (write_pulled's `force`).
  bool force = false;
  /// Merge the service's changes into a file with edits not pushed (merge_pulled).
  bool merge = false;
  /// Where each template's base is recorded and merges find it (base_store_dir); "": nowhere.
  std::string base_dir;
};

/// What became of one template pulled.
struct PulledTemplate {
  std::int64_t id = 0;
  std::string path;      ///< the file that holds it, or would have; "" when none could be told
  bool written = false;  ///< `path` holds the service's copy now (or the merge of it)
  /// `merge`: the file and the service changed the same things; nothing was written, and the
  /// last note lists the conflicts.
  bool conflicts = false;
  std::optional<Error> error;  ///< why it was not written
  /// What to tell besides, in order, each naming the file: a backup made, a merge done or kept
  /// from, the conflicts met, a base that could not be recorded (a warning).
  std::vector<std::string> notes;
};

/// What a pull did, in the order it happened.
struct PullOutcome {
  /// Templates named by id that could not be fetched or used (the others are pulled).
  std::vector<Error> unavailable;
  /// A listing's warnings and the templates it could not use (the others are pulled).
  ListNotes listing;
  /// Why the pull stopped before writing anything: the service unreachable or insecure, no
  /// template with the title, an output directory that cannot be made.
  std::optional<Error> stopped;
  /// Each template fetched, in the order of `ids` or of the listing.
  std::vector<PulledTemplate> templates;
};

/// Pulls the templates of `selection` into `options.output_dir`. A template some file below
/// that directory holds (its "id", as push tells it) goes into that file, any other into
/// `pulled_file_name`; each is written by write_pulled, or merge_pulled with `options.merge`,
/// and then recorded as its base. A template that cannot be fetched or written does not stop
/// the others. Fails (as `stopped`) when `selection` does not check.
[[nodiscard]] PullOutcome pull_templates(Client& client, const PullSelection& selection, const PullOptions& options);

}  // namespace ptmpl::publish
