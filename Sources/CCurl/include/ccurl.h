#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// An HTTP answer: its status, its body (malloc'ed; free with ccurl_free), or why none came.
typedef struct {
    long status;
    char *body;
    size_t length;
    /// libcurl's error code when no answer came (0 otherwise): 6 unknown host, 7 could not
    /// connect, 28 timed out, 35 and 60 TLS.
    int code;
    char error[256];
} ccurl_response;

/// Makes one request: to an http:// URL over a plain socket, unless the environment names a proxy
/// (http_proxy, all_proxy); otherwise with libcurl, loaded on first use (so that programs that never
/// make one never load it). Answers of any size up to 64 MB, gzip-encoded or not. Returns 0 when
/// an answer came, else -1 with `response->error` saying why.
int ccurl_request(const char *method, const char *url, const char *const *headers, size_t header_count, const char *body,
                  size_t body_length, long timeout_seconds, ccurl_response *response);

/// `data` gzip-compressed into a new buffer (`*out`, to free with free()): its length, or -1 when
/// zlib cannot be loaded or fails.
long ccurl_gzip(const char *data, size_t length, char **out);

/// `data` gunzipped into a new buffer (`*out`, NUL-terminated, to free with free()): its length, or
/// -1 when zlib cannot be loaded, the data is not gzip, or it inflates to more than `limit` bytes.
long ccurl_gunzip(const char *data, size_t length, size_t limit, char **out);

/// Frees an answer's body.
void ccurl_free(ccurl_response *response);

#endif
