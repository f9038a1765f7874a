// XML read a token at a time (convert/xml_pull.hpp), as the workbook reader reads its sheets:
// the tokens of every kind of markup, and each way a text is not well-formed, at its place.
#include "convert/xml_pull.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace ptmpl::xml_pull_test {
namespace {

using detail::XmlPull;

// The tokens of `xml`, one line each: `<name a=value …>`, `</name>`, `"text"`, or the error
// `! offset: what` (last).
std::string tokens(std::string_view xml) {
  XmlPull pull(xml);
  std::string out;
  for (;;) {
    switch (pull.next()) {
      case XmlPull::Token::Open:
        out += "<" + std::string(pull.name());
        for (std::string_view a : {"r", "t", "id", "v"})
          if (const auto value = pull.attribute(a)) out += " " + std::string(a) + "=" + std::string(*value);
        out += ">\n";
        break;
      case XmlPull::Token::Close:
        out += "</" + std::string(pull.name()) + ">\n";
        break;
      case XmlPull::Token::Text:
        out += "\"" + pull.text() + "\"\n";
        break;
      case XmlPull::Token::End:
        return out;
      case XmlPull::Token::Error: {
        const auto [at, what] = pull.error();
        return out + "! " + std::to_string(at) + ": " + what + "\n";
      }
    }
  }
}

TEST(XmlPull, ElementsAttributesAndTextByLocalName) {
  EXPECT_EQ(tokens("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e \"no\">]>\n"
                   "<x:sheet xmlns:x=\"urn:x\"><x:c r='B2' t = \"s\" r:id=\"rId1\"/><v>1 &lt; 2 &amp;&#x41;&#66;</v>"
                   "<!-- a comment --><t><![CDATA[<kept> &amp;]]></t><?pi data?></x:sheet>\n"),
            "<sheet>\n<c r=B2 t=s id=rId1>\n</c>\n<v>\n\"1 < 2 &AB\"\n</v>\n<t>\n\"<kept> &amp;\"\n</t>\n</sheet>\n");
}

TEST(XmlPull, LineEndsAndUnknownEntitiesAsPugixmlReadsThem) {
  // \r\n and a lone \r are \n in text; in an attribute, line ends and tabs are spaces; an
  // unknown entity or a lone & stays as written (no document type declaration is expanded).
  EXPECT_EQ(tokens("<a v=\"x\ty\r\nz\">one\r\ntwo\rthree &e; & four</a>"),
            "<a v=x y z>\n\"one\ntwo\nthree &e; & four\"\n</a>\n");
}

TEST(XmlPull, EachWayOfNotBeingWellFormedAtItsPlace) {
  EXPECT_EQ(tokens("<a><b></a>"), "<a>\n<b>\n! 6: a closing tag </a> where </b> closes the open element\n");
  EXPECT_EQ(tokens("<a></a><b/>"), "<a>\n</a>\n! 7: a second root element\n");
  EXPECT_EQ(tokens("<a><b>"), "<a>\n<b>\n! 6: the text ends inside <b>, which is not closed\n");
  EXPECT_EQ(tokens(""), "! 0: no root element\n");
  EXPECT_EQ(tokens("text<a/>"), "! 0: text outside the root element\n");
  EXPECT_EQ(tokens(std::string("<a>x\0y</a>", 10)), "! 4: a NUL byte, which XML text cannot hold\n");
  EXPECT_EQ(tokens("<a>\xC3(</a>"), "! 3: bytes that are not UTF-8\n");
  EXPECT_EQ(tokens("<a>x&#0;</a>"), "<a>\n! 4: &#0; refers to no character (0, a surrogate or beyond U+10FFFF)\n");
  EXPECT_EQ(tokens("<a v=\"&#xD800;\"/>"),
            "! 6: &#xD800; refers to no character (0, a surrogate or beyond U+10FFFF)\n");
  EXPECT_EQ(tokens("<a>&#99999999999999;</a>"),
            "<a>\n! 3: &#99999999999999; refers to no character (0, a surrogate or beyond U+10FFFF)\n");
  EXPECT_EQ(tokens("<a v=1/>"), "! 5: the value of the attribute v is not in quotes\n");
  EXPECT_EQ(tokens("<a v/>"), "! 3: an attribute of <a> without \"=\" and a value\n");
  EXPECT_EQ(tokens("<a v=\"<\"/>"), "! 6: a \"<\" in the value of the attribute v\n");
  EXPECT_EQ(tokens("<a v=\"1"), "! 5: the value of the attribute v does not end\n");
  EXPECT_EQ(tokens("<a"), "! 0: the tag <a does not end\n");
  EXPECT_EQ(tokens("<c r=\"A1\"t=\"s\"/>"), "! 9: no white space after the value of the attribute r\n");
  EXPECT_EQ(tokens("< a/>"), "! 0: a \"<\" that begins no element name\n");
  EXPECT_EQ(tokens("<a></a"), "<a>\n! 3: the closing tag </a does not end\n");
  EXPECT_EQ(tokens("<a><!-- x</a>"), "<a>\n! 3: a comment that does not end (no \"-->\")\n");
  EXPECT_EQ(tokens("<a><![CDATA[x</a>"), "<a>\n! 12: a CDATA section that does not end (no \"]]>\")\n");
  EXPECT_EQ(tokens("<a><!DOCTYPE a></a>"), "<a>\n! 3: a declaration (\"<!\") inside the document\n");
}

TEST(XmlPull, DeepNestingNeedsNoStack) {
  std::string deep;
  for (int i = 0; i < 200'000; ++i) deep += "<a>";
  for (int i = 0; i < 200'000; ++i) deep += "</a>";
  XmlPull pull(deep);
  std::size_t deepest = 0;
  XmlPull::Token token;
  while ((token = pull.next()) == XmlPull::Token::Open || token == XmlPull::Token::Close)
    deepest = std::max(deepest, pull.depth());
  EXPECT_EQ(token, XmlPull::Token::End);
  EXPECT_EQ(deepest, 200'000U);
}

TEST(XmlPull, OtherEncodingsBecomeUtf8) {
  // UTF-16 with a byte order mark, and ISO-8859-1 as declared: converted by pugixml first.
  const std::string utf8 = "<a v=\"\xC3\xA9\">caf\xC3\xA9</a>";
  std::string utf16_without_mark;  // little-endian, told by its NULs (XML 1.0, appendix F)
  for (char c : std::string("<a v=\"\xE9\">caf\xE9</a>")) {
    utf16_without_mark += c;
    utf16_without_mark += '\0';
  }
  const auto converted = detail::as_utf8_xml("\xFF\xFE" + utf16_without_mark, "s.xml");
  ASSERT_TRUE(converted.ok()) << converted.error().message;
  EXPECT_EQ(tokens(converted.value()), tokens(utf8));
  const auto latin1 =
      detail::as_utf8_xml("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a v=\"\xE9\">caf\xE9</a>", "s.xml");
  ASSERT_TRUE(latin1.ok()) << latin1.error().message;
  EXPECT_EQ(tokens(latin1.value()), tokens(utf8));
  const auto unmarked = detail::as_utf8_xml(utf16_without_mark, "s.xml");
  ASSERT_TRUE(unmarked.ok()) << unmarked.error().message;
  EXPECT_EQ(tokens(unmarked.value()), tokens(utf8));
  EXPECT_EQ(detail::as_utf8_xml(utf8, "s.xml").value(), utf8);  // UTF-8 as it is
  EXPECT_EQ(detail::as_utf8_xml("\n " + utf8, "s.xml").value(), "\n " + utf8);
  const auto broken = detail::as_utf8_xml(std::string("\xFF\xFE<\0a\0", 6), "s.xml");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().message.find("s.xml:"), std::string::npos) << broken.error().message;
}

}  // namespace
}  // namespace ptmpl::xml_pull_test
