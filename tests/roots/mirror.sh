# shellcheck shell=bash
# Sourced: debian_mirror prints the Debian archive URL this machine's apt uses (the first
# non-security, non-updates "deb" source, from deb822 *.sources files or one-line *.list
# files), or CGBENCH_DEBIAN_MIRROR when set; returns 1 when there is none. APT_CONFIG_DIR
# (default /etc/apt) is where it looks, so tests can point it at a scratch copy.
debian_mirror() {
  if [ -n "${CGBENCH_DEBIAN_MIRROR:-}" ]; then
    echo "${CGBENCH_DEBIAN_MIRROR%/}"
    return 0
  fi
  local etc="${APT_CONFIG_DIR:-/etc/apt}" url
  url="$(
    {
      for f in "$etc"/sources.list.d/*.sources; do [ -f "$f" ] && cat "$f" && echo; done
    } | awk '
      function flush() {
        n = split(suites, s, " "); plain = 0
        for (k = 1; k <= n; k++) if (s[k] !~ /-(security|updates|backports)$/) plain = 1
        if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "" && plain) {
          split(uris, u, " "); print u[1]; found = 1; exit
        }
        types = ""; uris = ""; suites = ""; enabled = ""
      }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      tolower($1) == "types:" { $1 = ""; types = $0 }
      tolower($1) == "uris:" { $1 = ""; sub(/^ +/, ""); uris = $0 }
      tolower($1) == "suites:" { $1 = ""; suites = $0 }
      tolower($1) == "enabled:" { enabled = tolower($2) }
      END { if (!found) flush() }'
  )"
  if [ -z "$url" ]; then
    url="$(
      for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do [ -f "$f" ] && cat "$f"; done |
        awk '$1 == "deb" {
          i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
          if ($(i + 1) !~ /-(security|updates|backports)$/) { print $i; exit } }'
    )"
  fi
  [ -n "$url" ] || return 1
  echo "${url%/}"
}
