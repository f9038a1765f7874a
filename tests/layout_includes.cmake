# The Layout tests of includes (tests/CMakeLists.txt, docs/design.md "The map"), run as
# `cmake -P` with:
#   ROOT       libtemplate/
#   RULE       the direction checked, for the messages
#   FILES      paths under ROOT: a file, or a folder (ending in /) whose .cpp and .hpp files,
#              at any depth, are checked
#   FOLDERS    folders under libtemplate/src that those files must not include from
#   HEADERS    public headers they must not include (libtemplate/core/calendar.hpp), or a
#              part's whole folder of them (libtemplate/convert/)
#   LIBRARIES  headers of libraries they must not include, as the include writes them
#              (pugixml.hpp, curl/ for a folder)
#   ALLOWED    includes exempted from FOLDERS, as the include writes them (io/worker_pool.hpp)
# Every offending line is reported. A test that finds no file fails: a rule over nothing
# checks nothing.
# With KNOWN_FOLDERS (every folder of libtemplate/src the tests have a rule for) and
# KNOWN_HEADERS (every public header of the core they assign to a folder), it checks instead
# that no folder or header escapes them.
cmake_minimum_required(VERSION 3.25)

if(DEFINED KNOWN_FOLDERS)
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${ROOT}/src" "${ROOT}/src/*")
  file(GLOB headers RELATIVE "${ROOT}/include/libtemplate/core" "${ROOT}/include/libtemplate/core/*.hpp")
  set(unknown "")
  foreach(entry IN LISTS entries)
    if(NOT IS_DIRECTORY "${ROOT}/src/${entry}")
      string(APPEND unknown "\n  libtemplate/src/${entry}: a file outside every folder")
    elseif(NOT entry IN_LIST KNOWN_FOLDERS)
      string(APPEND unknown "\n  libtemplate/src/${entry}/: a folder with no rule")
    endif()
  endforeach()
  foreach(header IN LISTS headers)
    string(REGEX REPLACE "\\.hpp$" "" name "${header}")
    if(NOT name IN_LIST KNOWN_HEADERS)
      string(APPEND unknown "\n  libtemplate/include/libtemplate/core/${header}: a header of no folder")
    endif()
  endforeach()
  if(NOT unknown STREQUAL "")
    message(FATAL_ERROR "the Layout tests (tests/CMakeLists.txt) have no rule for:${unknown}")
  endif()
  message(STATUS "every folder of libtemplate/src and every public header of the core has its rule")
  return()
endif()

# What an include names, and whether it names one of `paths` (a path ending in / names all below).
set(include_line "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]")
function(names_one_of path out)
  set(found FALSE)
  foreach(candidate IN LISTS ARGN)
    string(LENGTH "${candidate}" length)
    string(SUBSTRING "${path}" 0 ${length} start)
    if(path STREQUAL candidate OR (candidate MATCHES "/$" AND start STREQUAL candidate))
      set(found TRUE)
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

set(folder_paths "")
foreach(folder IN LISTS FOLDERS)
  list(APPEND folder_paths "${folder}/")
endforeach()

set(files "")
foreach(entry IN LISTS FILES)
  if(entry MATCHES "/$")
    file(GLOB_RECURSE found "${ROOT}/${entry}*.cpp" "${ROOT}/${entry}*.hpp")
    list(APPEND files ${found})
  elseif(EXISTS "${ROOT}/${entry}")
    list(APPEND files "${ROOT}/${entry}")
  endif()
endforeach()
list(LENGTH files checked)
if(checked EQUAL 0)
  message(FATAL_ERROR "${RULE}: no file found in ${FILES}")
endif()

set(offences "")
foreach(file IN LISTS files)
  file(STRINGS "${file}" includes REGEX "${include_line}")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "${include_line}.*" "\\1" path "${line}")
    names_one_of("${path}" allowed ${ALLOWED})
    names_one_of("${path}" private ${folder_paths})
    names_one_of("${path}" public ${HEADERS})
    names_one_of("${path}" library ${LIBRARIES})
    if((private AND NOT allowed) OR public OR library)
      file(RELATIVE_PATH shown "${ROOT}" "${file}")
      string(APPEND offences "\n  libtemplate/${shown}: ${line}")
    endif()
  endforeach()
endforeach()

if(NOT offences STREQUAL "")
  message(FATAL_ERROR "${RULE}; these includes break it:${offences}")
endif()
message(STATUS "${RULE}: ${checked} files keep to it")
