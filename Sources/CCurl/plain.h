#ifndef CCURL_PLAIN_H
#define CCURL_PLAIN_H

#include "ccurl.h"

/// One request to an http:// URL over a socket of its own (no libcurl): the same contract as
/// ccurl_request, with libcurl's error codes for the same failures.
int plain_request(const char *method, const char *url, const char *const *headers, size_t header_count, const char *body,
                  size_t body_length, long timeout_seconds, ccurl_response *response);

#endif
