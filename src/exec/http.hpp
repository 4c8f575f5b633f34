#pragma once
// HTTP requests for alerts (a webhook, a forge's issue API), made by curl from an argv vector:
// no shell, no library in the static binary, the system's certificates and proxies. The URL
// and the headers (which hold tokens, and a webhook URL is itself a secret) go to curl in a
// private config file, never on its command line where other users could read them.

#include <string>
#include <vector>

#include "exec/environment.hpp"
#include "exec/process.hpp"

namespace cgbench::exec {

struct HttpRequest {
    std::string method = "POST";
    std::string url;                   // http:// or https:// (curl refuses other protocols)
    std::vector<std::string> headers;  // "Name: value"
    std::string body;                  // sent when not empty
    double timeout_seconds = 10;       // the whole request, connecting included
};

struct HttpResponse {
    bool answered = false;  // a response came back (any status)
    int status = 0;         // its HTTP status
    std::string body;       // its first 256 KiB
    std::string error;      // without a response: why ("timed out after 10 s", curl's message)
};

// Sends `request` with the curl found on the PATH of `caller` (which also supplies the
// proxies curl honours), through `runner`. Never throws for a failed request: the failure is
// in the response. Throws Interrupted when cgbench is interrupted, as every process does.
HttpResponse send_http(const HttpRequest& request, const EnvMap& caller, ProcessRunner& runner);

}  // namespace cgbench::exec
