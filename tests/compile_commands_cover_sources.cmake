# The compilation database's test (ctest: Build.CompileCommandsCoverEverySource), run as
# `cmake -P` with:
#   DATABASE      the build's compile_commands.json
#   SOURCE_DIR    ptmpl's sources
#   ROOTS         folders of SOURCE_DIR whose .cpp files must each have an entry
#   NOT_BUILT     regular expressions on paths relative to SOURCE_DIR: sources this
#                 configuration does not compile (another project's, a target turned off)
# It fails on a source of ROOTS without an entry, and on an entry for a unity batch (which
# clangd could not map to the sources it includes): cmake/compile_commands.cmake.
cmake_minimum_required(VERSION 3.25)

file(READ "${DATABASE}" database)
string(JSON count LENGTH "${database}")
set(listed "")
math(EXPR last "${count} - 1")
foreach(index RANGE ${last})
  string(JSON file GET "${database}" ${index} file)
  if(file MATCHES "/Unity/unity_[0-9]+_")
    message(FATAL_ERROR "${DATABASE} lists the unity batch ${file}, not the sources it includes")
  endif()
  list(APPEND listed "${file}")
endforeach()

set(missing "")
set(checked 0)
foreach(root IN LISTS ROOTS)
  file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${root}/*.cpp")
  foreach(source IN LISTS sources)
    set(built TRUE)
    foreach(pattern IN LISTS NOT_BUILT)
      if(source MATCHES "${pattern}")
        set(built FALSE)
      endif()
    endforeach()
    if(NOT built)
      continue()
    endif()
    math(EXPR checked "${checked} + 1")
    if(NOT "${SOURCE_DIR}/${source}" IN_LIST listed)
      list(APPEND missing "${source}")
    endif()
  endforeach()
endforeach()
if(missing)
  list(JOIN missing "\n  " missing)
  message(FATAL_ERROR "${DATABASE} has no entry for:\n  ${missing}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "no source found under ${ROOTS}")
endif()
message(STATUS "${checked} sources, each with its entry among the ${count} of ${DATABASE}")
