# Writes CTEST_FILE: one ctest test per test suite of the GoogleTest program TEST_EXECUTABLE
# (`Suite` runs `--gtest_filter=Suite.*`), each run in WORKING_DIRECTORY with ENVIRONMENT.
# Run after the program is built (tests/CMakeLists.txt, PTMPL_TESTS_BY_SUITE). One process a
# suite instead of one a test: under the sanitizers a process takes about 0.2 s of processor
# time to start, which over 1,300 tests is a quarter of the suite's time.
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
  WORKING_DIRECTORY "${WORKING_DIRECTORY}"
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE errors
  RESULT_VARIABLE status
  TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${status}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(out "")
foreach(line IN LISTS lines)
  # A suite's line starts in the first column and ends with its dot (a typed suite's line goes
  # on with "  # TypeParam = …"); its tests' lines are indented.
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND out "add_test([==[${suite}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${suite}.*]==])\n"
                      "set_tests_properties([==[${suite}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==] "
                      "ENVIRONMENT [==[${ENVIRONMENT}]==])\n")
  endif()
endforeach()
file(WRITE "${CTEST_FILE}" "${out}")
