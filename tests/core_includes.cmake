# The test Layout.CoreIncludesNoOptionalPart, run as `cmake -P` with:
#   FILES_LIST   a file naming every source and public header of ptmpl::core, one per line
#   HEADERS      the public headers of the other parts (convert/convert.hpp;publish/api_client.hpp;…)
#   FOLDERS      their private folders under libtemplate/src (convert;publish;sandbox;lsp)
# ptmpl::core must build and link without the other parts and their libraries (docs/design.md,
# "The map"): none of its files may include a header of another part, public or private, or of
# pugixml, libcurl, cpp-httplib or OpenSSL. Every offending line is reported.
cmake_minimum_required(VERSION 3.25)

file(STRINGS "${FILES_LIST}" files)
set(forbidden "<(pugixml\\.hpp|curl/|httplib\\.h|openssl/)")
foreach(header IN LISTS HEADERS)
  string(REPLACE "." "\\." header "${header}")
  string(APPEND forbidden "|libtemplate/${header}[\">]")
endforeach()
foreach(folder IN LISTS FOLDERS)
  string(APPEND forbidden "|[\"<]${folder}/")
endforeach()

set(offences "")
set(checked 0)
foreach(file IN LISTS files)
  if(NOT EXISTS "${file}")
    continue()  # generated at build time (embedded_files.cpp includes nothing of ours)
  endif()
  math(EXPR checked "${checked} + 1")
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS includes)
    if(line MATCHES "${forbidden}")
      string(APPEND offences "\n  ${file}: ${line}")
    endif()
  endforeach()
endforeach()

if(checked LESS 20)
  message(FATAL_ERROR "only ${checked} files of ptmpl::core found in ${FILES_LIST}")
endif()
if(NOT offences STREQUAL "")
  message(FATAL_ERROR "ptmpl::core includes headers of parts it must not depend on:${offences}")
endif()
message(STATUS "${checked} files of ptmpl::core include nothing of convert, publish or sandbox")
