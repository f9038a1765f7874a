# The subproject tests (ctest: Package.Subdirectory*), run as `cmake -P` with:
#   SOURCE_DIR    ptmpl's sources (the subdirectory, and tests/subproject)
#   WORK_DIR      a scratch directory, emptied first and removed when the test passes
#   GENERATOR, MAKE_PROGRAM, CXX_COMPILER, LAUNCHER, PREFIX_PATH   what the build used
#   UNFINDABLE    packages the configuration must not need (CMAKE_DISABLE_FIND_PACKAGE_<name>
#                 makes a find_package of one of them, REQUIRED, an error, and any other
#                 find_package of it fail)
#   UNCHECKED     pkg-config modules it must not look for (none of their cache entries)
#   SETTINGS      cache settings for ptmpl (PTMPL_BUILD_LSP=OFF)
#   PARTS         the parts besides the core the configuration must define (tests/subproject
#                 checks that it defines those and no other)
#   FAILS_WITH    a regular expression: the configuration must fail, with a message that
#                 matches it; then nothing is built
#   BUILD         build the project (all its targets) and run its program on a sample
#   CONSUME       SETTINGS has PTMPL_INSTALL=ON: what is installed is the core and PARTS, and
#                 tests/consumer/some_parts finds them there and no other (with BUILD)
# It configures tests/subproject, which does add_subdirectory() of ptmpl and links ptmpl::core
# alone, and installs it into a scratch prefix: without PTMPL_INSTALL, ptmpl as a subproject
# installs nothing. With BUILD, it builds everything, which is the core alone when PARTS is
# empty, and runs the program. The build is unoptimised and in unity batches (the library's core
# once more, at the least cost).
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../package_steps.cmake")

file(REMOVE_RECURSE "${WORK_DIR}")
set(build "${WORK_DIR}/build")
configure_args(args "${SOURCE_DIR}/tests/subproject" "${build}")
list(JOIN PARTS "," expected_parts)
list(APPEND args "-DPTMPL_SOURCE_DIR=${SOURCE_DIR}" "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}" -DCMAKE_BUILD_TYPE=
                 -DPTMPL_UNITY_BUILD=ON "-DPTMPL_EXPECTED_PARTS=${expected_parts}")
foreach(package IN LISTS UNFINDABLE)
  list(APPEND args "-DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON")
endforeach()
foreach(setting IN LISTS SETTINGS)
  list(APPEND args "-D${setting}")
endforeach()

if(DEFINED FAILS_WITH)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} RESULT_VARIABLE status OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  if(status EQUAL 0)
    message(FATAL_ERROR "configuring ptmpl as a subproject with ${SETTINGS} succeeded; it should have failed "
                        "with \"${FAILS_WITH}\"\n${stdout}")
  endif()
  # The message as CMake prints it, its lines joined.
  string(REGEX REPLACE "\n *" " " said "${stderr}")
  if(NOT said MATCHES "${FAILS_WITH}")
    message(FATAL_ERROR "configuring ptmpl as a subproject failed, but not with \"${FAILS_WITH}\":\n${stderr}")
  endif()
  file(REMOVE_RECURSE "${WORK_DIR}")
  message(STATUS "ptmpl as a subproject with ${SETTINGS}: the configuration failed as it should: ${CMAKE_MATCH_0}")
  return()
endif()

run(ignored "${CMAKE_COMMAND}" ${args})

file(STRINGS "${build}/CMakeCache.txt" cache)
foreach(module IN LISTS UNCHECKED)
  if(cache MATCHES "(^|;)(${module}_[A-Z_]+|__pkg_config_checked_${module}):")
    message(FATAL_ERROR "ptmpl as a subproject looked for ${module} (${CMAKE_MATCH_2} in the cache)")
  endif()
endforeach()

# The library's archives: the core's and those of PARTS.
set(expected libptmpl_core.a)
foreach(part IN LISTS PARTS)
  list(APPEND expected libptmpl_${part}.a)
endforeach()
list(SORT expected)

if(BUILD)
  run(ignored "${CMAKE_COMMAND}" --build "${build}")
  # Of the library, the archives of the parts defined and no other.
  file(GLOB_RECURSE archives RELATIVE "${build}" "${build}/*.a")
  list(TRANSFORM archives REPLACE ".*/" "")
  list(SORT archives)
  if(NOT archives STREQUAL expected)
    message(FATAL_ERROR "ptmpl as a subproject built ${archives}, not ${expected}")
  endif()
  run(said "${build}/lint_only" "${SOURCE_DIR}/samples/lint-demo-broken.json")
  if(NOT said MATCHES "a temp-id-duplicate among them")
    message(FATAL_ERROR "lint_only said: ${said}")
  endif()
endif()

set(prefix "${WORK_DIR}/prefix")
run(ignored "${CMAKE_COMMAND}" --install "${build}" --prefix "${prefix}")
if(NOT CONSUME)
  # Without PTMPL_INSTALL, ptmpl has no install rules: nothing is installed (an install rule of a
  # part that was not built would fail).
  file(GLOB_RECURSE installed "${prefix}/*")
  if(installed)
    message(FATAL_ERROR "ptmpl as a subproject installed ${installed}")
  endif()
else()
  # The archives and headers of the parts built, and a package that gives those and no other.
  file(GLOB_RECURSE archives RELATIVE "${prefix}" "${prefix}/*.a")
  list(TRANSFORM archives REPLACE ".*/" "")
  list(SORT archives)
  if(NOT archives STREQUAL expected)
    message(FATAL_ERROR "installed ${archives}, not ${expected}")
  endif()
  file(GLOB header_folders LIST_DIRECTORIES true RELATIVE "${prefix}/include/libtemplate"
       "${prefix}/include/libtemplate/*")
  set(parts core ${PARTS})
  list(SORT header_folders)
  list(SORT parts)
  if(NOT header_folders STREQUAL parts)
    message(FATAL_ERROR "installed the headers of ${header_folders}, not of ${parts}")
  endif()
  list(JOIN parts "," installed_parts)
  configure_args(args "${SOURCE_DIR}/tests/consumer/some_parts" "${WORK_DIR}/some_parts")
  list(APPEND args "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                   "-DLIBTEMPLATE_PARTS=${installed_parts}")
  run(ignored "${CMAKE_COMMAND}" ${args})
  # A part that is not there, asked for as required: find_package fails and says so.
  set(missing convert publish sandbox lsp)
  list(REMOVE_ITEM missing ${PARTS})
  list(GET missing 0 missing)
  execute_process(COMMAND "${CMAKE_COMMAND}" ${args} "-DLIBTEMPLATE_REQUIRE=${missing}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  string(REGEX REPLACE "\n *" " " said "${stderr}")
  if(status EQUAL 0 OR NOT said MATCHES "installed without its part ${missing}")
    message(FATAL_ERROR "find_package(libtemplate REQUIRED COMPONENTS ${missing}) did not fail as it should "
                        "(exit ${status}):\n${stdout}\n${stderr}")
  endif()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
list(JOIN UNFINDABLE ", " unfindable)
set(parts "core")
if(PARTS)
  list(JOIN PARTS ", " parts)
  string(PREPEND parts "core, ")
endif()
if(BUILD)
  message(STATUS "ptmpl as a subdirectory, without ${unfindable}, parts ${parts}: lint_only built and said: ${said}")
else()
  message(STATUS "ptmpl as a subdirectory, without ${unfindable}: configured with the parts ${parts}")
endif()
