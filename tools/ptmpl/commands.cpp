#include "commands.hpp"

#include <cstdlib>
#include <iostream>

#include <unistd.h>
#include <memory>

#include "libtemplate/bundled.hpp"
#include "libtemplate/file_io.hpp"
#include "libtemplate/generator.hpp"
#include "libtemplate/lint.hpp"
#include "libtemplate/template_file.hpp"
#include "libtemplate/writer.hpp"

namespace ptmpl::cli {

namespace {

std::string place(const TemplateFile& file, std::uint64_t offset) {
  json::Position p = file.document().position(offset);
  return file.path() + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// lint

std::function<int()> setup_lint(CLI::App& app) {
  struct Options {
    std::vector<std::string> paths;
    std::string format = "text";
    std::string fail_on = "error";
    std::uint32_t max_depth = 256;
    unsigned jobs = 0;
  };
  auto o = std::make_shared<Options>();
  app.add_option("paths", o->paths, "template files, or directories to search for *.json")->required();
  app.add_option("--format", o->format, "output format")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--fail-on", o->fail_on, "lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  app.add_option("--max-depth", o->max_depth, "nesting bound for arrays and objects (rule nesting-depth)")
      ->check(CLI::PositiveNumber);
  app.add_option("-j,--jobs", o->jobs, "files linted at once (default: one per core)");
  app.footer(
      "Exit codes: 0 no finding at or above --fail-on, 1 findings, 2 usage or unreadable file.\n\n"
      "Example:\n  ptmpl lint samples/ --format json");
  return [o] {
    auto files = expand_paths(o->paths);
    if (!files.ok()) {
      std::cerr << "ptmpl lint: " << files.error().message << "\n";
      return int{kUsage};
    }
    LintOptions options;
    options.max_depth = o->max_depth;
    LintRun run = lint_files(files.value(), options, o->jobs);
    for (const std::string& error : run.read_errors) std::cerr << "ptmpl lint: " << error << "\n";
    // On a terminal: the source line and a caret under each finding, in colour unless
    // NO_COLOR is set (https://no-color.org). Piped output stays one line per finding.
    TextStyle style;
    style.excerpt = ::isatty(STDOUT_FILENO) != 0;
    const char* no_colour = std::getenv("NO_COLOR");
    style.colour = style.excerpt && (no_colour == nullptr || *no_colour == '\0');
    std::cout << (o->format == "json" ? format_json(run.diagnostics, run.files)
                                      : format_text(run.diagnostics, run.files, style));
    if (!run.read_errors.empty()) return int{kUsage};
    Severity threshold = parse_severity(o->fail_on).value_or(Severity::Error);
    for (const Diagnostic& d : run.diagnostics)
      if (d.severity >= threshold) return int{kFindings};
    return int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// fmt

std::function<int()> setup_fmt(CLI::App& app) {
  struct Options {
    std::vector<std::string> paths;
    bool write = false;
    bool check = false;
  };
  auto o = std::make_shared<Options>();
  app.add_option("files", o->paths, "template files ('-' reads standard input)")->required();
  auto* write = app.add_flag("-w,--write", o->write, "rewrite files in place (atomically) when not canonical");
  app.add_flag("--check", o->check, "print the files that are not canonical; exit 1 if any")->excludes(write);
  app.footer(
      "Canonical form: 2-space indent, documented keys in SPEC order, unknown keys after them in\n"
      "their original order, numbers as written. Exit codes: 0 ok, 1 not canonical (--check),\n"
      "2 unreadable or invalid JSON (nothing is written).\n\n"
      "Example:\n  ptmpl fmt --check samples/*.json");
  return [o] {
    int status = kOk;
    ReadOptions read_options;
    read_options.build_model = false;  // fmt rewrites the tree; it needs no model
    for (const std::string& path : o->paths) {
      auto read = TemplateFile::read(path, read_options);
      if (!read.ok()) {
        std::cerr << "ptmpl fmt: " << read.error().message << "\n";
        status = kUsage;
        continue;
      }
      const TemplateFile& file = read.value();
      const json::Document& doc = file.document();
      if (!doc.ok()) {
        const json::ParseIssue& issue = doc.issues().front();
        std::cerr << place(file, issue.offset) << ": error: " << issue.message << " [json-syntax]\n";
        status = kUsage;
        continue;
      }
      if (doc.truncated()) {
        const json::ParseIssue* deep = nullptr;
        for (const json::ParseIssue& issue : doc.issues())
          if (issue.type == json::ParseIssue::Type::TooDeep && deep == nullptr) deep = &issue;
        std::cerr << place(file, deep->offset) << ": error: " << deep->message
                  << "; fmt does not rewrite a file it cannot read whole [nesting-depth]\n";
        status = kUsage;
        continue;
      }
      std::string canonical = write_canonical(doc.root(), file.shape());
      bool same = canonical == file.text();
      if (o->check) {
        if (!same) {
          std::cout << path << "\n";
          if (status == kOk) status = kFindings;
        }
      } else if (o->write) {
        if (same || path == "-") {
          if (path == "-") std::cout << canonical;
          continue;
        }
        Status written = write_file_atomic(path, canonical);
        if (!written.ok()) {
          std::cerr << "ptmpl fmt: " << written.error().message << "\n";
          status = kUsage;
        }
      } else {
        std::cout << canonical;
      }
    }
    return status;
  };
}

// ---------------------------------------------------------------------------------------------
// rules, explain, schema

std::function<int()> setup_rules(CLI::App& app) {
  app.footer("Example:\n  ptmpl rules");
  return [] {
    std::size_t width = 0;
    for (const RuleInfo& rule : rule_catalogue()) width = std::max(width, rule.id.size());
    for (const RuleInfo& rule : rule_catalogue()) {
      std::string id(rule.id);
      std::string severity(to_string(rule.severity));
      std::cout << id << std::string(width + 2 - id.size(), ' ') << severity << std::string(9 - severity.size(), ' ')
                << rule.summary << "\n";
    }
    return int{kOk};
  };
}

std::function<int()> setup_explain(CLI::App& app) {
  auto id = std::make_shared<std::string>();
  app.add_option("rule", *id, "rule id, as listed by ptmpl rules")->required();
  app.footer("Example:\n  ptmpl explain temp-id-duplicate");
  return [id] {
    auto page = rule_documentation(*id);
    if (find_rule(*id) == nullptr || !page) {
      std::cerr << "ptmpl explain: no rule \"" << *id << "\"; ptmpl rules lists them\n";
      return int{kUsage};
    }
    std::cout << *page;
    return int{kOk};
  };
}

std::function<int()> setup_schema(CLI::App& app) {
  auto name = std::make_shared<std::string>("raw_json");
  app.add_option("name", *name, "which schema (default raw_json)")
      ->check(CLI::IsMember({"raw_json", "template", "config"}));
  app.footer("Example:\n  ptmpl schema template > template.schema.json");
  return [name] {
    std::cout << bundled_schema(*name).value_or("");
    return int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// gen

std::function<int()> setup_gen(CLI::App& app) {
  struct Options {
    GenerateOptions generate;
    std::size_t deps = 0;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  app.add_option("--stories", o->generate.stories, "stories at every level")->check(CLI::Range(1, 100'000'000));
  app.add_option("--depth", o->generate.depth, "levels of sub_stories (1 = flat)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  auto* deps = app.add_option("--deps", o->deps, "dependency links in all (default: one per story)");
  app.add_option("--seed", o->generate.seed, "random seed; the same seed gives the same bytes")->capture_default_str();
  app.add_option("-o,--output", o->output, "write to this file (atomically) instead of standard output");
  app.footer("Example:\n  ptmpl gen --stories 100000 --depth 4 --seed 7 -o big.json");
  return [o, deps] {
    if (deps->count() > 0) o->generate.deps = o->deps;
    std::string text = generate_template(o->generate);
    if (o->output.empty()) {
      std::cout << text;
      return int{kOk};
    }
    Status written = write_file_atomic(o->output, text);
    if (!written.ok()) {
      std::cerr << "ptmpl gen: " << written.error().message << "\n";
      return int{kUsage};
    }
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
