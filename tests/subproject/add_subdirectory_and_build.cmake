# The subproject test (ctest: Package.SubdirectoryCoreOnly), run as `cmake -P` with:
#   SOURCE_DIR    ptmpl's sources (the subdirectory, and tests/subproject)
#   WORK_DIR      a scratch directory, emptied first and removed when the test passes
#   GENERATOR, MAKE_PROGRAM, CXX_COMPILER, LAUNCHER, PREFIX_PATH   what the build used
#   UNFINDABLE    packages the configuration must not need (CMAKE_DISABLE_FIND_PACKAGE_<name>
#                 makes a find_package of one of them, REQUIRED, an error)
#   UNCHECKED     pkg-config modules it must not look for (none of their cache entries)
# It configures tests/subproject, which does add_subdirectory() of ptmpl and links ptmpl::core
# alone, builds that program and runs it on a sample. The build is unoptimised and in unity
# batches (the library's core once more, at the least cost).
cmake_minimum_required(VERSION 3.25)

function(run out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${command}\nexited with ${status}\n${stdout}\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(build "${WORK_DIR}/build")
set(configure_args -S "${SOURCE_DIR}/tests/subproject" -B "${build}" -G "${GENERATOR}"
                   "-DPTMPL_SOURCE_DIR=${SOURCE_DIR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                   "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}" -DCMAKE_BUILD_TYPE= -DPTMPL_UNITY_BUILD=ON)
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(LAUNCHER)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
foreach(package IN LISTS UNFINDABLE)
  list(APPEND configure_args "-DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON")
endforeach()
run(ignored "${CMAKE_COMMAND}" ${configure_args})

file(STRINGS "${build}/CMakeCache.txt" cache)
foreach(module IN LISTS UNCHECKED)
  if(cache MATCHES "(^|;)(${module}_[A-Z_]+|__pkg_config_checked_${module}):")
    message(FATAL_ERROR "ptmpl as a subproject looked for ${module} (${CMAKE_MATCH_2} in the cache)")
  endif()
endforeach()

run(ignored "${CMAKE_COMMAND}" --build "${build}" --target lint_only)
run(said "${build}/lint_only" "${SOURCE_DIR}/samples/lint-demo-broken.json")
if(NOT said MATCHES "a temp-id-duplicate among them")
  message(FATAL_ERROR "lint_only said: ${said}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
list(JOIN UNFINDABLE ", " unfindable)
message(STATUS "ptmpl as a subdirectory, without ${unfindable}: lint_only built and said: ${said}")
