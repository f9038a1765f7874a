// ptmpl._ptmpl: the toolkit (toolkit.hpp) for Python. Each function takes its arguments as the
// package (python/ptmpl/__init__.py) has made them (a path, or the bytes of a template or plan),
// calls the toolkit with the GIL released, and gives back the text the command prints with
// `--format json`; the package parses it. A failure raises `_ptmpl.ToolkitError(kind, message,
// exit_code)`, which the package raises again as the ptmpl.Error subclass of its kind.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libtemplate/toolkit/toolkit.hpp"

namespace py = pybind11;

namespace ptmpl::python {

namespace {

// The Python exception every failure of the toolkit becomes; set when the module is loaded.
py::handle toolkit_error;

// The value of `result`, or its Error raised as ToolkitError (with the GIL held again).
template <class T>
T value_or_raise(Result<T>&& result) {
  if (result.ok()) return std::move(result).value();
  const Error& error = result.error();
  PyErr_SetObject(toolkit_error.ptr(),
                  py::make_tuple(std::string(to_string(error.code)), error.message, error.exit_code()).ptr());
  throw py::error_already_set();
}

// A call's input: the file `path`, or `data` (a bytes object the caller keeps, so its buffer
// stays put while the GIL is released) named `path`.
toolkit::Input input_of(const std::string& path, const std::optional<py::bytes>& data) {
  if (!data) return toolkit::Input::file(path);
  return toolkit::Input::text(std::string_view(PyBytes_AS_STRING(data->ptr()), PyBytes_GET_SIZE(data->ptr())), path);
}

std::string lint(const std::string& path, const std::optional<py::bytes>& data, toolkit::LintRequest request) {
  const toolkit::Input input = input_of(path, data);
  Result<toolkit::LintResult> linted = [&] {
    py::gil_scoped_release unlocked;
    return toolkit::lint(input, request);
  }();
  return value_or_raise(std::move(linted)).json;
}

std::string format(const py::bytes& text) {
  const std::string_view view(PyBytes_AS_STRING(text.ptr()), PyBytes_GET_SIZE(text.ptr()));
  Result<std::string> formatted = [&] {
    py::gil_scoped_release unlocked;
    return toolkit::format(view);
  }();
  return value_or_raise(std::move(formatted));
}

// (document as bytes, the findings' JSON, failed)
py::tuple convert(const std::string& path, const std::optional<py::bytes>& data, toolkit::ConvertRequest request) {
  const toolkit::Input input = input_of(path, data);
  Result<toolkit::Converted> converted = [&] {
    py::gil_scoped_release unlocked;
    return toolkit::convert(input, request);
  }();
  toolkit::Converted out = value_or_raise(std::move(converted));
  return py::make_tuple(py::bytes(out.document), out.json, out.failed);
}

// schedule, stats or health, and what each is asked
template <class Request>
using JsonCall = Result<toolkit::JsonOutput> (*)(const toolkit::Input&, const Request&);

// (the JSON, the warnings)
template <class Request>
std::pair<std::string, std::vector<std::string>> json_output(JsonCall<Request> call, const std::string& path,
                                                             const std::optional<py::bytes>& data,
                                                             const Request& request) {
  const toolkit::Input input = input_of(path, data);
  Result<toolkit::JsonOutput> output = [&] {
    py::gil_scoped_release unlocked;
    return call(input, request);
  }();
  toolkit::JsonOutput out = value_or_raise(std::move(output));
  return {std::move(out.json), std::move(out.warnings)};
}

py::list rules() {
  py::list out;
  for (const toolkit::Rule& rule : toolkit::rules()) {
    py::dict entry;
    entry["id"] = rule.id;
    entry["severity"] = std::string(to_string(rule.severity));
    entry["fix"] = std::string(to_string(rule.fix));
    entry["summary"] = rule.summary;
    entry["group"] = rule.group;
    out.append(std::move(entry));
  }
  return out;
}

}  // namespace

}  // namespace ptmpl::python

PYBIND11_MODULE(_ptmpl, m) {
  using namespace ptmpl;
  m.doc() = "ptmpl's toolkit (docs/library.md); use the package ptmpl, which wraps it.";
  python::toolkit_error = py::exception<std::exception>(m, "ToolkitError").release();
  // Every kind of failure, so that the package's tests see each has its exception class.
  py::list kinds;
  for (auto code = static_cast<int>(ErrorCode::kUsage); code <= static_cast<int>(ErrorCode::kInternal); ++code)
    kinds.append(std::string(to_string(static_cast<ErrorCode>(code))));
  m.attr("ERROR_KINDS") = kinds;

  m.def(
      "lint",
      [](const std::string& path, const std::optional<py::bytes>& data, std::optional<std::string> config_path,
         std::optional<std::string> config_text, bool discover_config, std::vector<std::string> select) {
        return python::lint(path, data,
                            {.config_path = std::move(config_path),
                             .config_text = std::move(config_text),
                             .discover_config = discover_config,
                             .select = std::move(select)});
      },
      py::arg("path"), py::arg("data"), py::arg("config_path"), py::arg("config_text"), py::arg("discover_config"),
      py::arg("select"));
  m.def("format", &python::format, py::arg("text"));
  m.def(
      "convert",
      [](const std::string& path, const std::optional<py::bytes>& data, std::string to, bool strict,
         std::vector<std::string> allow, std::optional<std::string> start) {
        return python::convert(
            path, data, {.to = std::move(to), .strict = strict, .allow = std::move(allow), .start = std::move(start)});
      },
      py::arg("path"), py::arg("data"), py::arg("to"), py::arg("strict"), py::arg("allow"), py::arg("start"));
  using ScheduleCall = python::JsonCall<toolkit::ScheduleRequest>;
  for (auto [name, call] : {std::pair<const char*, ScheduleCall>{"schedule", &toolkit::schedule},
                            std::pair<const char*, ScheduleCall>{"stats", &toolkit::stats}})
    m.def(
        name,
        [call](const std::string& path, const std::optional<py::bytes>& data, std::optional<std::string> start,
               bool asap, std::optional<std::string> finish) {
          return python::json_output(call, path, data,
                                     {.start = std::move(start), .finish = std::move(finish), .asap = asap});
        },
        py::arg("path"), py::arg("data"), py::arg("start"), py::arg("asap"), py::arg("finish"));
  m.def(
      "health",
      [](const std::string& path, const std::optional<py::bytes>& data, std::optional<std::string> config_path,
         bool discover_config) {
        return python::json_output(&toolkit::health, path, data,
                                   {.config_path = std::move(config_path), .discover_config = discover_config});
      },
      py::arg("path"), py::arg("data"), py::arg("config_path"), py::arg("discover_config"));
  m.def(
      "schema", [](const std::string& name) { return python::value_or_raise(toolkit::schema(name)); }, py::arg("name"));
  m.def("rules", &python::rules);
}
