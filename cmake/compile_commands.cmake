# The compilation database with one entry per source in a unity build too. CMake writes
# compile_commands.json with one entry per translation unit, so a unity build lists its batches
# (Unity/unity_N_cxx.cxx), not the sources they include, and clangd and clang-tidy know no
# command for those. The target ptmpl_compile_commands, built with everything, rewrites the file
# in place with each batch's entry replaced by one per source it includes, with the batch's
# flags (cmake/expand_unity_compile_commands.cmake). CMake writes the file again when it
# regenerates the build, which runs the rewrite again. Tests: Build.CompileCommandsCoverEverySource.
if(NOT CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
  return()  # the generators that write compile_commands.json
endif()
set(ptmpl_compile_commands "${PROJECT_BINARY_DIR}/compile_commands.json")
set(ptmpl_expand_script "${PROJECT_SOURCE_DIR}/cmake/expand_unity_compile_commands.cmake")
add_custom_command(
  OUTPUT "${PROJECT_BINARY_DIR}/compile_commands.expanded"
  COMMAND "${CMAKE_COMMAND}" "-DDATABASE=${ptmpl_compile_commands}" "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
          -P "${ptmpl_expand_script}"
  COMMAND "${CMAKE_COMMAND}" -E touch "${PROJECT_BINARY_DIR}/compile_commands.expanded"
  DEPENDS "${ptmpl_compile_commands}" "${ptmpl_expand_script}"
  COMMENT "Listing each source of the unity batches in compile_commands.json"
  VERBATIM)
add_custom_target(ptmpl_compile_commands ALL DEPENDS "${PROJECT_BINARY_DIR}/compile_commands.expanded")
