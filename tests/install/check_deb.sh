#!/usr/bin/env bash
# Builds the .deb with CPack from BUILD and checks its contents with dpkg-deb: the binary,
# cgbench-pr, the calibration kernels (libexec/cgbench/cgbench-kernels), the man pages
# cgbench.1, cgbench-pr.1 and cgbench.toml.5 (gzipped, as Debian policy wants), the copyright file holding the MIT licence of LICENSE, the
# header, the CMake and pkg-config files, and Valgrind among its dependencies.
# Usage: check_deb.sh BUILD OUT
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: check_deb.sh BUILD OUT" >&2
  exit 2
fi
build="$1"
out="$2"
rm -rf "$out"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" --config CPackConfig.cmake) >"$out/cpack.log" 2>&1 ||
  { cat "$out/cpack.log" >&2; echo "FAIL: cpack -G DEB failed" >&2; exit 1; }
debs=("$out"/*.deb)
[ -f "${debs[0]}" ] || { echo "FAIL: cpack wrote no .deb into $out" >&2; exit 1; }
dpkg-deb -c "${debs[0]}" | awk '{print $6}' >"$out/contents.txt"
for f in ./usr/bin/cgbench ./usr/bin/cgbench-pr ./usr/libexec/cgbench/cgbench-kernels \
         ./usr/share/man/man1/cgbench.1.gz ./usr/share/man/man1/cgbench-pr.1.gz \
         ./usr/share/man/man5/cgbench.toml.5.gz ./usr/share/doc/cgbench/copyright \
         ./usr/include/cgbench/cgbench.h ./usr/share/cmake/cgbench/cgbenchConfig.cmake \
         ./usr/share/pkgconfig/cgbench.pc; do
  grep -qx -- "$f" "$out/contents.txt" || { cat "$out/contents.txt" >&2; echo "FAIL: ${debs[0]} lacks $f" >&2; exit 1; }
done
depends="$(dpkg-deb -f "${debs[0]}" Depends)"
case "$depends" in
  *valgrind*) ;;
  *) echo "FAIL: Depends '$depends' lacks valgrind" >&2; exit 1 ;;
esac
# cgbench.1 has a section per subcommand, generated from docs/reference/cgbench.md.
grep -qx -- ./usr/share/man/man1/cgbench.1 "$out/contents.txt" &&
  { echo "FAIL: the man page is also installed uncompressed" >&2; exit 1; }
dpkg-deb --fsys-tarfile "${debs[0]}" | tar -xO ./usr/share/man/man1/cgbench.1.gz | gzip -dc >"$out/cgbench.1"
for sub in run compare history export merge config annotate report import calibrate; do
  grep -q "^\.SH \"CGBENCH ${sub^^}" "$out/cgbench.1" || { echo "FAIL: the man page has no section for $sub" >&2; exit 1; }
done
# The copyright file: machine-readable, the licence's every paragraph, indented.
dpkg-deb --fsys-tarfile "${debs[0]}" | tar -xO ./usr/share/doc/cgbench/copyright >"$out/copyright"
root="$(cd "$(dirname "$0")/../.." && pwd)"
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' "$out/copyright" &&
  grep -q '^License: Expat$' "$out/copyright" &&
  grep -qxF "Copyright: $(sed -n 's/^Copyright (c) //p' "$root/LICENSE")" "$out/copyright" ||
  { cat "$out/copyright" >&2; echo "FAIL: the copyright file is not the machine-readable MIT licence" >&2; exit 1; }
for line in "Permission is hereby granted, free of charge, to any person obtaining a copy" \
            "SOFTWARE."; do
  grep -qxF " $line" "$out/copyright" || { cat "$out/copyright" >&2; echo "FAIL: the copyright file lacks '$line'" >&2; exit 1; }
done
echo "$(basename "${debs[0]}"): $(wc -l <"$out/contents.txt") entries, Depends: $depends"
