# The packaging test (ctest: Package.InstallAndConsume), run as `cmake -P` with:
#   BUILD_DIR     the built ptmpl tree to install
#   CONFIG        its configuration (Release, Debug, …)
#   SOURCE_DIR    the ptmpl sources (for tests/consumer and samples/)
#   WORK_DIR      a scratch directory, emptied first and removed when the test passes
#   GENERATOR, MAKE_PROGRAM, CXX_COMPILER, LAUNCHER, PREFIX_PATH   what the build used, for the
#                 consumer
#   VERSION       the project's version
#   BINDIR, INCLUDEDIR, MANDIR, DATADIR, LIBEXECDIR      the install directories (GNUInstallDirs)
# It installs the build into WORK_DIR/prefix, checks the files, then configures, builds and runs
# tests/consumer against that prefix only, and runs the installed ptmpl. tests/consumer has a
# program that lints with ptmpl::core alone (lint_only): its link command and the program itself
# must show none of pugixml, libcurl, cpp-httplib and OpenSSL, which the same inspection finds in
# the program that uses every part (every_part). whole_core links all of the core's archive, to
# show that no object in it needs the other parts.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../package_steps.cmake")

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer")

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

run(ignored "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

foreach(installed IN ITEMS "${BINDIR}/ptmpl" "${LIBEXECDIR}/ptmpl/ptmpl-net" "${INCLUDEDIR}/libtemplate/core/lint.hpp"
                           "${INCLUDEDIR}/libtemplate/core/version.hpp" "${MANDIR}/man1/ptmpl.1"
                           "${DATADIR}/bash-completion/completions/ptmpl")
  if(NOT EXISTS "${prefix}/${installed}")
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()

# The installed headers include only the standard library and each other: a consumer needs no
# third-party header (RapidJSON, pugixml, cpp-httplib, curl, OpenSSL stay private).
file(GLOB_RECURSE headers "${prefix}/${INCLUDEDIR}/libtemplate/*.hpp")
if(NOT headers)
  message(FATAL_ERROR "no header installed under ${INCLUDEDIR}/libtemplate/")
endif()
foreach(header IN LISTS headers)
  file(STRINGS "${header}" includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])(libtemplate/[a-z]+/[a-z_]+\\.hpp|[a-z_]+)[>\"]")
      message(FATAL_ERROR "${header}: includes a header that is neither libtemplate's nor standard: ${line}")
    endif()
  endforeach()
endforeach()

set(prefix_path "${prefix}")
list(APPEND prefix_path ${PREFIX_PATH})
configure_args(args "${SOURCE_DIR}/tests/consumer" "${consumer_build}")
list(APPEND args "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_PREFIX_PATH=${prefix_path}" "-DLIBTEMPLATE_VERSION=${VERSION}"
                 -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run(ignored "${CMAKE_COMMAND}" ${args})

# The package found must be the one just installed, not another on the machine.
file(STRINGS "${consumer_build}/CMakeCache.txt" found_dir REGEX "^libtemplate_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${found_dir}")
file(REAL_PATH "${prefix}" real_prefix)
file(REAL_PATH "${found_dir}" real_found_dir)
string(FIND "${real_found_dir}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "find_package(libtemplate) found ${found_dir}, not the package in ${prefix}")
endif()

# The program that only lints links ptmpl::core alone: its link command names no library of
# the other parts (pugixml, libcurl, cpp-httplib, OpenSSL, or the parts' own archives).
run(linking "${CMAKE_COMMAND}" --build "${consumer_build}" --config "${CONFIG}" --target lint_only --verbose)
string(REGEX MATCHALL "[^\n]* -o lint_only( [^\n]*)?" link_lines "${linking}")
if(link_lines STREQUAL "")
  message(FATAL_ERROR "no link command for lint_only in the build's output:\n${linking}")
endif()
set(foreign_archives "lib(pugixml|curl|ssl|crypto|cpp-httplib)[.-]|-l(pugixml|curl|ssl|crypto|cpp-httplib)|libptmpl_(convert|publish|sandbox|lsp|toolkit)\\.a")
if(link_lines MATCHES "${foreign_archives}")
  message(FATAL_ERROR "lint_only, which links ptmpl::core alone, is linked with ${CMAKE_MATCH_0}:\n${link_lines}")
endif()
run(ignored "${CMAKE_COMMAND}" --build "${consumer_build}" --config "${CONFIG}")

# Which of pugixml, libcurl, cpp-httplib and OpenSSL a program holds: a library it needs at run
# time (readelf -d) or a symbol of theirs (nm), defined or not. OUT receives their names.
find_program(NM nm REQUIRED)
find_program(READELF readelf REQUIRED)
function(foreign_libraries out program)
  run(dynamic "${READELF}" -d "${program}")
  execute_process(COMMAND "${NM}" -C "${program}" OUTPUT_VARIABLE symbols ERROR_QUIET)
  execute_process(COMMAND "${NM}" -C -D "${program}" OUTPUT_VARIABLE dynamic_symbols ERROR_QUIET)
  string(APPEND symbols "${dynamic_symbols}")
  if(symbols STREQUAL "")
    message(FATAL_ERROR "nm lists no symbol of ${program}")
  endif()
  # Per library: its shared objects' names, then a symbol of its (nm -C: C++ names demangled).
  set(pugixml "libpugixml" "pugi::")
  set(curl "libcurl" " curl_")
  set(cpp-httplib "libcpp-httplib" "httplib::")
  set(openssl "lib(ssl|crypto)" " (SSL|X509|EVP|OPENSSL|ERR)_")
  set(found "")
  foreach(library IN ITEMS pugixml curl cpp-httplib openssl)
    list(GET ${library} 0 shared_object)
    list(GET ${library} 1 symbol)
    if(dynamic MATCHES "\\[${shared_object}[.-]" OR symbols MATCHES "${symbol}")
      list(APPEND found "${library}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(consumer_dir "${consumer_build}")
if(NOT EXISTS "${consumer_dir}/lint_only")
  set(consumer_dir "${consumer_build}/${CONFIG}")  # multi-configuration generators
endif()
foreach(program IN ITEMS lint_only whole_core)
  foreign_libraries(in_program "${consumer_dir}/${program}")
  if(NOT in_program STREQUAL "")
    message(FATAL_ERROR "${program}, which links ptmpl::core alone, holds ${in_program}")
  endif()
endforeach()
# The same inspection finds all four in the program that uses every part: it would see them.
foreign_libraries(in_every_part "${consumer_dir}/every_part")
if(NOT in_every_part STREQUAL "pugixml;curl;cpp-httplib;openssl")
  message(FATAL_ERROR "every_part should hold pugixml, curl, cpp-httplib and openssl; found: ${in_every_part}")
endif()

run(said "${consumer_dir}/lint_only" "${SOURCE_DIR}/samples/lint-demo-broken.json")
if(NOT said MATCHES "a temp-id-duplicate among them")
  message(FATAL_ERROR "lint_only said: ${said}")
endif()
run(every_part_said "${consumer_dir}/every_part")
if(NOT every_part_said MATCHES "^converted a plan, made a transport; the sandbox said: a data directory is required")
  message(FATAL_ERROR "every_part said: ${every_part_said}")
endif()

run(version "${prefix}/${BINDIR}/ptmpl" --version)
if(NOT version STREQUAL "ptmpl ${VERSION}\n")
  message(FATAL_ERROR "installed ptmpl --version printed \"${version}\", not \"ptmpl ${VERSION}\"")
endif()
# A network command, which the installed ptmpl hands to the installed ptmpl-net.
run(push_help "${prefix}/${BINDIR}/ptmpl" push --help)
if(NOT push_help MATCHES "^publish template documents to the service")
  message(FATAL_ERROR "installed ptmpl push --help printed \"${push_help}\"")
endif()
file(READ "${prefix}/${MANDIR}/man1/ptmpl.1" man_page)
if(NOT man_page MATCHES "\n\\.TH PTMPL 1 \"\" \"ptmpl ${VERSION}\"")
  message(FATAL_ERROR "the installed man page has no .TH line for ptmpl ${VERSION}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "installed into a prefix; lint_only links none of pugixml, curl, cpp-httplib and OpenSSL "
               "(every_part holds ${in_every_part}) and said: ${said}")
