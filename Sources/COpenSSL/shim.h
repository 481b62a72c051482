// OpenSSL 3 for Swift: the headers Snapshare uses, plus static inline wrappers for the function-like
// macros (and SSL_OP_BIT constants) that the Swift importer cannot see. Every name has a snapshare_ prefix.
#ifndef SNAPSHARE_COPENSSL_SHIM_H
#define SNAPSHARE_COPENSSL_SHIM_H

#include <stdint.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>
#include <openssl/kdf.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>

// MARK: Context configuration (macros over SSL_CTX_ctrl)

static inline int snapshare_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline int snapshare_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

static inline long snapshare_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline int snapshare_SSL_CTX_set1_groups_list(SSL_CTX *ctx, const char *groups) {
    return (int)SSL_CTX_set1_groups_list(ctx, groups);
}

static inline long snapshare_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}

// MARK: Connection (macros over SSL_ctrl)

static inline int snapshare_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// MARK: Memory BIOs

// 0 makes an empty memory BIO report end of file instead of "retry later" (the default, -1).
static inline long snapshare_BIO_set_mem_eof_return(BIO *bio, int value) {
    return BIO_set_mem_eof_return(bio, value);
}

// MARK: Memory

static inline void snapshare_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

// MARK: SSL_OP_BIT constants

static const uint64_t snapshare_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t snapshare_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t snapshare_SSL_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;
static const uint64_t snapshare_SSL_OP_NO_TICKET = SSL_OP_NO_TICKET;
static const uint64_t snapshare_SSL_OP_IGNORE_UNEXPECTED_EOF = SSL_OP_IGNORE_UNEXPECTED_EOF;
static const long snapshare_SSL_SESS_CACHE_OFF = SSL_SESS_CACHE_OFF;

#endif
