// The lint engine: runs every registered rule over a file as its configuration sets them (the
// rules' settings, the ignores), and many files in parallel.
#include <algorithm>
#include <atomic>
#include <map>
#include <memory_resource>
#include <thread>

#include "io/worker_pool.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/hash.hpp"
#include "libtemplate/core/lint.hpp"
#include "libtemplate/core/rollup.hpp"
#include "rules/rule.hpp"

namespace ptmpl {

std::vector<Diagnostic> lint(const TemplateFile& file, const LintOptions& options) {
  // Below this many stories a second thread costs more than the half of the rules it takes.
  constexpr std::size_t kSplitFrom = 4096;
  std::size_t stories = 0;
  if (options.threads > 1)
    for (const TemplateSource& source : file.templates()) stories += item_count(source.model.stories);
  rules::SharedStructures shared;
  const RuleSettings* settings = options.config != nullptr ? &options.config->rules() : nullptr;
  // Ignored findings are dropped as they are reported, before the bound on findings of a rule
  // counts them (rules::ListedFindings).
  rules::IgnoreFinding ignores;
  if (options.config != nullptr && !options.config->ignore().empty())
    ignores = [&](const Diagnostic& d) { return options.config->ignores(d, file); };
  rules::Context context(file, settings, shared, ignores, options.select);
  if (options.threads > 1 && stories >= kSplitFrom) {
    rules::Context helper(file, settings, shared, ignores, options.select);
    rules::run_all_rules(context, &helper);
    context.merge(std::move(helper));
  } else {
    rules::run_all_rules(context);
  }
  std::vector<Diagnostic> out = context.take();
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Diagnostic> lint_text(const std::string& path, std::string_view text, const LintOptions& options) {
  ReadOptions read;
  read.parse.max_depth = options.max_depth;
  TemplateFile file = TemplateFile::parse(path, FileText::borrow(text), read);
  return lint(file, options);
}

namespace {

/// lint_files, and lint_texts when `texts` is not empty (parallel to `paths`).
LintRun lint_many(const std::vector<std::string>& paths, std::span<const std::string_view> texts,
                  const LintSettings& settings) {
  LintRun run;
  // Configurations first, each read once: the explicit one, or the nearest .ptmpl.json of
  // each file. An invalid configuration stops the run (exit 2), as any bad input of ptmpl's own.
  std::map<std::string, LintConfig> configs;
  std::vector<const LintConfig*> config_of(paths.size(), nullptr);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (settings.config != nullptr) {
      config_of[i] = settings.config;
      continue;
    }
    std::optional<std::string> path = settings.config_path;
    if (!path && settings.discover_config && paths[i] != "-") path = find_config(paths[i]);
    if (!path) continue;
    auto it = configs.find(*path);
    if (it == configs.end()) {
      auto loaded = LintConfig::load(*path);
      if (!loaded.ok()) {
        run.files.push_back({.path = paths[i], .error = loaded.error()});
        return run;
      }
      it = configs.emplace(*path, std::move(loaded).value()).first;
    }
    config_of[i] = &it->second;
  }

  struct Slot {
    std::vector<Diagnostic> diagnostics;
    std::optional<Error> error;
    bool not_template = false;
    std::uint64_t fingerprint = 0;
  };
  std::vector<Slot> slots(paths.size());
  // A file's arena gives its blocks back here when the file is done, for the next file: fresh
  // pages for every file would cost a page fault per 4 KiB touched (json::Arena).
  std::pmr::synchronized_pool_resource blocks(json::Arena::kPoolOptions);
  // Threads the files leave idle go to the rules of each file (a single large file uses two).
  const unsigned threads = settings.jobs == 0 ? std::max(1U, std::thread::hardware_concurrency()) : settings.jobs;
  const unsigned threads_per_file =
      !paths.empty() && paths.size() < threads ? threads / static_cast<unsigned>(paths.size()) : 1;
  struct NoState {};
  detail::for_each_on_workers(
      paths.size(), settings.jobs, [] { return NoState{}; },
      [&](NoState&, std::size_t i) {
        LintOptions options;
        options.config = config_of[i];
        options.threads = threads_per_file;
        options.select = settings.select;
        options.max_depth =
            settings.max_depth.value_or(options.config != nullptr ? options.config->max_depth().value_or(256) : 256);
        ReadOptions read;
        read.parse.max_depth = options.max_depth;
        read.parse.memory = &blocks;
        // A large file keeps its tree and model, not its text, unless fixes will rewrite it.
        read.release_text = !settings.fingerprint;
        // An exception must not leave a worker thread (that would end the process): it becomes
        // the error of its file, like an unreadable one.
        try {
          auto bytes = texts.empty() ? FileText::read_text(paths[i]) : Result<FileText>(FileText::borrow(texts[i]));
          if (!bytes.ok()) {
            slots[i].error = bytes.error();
            return;
          }
          const bool found_in_directory = i < settings.found_in_directory.size() && settings.found_in_directory[i];
          SelectedTemplate selected =
              read_selected_template(paths[i], std::move(bytes).value(), found_in_directory, read);
          if (selected.plan) slots[i].error = std::move(selected.plan);
          slots[i].not_template = selected.not_template;
          if (!selected.file) return;
          const TemplateFile& file = *selected.file;
          slots[i].diagnostics = lint(file, options);
          if (settings.fingerprint) slots[i].fingerprint = content_hash(file.text());
        } catch (const Failure& e) {
          slots[i].error = e.error();
        } catch (const std::bad_alloc&) {
          slots[i].error = Error::internal(paths[i] + ": out of memory while linting");
        } catch (const std::exception& e) {
          slots[i].error = Error::internal(paths[i] + ": " + e.what());
        }
      });

  for (std::size_t i = 0; i < paths.size(); ++i) {
    Slot& slot = slots[i];
    if (slot.not_template) {
      run.not_templates.push_back(paths[i]);
      continue;
    }
    run.files.push_back({.path = paths[i], .fingerprint = slot.fingerprint, .error = std::move(slot.error)});
    if (run.files.back().error) continue;
    Severity threshold = settings.fail_on.value_or(
        config_of[i] != nullptr ? config_of[i]->fail_on().value_or(Severity::Error) : Severity::Error);
    for (const Diagnostic& d : slot.diagnostics) run.failed = run.failed || d.severity >= threshold;
    run.diagnostics.insert(run.diagnostics.end(), std::make_move_iterator(slot.diagnostics.begin()),
                           std::make_move_iterator(slot.diagnostics.end()));
  }
  std::stable_sort(run.diagnostics.begin(), run.diagnostics.end());
  return run;
}

}  // namespace

LintRun lint_files(const std::vector<std::string>& paths, const LintSettings& settings) {
  return lint_many(paths, {}, settings);
}

LintRun lint_texts(const std::vector<std::string>& paths, std::span<const std::string_view> texts,
                   const LintSettings& settings) {
  return lint_many(paths, texts, settings);
}

std::size_t LintRun::linted_count() const {
  return static_cast<std::size_t>(
      std::count_if(files.begin(), files.end(), [](const LintedFile& file) { return !file.error; }));
}

bool LintRun::has_errors() const {
  return linted_count() < files.size();
}

}  // namespace ptmpl
