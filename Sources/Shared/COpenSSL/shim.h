// OpenSSL 3 for Swift: the headers Snapshare uses, plus static inline wrappers for the function-like
// macros (and SSL_OP_BIT constants) that the Swift importer cannot see. Every name has a snapshare_ prefix.
#ifndef SNAPSHARE_COPENSSL_SHIM_H
#define SNAPSHARE_COPENSSL_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
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

// MARK: Socket sink BIO

// A write-only BIO over a non-blocking socket: OpenSSL's sealed records go straight from its record buffer to the
// kernel, with no memory BIO to copy them into and out of. send(2) with MSG_NOSIGNAL, so a peer that hung up gives
// EPIPE instead of killing the process. EAGAIN sets "retry write", which SSL_write/SSL_do_handshake report as
// SSL_ERROR_WANT_WRITE; OpenSSL keeps the unsent rest of the record and sends it first on the next call.
//
// The BIO's data is the descriptor, with bit 32 set while more records of the same burst follow (set with
// SNAPSHARE_BIO_CTRL_MORE): those go with MSG_MORE, so the kernel packs a 100 KB reply's seven records into a few
// large segments instead of pushing each one alone through TCP (the socket has TCP_NODELAY); the burst's last
// record goes without it and pushes everything.
#define SNAPSHARE_BIO_CTRL_MORE 0x5301
#define SNAPSHARE_SOCKET_SINK_MORE ((intptr_t)1 << 32)

static inline int snapshare_socket_sink_write(BIO *bio, const char *data, int length) {
    intptr_t value = (intptr_t)BIO_get_data(bio);
    int fd = (int)(value & 0xffffffff);
    int flags = MSG_NOSIGNAL | ((value & SNAPSHARE_SOCKET_SINK_MORE) ? MSG_MORE : 0);
    BIO_clear_retry_flags(bio);
    for (;;) {
        ssize_t sent = send(fd, data, (size_t)length, flags);
        if (sent >= 0) return (int)sent;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_write(bio);
        return -1;
    }
}

static inline long snapshare_socket_sink_ctrl(BIO *bio, int command, long number, void *pointer) {
    (void)pointer;
    if (command == SNAPSHARE_BIO_CTRL_MORE) {
        intptr_t fd = (intptr_t)BIO_get_data(bio) & 0xffffffff;
        BIO_set_data(bio, (void *)(fd | (number ? SNAPSHARE_SOCKET_SINK_MORE : 0)));
        return 1;
    }
    // Nothing is buffered here: a flush is always complete and nothing is ever pending.
    return command == BIO_CTRL_FLUSH ? 1 : 0;
}

// Whether the records OpenSSL writes next are followed by more of the same burst (MSG_MORE), or end it.
static inline void snapshare_socket_sink_set_more(BIO *bio, int more) {
    BIO_ctrl(bio, SNAPSHARE_BIO_CTRL_MORE, more, NULL);
}

static inline int snapshare_socket_sink_create(BIO *bio) {
    BIO_set_init(bio, 1);
    return 1;
}

// The method is made once per process (the caller keeps it for good); NULL if OpenSSL cannot allocate it.
static inline BIO_METHOD *snapshare_socket_sink_method_new(void) {
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK,
                                      "snapshare socket sink");
    if (method == NULL) return NULL;
    if (BIO_meth_set_write(method, snapshare_socket_sink_write) != 1
        || BIO_meth_set_ctrl(method, snapshare_socket_sink_ctrl) != 1
        || BIO_meth_set_create(method, snapshare_socket_sink_create) != 1) {
        BIO_meth_free(method);
        return NULL;
    }
    return method;
}

// A sink BIO writing to `fd`; the BIO never closes the descriptor.
static inline BIO *snapshare_socket_sink_new(BIO_METHOD *method, int fd) {
    BIO *bio = BIO_new(method);
    if (bio != NULL) BIO_set_data(bio, (void *)((intptr_t)fd & 0xffffffff));
    return bio;
}

// MARK: Certificate chains (the STACK_OF(X509) macros)

static inline int snapshare_sk_X509_num(const STACK_OF(X509) *chain) {
    return sk_X509_num(chain);
}

static inline X509 *snapshare_sk_X509_value(const STACK_OF(X509) *chain, int index) {
    return sk_X509_value(chain, index);
}

// A verify callback that lets the handshake go on whatever the verdict: a client that falls back to pinning when
// the system's roots do not vouch for the server reads the verdict afterwards (SSL_get_verify_result) and decides.
static inline int snapshare_verify_continue(int preverified, X509_STORE_CTX *context) {
    (void)preverified;
    (void)context;
    return 1;
}

// MARK: SSL_OP_BIT constants

static const uint64_t snapshare_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t snapshare_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t snapshare_SSL_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;
static const long snapshare_SSL_SESS_CACHE_OFF = SSL_SESS_CACHE_OFF;

#endif
