// Uses every part of the installed libtemplate through ptmpl::libtemplate: converts a small
// MS Project plan (convert, pugixml), makes a libcurl transport and encodes a URL (publish),
// and has the sandbox refuse options without a data directory (sandbox). It also compiles
// every installed header (all_headers.cpp, written by CMakeLists.txt). Usage: every_part.
#include <libtemplate/convert/convert.hpp>
#include <libtemplate/publish/api_client.hpp>
#include <libtemplate/sandbox/sandbox.hpp>

#include <iostream>
#include <string>

namespace {

int fail(const std::string& message) {
  std::cerr << "every_part: " << message << "\n";
  return 1;
}

}  // namespace

int main() {
  const std::string plan =
      "<Project xmlns=\"http://schemas.microsoft.com/project\"><Title>Move</Title><Tasks>"
      "<Task><UID>1</UID><ID>1</ID><Name>Kick-off</Name><OutlineLevel>1</OutlineLevel></Task>"
      "</Tasks></Project>";
  auto converted = ptmpl::convert_mspdi(plan, "move.xml");
  if (!converted.ok()) return fail(converted.error().message);
  if (converted.value().document.find("\"Kick-off\"") == std::string::npos)
    return fail("the converted template has no story Kick-off:\n" + converted.value().document);

  if (ptmpl::publish::make_curl_transport({}) == nullptr) return fail("no libcurl transport");
  if (ptmpl::publish::url_encode("a b") != "a%20b") return fail("url_encode(\"a b\") is not a%20b");

  auto sandbox = ptmpl::Sandbox::start({});
  if (sandbox.ok()) return fail("the sandbox started without a data directory");

  std::cout << "converted a plan, made a transport; the sandbox said: " << sandbox.error().message << "\n";
  return 0;
}
