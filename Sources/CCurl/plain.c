// Plain HTTP/1.1 for http:// servers (a household's server on its own network or on loopback):
// one connection per request, `Connection: close`, answers of any length, chunked or not, gzip
// or not. It spares `capital sync` loading libcurl and its thirty libraries and OpenSSL's
// configuration (about 12 ms of an idle sync's 45). https:// and any proxy go through libcurl.
#include "plain.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/// Records why no answer came: libcurl's code for it, and `message` (with `detail` after a colon).
static int fail(ccurl_response *response, int code, const char *message, const char *detail) {
    response->code = code;
    if (detail) {
        snprintf(response->error, sizeof response->error, "%s: %s", message, detail);
    } else {
        snprintf(response->error, sizeof response->error, "%s", message);
    }
    return -1;
}

/// Waits until `fd` is ready for `events` or the deadline passes: 1 ready, 0 timed out, -1 error.
static int wait_for(int fd, short events, long long deadline) {
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) return 0;
        struct pollfd p = {.fd = fd, .events = events};
        int ready = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (ready > 0) return 1;
        if (ready == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

/// A connected socket to host:port, or -1 with `response` saying why (6 unknown host, 7 nothing
/// answers, 28 no answer in time: libcurl's codes, which the Swift side words).
static int connect_to(const char *host, const char *port, long long deadline, ccurl_response *response) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *found = NULL;
    int status = getaddrinfo(host, port, &hints, &found);
    if (status != 0) return fail(response, 6, "could not resolve the host", status == EAI_SYSTEM ? strerror(errno) : gai_strerror(status));
    int last = ECONNREFUSED, timedOut = 0;
    for (struct addrinfo *a = found; a; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
            last = errno;
            continue;
        }
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
            freeaddrinfo(found);
            return fd;
        }
        if (errno == EINPROGRESS) {
            int ready = wait_for(fd, POLLOUT, deadline);
            int error = 0;
            socklen_t size = sizeof error;
            if (ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0) {
                freeaddrinfo(found);
                return fd;
            }
            if (ready == 0) timedOut = 1;
            last = ready == 1 ? error : errno;
        } else {
            last = errno;
        }
        close(fd);
    }
    freeaddrinfo(found);
    if (timedOut) return fail(response, 28, "connecting timed out", NULL);
    return fail(response, 7, "could not connect", strerror(last));
}

/// Sends all of `data`, waiting for the socket within the deadline.
static int send_all(int fd, const char *data, size_t length, long long deadline, ccurl_response *response) {
    while (length > 0) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent > 0) {
            data += sent;
            length -= (size_t)sent;
        } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            int ready = wait_for(fd, POLLOUT, deadline);
            if (ready == 0) return fail(response, 28, "no answer in time (sending)", NULL);
            if (ready < 0) return fail(response, 55, "sending failed", strerror(errno));
        } else {
            return fail(response, 55, "sending failed", strerror(errno));
        }
    }
    return 0;
}

/// A growable byte buffer, always NUL-terminated (answers are handed to Swift as they are).
typedef struct {
    char *bytes;
    size_t length, capacity;
} buffer;

static int append(buffer *b, const char *data, size_t length) {
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->bytes, capacity);
        if (!grown) return -1;
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, data, length);
    b->length += length;
    b->bytes[b->length] = 0;
    return 0;
}

/// The value of header `name` in the head `head` (lines after the status line), or NULL; copied
/// into `out` (at most `size` - 1 bytes), trimmed.
static const char *header(const char *head, const char *name, char *out, size_t size) {
    size_t length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line[2] != '\r' && line[2] != 0; line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, length) != 0 || start[length] != ':') continue;
        const char *value = start + length + 1;
        while (*value == ' ' || *value == '\t') value++;
        const char *end = strstr(value, "\r\n");
        size_t n = end ? (size_t)(end - value) : strlen(value);
        while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t')) n--;
        if (n >= size) n = size - 1;
        memcpy(out, value, n);
        out[n] = 0;
        return out;
    }
    return NULL;
}

/// Decodes as much of a chunked body in `raw` from `*at` as has arrived into `body`: 1 when the
/// last chunk was read, 0 when more is needed, -1 when the framing is broken.
static int dechunk(const buffer *raw, size_t *at, buffer *body, size_t limit) {
    for (;;) {
        const char *line = raw->bytes + *at;
        const char *end = strstr(line, "\r\n");
        if (!end) return raw->length - *at > 1024 ? -1 : 0;
        char *after;
        unsigned long long size = strtoull(line, &after, 16);
        if (after == line || (*after != '\r' && *after != ';')) return -1;
        size_t start = (size_t)(end + 2 - raw->bytes);
        if (size == 0) return strstr(raw->bytes + start - 2, "\r\n\r\n") ? 1 : 0;  // trailers end with an empty line
        if (size > limit || body->length + size > limit) return -1;
        if (raw->length < start + size + 2) return 0;
        if (raw->bytes[start + size] != '\r' || raw->bytes[start + size + 1] != '\n') return -1;
        if (append(body, raw->bytes + start, (size_t)size) != 0) return -1;
        *at = start + (size_t)size + 2;
    }
}

/// The most an answer may be, as for libcurl: a larger one is an error (a hostile server cannot fill memory).
#define LIMIT (64L * 1024 * 1024)

int plain_request(const char *method, const char *url, const char *const *headers, size_t header_count, const char *body,
                  size_t body_length, long timeout_seconds, ccurl_response *response) {
    memset(response, 0, sizeof *response);
    long long deadline = now_ms() + timeout_seconds * 1000;
    // http://host[:port][/path]; host may be [an IPv6 address].
    const char *authority = url + 7, *slash = strchr(authority, '/');
    size_t authority_length = slash ? (size_t)(slash - authority) : strlen(authority);
    const char *path = slash ? slash : "/";
    char host[256], port[8] = "80";
    if (authority_length == 0 || authority_length >= sizeof host) return fail(response, 3, "malformed URL", url);
    memcpy(host, authority, authority_length);
    host[authority_length] = 0;
    if (host[0] == '[') {
        char *closing = strchr(host, ']');
        if (!closing || (closing[1] != 0 && closing[1] != ':')) return fail(response, 3, "malformed URL", url);
        if (closing[1] == ':') snprintf(port, sizeof port, "%s", closing + 2);
        *closing = 0;
        memmove(host, host + 1, strlen(host + 1) + 1);
    } else {
        char *colon = strrchr(host, ':');
        if (colon) {
            *colon = 0;
            snprintf(port, sizeof port, "%s", colon + 1);
        }
    }

    int fd = connect_to(host, port, now_ms() + (timeout_seconds < 10 ? timeout_seconds : 10) * 1000, response);
    if (fd < 0) return -1;
    buffer request = {0};
    char line[512];
    snprintf(line, sizeof line, "%s %s HTTP/1.1\r\nHost: %.*s\r\nConnection: close\r\nAccept-Encoding: gzip\r\n", method, path,
             (int)authority_length, authority);
    int failed = append(&request, line, strlen(line));
    for (size_t i = 0; i < header_count && !failed; i++) {
        const char *colon_at = strchr(headers[i], ':');
        if (colon_at && colon_at[1] == 0) continue;  // "Expect:" is libcurl's way of saying: no such header
        failed = append(&request, headers[i], strlen(headers[i])) || append(&request, "\r\n", 2);
    }
    if (!failed && (body || strcmp(method, "GET") != 0)) {
        snprintf(line, sizeof line, "Content-Length: %zu\r\n", body ? body_length : 0);
        failed = append(&request, line, strlen(line));
    }
    failed = failed || append(&request, "\r\n", 2);
    if (failed) {
        free(request.bytes);
        close(fd);
        return fail(response, 27, "out of memory", NULL);
    }
    int sent = send_all(fd, request.bytes, request.length, deadline, response);
    free(request.bytes);
    if (sent == 0 && body && body_length > 0) sent = send_all(fd, body, body_length, deadline, response);
    if (sent != 0) {
        close(fd);
        return -1;
    }

    // The answer: the head up to the empty line, then the body by Content-Length, by chunks, or
    // to the end of the connection.
    buffer raw = {0}, decoded = {0};
    size_t head_end = 0, chunk_at = 0;
    long long expected = -1;
    int chunked = 0, gzip = 0, complete = 0, result = -1;
    char value[64], reading[65536];
    for (;;) {
        ssize_t got = recv(fd, reading, sizeof reading, 0);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            int ready = wait_for(fd, POLLIN, deadline);
            if (ready == 0) {
                fail(response, 28, "no answer in time", NULL);
                goto done;
            }
            if (ready < 0) {
                fail(response, 56, "receiving failed", strerror(errno));
                goto done;
            }
            continue;
        }
        if (got < 0) {
            fail(response, 56, "receiving failed", strerror(errno));
            goto done;
        }
        if (got > 0 && append(&raw, reading, (size_t)got) != 0) {
            fail(response, 27, "out of memory", NULL);
            goto done;
        }
        if (raw.length > LIMIT + 65536) {
            fail(response, 23, "the answer is larger than 64 MB", NULL);
            goto done;
        }
        if (head_end == 0) {
            char *blank = strstr(raw.bytes ? raw.bytes : "", "\r\n\r\n");
            if (!blank) {
                if (got == 0 || raw.length > 65536) {
                    fail(response, got == 0 ? 52 : 8, got == 0 ? "the server closed the connection without an answer" : "malformed answer", NULL);
                    goto done;
                }
                continue;
            }
            head_end = (size_t)(blank - raw.bytes) + 4;
            int major, minor;
            long status;
            if (sscanf(raw.bytes, "HTTP/%d.%d %ld", &major, &minor, &status) != 3) {
                fail(response, 8, "malformed answer", NULL);
                goto done;
            }
            response->status = status;
            blank[2] = 0;  // the head, as a string of its own, for header()
            if (header(raw.bytes, "Transfer-Encoding", value, sizeof value)) chunked = strcasecmp(value, "chunked") == 0;
            if (header(raw.bytes, "Content-Encoding", value, sizeof value)) gzip = strcasecmp(value, "gzip") == 0;
            if (!chunked && header(raw.bytes, "Content-Length", value, sizeof value)) expected = strtoll(value, NULL, 10);
            blank[2] = '\r';
            if (expected > LIMIT) {
                fail(response, 23, "the answer is larger than 64 MB", NULL);
                goto done;
            }
            if (status == 204 || status == 304 || strcmp(method, "HEAD") == 0) expected = 0;
            chunk_at = head_end;
        }
        if (chunked) {
            int state = dechunk(&raw, &chunk_at, &decoded, LIMIT);
            if (state < 0) {
                fail(response, 56, "malformed chunked answer", NULL);
                goto done;
            }
            complete = state == 1;
        } else if (expected >= 0) {
            complete = (long long)(raw.length - head_end) >= expected;
        } else {
            complete = got == 0;
        }
        if (complete) break;
        if (got == 0) {
            fail(response, 18, "the server closed the connection before the whole answer", NULL);
            goto done;
        }
    }
    if (!chunked) {
        size_t length = expected >= 0 ? (size_t)expected : raw.length - head_end;
        if (append(&decoded, raw.bytes + head_end, length) != 0) {
            fail(response, 27, "out of memory", NULL);
            goto done;
        }
    }
    if (gzip && decoded.length > 0) {
        char *inflated = NULL;
        long length = ccurl_gunzip(decoded.bytes, decoded.length, LIMIT, &inflated);
        if (length < 0) {
            fail(response, 61, "the answer's gzip is broken or larger than 64 MB", NULL);
            goto done;
        }
        free(decoded.bytes);
        decoded.bytes = inflated;
        decoded.length = (size_t)length;
    }
    response->body = decoded.bytes;
    response->length = decoded.length;
    decoded.bytes = NULL;
    result = 0;
done:
    free(raw.bytes);
    free(decoded.bytes);
    close(fd);
    if (result != 0) response->status = 0;
    return result;
}
