// The sync client's HTTP. http:// goes over a plain socket (plain.c); https:// and any request
// through a proxy go through libcurl, opened with dlopen the first time one is made, so that
// `capital` starts without loading libcurl, OpenSSL and their kin (about 9 ms a command).
// Only libcurl's stable ABI is used: option numbers and the easy interface.
#include "ccurl.h"

#include "plain.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef void CURL;
struct curl_slist;

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_POSTFIELDS = 10015, OPT_HTTPHEADER = 10023,
    OPT_CUSTOMREQUEST = 10036, OPT_ACCEPT_ENCODING = 10102, OPT_WRITEFUNCTION = 20011, OPT_TIMEOUT = 13, OPT_POST = 47,
    OPT_CONNECTTIMEOUT = 78, OPT_NOSIGNAL = 99, OPT_POSTFIELDSIZE_LARGE = 30120, INFO_RESPONSE_CODE = 0x200002,
};

static struct {
    void *library;
    CURL *(*init)(void);
    int (*setopt)(CURL *, int, ...);
    int (*perform)(CURL *);
    int (*getinfo)(CURL *, int, ...);
    void (*cleanup)(CURL *);
    struct curl_slist *(*append)(struct curl_slist *, const char *);
    void (*free_list)(struct curl_slist *);
    const char *(*strerror)(int);
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static const char *curl_failure = NULL;

static void load_curl(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "/usr/lib/libcurl.4.dylib", NULL};
    for (int i = 0; names[i] && !curl.library; i++) curl.library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!curl.library) {
        curl_failure = "libcurl is not installed (Debian: apt-get install libcurl4)";
        return;
    }
    curl.init = (CURL * (*)(void)) dlsym(curl.library, "curl_easy_init");
    curl.setopt = (int (*)(CURL *, int, ...))dlsym(curl.library, "curl_easy_setopt");
    curl.perform = (int (*)(CURL *))dlsym(curl.library, "curl_easy_perform");
    curl.getinfo = (int (*)(CURL *, int, ...))dlsym(curl.library, "curl_easy_getinfo");
    curl.cleanup = (void (*)(CURL *))dlsym(curl.library, "curl_easy_cleanup");
    curl.append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(curl.library, "curl_slist_append");
    curl.free_list = (void (*)(struct curl_slist *))dlsym(curl.library, "curl_slist_free_all");
    curl.strerror = (const char *(*)(int))dlsym(curl.library, "curl_easy_strerror");
    if (!curl.init || !curl.setopt || !curl.perform || !curl.getinfo || !curl.cleanup || !curl.append || !curl.free_list ||
        !curl.strerror) {
        curl_failure = "the libcurl found lacks the easy interface";
    }
}

/// Loads libcurl once (pthread_once: requests from several threads find it loaded or wait).
static int load(char *error, size_t size) {
    pthread_once(&curl_once, load_curl);
    if (curl_failure) {
        strncpy(error, curl_failure, size - 1);
        return -1;
    }
    return 0;
}

/// The most an answer may be: a larger one is cut off as an error (a hostile server cannot fill memory).
#define ANSWER_LIMIT (64L * 1024 * 1024)

static size_t collect(char *data, size_t size, size_t count, void *context) {
    ccurl_response *response = context;
    size_t added = size * count;
    if (response->length + added > ANSWER_LIMIT) return 0;
    char *grown = realloc(response->body, response->length + added + 1);
    if (!grown) return 0;
    memcpy(grown + response->length, data, added);
    response->length += added;
    grown[response->length] = 0;
    response->body = grown;
    return added;
}

/// True when the environment names a proxy libcurl would use for an http:// URL: such requests go
/// through libcurl, which knows proxies and no_proxy.
static int proxied(void) {
    const char *names[] = {"http_proxy", "all_proxy", "ALL_PROXY", NULL};
    for (int i = 0; names[i]; i++) {
        const char *value = getenv(names[i]);
        if (value && value[0]) return 1;
    }
    return 0;
}

int ccurl_request(const char *method, const char *url, const char *const *headers, size_t header_count, const char *body,
                  size_t body_length, long timeout_seconds, ccurl_response *response) {
    if (strncmp(url, "http://", 7) == 0 && !proxied()) {
        return plain_request(method, url, headers, header_count, body, body_length, timeout_seconds, response);
    }
    memset(response, 0, sizeof *response);
    if (load(response->error, sizeof response->error) != 0) return -1;
    CURL *handle = curl.init();
    if (!handle) {
        strncpy(response->error, "libcurl could not start a request", sizeof response->error - 1);
        return -1;
    }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl.append(list, headers[i]);
    char buffer[256] = {0};
    curl.setopt(handle, OPT_URL, url);
    curl.setopt(handle, OPT_HTTPHEADER, list);
    curl.setopt(handle, OPT_ERRORBUFFER, buffer);
    curl.setopt(handle, OPT_NOSIGNAL, 1L);
    curl.setopt(handle, OPT_TIMEOUT, timeout_seconds);
    curl.setopt(handle, OPT_CONNECTTIMEOUT, timeout_seconds < 10 ? timeout_seconds : 10L);
    curl.setopt(handle, OPT_ACCEPT_ENCODING, "");  // every encoding libcurl decodes: gzip at least
    curl.setopt(handle, OPT_WRITEFUNCTION, collect);
    curl.setopt(handle, OPT_WRITEDATA, response);
    // Any method but GET sends a body, if only an empty one (a POST without a body is still a POST).
    if (body || strcmp(method, "GET") != 0) {
        curl.setopt(handle, OPT_POST, 1L);
        curl.setopt(handle, OPT_POSTFIELDSIZE_LARGE, (long long)(body ? body_length : 0));
        curl.setopt(handle, OPT_POSTFIELDS, body ? body : "");
    }
    if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0) curl.setopt(handle, OPT_CUSTOMREQUEST, method);
    int code = curl.perform(handle);
    if (code == 0) {
        curl.getinfo(handle, INFO_RESPONSE_CODE, &response->status);
    } else {
        response->code = code;
        strncpy(response->error, buffer[0] ? buffer : curl.strerror(code), sizeof response->error - 1);
    }
    curl.free_list(list);
    curl.cleanup(handle);
    return code == 0 ? 0 : -1;
}

static struct {
    void *library;
    int (*init)(z_streamp, int, int, int, int, int, const char *, int);
    int (*deflate)(z_streamp, int);
    int (*end)(z_streamp);
    uLong (*bound)(z_streamp, uLong);
    const char *(*version)(void);
    int (*inflate_init)(z_streamp, int, const char *, int);
    int (*inflate)(z_streamp, int);
    int (*inflate_end)(z_streamp);
} z;

static pthread_once_t z_once = PTHREAD_ONCE_INIT;
static int z_ready = 0;

static void load_z(void) {
    const char *names[] = {"libz.so.1", "libz.so", "libz.1.dylib", "/usr/lib/libz.1.dylib", NULL};
    for (int i = 0; names[i] && !z.library; i++) z.library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!z.library) return;
    z.init = (int (*)(z_streamp, int, int, int, int, int, const char *, int))dlsym(z.library, "deflateInit2_");
    z.deflate = (int (*)(z_streamp, int))dlsym(z.library, "deflate");
    z.end = (int (*)(z_streamp))dlsym(z.library, "deflateEnd");
    z.bound = (uLong(*)(z_streamp, uLong))dlsym(z.library, "deflateBound");
    z.version = (const char *(*)(void))dlsym(z.library, "zlibVersion");
    z.inflate_init = (int (*)(z_streamp, int, const char *, int))dlsym(z.library, "inflateInit2_");
    z.inflate = (int (*)(z_streamp, int))dlsym(z.library, "inflate");
    z.inflate_end = (int (*)(z_streamp))dlsym(z.library, "inflateEnd");
    z_ready = z.init && z.deflate && z.end && z.bound && z.version && z.inflate_init && z.inflate && z.inflate_end;
}

long ccurl_gzip(const char *data, size_t length, char **out) {
    *out = NULL;
    pthread_once(&z_once, load_z);
    if (!z_ready) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // windowBits 15 + 16: a gzip header and trailer, as Content-Encoding: gzip wants.
    if (z.init(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, z.version(), (int)sizeof stream) != Z_OK) return -1;
    uLong capacity = z.bound(&stream, (uLong)length) + 32;
    char *buffer = malloc(capacity);
    if (!buffer) {
        z.end(&stream);
        return -1;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)length;
    stream.next_out = (Bytef *)buffer;
    stream.avail_out = (uInt)capacity;
    int result = z.deflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    z.end(&stream);
    if (result != Z_STREAM_END) {
        free(buffer);
        return -1;
    }
    *out = buffer;
    return written;
}

long ccurl_gunzip(const char *data, size_t length, size_t limit, char **out) {
    *out = NULL;
    pthread_once(&z_once, load_z);
    if (!z_ready) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // windowBits 15 + 16: gzip only (a header and a trailer whose CRC and length are checked).
    if (z.inflate_init(&stream, 15 + 16, z.version(), (int)sizeof stream) != Z_OK) return -1;
    size_t capacity = length * 4 + 1024, written = 0;
    char *buffer = NULL;
    int result = Z_OK;
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)length;
    while (result == Z_OK) {
        if (capacity > limit + 1) capacity = limit + 1;
        char *grown = realloc(buffer, capacity + 1);
        if (!grown) break;
        buffer = grown;
        stream.next_out = (Bytef *)buffer + written;
        stream.avail_out = (uInt)(capacity - written);
        result = z.inflate(&stream, Z_NO_FLUSH);
        written = (size_t)stream.total_out;
        if (result == Z_BUF_ERROR && stream.avail_out > 0) break;  // the input ended before the stream did
        if (result == Z_BUF_ERROR) result = Z_OK;
        if (written > limit) break;
        if (result == Z_OK && written == capacity) capacity *= 2;
    }
    z.inflate_end(&stream);
    if (result != Z_STREAM_END || written > limit || stream.avail_in != 0) {
        free(buffer);
        return -1;
    }
    buffer[written] = 0;
    *out = buffer;
    return (long)written;
}

void ccurl_free(ccurl_response *response) {
    free(response->body);
    response->body = NULL;
    response->length = 0;
}
