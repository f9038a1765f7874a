# The packaging test (ctest: Package.InstallAndConsume), run as `cmake -P` with:
#   BUILD_DIR     the built ptmpl tree to install
#   CONFIG        its configuration (Release, Debug, …)
#   SOURCE_DIR    the ptmpl sources (for tests/consumer and samples/)
#   WORK_DIR      a scratch directory, emptied first and removed when the test passes
#   GENERATOR, MAKE_PROGRAM, CXX_COMPILER, PREFIX_PATH   what the build used, for the consumer
#   VERSION       the project's version
#   BINDIR, INCLUDEDIR, MANDIR, DATADIR                  the install directories (GNUInstallDirs)
# It installs the build into WORK_DIR/prefix, checks the files, then configures, builds and runs
# tests/consumer against that prefix only, and runs the installed ptmpl.
cmake_minimum_required(VERSION 3.25)

set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer")

# Runs a command; on failure, stops with its output. OUT receives standard output.
function(run out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${command}\nexited with ${status}\n${stdout}\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

run(ignored "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

foreach(installed IN ITEMS "${BINDIR}/ptmpl" "${INCLUDEDIR}/libtemplate/lint.hpp" "${MANDIR}/man1/ptmpl.1"
                           "${DATADIR}/bash-completion/completions/ptmpl")
  if(NOT EXISTS "${prefix}/${installed}")
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()

# The installed headers include only the standard library and each other: a consumer needs no
# third-party header (RapidJSON, pugixml, cpp-httplib, curl, OpenSSL stay private).
file(GLOB headers "${prefix}/${INCLUDEDIR}/libtemplate/*.hpp")
foreach(header IN LISTS headers)
  file(STRINGS "${header}" includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*([<\"])(libtemplate/[a-z_]+\\.hpp|[a-z_]+)[>\"]")
      message(FATAL_ERROR "${header}: includes a header that is neither libtemplate's nor standard: ${line}")
    endif()
  endforeach()
endforeach()

set(prefix_path "${prefix}")
list(APPEND prefix_path ${PREFIX_PATH})
set(configure_args -S "${SOURCE_DIR}/tests/consumer" -B "${consumer_build}" -G "${GENERATOR}"
                   "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                   "-DCMAKE_PREFIX_PATH=${prefix_path}" "-DLIBTEMPLATE_VERSION=${VERSION}"
                   -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run(ignored "${CMAKE_COMMAND}" ${configure_args})

# The package found must be the one just installed, not another on the machine.
file(STRINGS "${consumer_build}/CMakeCache.txt" found_dir REGEX "^libtemplate_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found_dir "${found_dir}")
file(REAL_PATH "${prefix}" real_prefix)
file(REAL_PATH "${found_dir}" real_found_dir)
string(FIND "${real_found_dir}" "${real_prefix}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "find_package(libtemplate) found ${found_dir}, not the package in ${prefix}")
endif()

run(ignored "${CMAKE_COMMAND}" --build "${consumer_build}" --config "${CONFIG}")

set(consumer "${consumer_build}/consumer")
if(NOT EXISTS "${consumer}")
  set(consumer "${consumer_build}/${CONFIG}/consumer")  # multi-configuration generators
endif()
run(said "${consumer}" "${SOURCE_DIR}/samples/lint-demo-broken.json")
if(NOT said MATCHES "a temp-id-duplicate among them")
  message(FATAL_ERROR "the consumer said: ${said}")
endif()

run(version "${prefix}/${BINDIR}/ptmpl" --version)
if(NOT version STREQUAL "ptmpl ${VERSION}\n")
  message(FATAL_ERROR "installed ptmpl --version printed \"${version}\", not \"ptmpl ${VERSION}\"")
endif()
file(READ "${prefix}/${MANDIR}/man1/ptmpl.1" man_page)
if(NOT man_page MATCHES "\n\\.TH PTMPL 1 \"\" \"ptmpl ${VERSION}\"")
  message(FATAL_ERROR "the installed man page has no .TH line for ptmpl ${VERSION}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "installed into a prefix; the consumer built and ran: ${said}")
