// `ptmpl schedule` and `ptmpl stats`: read one template, schedule it (docs/semantics.md §5), print a
// preview (docs/semantics.md §9) or the totals.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <tuple>

#include "commands.hpp"
#include "libtemplate/convert/convert.hpp"
#include "libtemplate/core/config.hpp"
#include "libtemplate/core/file_io.hpp"
#include "libtemplate/core/hours.hpp"
#include "libtemplate/core/preview.hpp"
#include "libtemplate/core/template_file.hpp"
#include "pager.hpp"

namespace ptmpl::cli {

namespace {

constexpr std::size_t kDefaultWidth = 80;
constexpr std::size_t kMinWidth = 40;

// What both commands read: the file, the template chosen in it, and options of their own.
struct ReadSettings {
  std::string path;
  std::size_t template_number = 0;  // 1-based; 0 when not given
  bool asap = false;
  bool strict = false;
};

void add_read_options(CLI::App& app, ReadSettings& settings) {
  app.add_option("file", settings.path,
                 "template file: a story list, a template document or an API response ('-' "
                 "reads standard input); or a plan (.mpp, MS Project XML, .gan, CSV), converted first")
      ->required();
  app.add_option("--template", settings.template_number,
                 "which template of a file that holds several (an API response), counting from 1")
      ->check(CLI::PositiveNumber);
  app.add_flag("--asap", settings.asap,
               "ignore declared start dates: every story starts as soon as its dependencies allow");
  app.add_flag("--strict", settings.strict,
               "refuse a file with a duration or date the scheduler cannot take (a warning otherwise)");
}

// The file read and checked, and the template chosen; messages go to standard error.
struct Loaded {
  TemplateFile file;
  const TemplateSource* source = nullptr;
};

std::unique_ptr<Loaded> load(const std::string& command, const ReadSettings& settings) {
  ReadOptions options;
  options.release_text = true;  // a large file keeps its tree and model, not its text
  auto read = read_template_or_plan(settings.path, options);
  if (!read.ok()) {
    report_error(command, read.error());
    return nullptr;
  }
  if (!read.value().note.empty()) report_note(command, read.value().note);
  auto loaded = std::make_unique<Loaded>(Loaded{std::move(read.value().file), nullptr});
  auto source = schedulable_template(loaded->file, settings.template_number);
  if (!source.ok()) {
    report_error(command, source.error());
    return nullptr;
  }
  loaded->source = source.value();
  return loaded;
}

// The calendar options both commands take (docs/semantics.md §4): each overrides its field of the file's
// calendar block.
struct CalendarOptions {
  std::string start;
  std::string finish;
  std::string week;  // "workweek" or "7day"; empty when not given
  std::string holidays;
};

void add_calendar_options(CLI::App& app, CalendarOptions& options) {
  CLI::Option* start = app.add_option(
      "--start", options.start, "date of day 0 (YYYY-MM-DD): show calendar dates (default: the file's calendar block)");
  app.add_option("--finish", options.finish,
                 "a deadline (YYYY-MM-DD): day 0 is the latest start for which the project ends on it")
      ->excludes(start);
  app.add_option("--calendar", options.week,
                 "working week: workweek (Mon-Fri) or 7day (default: the calendar block's week, else workweek)")
      ->check(one_of({"workweek", "7day"}));
  app.add_option("--holidays", options.holidays,
                 "a file of non-working dates, one YYYY-MM-DD per line (instead of the calendar block's holidays)");
}

// The flags as values, or nothing after saying what is wrong (a bad date, an unreadable file).
std::optional<CalendarFlags> calendar_flags(const std::string& command, const CalendarOptions& options) {
  CalendarFlags flags;
  for (auto [name, text, date] :
       {std::tuple{"--start", &options.start, &flags.start}, std::tuple{"--finish", &options.finish, &flags.finish}}) {
    if (text->empty()) continue;
    *date = parse_date(*text);
    if (!*date) {
      report_note(command, std::string(name) + ": \"" + *text + "\" is not a date (expected YYYY-MM-DD)");
      return std::nullopt;
    }
  }
  if (!options.week.empty()) flags.week = options.week == "7day" ? WorkWeek::every_day() : WorkWeek::monday_to_friday();
  if (!options.holidays.empty()) {
    auto text = FileText::read(options.holidays);
    if (!text.ok()) {
      report_error(command, text.error());
      return std::nullopt;
    }
    auto parsed = parse_holidays(text.value().text(), options.holidays);
    if (!parsed.ok()) {
      report_error(command, parsed.error());
      return std::nullopt;
    }
    flags.holidays = std::move(parsed).value();
  }
  return flags;
}

// Reports why the schedule has no dates (exit 2) and warns about values and links it had to
// ignore (with --strict, such a value is an error: exit 2).
bool report_schedule(const std::string& command, const Loaded& loaded, const Schedule& schedule, bool strict) {
  std::vector<std::string> errors = schedule_errors(loaded.file, *loaded.source, schedule);
  for (const std::string& error : errors) report_note(command, error);
  if (!errors.empty()) return false;
  const std::vector<std::string> unread =
      schedule_value_warnings(loaded.file, *loaded.source, strict ? "error" : "warning");
  for (const std::string& warning : unread) report_note(command, warning);
  if (strict && !unread.empty()) return false;
  if (auto warning = schedule_warning(loaded.file, schedule)) report_note(command, *warning);
  return true;
}

// The terminal's width: $COLUMNS, else the terminal's own, else 80; never below 40.
std::size_t terminal_width() {
  std::size_t width = 0;
  if (const char* columns = std::getenv("COLUMNS")) {
    std::string_view text(columns);
    std::from_chars(text.data(), text.data() + text.size(), width);
  }
  winsize size{};
  if (width == 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) width = size.ws_col;
  if (width == 0) width = kDefaultWidth;
  return std::max(width, kMinWidth);
}

std::string title_of(const Loaded& loaded) {
  if (loaded.source->model.title && !loaded.source->model.title->empty())
    return std::string(*loaded.source->model.title);
  if (loaded.file.path() == "-") return "";
  return std::filesystem::path(loaded.file.path()).filename().string();
}

// The capacities --hours marks weeks with: `.ptmpl.json`'s nearest the file, then each
// --capacity, which replaces a role's. Nothing after saying what is wrong.
std::optional<std::vector<Capacity>> capacities(const std::string& command, const Loaded& loaded,
                                                const std::vector<std::string>& flags) {
  std::vector<Capacity> out;
  auto set = [&](Capacity capacity) {
    std::erase_if(out, [&](const Capacity& c) { return c.role == capacity.role; });
    out.push_back(std::move(capacity));
  };
  if (loaded.file.path() != "-")
    if (std::optional<std::string> path = find_config(loaded.file.path())) {
      auto config = LintConfig::load(*path);
      if (!config.ok()) {
        report_error(command, config.error());
        return std::nullopt;
      }
      for (const CapacitySetting& setting : config.value().capacity()) {
        auto parsed = parse_capacity(setting.role, setting.per_week);
        if (!parsed.ok()) {
          report_note(command, setting.place + ": " + parsed.error().message);
          return std::nullopt;
        }
        set(std::move(parsed).value());
      }
    }
  for (const std::string& flag : flags) {
    auto parsed = parse_capacity(flag);
    if (!parsed.ok()) {
      report_error(command, parsed.error());
      return std::nullopt;
    }
    const auto& roles = loaded.source->model.assignments;
    if (std::none_of(roles.begin(), roles.end(),
                     [&](const TemplateAssignment& a) { return a.name == parsed.value().role; }))
      report_note(command, "warning: --capacity " + parsed.value().role +
                               ": no entry of project_template_assignments has that name");
    set(std::move(parsed).value());
  }
  return out;
}

// `schedule --hours`: the hours of the template, or nothing after saying why there are none.
std::optional<Hours> hours_of(const std::string& command, const Loaded& loaded, const ScheduledTemplate& planned,
                              const std::optional<Calendar>& calendar, PreviewFormat format,
                              const std::vector<std::string>& capacity_flags) {
  if (format != PreviewFormat::Table && format != PreviewFormat::Csv && format != PreviewFormat::Json &&
      format != PreviewFormat::Html) {
    report_note(command, "--hours is shown as table, csv, json or html, not " + std::string(to_string(format)));
    return std::nullopt;
  }
  if (!calendar) {
    report_note(command,
                "--hours needs dates, to put hours in weeks and months: --start, --finish, or a start or finish in "
                "the file's calendar block");
    return std::nullopt;
  }
  const Rollup rollup(planned.index());
  const std::vector<std::string> errors = stats_errors(loaded.file, *loaded.source, rollup);
  for (const std::string& error : errors) report_note(command, error);
  if (!errors.empty()) return std::nullopt;
  auto capacity = capacities(command, loaded, capacity_flags);
  if (!capacity) return std::nullopt;
  auto hours = hours_by_assignment(planned, rollup, *calendar, loaded.source->model.assignments, *capacity);
  if (!hours.ok()) {
    report_error(command, hours.error());
    return std::nullopt;
  }
  return std::move(hours).value();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// schedule

std::function<int()> setup_schedule(CLI::App& app) {
  struct Options {
    ReadSettings read;
    std::string format;
    CalendarOptions calendar;
    std::size_t depth = 0;
    bool critical_only = false;
    std::size_t width = 0;
    std::string output;
    bool no_pager = false;
    bool hours = false;
    std::vector<std::string> capacity;
  };
  auto o = std::make_shared<Options>();
  add_read_options(app, o->read);
  app.add_option("--format", o->format,
                 "gantt (default on a terminal), table (default otherwise), json, csv, "
                 "mermaid, svg or html")
      ->check(one_of({"gantt", "table", "json", "csv", "mermaid", "svg", "html"}));
  add_calendar_options(app, o->calendar);
  app.add_option("--depth", o->depth, "show stories down to this many levels (1 = top level only)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--critical-only", o->critical_only, "show critical stories only (and the parents that hold them)");
  app.add_option("--width", o->width, "width of the Gantt chart in columns (default: the terminal's, else 80)")
      ->check(CLI::Range(kMinWidth, std::size_t{100000}));
  app.add_flag("--hours", o->hours,
               "hours by assignment per week and month (table, csv, json; html adds their chart to the page)");
  app.add_option("--capacity", o->capacity,
                 "a role's hours a week, ROLE=HOURSh/week (repeatable; also .ptmpl.json's \"capacity\"): --hours "
                 "marks the weeks above it")
      ->needs("--hours");
  app.add_option("-o,--output", o->output, "write to this file (atomically) instead of standard output");
  app.add_flag("--no-pager", o->no_pager,
               "print a Gantt chart taller than the terminal directly rather than through $PTMPL_PAGER, $PAGER "
               "or less");
  app.footer(
      "Dates follow the file's calendar block (docs/semantics.md §4) when it has one; each calendar option overrides "
      "its field.\n"
      "--finish DATE: day 0 is the latest start for which the project ends on DATE (the last working day\n"
      "before it when it does not work); standard error says which start that is.\n"
      "--hours: each story's time estimate spread over its working days and its assignments, by ISO week\n"
      "and month; --capacity marks the weeks a role exceeds (docs/semantics.md §14).\n"
      "A duration or date a story holds that the scheduler cannot take (\"5\", -3, 1.5) is a warning naming\n"
      "the story and the value; --strict makes it an error.\n"
      "Exit codes: 0 ok, 2 usage error, unreadable or invalid file or calendar block, dependency cycle,\n"
      "a value the scheduler cannot take with --strict.\n\n"
      "Example:\n  ptmpl schedule samples/software-release.json --start 2027-01-04 --format html -o plan.html\n"
      "  ptmpl schedule samples/website-launch.json --finish 2027-06-30 --hours --capacity \"UX Designer=32h/week\"");
  return [o] {
    const std::string command = "schedule";
    if (o->output.empty()) o->output = "-";
    const std::string inputs[] = {o->read.path, o->calendar.holidays};
    if (Status apart = check_output_is_not_input(o->output, inputs); !apart.ok())
      return report_error(command, apart.error());
    auto flags = calendar_flags(command, o->calendar);
    if (!flags) return int{kUsage};
    PreviewOptions preview;
    auto loaded = load(command, o->read);
    if (!loaded) return int{kUsage};
    const ScheduledTemplate planned(loaded->source->model.stories, {.asap = o->read.asap});
    const Schedule& schedule = planned.schedule();
    auto calendar = resolve_calendar(loaded->file, *loaded->source, *flags, &schedule);
    if (!calendar.ok()) return report_error(command, calendar.error());
    preview.calendar = std::move(calendar).value();
    if (!report_schedule(command, *loaded, schedule, o->read.strict)) return int{kUsage};
    preview.finish = deadline_of(*loaded->source, *flags);
    if (preview.finish) report_note(command, deadline_note(*preview.finish, *preview.calendar, schedule));

    const bool terminal = o->output == "-" && ::isatty(STDOUT_FILENO) != 0;
    PreviewFormat format = terminal && !o->hours ? PreviewFormat::Gantt : PreviewFormat::Table;
    if (!o->format.empty()) format = parse_preview_format(o->format).value_or(format);
    std::optional<Hours> hours;
    if (o->hours) {
      auto computed = hours_of(command, *loaded, planned, preview.calendar, format, o->capacity);
      if (!computed) return int{kUsage};
      hours = std::move(*computed);
      preview.hours = &*hours;
      if (format != PreviewFormat::Html) {
        const std::string text = format == PreviewFormat::Json  ? render_hours_json(*hours)
                                 : format == PreviewFormat::Csv ? render_hours_csv(*hours)
                                                                : render_hours_table(*hours);
        const Status shown =
            format == PreviewFormat::Table && o->output == "-" ? write_for_person(text) : write_result(o->output, text);
        return shown.ok() ? int{kOk} : report_error(command, shown.error());
      }
    }
    if (o->depth > 0) preview.depth = o->depth;
    preview.critical_only = o->critical_only;
    preview.width = o->width > 0 ? o->width : (terminal ? terminal_width() : kDefaultWidth);
    preview.color = terminal && colour_on(STDOUT_FILENO);
    preview.title = title_of(*loaded);
    preview.assignments = loaded->source->model.assignments;
    // A Gantt chart taller than the terminal pages, as `git log` does; nothing else does.
    const bool page = terminal && format == PreviewFormat::Gantt && !o->no_pager;
    Status written = Done{};
    if (terminal && !page && format != PreviewFormat::Gantt) {
      // A person reads it: made whole, and shown through printable_lines (the Gantt chart
      // drives the terminal itself, and its titles are kept on one line without controls).
      written = write_for_person(render_preview(schedule, format, preview));
    } else if (o->output == "-" && !page) {
      // Standard output takes the text as it is made: a large schedule is never held whole. A
      // file named with -o is replaced atomically, so it is written once, whole.
      render_preview_to(schedule, format, preview, [&](std::string_view piece) {
        if (written.ok()) written = write_stdout(piece);
      });
    } else {
      const std::string text = render_preview(schedule, format, preview);
      written = page ? write_paged(text) : write_output(o->output, text);
    }
    if (!written.ok()) {
      return report_error("schedule", written.error());
    }
    return int{kOk};
  };
}

// ---------------------------------------------------------------------------------------------
// stats

std::function<int()> setup_stats(CLI::App& app) {
  struct Options {
    ReadSettings read;
    std::string format = "text";
    CalendarOptions calendar;
  };
  auto o = std::make_shared<Options>();
  add_read_options(app, o->read);
  add_calendar_options(app, o->calendar);
  app.add_option("--format", o->format, "text (default) or json")->check(one_of({"text", "json"}));
  app.footer(
      "Prints item_count, duration (working days), budget_in_cents, time_estimate_in_minutes and\n"
      "critical_count; with a start date (--start, or the file's calendar block), start_date and due_date;\n"
      "with --finish DATE (or the block's finish), finish and latest_start: day 0 placed back from DATE.\n"
      "A duration or date the scheduler cannot take is a warning (an error with --strict), as in schedule.\n"
      "Exit codes: 0 ok, 2 usage error, unreadable or invalid file or calendar block, dependency cycle,\n"
      "an estimate that is no amount (a string, a negative number), a value the scheduler cannot take\n"
      "with --strict.\n\n"
      "Example:\n  ptmpl stats samples/erp-implementation.json --format json");
  return [o] {
    auto flags = calendar_flags("stats", o->calendar);
    if (!flags) return int{kUsage};
    auto loaded = load("stats", o->read);
    if (!loaded) return int{kUsage};
    const ScheduledTemplate planned(loaded->source->model.stories, {.asap = o->read.asap});
    auto calendar = resolve_calendar(loaded->file, *loaded->source, *flags, &planned.schedule());
    if (!calendar.ok()) return report_error("stats", calendar.error());
    if (!report_schedule("stats", *loaded, planned.schedule(), o->read.strict)) return int{kUsage};
    const std::optional<Date> finish = deadline_of(*loaded->source, *flags);
    const Rollup rollup(planned.index());
    const std::vector<std::string> errors = stats_errors(loaded->file, *loaded->source, rollup);
    for (const std::string& error : errors) report_note("stats", error);
    if (!errors.empty()) return int{kUsage};
    Stats stats = compute_stats(planned.schedule(), rollup, calendar.value(), finish);
    Status shown =
        o->format == "json" ? write_result("-", render_stats_json(stats)) : write_for_person(render_stats_text(stats));
    if (!shown.ok()) return report_error("stats", shown.error());
    return int{kOk};
  };
}

}  // namespace ptmpl::cli
