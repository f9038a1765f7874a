// The one XML escaper behind MSPDI export, the JUnit report and the SVG and HTML previews.
#include "output/xml_escape.hpp"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <string>

namespace ptmpl::detail {
namespace {

TEST(XmlEscape, TextEscapesMarkupAndLeavesQuotesAndLineBreaks) {
  EXPECT_EQ(xml_escaped("a & b < c > d \"e\" 'f'\tg\nh\ri", XmlContext::Text),
            "a &amp; b &lt; c &gt; d \"e\" 'f'\tg\nh\ri");
}

TEST(XmlEscape, AttributeEscapesQuotesAndKeepsLineBreaksAsReferences) {
  EXPECT_EQ(xml_escaped("a & b < c > d \"e\" 'f'\tg\nh\ri", XmlContext::Attribute),
            "a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39;&#9;g&#10;h&#13;i");
}

// XML 1.0 cannot hold NUL, the other C0 controls or U+FFFE/U+FFFF, not even as references.
TEST(XmlEscape, CharactersXmlCannotHoldBecomeTheReplacementCharacter) {
  const std::string text =
      std::string("a\0b", 3) + "\x01\x1F" + "\xEF\xBF\xBE\xEF\xBF\xBF" + "\xEF\xBF\xBD" + "\xEF\xBB\xBF";
  const std::string expected =
      "a\xEF\xBF\xBD"
      "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBB\xBF";
  EXPECT_EQ(xml_escaped(text, XmlContext::Text), expected);
  EXPECT_EQ(xml_escaped(text, XmlContext::Attribute), expected);
  EXPECT_EQ(xml_escaped("\xEF\xBF", XmlContext::Text), "\xEF\xBF");  // a truncated sequence: left as it is
}

// Whatever goes in, a conforming reader reads the text and the attribute back: the original
// with each forbidden character replaced, and (in element text) CR as LF.
TEST(XmlEscape, EveryByteRoundTripsThroughAnXmlReader) {
  std::string text;
  std::string expected_text;
  std::string expected_attribute;
  for (int c = 1; c < 0x80; ++c) {
    text += static_cast<char>(c);
    const bool forbidden = c < 0x20 && c != '\t' && c != '\n' && c != '\r';
    expected_text += forbidden ? std::string("\xEF\xBF\xBD") : std::string(1, c == '\r' ? '\n' : static_cast<char>(c));
    expected_attribute += forbidden ? std::string("\xEF\xBF\xBD") : std::string(1, static_cast<char>(c));
  }
  const std::string xml = "<e a=\"" + xml_escaped(text, XmlContext::Attribute) + "\" b='" +
                          xml_escaped(text, XmlContext::Attribute) + "'>" + xml_escaped(text, XmlContext::Text) +
                          "</e>";
  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(xml.c_str(), pugi::parse_default));
  EXPECT_EQ(std::string(document.child("e").child_value()), expected_text);
  EXPECT_EQ(std::string(document.child("e").attribute("a").value()), expected_attribute);
  EXPECT_EQ(std::string(document.child("e").attribute("b").value()), expected_attribute);
}

}  // namespace
}  // namespace ptmpl::detail
