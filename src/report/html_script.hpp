#pragma once
// The HTML report's one inline script, allowed by the page's Content-Security-Policy through
// its hash. The page reads without it: it adds the name filter, the branch switches and the
// hover details (commit, subject, value, change; a click opens the commit) from the data
// block the page embeds as JSON.

#include <string>
#include <string_view>

namespace cgbench::report {

// The script's text (what goes between <script> and </script>).
std::string_view page_script();

// Its Content-Security-Policy source ('sha256-...'), computed from the text.
const std::string& page_script_hash();

// `json` made safe as the text of <script type="application/json">: every '<' (only ever
// inside strings) written as \u003c, so no "</script>" can end the element early, and every
// bidirectional formatting character as \ufffd, so no text the script shows reads as another.
std::string script_safe_json(std::string_view json);

}  // namespace cgbench::report
