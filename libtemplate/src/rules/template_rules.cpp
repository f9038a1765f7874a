// Rules about the template document's own fields: template-title-missing.
#include "rules/rule.hpp"

namespace ptmpl::rules {

void check_template_title_missing(Context& context) {
  for (const TemplateSource& source : context.file().templates()) {
    if (source.template_pointer.empty()) continue;  // a bare story list has no template fields
    const json::Value* pt = json::resolve_pointer(context.file().document().root(), source.template_pointer);
    if (pt == nullptr) continue;
    // The service refuses to create a template without a title, and to blank one on update.
    const json::Value* title = pt->find("title");
    if (title == nullptr)
      context.report_at_offset("template-title-missing", Severity::Error, pt->offset(), source.template_pointer,
                               "the template has no title");
    else if (title->is_string() && title->text().find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
      context.report_at_offset("template-title-missing", Severity::Error, title->offset(),
                               source.template_pointer + "/title", "the template's title is blank");
  }
}

}  // namespace ptmpl::rules
