#include "convert/findings.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>

#include "libtemplate/core/dependency_graph.hpp"
#include "libtemplate/core/json.hpp"
#include "libtemplate/core/model.hpp"
#include "libtemplate/core/spelling.hpp"

namespace ptmpl {

namespace {

// Every finding a converter can report, alphabetical (docs/commands/convert.md lists them all).
constexpr ConversionRule kRules[] = {
    {"csv-date-column", Severity::Warning,
     "a date column that disagrees with the day offsets, or has none beside it, is not read (the offset is kept)",
     "{n} dates disagree with the day offsets or have none beside them; the offsets are kept"},
    {"csv-dependency-cycle", Severity::Warning,
     "the links form a cycle: the template converts, but has no schedule until one is removed",
     "{n} dependency cycles; the template has no schedule until a link of each is removed"},
    {"csv-dropped-field", Severity::Warning,
     "a story field a CSV has no column for (or of the wrong type) is not written",
     "{topics} not written on {n} stories: no CSV column, or a value of the wrong type"},
    {"csv-dropped-link", Severity::Warning,
     "a dependency without both ends, or of an invalid type or lag, is not written",
     "{n} dependencies are not written: a story without a temp_id, a target not in the template, or an invalid "
     "type or lag"},
    {"csv-dropped-story", Severity::Warning,
     "a story-list item that is not an object, or sub_stories that are not an array, is not written",
     "{n} items of story lists are not stories (objects), or sub_stories not arrays; they are not written"},
    {"csv-template-fields", Severity::Info, "template metadata and assignments are not written (a CSV holds stories)",
     "{n} findings on the template's own fields, which a CSV does not hold"},
    {"csv-unknown-column", Severity::Warning, "a column ptmpl does not read is ignored",
     "{n} columns are not ones ptmpl reads; they are ignored: {topics}"},
    {"gan-allocation-load", Severity::Info, "a resource's load on a task is not kept",
     "{n} allocations of resources to tasks have a load other than 100%; a template assignment has no load"},
    {"gan-baseline", Severity::Info, "a baseline is not kept", "{n} baselines are not kept"},
    {"gan-calendar", Severity::Info,
     "the plan's calendar differs from Monday to Friday or has events; a template keeps none",
     "{n} calendar events or settings are not kept as they are"},
    {"gan-cost", Severity::Warning, "a cost that is calculated from rates, or not a whole number of cents, is not kept",
     "{n} task costs are not kept: calculated from resource rates, or not a whole, non-negative number of cents"},
    {"gan-custom-property", Severity::Info, "a custom task property is not kept",
     "{n} custom task properties are not kept"},
    {"gan-dependency-cycle", Severity::Warning,
     "the links form a cycle: the template converts, but has no schedule until one is removed",
     "{n} dependency cycles; the template has no schedule until a link of each is removed"},
    {"gan-earliest-start", Severity::Warning, "an earliest-start constraint is kept only as the task's start",
     "{n} tasks have an earliest start; only their starts are kept (as start-no-earlier-than)"},
    {"gan-link-invalid", Severity::Warning,
     "a link to a missing task, of an unknown type, repeated or within one branch is dropped",
     "{n} links are dropped, or their lags read as 0: a task not in the plan, an unknown type, a repeat, a link "
     "within one branch, or a lag that is not whole"},
    {"gan-link-not-kept", Severity::Warning,
     "a task the plan places before its link allows is scheduled later, and no other finding says why",
     "{n} tasks are placed by the plan before their links allow, with no other finding to say why; the schedule "
     "starts each later"},
    {"gan-milestone-day", Severity::Warning, "a milestone that lasts a day (older files) passes that day on as lag",
     "{n} milestones last a day in this file; the links from their finish get one more day of lag"},
    {"gan-moved-by-task", Severity::Info,
     "a task is scheduled later than the plan has it because the task its link comes from is",
     "{n} tasks are scheduled later than the plan has them because a task they follow is (each names it)"},
    {"gan-off-calendar", Severity::Warning, "a task starts on a day the plan's calendar does not work",
     "{n} tasks start on a day the plan's calendar does not work; each starts on the next working day"},
    {"gan-progress", Severity::Warning, "percent complete is not kept",
     "{n} tasks have progress, which a template does not keep"},
    {"gan-resource-rates", Severity::Info, "resource rates are not kept (templates assign roles, not rates)",
     "{n} resources have rates, which a template does not keep"},
    {"gan-rubber-link", Severity::Info, "a Rubber link becomes a normal link",
     "{n} Rubber links are kept as normal links (a minimum too)"},
    {"gan-summary-cost", Severity::Warning, "a summary task's cost differs from its sub-tasks' costs; theirs are kept",
     "{n} summary tasks cost other than their sub-tasks; the template keeps the sub-tasks' costs"},
    {"gan-task-dates", Severity::Warning, "a task without a valid start or duration keeps no dates (or no due)",
     "{n} tasks have no valid start or duration; they keep no dates, or only their start"},
    {"gan-task-field", Severity::Info, "a task's web link or priority is not kept",
     "{n} web links or priorities of tasks are not kept"},
    {"gan-task-id", Severity::Warning, "a task without an id of its own gets no temp_id",
     "{n} tasks have no valid id of their own; they get no temp_id, and their own links are dropped"},
    {"gan-untitled-task", Severity::Warning, "a task without a name gets one",
     "{n} tasks have no name; each is called \"Task ID\""},
    {"gan-vacation", Severity::Info, "resource vacations are not kept",
     "{n} findings on resource vacations, which are not kept"},
    {"mpp-calendar", Severity::Warning,
     "the calendars of a .mpp file cannot be read: its dates are counted on the standard calendar",
     "{n} .mpp plans have calendars ptmpl cannot read; their dates are counted on the standard calendar"},
    {"mspdi-calendar-recurrence", Severity::Warning,
     "a recurring calendar exception that cannot be expanded (an unknown type, no date named, too many occurrences)",
     "{n} recurring calendar exceptions cannot be expanded date by date; each says how it is applied"},
    {"mspdi-constraint", Severity::Warning, "a task constraint other than as-soon-as-possible is not kept",
     "{n} tasks have constraints; only their starts are kept (as start-no-earlier-than)"},
    {"mspdi-cost-fraction", Severity::Warning, "a cost with a fraction of a cent is rounded",
     "{n} costs have a fraction of a cent; they are rounded to whole cents"},
    {"mspdi-cost-invalid", Severity::Warning, "a negative cost, or one beyond a budget estimate's range, is dropped",
     "{n} costs are negative or beyond a budget estimate's range; those stories have no budget"},
    {"mspdi-cross-project-link", Severity::Warning, "a link to another project is dropped",
     "{n} links from other projects are dropped"},
    {"mspdi-currency", Severity::Warning, "the project's currency is not an ISO 4217 code and is dropped",
     "{n} currencies are not ISO 4217 codes; the template has none"},
    {"mspdi-date-invalid", Severity::Warning, "a Start or Finish that is not a date is not read",
     "{n} Start or Finish values are not dates and times; they are not read"},
    {"mspdi-dependency-cycle", Severity::Warning,
     "the links form a cycle: the template converts, but has no schedule until one is removed",
     "{n} dependency cycles; the template has no schedule until a link of each is removed"},
    {"mspdi-doctype", Severity::Info, "a document type declaration is ignored (no DTD is processed)",
     "{n} document type declarations are ignored"},
    {"mspdi-duration-invalid", Severity::Warning,
     "a duration that cannot be read, is negative or is beyond a story's range is dropped",
     "{n} durations cannot be read, are negative or are beyond a story's range; those stories have no duration"},
    {"mspdi-duration-span", Severity::Warning,
     "a task's duration differs from the working days its start and finish span; the story lasts the span",
     "{n} tasks have a duration that differs from the working days their start and finish span; each story lasts "
     "the span"},
    {"mspdi-elapsed-duration", Severity::Warning, "an elapsed duration: the story lasts the working days it covers",
     "{n} tasks have elapsed durations; each story lasts the working days it covers"},
    {"mspdi-elapsed-lag", Severity::Warning, "an elapsed lag is counted as working days",
     "{n} link lags are elapsed time; their calendar days count as working days"},
    {"mspdi-export-date", Severity::Warning,
     "a story whose dates from --start leave the years 1 to 9999 gets no Start or Finish",
     "{n} stories fall outside the years 1 to 9999; their tasks are written without Start and Finish"},
    {"mspdi-export-dropped", Severity::Warning,
     "a key of the template or of a story that MS Project XML has no place for is not written",
     "{n} values have no place in MS Project XML and are not written: {topics}"},
    {"mspdi-export-dropped-story", Severity::Warning,
     "a story-list item that is not an object, or sub_stories that are not an array, is not written",
     "{n} items of story lists are not stories (objects), or sub_stories not arrays; they are not written"},
    {"mspdi-export-temp-id", Severity::Info,
     "a temp_id that is not an MSPDI task UID gets one, and is kept as the custom field \"ptmpl temp_id\"",
     "{n} stories get a task UID other than their temp_id (MSPDI task UIDs are unique integers from 1 to "
     "2147483647); their temp_ids are kept as the custom field \"ptmpl temp_id\""},
    {"mspdi-extended-attribute", Severity::Warning,
     "a value of a ptmpl custom field (tags, checklist, weight, temp_id) that cannot be read is not kept",
     "{n} values of ptmpl's custom fields cannot be read, or repeat a temp_id; they are not kept"},
    {"mspdi-fractional-duration", Severity::Warning, "a duration that is not a whole number of days is rounded up",
     "{n} durations are not whole numbers of days; they are rounded up"},
    {"mspdi-fractional-lag", Severity::Warning, "a lag that is not a whole number of days is rounded",
     "{n} lags are not whole numbers of days; they are rounded"},
    {"mspdi-inactive-task", Severity::Warning, "an inactive task is skipped", "{n} inactive tasks are skipped"},
    {"mspdi-lag-invalid", Severity::Warning, "a LinkLag that is not a number, or beyond a lag's range, becomes 0",
     "{n} lags are not finite numbers or are beyond a lag's range; those links are written with lag 0"},
    {"mspdi-link-invalid", Severity::Warning, "a link to a missing task, or of an unknown type, is dropped",
     "{n} links (or tasks repeating a UID) are dropped: no predecessor, a task not in the plan, or an unknown type"},
    {"mspdi-link-not-kept", Severity::Warning,
     "a task the plan places before its link allows is scheduled later, and no other finding says why",
     "{n} tasks are placed by the plan before their links allow, with no other finding to say why; the schedule "
     "starts each later"},
    {"mspdi-manual-task", Severity::Warning, "a manually scheduled task keeps its dates as declared",
     "{n} tasks are manually scheduled; their dates are kept as declared"},
    {"mspdi-minutes-per-day", Severity::Warning,
     "a working day that is not a number of minutes from 1 to 1,440 counts as 480 minutes",
     "{n} MinutesPerDay values are no day's length; days of 480 minutes are used"},
    {"mspdi-moved-by-task", Severity::Info,
     "a task is scheduled later than the plan has it because the task its link comes from is",
     "{n} tasks are scheduled later than the plan has them because a task they follow is (each names it)"},
    {"mspdi-off-calendar", Severity::Warning, "a task starts or finishes on a day the project calendar does not work",
     "{n} task starts or finishes fall on a day the project calendar does not work; a start moves to the next "
     "working day, a finish to the previous one"},
    {"mspdi-outline-gap", Severity::Warning, "a task more than one outline level below the previous one",
     "{n} tasks are more than one outline level below the task above them"},
    {"mspdi-progress", Severity::Warning, "progress (actual dates, work, cost, percent complete) is not kept",
     "{n} tasks have progress (actual dates, cost or percent complete), which a template does not keep"},
    {"mspdi-resource-calendar", Severity::Warning,
     "a resource calendar that differs from the project calendar is ignored; the project calendar is used",
     "{n} assigned resources work on calendars of their own that differ from the project calendar; their tasks keep "
     "their dates as working days of the project calendar"},
    {"mspdi-resource-rates", Severity::Info, "resource rates are not kept (templates assign roles, not rates)",
     "{n} resources have rates, which a template does not keep"},
    {"mspdi-split-task", Severity::Warning,
     "a split task (its work has a gap) becomes one stretch of days, pause included",
     "{n} split tasks (their work has a gap) become one stretch of days each, pause included"},
    {"mspdi-summary-cost", Severity::Warning,
     "a summary task's cost differs from its tasks' costs; the tasks' are kept",
     "{n} summary tasks cost other than their tasks; the template keeps the tasks' costs (and rolls them up)"},
    {"mspdi-task-calendar", Severity::Warning, "a task calendar is ignored; the project calendar is used",
     "{n} tasks have their own calendar; the project calendar is used"},
    {"mspdi-task-uid", Severity::Warning, "a task whose UID is missing or not an integer is skipped",
     "{n} tasks have no UID, or one that is not an integer; they are skipped"},
    {"mspdi-untitled-task", Severity::Warning, "a task without a name gets one",
     "{n} tasks have no name; each is called \"Task UID\""},
    {"mspdi-work-overflow", Severity::Warning, "work beyond a time estimate's range is dropped",
     "{n} tasks have more work than a time estimate holds; it is dropped"},
    {"p6-calendar-data", Severity::Warning,
     "a calendar's clndr_data that cannot be read (cut short, unbalanced, an unknown day or time) is read in part",
     "{n} calendars have clndr_data that cannot be read in full; each says what is taken instead"},
    {"p6-calendar-recurrence", Severity::Warning,
     "a recurring calendar exception that cannot be expanded (an unknown type, no date named, too many occurrences)",
     "{n} recurring calendar exceptions cannot be expanded date by date; each says how it is applied"},
    {"p6-constraint", Severity::Warning, "a task constraint other than as-soon-as-possible is not kept",
     "{n} tasks have constraints; only their starts are kept (as start-no-earlier-than)"},
    {"p6-cost-fraction", Severity::Warning, "a cost with a fraction of a cent is rounded",
     "{n} costs have a fraction of a cent; they are rounded to whole cents"},
    {"p6-cost-invalid", Severity::Warning, "a negative cost, or one beyond a budget estimate's range, is dropped",
     "{n} costs are negative or beyond a budget estimate's range; those stories have no budget"},
    {"p6-cross-project-link", Severity::Warning, "a link to another project is dropped",
     "{n} links from other projects are dropped"},
    {"p6-currency", Severity::Warning, "the project's currency is not an ISO 4217 code and is dropped",
     "{n} currencies are not ISO 4217 codes; the template has none"},
    {"p6-date-invalid", Severity::Warning, "a Start or Finish that is not a date is not read",
     "{n} Start or Finish values are not dates and times; they are not read"},
    {"p6-dates-span", Severity::Warning, "the plan's dates span more than 400 years; dates are not converted",
     "{n} plans span more than 400 years; their dates are not converted"},
    {"p6-dependency-cycle", Severity::Warning,
     "the links form a cycle: the template converts, but has no schedule until one is removed",
     "{n} dependency cycles; the template has no schedule until a link of each is removed"},
    {"p6-duration-invalid", Severity::Warning,
     "a duration that cannot be read, is negative or is beyond a story's range is dropped",
     "{n} durations cannot be read, are negative or are beyond a story's range; those stories have no duration"},
    {"p6-duration-span", Severity::Warning,
     "a task's duration differs from the working days its start and finish span; the story lasts the span",
     "{n} tasks have a duration that differs from the working days their start and finish span; each story lasts "
     "the span"},
    {"p6-elapsed-duration", Severity::Warning, "an elapsed duration: the story lasts the working days it covers",
     "{n} tasks have elapsed durations; each story lasts the working days it covers"},
    {"p6-elapsed-lag", Severity::Warning, "an elapsed lag is counted as working days",
     "{n} link lags are elapsed time; their calendar days count as working days"},
    {"p6-fractional-duration", Severity::Warning, "a duration that is not a whole number of days is rounded up",
     "{n} durations are not whole numbers of days; they are rounded up"},
    {"p6-fractional-lag", Severity::Warning, "a lag that is not a whole number of days is rounded",
     "{n} lags are not whole numbers of days; they are rounded"},
    {"p6-inactive-task", Severity::Warning, "an inactive task is skipped", "{n} inactive tasks are skipped"},
    {"p6-lag-calendar", Severity::Warning,
     "the scheduling options count lags on a calendar other than the predecessor's (successor, project default)",
     "{n} projects count lags on a calendar other than the predecessor's; a template counts them on the "
     "predecessor's days"},
    {"p6-lag-invalid", Severity::Warning, "a lag that is not a number, or beyond a lag's range, becomes 0",
     "{n} lags are not finite numbers or are beyond a lag's range; those links are written with lag 0"},
    {"p6-level-of-effort", Severity::Warning,
     "a level-of-effort or WBS-summary activity becomes an ordinary story with its dates",
     "{n} level-of-effort or WBS-summary activities become ordinary stories; P6 stretches them over the "
     "activities they span"},
    {"p6-link-invalid", Severity::Warning, "a link to a missing task, or of an unknown type, is dropped",
     "{n} links (or tasks repeating a UID) are dropped: no predecessor, a task not in the plan, or an unknown type"},
    {"p6-link-lag", Severity::Info,
     "a link's lag is written as the whole days between where the plan places its ends, not the plan's lag",
     "{n} links are written with the lag that keeps their ends where the plan places them (hours within a day, "
     "calendars other than the project's, out-of-sequence progress)"},
    {"p6-link-not-kept", Severity::Warning,
     "a task the plan places before its link allows is scheduled later, and no other finding says why",
     "{n} tasks are placed by the plan before their links allow, with no other finding to say why; the schedule "
     "starts each later"},
    {"p6-manual-task", Severity::Warning, "a manually scheduled task keeps its dates as declared",
     "{n} tasks are manually scheduled; their dates are kept as declared"},
    {"p6-minutes-per-day", Severity::Warning,
     "a working day that is not a number of minutes from 1 to 1,440 counts as 480 minutes",
     "{n} day_hr_cnt values (the project calendar's hours a day) are no day's length; days of 480 minutes are used"},
    {"p6-moved-by-task", Severity::Info,
     "a task is scheduled later than the plan has it because the task its link comes from is",
     "{n} tasks are scheduled later than the plan has them because a task they follow is (each names it)"},
    {"p6-off-calendar", Severity::Warning, "a task starts or finishes on a day the project calendar does not work",
     "{n} task starts or finishes fall on a day the project calendar does not work; a start moves to the next "
     "working day, a finish to the previous one"},
    {"p6-nonlabor-units", Severity::Info,
     "the units of a nonlabor or material resource's assignment are not counted in a time estimate",
     "{n} assignments of nonlabor or material resources ({topics}) are not counted in time estimates, which are "
     "people's time"},
    {"p6-outline-gap", Severity::Warning, "a task more than one outline level below the previous one",
     "{n} tasks are more than one outline level below the task above them"},
    {"p6-pmxml-doctype", Severity::Info, "a document type declaration is ignored (no DTD is processed)",
     "{n} document type declarations are ignored"},
    {"p6-pmxml-object-id", Severity::Warning,
     "an object without a readable ObjectId (or a link or assignment without its activities') is skipped",
     "{n} objects have no readable ObjectId, or name no readable activity; they are skipped"},
    {"p6-pmxml-value", Severity::Warning, "a reference to another object, or a setting, that cannot be read is ignored",
     "{n} references or settings cannot be read; they are ignored"},
    {"p6-progress", Severity::Warning, "progress (actual dates, work, cost, percent complete) is not kept",
     "{n} tasks have progress (actual dates, cost or percent complete), which a template does not keep"},
    {"p6-resource-calendar", Severity::Warning,
     "a resource calendar that differs from the project calendar is ignored; the project calendar is used",
     "{n} assigned resources work on calendars of their own that differ from the project calendar; their tasks keep "
     "their dates as working days of the project calendar"},
    {"p6-resource-rates", Severity::Info, "resource rates are not kept (templates assign roles, not rates)",
     "{n} resources have rates, which a template does not keep"},
    {"p6-retained-logic", Severity::Info,
     "the scheduling options use progress override or actual dates, not retained logic",
     "{n} projects schedule out-of-sequence progress other than by retained logic; a template keeps no progress"},
    {"p6-row-fields", Severity::Warning,
     "a row with more fields than its table's %F line: the fields beyond are ignored",
     "{n} rows have more fields than their tables' %F lines; the fields beyond are ignored"},
    {"p6-secondary-constraint", Severity::Warning, "an activity's secondary constraint is not kept",
     "{n} activities have secondary constraints, which a template does not keep"},
    {"p6-split-task", Severity::Warning,
     "a split task (its work has a gap) becomes one stretch of days, pause included",
     "{n} split tasks (their work has a gap) become one stretch of days each, pause included"},
    {"p6-summary-cost", Severity::Warning, "a summary task's cost differs from its tasks' costs; the tasks' are kept",
     "{n} summary tasks cost other than their tasks; the template keeps the tasks' costs (and rolls them up)"},
    {"p6-task-calendar", Severity::Warning, "a task calendar is ignored; the project calendar is used",
     "{n} tasks have their own calendar; the project calendar is used"},
    {"p6-untitled-task", Severity::Warning, "a task without a name gets one",
     "{n} tasks have no name; each is called \"Task UID\""},
    {"p6-work-overflow", Severity::Warning, "work beyond a time estimate's range is dropped",
     "{n} tasks have more work than a time estimate holds; it is dropped"},
    {"xlsx-cell-invalid", Severity::Warning,
     "a cell that cannot be read (an error value, a missing shared string, a formula without a value, a date, "
     "duration, amount or link that is not one) is read as empty",
     "{n} cells cannot be read; each is read as empty"},
    {"xlsx-column-unmapped", Severity::Warning, "a column ptmpl does not map is ignored",
     "{n} columns are not ones ptmpl maps; they are ignored: {topics}"},
    {"xlsx-cost-fraction", Severity::Warning, "a cost with a fraction of a cent is rounded",
     "{n} costs have a fraction of a cent; they are rounded to whole cents"},
    {"xlsx-cost-invalid", Severity::Warning, "a negative cost, or one beyond a budget estimate's range, is dropped",
     "{n} costs are negative or beyond a budget estimate's range; those stories have no budget"},
    {"xlsx-date-column", Severity::Warning,
     "a date column that disagrees with the day offsets, or has none beside it, is not read (the offset is kept)",
     "{n} dates disagree with the day offsets or have none beside them; the offsets are kept"},
    {"xlsx-date-invalid", Severity::Warning, "a Start or Finish that is not a date is not read",
     "{n} Start or Finish values are not dates and times; they are not read"},
    {"xlsx-dates-span", Severity::Warning, "the plan's dates span more than 400 years; dates are not converted",
     "{n} plans span more than 400 years; their dates are not converted"},
    {"xlsx-dependency-cycle", Severity::Warning,
     "the links form a cycle: the template converts, but has no schedule until one is removed",
     "{n} dependency cycles; the template has no schedule until a link of each is removed"},
    {"xlsx-duration-invalid", Severity::Warning,
     "a duration that cannot be read, is negative or is beyond a story's range is dropped",
     "{n} durations cannot be read, are negative or are beyond a story's range; those stories have no duration"},
    {"xlsx-duration-span", Severity::Warning,
     "a task's duration differs from the working days its start and finish span; the story lasts the span",
     "{n} tasks have a duration that differs from the working days their start and finish span; each story lasts "
     "the span"},
    {"xlsx-elapsed-duration", Severity::Warning, "an elapsed duration: the story lasts the working days it covers",
     "{n} tasks have elapsed durations; each story lasts the working days it covers"},
    {"xlsx-elapsed-lag", Severity::Warning, "an elapsed lag is counted as working days",
     "{n} link lags are elapsed time; their calendar days count as working days"},
    {"xlsx-export-date", Severity::Warning,
     "a date before 1900 (which a workbook cannot hold as a date) is not written; the day offset is",
     "{n} dates fall before 1900, where a workbook has no dates; their cells are empty, the day offsets kept"},
    {"xlsx-export-dropped-field", Severity::Warning,
     "a story field a workbook has no column for (or of the wrong type) is not written",
     "{topics} not written on {n} stories: no column in the workbook, or a value of the wrong type"},
    {"xlsx-export-dropped-link", Severity::Warning,
     "a dependency without both ends, or of an invalid type or lag, is not written",
     "{n} dependencies are not written: a story without a temp_id, a target not in the template, or an invalid "
     "type or lag"},
    {"xlsx-export-dropped-story", Severity::Warning,
     "a story-list item that is not an object, or sub_stories that are not an array, is not written",
     "{n} items of story lists are not stories (objects), or sub_stories not arrays; they are not written"},
    {"xlsx-export-outline-depth", Severity::Info,
     "a story nested more than 8 levels deep is grouped at a workbook's deepest outline level (7)",
     "{n} stories are nested deeper than a workbook's 8 outline levels; each is grouped at the deepest, its "
     "level column says how deep it is"},
    {"xlsx-export-rows", Severity::Warning,
     "the stories beyond a sheet's 1,048,575 rows (below the header) are not written",
     "{n} sheets have more rows than a workbook holds; the rows beyond 1,048,576 are not written"},
    {"xlsx-export-template-fields", Severity::Info,
     "template metadata is not written (a workbook holds the stories, assignments and calendar)",
     "{n} findings on the template's own fields, which a workbook does not hold"},
    {"xlsx-export-text-length", Severity::Warning, "a text longer than a cell's 32,767 characters is cut to them",
     "{n} texts are longer than a workbook cell's 32,767 characters; each is cut to them"},
    {"xlsx-fractional-duration", Severity::Warning, "a duration that is not a whole number of days is rounded up",
     "{n} durations are not whole numbers of days; they are rounded up"},
    {"xlsx-fractional-lag", Severity::Warning, "a lag that is not a whole number of days is rounded",
     "{n} lags are not whole numbers of days; they are rounded"},
    {"xlsx-lag-invalid", Severity::Warning, "a lag beyond a lag's range becomes 0",
     "{n} lags are not finite numbers or are beyond a lag's range; those links are written with lag 0"},
    {"xlsx-link-invalid", Severity::Warning, "a link to a missing task, or of an unknown type, is dropped",
     "{n} links (or tasks repeating a UID) are dropped: no predecessor, a task not in the plan, or an unknown type"},
    {"xlsx-link-not-kept", Severity::Warning,
     "a task the plan places before its link allows is scheduled later, and no other finding says why",
     "{n} tasks are placed by the plan before their links allow, with no other finding to say why; the schedule "
     "starts each later"},
    {"xlsx-moved-by-task", Severity::Info,
     "a task is scheduled later than the plan has it because the task its link comes from is",
     "{n} tasks are scheduled later than the plan has them because a task they follow is (each names it)"},
    {"xlsx-off-calendar", Severity::Warning, "a task starts or finishes on a day the standard calendar does not work",
     "{n} task starts or finishes fall on a day the standard calendar does not work; a start moves to the next "
     "working day, a finish to the previous one"},
    {"xlsx-outline-gap", Severity::Warning, "a task more than one outline level below the previous one",
     "{n} tasks are more than one outline level below the task above them"},
    {"xlsx-summary-cost", Severity::Warning, "a summary task's cost differs from its tasks' costs; the tasks' are kept",
     "{n} summary tasks cost other than their tasks; the template keeps the tasks' costs (and rolls them up)"},
    {"xlsx-untitled-task", Severity::Warning, "a task without a name gets one",
     "{n} tasks have no name; each is called \"Task N\" (its row's number among the tasks)"},
    {"xlsx-work-overflow", Severity::Warning, "work beyond a time estimate's range is dropped",
     "{n} tasks have more work than a time estimate holds; it is dropped"},
};

}  // namespace

std::span<const ConversionRule> conversion_rules() {
  return kRules;
}

Severity conversion_severity(const ConversionRule& rule, bool strict, std::span<const std::string> allow) {
  if (!strict || std::find(allow.begin(), allow.end(), rule.id) != allow.end()) return rule.severity;
  return Severity::Error;
}

Status check_allowed(std::span<const std::string> allow) {
  std::vector<std::string_view> ids;
  for (const ConversionRule& rule : conversion_rules()) ids.push_back(rule.id);
  for (const std::string& id : allow) {
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
    std::string message = "allow: no conversion finding is called " + json::quoted(id);
    if (auto near = closest(id, ids)) message += " (did you mean " + json::quoted(*near) + "?)";
    return Error::usage(message + "; docs/commands/convert.md lists them");
  }
  return Done{};
}

namespace {

// `{topics}`: what the findings are about, most frequent first (then in order of appearance),
// at most kShown, each with its count when they do not all cover every finding.
std::string topic_list(const std::vector<const Diagnostic*>& findings) {
  constexpr std::size_t kShown = 6;
  std::vector<std::pair<std::string_view, std::size_t>> counts;  // in order of appearance
  std::map<std::string_view, std::size_t> index;
  for (const Diagnostic* d : findings)
    for (const std::string& topic : d->topics) {
      const auto [at, inserted] = index.try_emplace(topic, counts.size());
      if (inserted) counts.emplace_back(topic, 0);
      ++counts[at->second].second;
    }
  if (counts.empty()) return "these";
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const bool every = counts.back().second == findings.size();  // each topic on every finding
  const bool once = counts.front().second == 1;                // each topic on one finding
  std::string out;
  for (std::size_t i = 0; i < counts.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += counts[i].first;
    if (!every && !once) out += " (" + std::to_string(counts[i].second) + ")";
  }
  if (counts.size() > kShown) out += " and " + std::to_string(counts.size() - kShown) + " more";
  return out;
}

void replace_all(std::string& text, std::string_view placeholder, const std::string& value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
    text.replace(at, placeholder.size(), value);
}

}  // namespace

std::string conversion_group_message(const std::vector<const Diagnostic*>& findings) {
  const std::string count = std::to_string(findings.size());
  const auto rule = findings.empty() ? std::end(kRules)
                                     : std::find_if(std::begin(kRules), std::end(kRules), [&](const ConversionRule& r) {
                                         return r.id == findings.front()->rule;
                                       });
  if (rule == std::end(kRules) || rule->group.empty())
    return count + " findings like this one: " + (findings.empty() ? std::string() : findings.front()->message);
  std::string message(rule->group);
  replace_all(message, "{n}", count);  // first: a topic may be spelt "{n}"
  replace_all(message, "{topics}", topic_list(findings));
  return message;
}

ReportOptions conversion_report_options(bool converted, bool verbose) {
  ReportOptions options;
  options.unit = "plan";
  options.outcome = converted ? "converted" : "not converted";
  options.verbose = verbose;
  options.group_message = conversion_group_message;
  options.group_from = kConversionGroupFrom;
  return options;
}

namespace detail {

const ConversionRule& conversion_rule(std::string_view id) {
  return *std::find_if(std::begin(kRules), std::end(kRules), [&](const ConversionRule& r) { return r.id == id; });
}

std::optional<Error> not_utf8_error(std::string_view text, const std::string& path) {
  auto bad = json::invalid_utf8_offset(text);
  if (!bad) return std::nullopt;
  const json::Position p = json::LineIndex(text).position(*bad);
  return Error::invalid(format_place(path, p.line, p.column) + ": not UTF-8 text");
}

std::optional<Error> nul_byte_error(std::string_view text, const std::string& path, std::string_view what) {
  const std::size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  const json::Position p = json::LineIndex(text).position(nul);
  return Error::invalid(format_place(path, p.line, p.column) + ": " + std::string(what) +
                        ": a NUL byte, which no text plan holds (binary data, or a file padded with zeros)");
}

void report_cycles(std::string_view document, const std::string& path, std::string_view rule, const LinkPlace& place_of,
                   FindingSink& findings) {
  const TemplateFile file = TemplateFile::parse(path, FileText::borrow(document));
  if (file.templates().empty()) return;
  const DependencyGraph graph(file.templates().front().model.stories);
  report_cycles(graph, graph.find_cycles(), rule, place_of, findings);
}

void report_cycles(const DependencyGraph& graph, std::span<const Cycle> cycles, std::string_view rule,
                   const LinkPlace& place_of, FindingSink& findings) {
  for (const Cycle& cycle : cycles) {
    const Link& closing = graph.links()[cycle.closing_link];
    findings.report(rule, place_of(closing.source, closing.dependency->index, closing.target),
                    "dependency cycle: " + describe_cycle(graph, cycle) +
                        "; the template cannot be scheduled until one of these links is removed");
  }
}

Error too_deep_error(std::string_view place, std::string_view name, std::size_t levels) {
  return Error::invalid(std::string(place) + ": " + std::string(name) + " would be nested " + std::to_string(levels) +
                        " levels deep; a template holds at most " + std::to_string(kMaxStoryLevels) +
                        " (the nesting lint and fmt read)");
}

std::optional<Error> unexportable(const TemplateFile& file) {
  auto problem = [&](const json::Document& document,
                     const std::optional<json::Value>& in_string) -> std::optional<Error> {
    const json::ParseIssue* issue = nullptr;
    for (const json::ParseIssue& i : document.issues())
      if (i.type == json::ParseIssue::Type::Syntax || i.type == json::ParseIssue::Type::TooDeep) {
        issue = &i;
        break;
      }
    if (issue == nullptr) return std::nullopt;
    const json::Position p = document.position(issue->offset);
    std::string message = issue->message;
    if (issue->type == json::ParseIssue::Type::TooDeep) message += "; the stories below it cannot be converted";
    if (!in_string) return Error::invalid(format_place(file.path(), p.line, p.column) + ": " + message);
    const json::Position at = file.document().position(in_string->offset());
    return Error::invalid(format_place(file.path(), at.line, at.column) + ": in the raw_json string at line " +
                          std::to_string(p.line) + ", column " + std::to_string(p.column) + ": " + message);
  };
  if (auto error = problem(file.document(), std::nullopt)) return error;
  for (const TemplateSource& source : file.templates())
    if (source.raw_json_string && source.story_document != nullptr)
      if (auto error = problem(*source.story_document, source.raw_json_string)) return error;
  return std::nullopt;
}

void for_each_non_story(
    const TemplateSource& source,
    const std::function<void(const json::Value&, const std::string&, std::string_view expected)>& visit) {
  auto list = [&](const json::Value& items, const std::string& pointer) {
    if (!items.is_array()) {
      visit(items, pointer, "a list of stories (an array)");
      return;
    }
    std::size_t i = 0;
    for (const json::Value& item : items.items()) {
      if (!item.is_object()) visit(item, pointer + "/" + std::to_string(i), "a story (an object)");
      ++i;
    }
  };
  if (source.story_list == nullptr) return;
  list(*source.story_list, source.story_prefix);
  for_each_story(source.model.stories, [&](const Story& story, int) {
    if (const json::Value* children = story.origin.node.find("sub_stories"))
      list(*children, story.pointer() + "/sub_stories");
  });
}

void FindingSink::report(std::string_view id, std::ptrdiff_t offset, std::string message,
                         std::vector<std::string> topics) {
  Diagnostic d;
  d.topics = std::move(topics);
  d.rule = std::string(id);
  d.severity = conversion_severity(conversion_rule(id), options_.strict, options_.allow);
  d.message = std::move(message);
  d.path = path_;
  if (offset >= 0) {
    const json::Position p = lines_.position(static_cast<std::uint64_t>(offset));
    d.line = p.line;
    d.column = p.column;
    auto [excerpt, column] = make_excerpt(text_, static_cast<std::uint64_t>(offset));
    d.excerpt = std::move(excerpt);
    d.excerpt_column = column;
  }
  diagnostics_.push_back(std::move(d));
}

void FindingSink::report(std::string_view id, const plan::Place& place, std::string message,
                         std::vector<std::string> topics) {
  if (place.table == plan::Place::Table::None) {
    report(id, static_cast<std::ptrdiff_t>(place.at), std::move(message), std::move(topics));
  } else {
    binary_ = true;
    if (place.known()) message += " (" + describe(place) + ")";
    report(id, -1, std::move(message), std::move(topics));
  }
  // The order of the plan's parts: the project's, calendars, tasks with the links into them,
  // resources, assignments.
  static constexpr int kRank[] = {0, 2, 2, 3, 4, 1, 2};
  plan_order_.resize(diagnostics_.size() - 1);
  plan_order_.emplace_back(place.known() ? kRank[static_cast<std::size_t>(place.table)] : 0, place.order);
}

std::string FindingSink::place_text(const plan::Place& place) const {
  if (place.table != plan::Place::Table::None) return path_ + (place.known() ? " (" + describe(place) + ")" : "");
  if (!place.known()) return path_;
  const json::Position p = lines_.position(static_cast<std::uint64_t>(place.at));
  return format_place(path_, p.line, p.column);
}

std::string FindingSink::describe(const plan::Place& place) const {
  const std::string what = plan::describe(place);
  return place.table == plan::Place::Table::Cell && !sheet_.empty() ? "sheet " + sheet_ + ", " + what : what;
}

std::vector<Diagnostic> FindingSink::take() {
  std::vector<Diagnostic> out = std::move(diagnostics_);
  diagnostics_.clear();
  if (!binary_) {
    std::sort(out.begin(), out.end());
    plan_order_.clear();
    return out;
  }
  // A binary source has no lines: its findings keep the order of the plan they are about.
  plan_order_.resize(out.size());
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plan_order_[a] < plan_order_[b]; });
  std::vector<Diagnostic> sorted;
  sorted.reserve(out.size());
  for (const std::size_t i : order) sorted.push_back(std::move(out[i]));
  plan_order_.clear();
  binary_ = false;
  return sorted;
}

}  // namespace detail
}  // namespace ptmpl
