# What the package tests run as `cmake -P` share (Package.InstallAndConsume:
# tests/consumer/install_and_consume.cmake; Package.Subdirectory*:
# tests/subproject/add_subdirectory_and_build.cmake): running a command, and configuring a
# project of their own with what ptmpl's build used.

# run(OUT COMMAND…): runs the command; on failure, stops with its output. OUT receives standard
# output.
function(run out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${command}\nexited with ${status}\n${stdout}\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

# configure_args(OUT SOURCE BUILD): the arguments of `cmake` that configure the project in SOURCE
# into BUILD with the generator, make program, compiler and compiler launcher ptmpl's build used
# (the variables GENERATOR, MAKE_PROGRAM, CXX_COMPILER and LAUNCHER of the script; the last two
# may be empty).
function(configure_args out source build)
  set(args -S "${source}" -B "${build}" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  if(MAKE_PROGRAM)
    list(APPEND args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  if(LAUNCHER)
    list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
  endif()
  set(${out} ${args} PARENT_SCOPE)
endfunction()
