# Layout.PtmplLoadsNoNetworkLibrary: `ptmpl` needs none of the network's shared libraries
# (libcurl, OpenSSL's libssl, cpp-httplib, GnuTLS) and `ptmpl-net`, which runs the network
# commands, needs them (tools/ptmpl/CMakeLists.txt): each program's runtime dependencies, as the
# dynamic loader would resolve them, links included.
# Usage: cmake -DPTMPL=<ptmpl> -DPTMPL_NET=<ptmpl-net> -P program_libraries.cmake
set(network_libraries "^lib(curl|curl-gnutls|ssl|cpp-httplib|gnutls)\\.so")

function(libraries_of program out)
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES "${program}" RESOLVED_DEPENDENCIES_VAR resolved
       UNRESOLVED_DEPENDENCIES_VAR unresolved)
  set(names "")
  foreach(library IN LISTS resolved unresolved)
    get_filename_component(name "${library}" NAME)
    list(APPEND names "${name}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

libraries_of("${PTMPL}" ptmpl_libraries)
libraries_of("${PTMPL_NET}" net_libraries)
set(found "")
foreach(name IN LISTS ptmpl_libraries)
  if(name MATCHES "${network_libraries}")
    list(APPEND found "${name}")
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "ptmpl loads network libraries it should leave to ptmpl-net: ${found}")
endif()
foreach(expected IN ITEMS curl ssl cpp-httplib)
  set(present FALSE)
  foreach(name IN LISTS net_libraries)
    if(name MATCHES "^lib${expected}(-gnutls)?\\.so")
      set(present TRUE)
    endif()
  endforeach()
  if(NOT present)
    message(FATAL_ERROR "ptmpl-net does not load lib${expected}: ${net_libraries}")
  endif()
endforeach()
list(LENGTH ptmpl_libraries n_ptmpl)
list(LENGTH net_libraries n_net)
message(STATUS "ptmpl loads ${n_ptmpl} shared libraries, ptmpl-net ${n_net}")
