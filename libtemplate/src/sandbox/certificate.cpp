#include "sandbox/certificate.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <system_error>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "libtemplate/core/file_io.hpp"

namespace ptmpl::sandbox {
namespace {

namespace fs = std::filesystem;

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Free>;
using Cert = std::unique_ptr<X509, Free>;

std::string openssl_error(const std::string& what) {
  unsigned long code = ERR_get_error();
  char text[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, text, sizeof text);
  return "cannot " + what + ": " + text;
}

bool add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) return false;
  bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

Result<Cert> make_certificate(EVP_PKEY* key, const char* common_name, X509* issuer, EVP_PKEY* issuer_key, bool is_ca) {
  Cert cert(X509_new());
  if (!cert) return Error::internal(openssl_error("create a certificate"));
  X509_set_version(cert.get(), 2);
  unsigned char serial_bytes[16];
  if (RAND_bytes(serial_bytes, sizeof serial_bytes) != 1) return Error::internal(openssl_error("draw a serial number"));
  serial_bytes[0] &= 0x7f;  // a positive serial
  BIGNUM* serial = BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr);
  BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
  BN_free(serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 10L * 365 * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("ptmpl sandbox"), -1, -1,
                             0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(common_name), -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  bool ok = add_extension(cert.get(), signer, NID_subject_key_identifier, "hash");
  if (is_ca) {
    ok = ok && add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE,pathlen:0") &&
         add_extension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    ok = ok && add_extension(cert.get(), signer, NID_authority_key_identifier, "keyid:always") &&
         add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE") &&
         add_extension(cert.get(), signer, NID_key_usage, "critical,digitalSignature") &&
         add_extension(cert.get(), signer, NID_ext_key_usage, "serverAuth") &&
         add_extension(cert.get(), signer, NID_subject_alt_name, "IP:127.0.0.1,IP:::1,DNS:localhost");
  }
  if (!ok) return Error::internal(openssl_error("add certificate extensions"));
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0) return Error::internal(openssl_error("sign a certificate"));
  return cert;
}

template <class Write>
Result<std::string> to_pem(Write write) {
  std::unique_ptr<BIO, Free> bio(BIO_new(BIO_s_mem()));
  if (!bio || write(bio.get()) != 1) return Error::internal(openssl_error("encode PEM"));
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

Result<TlsFiles> ensure_tls_files(const std::string& dir) {
  TlsFiles files{(fs::path(dir) / "ca.pem").string(), (fs::path(dir) / "server.pem").string(),
                 (fs::path(dir) / "server.key").string()};
  std::error_code ec;
  if (fs::exists(files.ca_cert, ec) && fs::exists(files.server_cert, ec) && fs::exists(files.server_key, ec))
    return files;
  fs::create_directories(dir, ec);
  if (ec) return Error::output_failed(dir + ": cannot create the directory: " + ec.message());

  Key ca_key(EVP_EC_gen("P-256"));
  Key server_key(EVP_EC_gen("P-256"));
  if (!ca_key || !server_key) return Error::internal(openssl_error("generate a key"));
  auto ca = make_certificate(ca_key.get(), "ptmpl sandbox CA", nullptr, ca_key.get(), true);
  if (!ca.ok()) return ca.error();
  auto server = make_certificate(server_key.get(), "localhost", ca.value().get(), ca_key.get(), false);
  if (!server.ok()) return server.error();

  auto ca_pem = to_pem([&](BIO* b) { return PEM_write_bio_X509(b, ca.value().get()); });
  auto server_pem = to_pem([&](BIO* b) { return PEM_write_bio_X509(b, server.value().get()); });
  auto key_pem = to_pem(
      [&](BIO* b) { return PEM_write_bio_PrivateKey(b, server_key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
  if (!ca_pem.ok()) return ca_pem.error();
  if (!server_pem.ok()) return server_pem.error();
  if (!key_pem.ok()) return key_pem.error();
  // The key first, private from the start (an existing file keeps its mode), the CA last: its
  // presence marks a complete set.
  {
    std::error_code ignore;
    fs::remove(files.ca_cert, ignore);
  }
  if (!fs::exists(files.server_key, ec)) {
    if (auto s = write_file_atomic(files.server_key, ""); !s.ok()) return s.error();
  }
  if (::chmod(files.server_key.c_str(), 0600) != 0)
    return Error::output_failed(files.server_key + ": cannot make it private");
  if (auto s = write_file_atomic(files.server_key, key_pem.value()); !s.ok()) return s.error();
  if (auto s = write_file_atomic(files.server_cert, server_pem.value()); !s.ok()) return s.error();
  if (auto s = write_file_atomic(files.ca_cert, ca_pem.value()); !s.ok()) return s.error();
  return files;
}

}  // namespace ptmpl::sandbox
