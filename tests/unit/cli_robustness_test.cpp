// Hostile input, run through the real binary: what the user sees (exit code and message) for
// every class of bad input in docs/robustness.md. Inputs are generated into a scratch folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli_run.hpp"
#include "test_files.hpp"

namespace ptmpl {
namespace {

using testing::CliRun;

class CliRobustness : public testing::CliScratchTest {};

TEST_F(CliRobustness, TruncatedOrEmptyJson) {
  std::string cut = file("cut.json", R"([{"title": "Kickoff", "temp_id": 1)");
  CliRun lint = ptmpl("lint " + cut);
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out,
             "cut.json:1:35: error: unexpected end of file: expected ',' or '}' after an object member [json-syntax]");
  CliRun fmt = ptmpl("fmt -w " + cut);
  EXPECT_EQ(fmt.exit, 2);
  expect_has(fmt.err, "cut.json:1:35: error: unexpected end of file");

  CliRun empty = ptmpl("lint " + file("empty.json", ""));
  EXPECT_EQ(empty.exit, 1);
  expect_has(empty.out, "empty.json:1:1: error: unexpected end of file: expected a JSON value, found end of file");
}

TEST_F(CliRobustness, TruncatedPlans) {
  std::ifstream in(testing::source_path("tests/data/mspdi/features.xml"), std::ios::binary);
  std::string xml((std::istreambuf_iterator<char>(in)), {});
  CliRun mspdi =
      ptmpl("convert " + file("cut.xml", xml.substr(0, xml.size() / 2)) + " -o " + (dir_ / "o.json").string());
  EXPECT_EQ(mspdi.exit, 2);
  expect_has(mspdi.err, "cut.xml:");
  expect_has(mspdi.err, ": not well-formed XML: ");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "o.json"));

  CliRun csv = ptmpl("convert " + file("cut.csv", "title,temp_id\n\"Kickoff,1\n"));
  EXPECT_EQ(csv.exit, 2);
  expect_has(csv.err, "cut.csv:row 2, column \"title\": a quoted cell is not closed");
}

TEST_F(CliRobustness, NestingAHundredThousandLevelsDeep) {
  std::string deep = file("deep.json", std::string(100'000, '[') + std::string(100'000, ']'));
  CliRun lint = ptmpl("lint " + deep);
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out,
             "deep.json:1:257: warning: nesting deeper than 256 levels; the content below is not read "
             "[nesting-depth]");
  CliRun fmt = ptmpl("fmt " + deep);
  EXPECT_EQ(fmt.exit, 2);
  expect_has(fmt.err, "fmt does not rewrite a file it cannot read whole [nesting-depth]");
  CliRun schedule = ptmpl("schedule " + deep);
  EXPECT_EQ(schedule.exit, 2);
  expect_has(schedule.err, "the stories below it cannot be scheduled");

  // XML: elements nested 200,000 deep inside a task are not read, and need no recursion.
  CliRun xml = ptmpl(
      "convert " + file(
                       "deep.xml", R"(<Project xmlns="http://schemas.microsoft.com/project"><Tasks><Task><UID>1</UID>)"
                                   "<Name>Deep</Name><OutlineLevel>1</OutlineLevel>" +
                                       [] {
                                         std::string s;
                                         for (int i = 0; i < 200'000; ++i) s += "<x>";
                                         for (int i = 0; i < 200'000; ++i) s += "</x>";
                                         return s;
                                       }() +
                                       "</Task></Tasks></Project>"));
  EXPECT_EQ(xml.exit, 0) << xml.err;
  expect_has(xml.out, "\"title\": \"Deep\"");
}

TEST_F(CliRobustness, OutlineLevelsDeeperThanATemplateHolds) {
  std::string tasks;
  for (int i = 1; i <= 150; ++i)
    tasks += "<Task><UID>" + std::to_string(i) + "</UID><Name>T" + std::to_string(i) + "</Name><OutlineLevel>" +
             std::to_string(i) + "</OutlineLevel></Task>";
  CliRun r = ptmpl("convert " + file("outline.xml", R"(<Project xmlns="http://schemas.microsoft.com/project"><Tasks>)" +
                                                        tasks + "</Tasks></Project>"));
  EXPECT_EQ(r.exit, 2);
  expect_has(r.err, "task 101 \"T101\" would be nested 101 levels deep; a template holds at most 100");
}

TEST_F(CliRobustness, ValuesOfTheWrongType) {
  CliRun lint = ptmpl("lint " + file("types.json", R"([{"title": "Kickoff", "temp_id": 1, "duration": "3", )"
                                                   R"("sub_stories": {"title": 5}}])"));
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out, "types.json:1:49: error: `duration` must be an integer, found a string [schema]");
  expect_has(lint.out, "types.json:1:69: error: `sub_stories` must be an array, found an object [schema]");
  CliRun scalar = ptmpl("lint " + file("scalar.json", "42"));
  EXPECT_EQ(scalar.exit, 1);
  expect_has(scalar.out, "scalar.json:1:1: error: not a template:");
  CliRun csv = ptmpl("convert " + file("types.csv", "title,temp_id,duration\nKickoff,1,abc\n"));
  EXPECT_EQ(csv.exit, 2);
  expect_has(csv.err, "types.csv:row 2, column \"duration\": \"abc\" is not a whole number");
}

TEST_F(CliRobustness, NumbersThatOverflow) {
  CliRun ints = ptmpl("lint " + file("ints.json", R"([{"title": "A", "temp_id": 1, )"
                                                  R"("budget_estimate_in_cents": 99999999999999999999, )"
                                                  R"("time_estimate_in_minutes": 3000000000}])"));
  EXPECT_EQ(ints.exit, 1);
  expect_has(ints.out,
             "error: budget_estimate_in_cents 99999999999999999999 does not fit in a 64-bit integer "
             "(at most 9223372036854775807 cents) [amount-overflow]");
  expect_has(ints.out,
             "error: time_estimate_in_minutes 3000000000 does not fit in the service's 32-bit integer "
             "(at most 2147483647 minutes) [amount-overflow]");
  CliRun huge = ptmpl("lint " + file("huge.json", R"([{"title": "A", "relative_start_date": 1e400}])"));
  EXPECT_EQ(huge.exit, 1);
  expect_has(huge.out, "huge.json:1:40: error: number too big [json-syntax]");
  CliRun csv = ptmpl("convert " + file("big.csv", "title,start\nKickoff,99999999999999999999\n"));
  EXPECT_EQ(csv.exit, 2);
  expect_has(csv.err, "big.csv:row 2, column \"start\": \"99999999999999999999\" is not a whole number");
}

TEST_F(CliRobustness, InvalidUtf8) {
  CliRun json = ptmpl("lint " + file("latin1.json", "[{\"title\": \"Caf\xE9\", \"temp_id\": 1}]"));
  EXPECT_EQ(json.exit, 1);
  expect_has(json.out,
             "latin1.json:1:16: error: invalid UTF-8: byte 0xE9 does not start a valid sequence [json-syntax]");

  const std::string task = "<Tasks><Task><UID>1</UID><Name>Caf\xE9</Name><OutlineLevel>1</OutlineLevel></Task></Tasks>";
  CliRun xml = ptmpl(
      "convert " + file("bad.xml", R"(<Project xmlns="http://schemas.microsoft.com/project">)" + task + "</Project>"));
  EXPECT_EQ(xml.exit, 2);
  EXPECT_EQ(xml.err, "ptmpl convert: " + (dir_ / "bad.xml").string() + ":1:89: not UTF-8 text\n");
  // The same byte in a file that declares ISO-8859-1 is that encoding's é.
  CliRun declared =
      ptmpl("convert " + file("declared.xml", R"(<?xml version="1.0" encoding="ISO-8859-1"?>)"
                                              R"(<Project xmlns="http://schemas.microsoft.com/project">)" +
                                                  task + "</Project>"));
  EXPECT_EQ(declared.exit, 0) << declared.err;
  expect_has(declared.out, "\"title\": \"Caf\xC3\xA9\"");

  CliRun gan = ptmpl("convert " + file("bad.gan",
                                       "<project name=\"x\"><tasks><task id=\"1\" name=\"Caf\xE9\" "
                                       "start=\"2027-01-04\" duration=\"1\"/></tasks></project>"));
  EXPECT_EQ(gan.exit, 2);
  expect_has(gan.err, "bad.gan:1:48: not UTF-8 text");
  CliRun csv = ptmpl("convert " + file("bad.csv", "title,temp_id\nCaf\xE9,1\n"));
  EXPECT_EQ(csv.exit, 2);
  expect_has(csv.err, "bad.csv:2:4: not UTF-8 text");
}

// docs/robustness.md, "Conversions": a character reference to no character, a NUL byte.
TEST_F(CliRobustness, CharacterReferencesToNoCharacterAreRefusedAtTheirPlace) {
  const std::string project = R"(<Project xmlns="http://schemas.microsoft.com/project">)";
  auto mspdi = [&](const std::string& name) {
    return project + "\n<Tasks><Task><UID>1</UID><Name>" + name + "</Name></Task></Tasks></Project>\n";
  };
  // Beyond Unicode (pugixml wrote bytes UTF-8 forbids), 0 (pugixml cut the name there), a
  // surrogate: each refused at the reference, in MSPDI and in .gan.
  for (const std::string reference : {"&#x110000;", "&#xFFFFFFFF;", "&#99999999999;", "&#0;", "&#x0000;", "&#xDE80;"}) {
    CliRun xml = ptmpl("convert " + file("ref.xml", mspdi("ab" + reference + "cd")));
    EXPECT_EQ(xml.exit, 2) << reference;
    expect_has(xml.err, "ref.xml:2:34: not well-formed XML: " + reference +
                            " refers to no character (0, a surrogate or beyond U+10FFFF)");
    CliRun gan =
        ptmpl("convert " + file("ref.gan", "<project name=\"x\">\n<tasks><task id=\"1\" name=\"ab" + reference +
                                               "\" start=\"2027-01-04\" duration=\"1\"/>"
                                               "</tasks></project>"));
    EXPECT_EQ(gan.exit, 2) << reference;
    expect_has(gan.err, "ref.gan:2:29: not well-formed XML: " + reference + " refers to no character");
  }
  // The last code point is a character; in a comment or CDATA section `&#0;` is no reference
  // (a name is its first run of text: the comment ends it).
  CliRun last = ptmpl("convert " + file("last.xml", mspdi("&#x10FFFF;<!-- &#0; --><![CDATA[&#0;]]>")));
  EXPECT_EQ(last.exit, 0) << last.err;
  expect_has(last.out, "\"title\": \"\xF4\x8F\xBF\xBF\"");
  // A raw NUL byte is no XML character either: named, not "Start-end tags mismatch".
  CliRun nul = ptmpl("convert " + file("nul.xml", mspdi(std::string("a\0b", 3))));
  EXPECT_EQ(nul.exit, 2);
  expect_has(nul.err, "nul.xml:2:33: not well-formed XML: a NUL byte, which XML text cannot hold");
}

// docs/robustness.md, "Conversions": .NET writers save MSPDI as UTF-16 with a byte-order mark.
TEST_F(CliRobustness, Utf16PlansAreReadAsTheirUtf8Twins) {
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<Project xmlns=\"http://schemas.microsoft.com/project\">"
      "<Title>Plan</Title><StartDate>2027-01-04T08:00:00</StartDate><Tasks><Task><UID>1</UID><Name>Caf\xC3\xA9 "
      "\xF0\x9F\x9A\x80</Name>"
      "<OutlineLevel>1</OutlineLevel><Duration>PT16H0M0S</Duration><Start>2027-01-04T08:00:00</Start>"
      "<Finish>2027-01-05T17:00:00</Finish></Task></Tasks></Project>\n";
  // UTF-16 by hand (the text's one character beyond the BMP as a surrogate pair).
  auto utf16 = [&](bool little_endian, bool mark) {
    std::u16string units;
    for (std::size_t i = 0; i < text.size();) {
      const auto c = static_cast<unsigned char>(text[i]);
      char32_t code = c;
      int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (length > 1) code = c & (0xFF >> (length + 1));
      for (int k = 1; k < length; ++k) code = code << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      i += static_cast<std::size_t>(length);
      if (code >= 0x10000) {
        units += static_cast<char16_t>(0xD800 + ((code - 0x10000) >> 10));
        units += static_cast<char16_t>(0xDC00 + ((code - 0x10000) & 0x3FF));
      } else {
        units += static_cast<char16_t>(code);
      }
    }
    std::string bytes;
    if (mark) units.insert(units.begin(), u'\uFEFF');
    for (const char16_t unit : units) {
      const char low = static_cast<char>(unit & 0xFF);
      const char high = static_cast<char>(unit >> 8);
      bytes += little_endian ? low : high;
      bytes += little_endian ? high : low;
    }
    return bytes;
  };
  CliRun utf8 = ptmpl("convert " + file("utf8.xml", text));
  ASSERT_EQ(utf8.exit, 0) << utf8.err;
  expect_has(utf8.out, "\"title\": \"Caf\xC3\xA9 \xF0\x9F\x9A\x80\"");
  for (const auto& [name, bytes] : {std::pair{"le.xml", utf16(true, true)}, std::pair{"be.xml", utf16(false, true)},
                                    std::pair{"nomark.xml", utf16(true, false)}}) {
    CliRun run = ptmpl("convert " + file(name, bytes));
    EXPECT_EQ(run.exit, 0) << name << run.err;
    EXPECT_EQ(run.out, utf8.out) << name;
  }
  // A lone surrogate: where it is, in characters.
  std::string lone = utf16(true, true);
  const std::size_t at = lone.find(std::string("\x3D\xD8", 2));  // the rocket's high surrogate
  ASSERT_NE(at, std::string::npos);
  lone.erase(at + 2, 2);
  CliRun broken = ptmpl("convert " + file("lone.xml", lone));
  EXPECT_EQ(broken.exit, 2);
  expect_has(broken.err, "lone.xml:2:152: not UTF-16 text: a high surrogate without a low one");
  // Excel's "Unicode text" CSV too.
  CliRun csv = ptmpl("convert " + file("utf16.csv", std::string("\xFF\xFEt\0i\0t\0l\0e\0\n\0A\0\n\0", 16)));
  EXPECT_EQ(csv.exit, 0) << csv.err;
  expect_has(csv.out, "\"title\": \"A\"");
}

// docs/robustness.md, "Bounds": a file padded with gigabytes of zeros (sparse: no disk) that is
// not a compound file is read as far as its first NUL byte, which every reader refuses at its
// place; it was read whole (a 3 GiB file of zeros named .mpp: 6.3 GB and 30 s to be refused).
TEST_F(CliRobustness, AFilePaddedWithZerosIsReadOnlyAsFarAsTheZeros) {
  auto pad = [&](const std::string& name, const std::string& text) {
    const std::string path = file(name, text);
    std::filesystem::resize_file(path, std::uintmax_t{3} << 30);
    return path;
  };
  const auto started = std::chrono::steady_clock::now();
  CliRun zeros = ptmpl("convert " + pad("zeros.mpp", "") + " -o " + (dir_ / "zeros.json").string());
  EXPECT_EQ(zeros.exit, 2);
  expect_has(zeros.err,
             "zeros.mpp:1:1: not a plan ptmpl reads: a NUL byte, which no text plan holds (binary data, "
             "or a file padded with zeros)");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "zeros.json"));
  CliRun piped = ptmpl("convert - < " + (dir_ / "zeros.mpp").string());
  EXPECT_EQ(piped.exit, 2);
  expect_has(piped.err, "ptmpl convert: -:1:1: not a plan ptmpl reads: a NUL byte");

  CliRun csv = ptmpl("convert " + pad("plan.csv", "title,duration\nA,2\n"));
  EXPECT_EQ(csv.exit, 2);
  expect_has(csv.err, "plan.csv:3:1: not a CSV plan: a NUL byte");  // was a story titled "\u0000"
  CliRun xml = ptmpl("convert " + pad("plan.xml", R"(<Project xmlns="http://schemas.microsoft.com/project">)"
                                                  "\n<Tasks/></Project>\n"));
  EXPECT_EQ(xml.exit, 2);
  expect_has(xml.err, "plan.xml:3:1: not well-formed XML: a NUL byte");

  // Where a template is read: its NUL is a JSON syntax error at its place.
  const std::string json = pad("t.json", "[{\"title\": \"A\", \"duration\": 2}]\n");
  CliRun lint = ptmpl("lint " + json);
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out, "t.json:2:1: error: unexpected NUL byte (0x00) after the top-level value [json-syntax]");
  for (const std::string command : {"fmt --check", "schedule", "stats"}) {
    CliRun r = ptmpl(command + " " + json);
    EXPECT_EQ(r.exit, 2) << command;
    expect_has(r.out + r.err, "t.json:2:1: ");
    expect_has(r.out + r.err, "unexpected NUL byte (0x00) after the top-level value");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

// docs/robustness.md, "Conversions": MinutesPerDay that no day has is not silently 480.
TEST_F(CliRobustness, MinutesPerDayThatNoDayHasIsAFinding) {
  for (const std::string minutes : {"0", "-480", "2000", "eight hours"}) {
    const std::string plan = "<Project xmlns=\"http://schemas.microsoft.com/project\">\n<MinutesPerDay>" + minutes +
                             "</MinutesPerDay><Tasks><Task><UID>1</UID><Name>A</Name><Duration>PT16H0M0S</Duration>"
                             "</Task></Tasks></Project>\n";
    CliRun run = ptmpl("convert " + file("mpd.xml", plan));
    EXPECT_EQ(run.exit, 0) << minutes << run.err;
    expect_has(run.err, "mpd.xml:2:2: warning: a working day of \"" + minutes + "\" minutes (MinutesPerDay) is " +
                            (minutes == "eight hours" ? "not a number" : "no length a day has") +
                            "; durations and lags are counted in days of 480 minutes (8 hours) "
                            "[mspdi-minutes-per-day]");
    expect_has(run.out, "\"duration\": 2");  // 16 hours in days of 8
    CliRun strict = ptmpl("convert --strict " + file("mpd.xml", plan));
    EXPECT_EQ(strict.exit, 1) << minutes;
  }
}

// docs/robustness.md, "Conversions": a plan whose links form a cycle converts with a finding
// at the link, in every format (the template then cannot be scheduled).
TEST_F(CliRobustness, DependencyCyclesInPlansAreFindingsAtTheLink) {
  CliRun xml =
      ptmpl("convert " + file("cycle.xml",
                              "<Project xmlns=\"http://schemas.microsoft.com/project\"><Tasks>\n"
                              "<Task><UID>1</UID><Name>A</Name><PredecessorLink><PredecessorUID>2</PredecessorUID>"
                              "</PredecessorLink></Task>\n"
                              "<Task><UID>2</UID><Name>B</Name><PredecessorLink><PredecessorUID>1</PredecessorUID>"
                              "</PredecessorLink></Task>\n</Tasks></Project>\n"));
  EXPECT_EQ(xml.exit, 0) << xml.err;
  expect_has(xml.err,
             "cycle.xml:2:34: warning: dependency cycle: 1 \"A\" → 2 \"B\" → 1; the template cannot be scheduled "
             "until one of these links is removed [mspdi-dependency-cycle]");
  CliRun gan = ptmpl("convert " + file("cycle.gan",
                                       "<project name=\"x\"><tasks>\n"
                                       "<task id=\"1\" name=\"A\" start=\"2027-01-04\" duration=\"1\">"
                                       "<depend id=\"2\" type=\"2\"/></task>\n"
                                       "<task id=\"2\" name=\"B\" start=\"2027-01-05\" duration=\"1\">"
                                       "<depend id=\"1\" type=\"2\"/></task>\n</tasks></project>\n"));
  EXPECT_EQ(gan.exit, 0) << gan.err;
  expect_has(gan.err, "cycle.gan:3:56: warning: dependency cycle: 1 \"A\" → 2 \"B\" → 1");
  expect_has(gan.err, "[gan-dependency-cycle]");
  // Through a parent: B is inside P, which follows B's successor C.
  const std::string csv = file("cycle.csv", "level,temp_id,title,predecessors\n1,1,P,3\n2,2,B,\n1,3,C,2\n");
  CliRun converted = ptmpl("convert " + csv);
  EXPECT_EQ(converted.exit, 0) << converted.err;
  expect_has(converted.err,
             "cycle.csv:2:7: warning: dependency cycle: 2 \"B\" → 3 \"C\" → 1 \"P\" → 2 (1 contains 2, so a link into "
             "1 applies to 2); ");
  expect_has(converted.err, "[csv-dependency-cycle]");
  CliRun strict = ptmpl("convert --strict " + csv);
  EXPECT_EQ(strict.exit, 1);
}

// docs/robustness.md, "Conversions": a CSV whose header names `title` is a CSV plan, whatever
// else it names (the message said it was not).
TEST_F(CliRobustness, CsvWithATitleAndOnlyUnknownColumnsConverts) {
  CliRun run = ptmpl("convert " + file("few.csv", "Title,Owner,Notes\nKickoff,Ann,first\n"));
  EXPECT_EQ(run.exit, 0) << run.err;
  expect_has(run.out, "\"title\": \"Kickoff\"");
  expect_has(run.err, "few.csv:1:7: warning: the column \"Owner\" is not one ptmpl reads; it is ignored");
  CliRun none = ptmpl("convert " + file("none.csv", "Name,Owner\nKickoff,Ann\n"));
  EXPECT_EQ(none.exit, 2);
  expect_has(none.err, "CSV with a header row naming a \"title\" column");
}

TEST_F(CliRobustness, XmlBombsAndExternalEntitiesAreNeverExpanded) {
  std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE Project [\n <!ENTITY a \"aaaaaaaaaaaaaaaaaaaa\">\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    std::string previous = "&" + std::string(1, static_cast<char>(c - 1)) + ";";
    bomb += " <!ENTITY " + std::string(1, c) + " \"";
    for (int i = 0; i < 10; ++i) bomb += previous;
    bomb += "\">\n";
  }
  bomb +=
      " <!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n"
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Tasks><Task><UID>1</UID><Name>&j;&xxe;</Name>"
      "<OutlineLevel>1</OutlineLevel></Task></Tasks></Project>\n";
  CliRun r = ptmpl("convert " + file("bomb.xml", bomb));
  EXPECT_EQ(r.exit, 0) << r.err;
  expect_has(r.out, "\"title\": \"&j;&xxe;\"");
  expect_has(r.err,
             "bomb.xml:2:11: info: the document type declaration is ignored: no DTD or entity is processed "
             "[mspdi-doctype]");
  EXPECT_EQ(r.out.find("root:"), std::string::npos);
}

TEST_F(CliRobustness, DependencyCycles) {
  std::string cycle =
      file("cycle.json", R"([{"title": "A", "temp_id": 1, "dependencies": [{"source_id": 1, )"
                         R"("target_id": 2, "type": 2, "lag": 0}]}, {"title": "B", "temp_id": 2, )"
                         R"("dependencies": [{"source_id": 2, "target_id": 1, "type": 2, "lag": 0}]}])");
  CliRun lint = ptmpl("lint " + cycle);
  EXPECT_EQ(lint.exit, 1);
  expect_has(lint.out, "cycle.json:1:151: error: dependency cycle: 1 \"A\" → 2 \"B\" → 1 [dependency-cycle]");
  CliRun schedule = ptmpl("schedule " + cycle);
  EXPECT_EQ(schedule.exit, 2);
  expect_has(schedule.err, "cycle.json:1:151: dependency cycle: 1 \"A\" → 2 \"B\" → 1");
}

// docs/semantics.md §11 "Writing output": where the output goes is the user's; a failed write is an error.
TEST_F(CliRobustness, OutputToAFullDiskOrAClosedPipeIsAnError) {
  for (const std::string command : {"fmt samples/office-move.json", "schedule samples/office-move.json",
                                    "lint samples/office-move.json --format json", "rules"}) {
    CliRun full = ptmpl(command + " > /dev/full");
    EXPECT_EQ(full.exit, 2) << command;
    expect_has(full.err, "standard output: cannot write: No space left on device\n");
    EXPECT_EQ(std::count(full.err.begin(), full.err.end(), '\n'), 1) << full.err;
  }
  CliRun named = ptmpl("convert --to csv samples/office-move.json -o /dev/full");
  EXPECT_EQ(named.exit, 2);
  expect_has(named.err, "\nptmpl convert: /dev/full: cannot write: No space left on device\n");
  // A reader that stops early: the writer is told (exit 2), not killed by SIGPIPE.
  std::string status = testing::shell_output("cd '" PTMPL_SOURCE_DIR "' && bash -c \"'" PTMPL_BINARY
                                             "' gen --stories 20000 2>/dev/null | head -c 10 >/dev/null; "
                                             "echo \\${PIPESTATUS[0]}\"");
  EXPECT_EQ(status, "2\n");
}

TEST_F(CliRobustness, OutputDashIsStandardOutputAndDevicesAreWrittenInPlace) {
  CliRun dash = ptmpl("schedule samples/office-move.json --format csv -o -");
  EXPECT_EQ(dash.exit, 0) << dash.err;
  EXPECT_EQ(dash.out, ptmpl("schedule samples/office-move.json --format csv").out);
  EXPECT_FALSE(std::filesystem::exists(std::string(PTMPL_SOURCE_DIR) + "/-"));

  std::string null = (dir_ / "fakenull").string();
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    CliRun to_device = ptmpl("schedule samples/office-move.json -o '" + null + "'");
    EXPECT_EQ(to_device.exit, 0) << to_device.err;
    EXPECT_TRUE(std::filesystem::is_character_file(null));
  }
  std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string through = testing::shell_output("cat '" + fifo +
                                              "' & cd '" PTMPL_SOURCE_DIR "' && '" PTMPL_BINARY
                                              "' convert --to csv samples/office-move.json -o '" +
                                              fifo + "'; wait");
  EXPECT_EQ(through, ptmpl("convert --to csv samples/office-move.json").out);
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  // /dev/stdout into a pipe is written in place, as the pipe.
  CliRun to_stdout = ptmpl("schedule samples/office-move.json --format csv -o /dev/stdout");
  EXPECT_EQ(to_stdout.exit, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, dash.out);
}

TEST_F(CliRobustness, NeverWritesOverItsOwnInput) {
  const std::string original = testing::read_source("samples/office-move.json");
  std::string w = file("w.json", original);
  CliRun csv = ptmpl("convert --to csv '" + w + "' -o '" + w + "'");
  EXPECT_EQ(csv.exit, 2);
  EXPECT_EQ(csv.err, "ptmpl convert: " + w + ": is also an input (" + w + "); refusing to write over it\n");
  std::filesystem::create_symlink(w, dir_ / "alias.json");
  CliRun schedule = ptmpl("schedule '" + w + "' -o '" + (dir_ / "alias.json").string() + "'");
  EXPECT_EQ(schedule.exit, 2);
  EXPECT_EQ(read_file(w), original);
}

TEST_F(CliRobustness, LintFixesAFileNamedTwiceOnce) {
  std::string a = file("a.json", R"([{"title": "A", "story_type": "task", "temp_id": 1, "relative_start_date": 0,
  "relative_due_date": 4, "duration": 10}]
)");
  CliRun fixed = ptmpl("lint --fix '" + a + "' '" + dir_.string() + "/./a.json'");
  EXPECT_NE(fixed.err.find("applied 1 fix"), std::string::npos) << fixed.err;
  EXPECT_EQ(ptmpl("lint '" + a + "'").exit, 0) << read_file(a);
  expect_has(read_file(a), "\"duration\": 5");
  CliRun fmt = ptmpl("fmt -w '" + a + "' '" + dir_.string() + "/./a.json'");
  EXPECT_EQ(fmt.exit, 0) << fmt.err;
  EXPECT_EQ(ptmpl("fmt --check '" + a + "'").exit, 0);

  // A directory holding a file and a link to it: one file, fixed once.
  std::filesystem::create_directory(dir_ / "d");
  std::string b = (dir_ / "d" / "b.json").string();
  std::ofstream(b) << R"([{"title": "B", "story_type": "task", "temp_id": 1, "relative_start_date": 0,
  "relative_due_date": 4, "duration": 10}]
)";
  std::filesystem::create_symlink("b.json", dir_ / "d" / "link.json");
  CliRun through_link = ptmpl("lint --fix '" + (dir_ / "d").string() + "'");
  EXPECT_NE(through_link.err.find("b.json: applied 1 fix"), std::string::npos) << through_link.err;
  expect_has(through_link.out, "1 file checked");
  expect_has(read_file(b), "\"duration\": 5}]");
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "d" / "link.json"));
}

// `fmt -w` on a FIFO reads it but never replaces it with a regular file.
TEST_F(CliRobustness, FmtWriteLeavesAFifoAFifo) {
  std::string fifo = (dir_ / "f.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string err = testing::shell_output("printf '[{\"title\":\"a\"}]' > '" + fifo +
                                          "' & cd '" PTMPL_SOURCE_DIR "' && '" PTMPL_BINARY "' fmt -w '" + fifo +
                                          "' 2>&1; echo \"exit $?\"; wait");
  EXPECT_EQ(err, "ptmpl fmt: " + fifo + ": not a regular file; not rewritten in place\nexit 2\n");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

}  // namespace
}  // namespace ptmpl
