// A private certificate authority and a server certificate for the sandbox's TLS.
#pragma once

#include <string>

#include "libtemplate/core/result.hpp"

namespace ptmpl::sandbox {

/// PEM files of the sandbox's TLS identity.
struct TlsFiles {
  std::string ca_cert;      // what clients pass to --cacert
  std::string server_cert;  // the server certificate, signed by the CA
  std::string server_key;   // its private key (mode 0600)
};

/// Uses `<dir>/ca.pem`, `<dir>/server.pem` and `<dir>/server.key` when all exist; otherwise
/// generates them with OpenSSL: an ECDSA P-256 CA (its key is not kept) and a server
/// certificate for 127.0.0.1, ::1 and localhost, valid for ten years.
Result<TlsFiles> ensure_tls_files(const std::string& dir);

}  // namespace ptmpl::sandbox
