#pragma once
// What an ELF file says about how it was built: the strings of its `.comment` section, where
// compilers and linkers leave their names and versions ("GCC: (Debian 12.2.0-14) 12.2.0",
// "Debian clang version 14.0.6", "rustc version 1.63.0").

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cgbench::util {

// The distinct non-empty strings of the `.comment` section of the ELF image `bytes` (32- or
// 64-bit, either byte order), in file order. Empty when `bytes` is not ELF, has no such
// section, or its headers point outside the image; never throws.
std::vector<std::string> elf_comment_strings(std::string_view bytes);

// The same for the file at `path`; empty when it cannot be read (a script, a missing file).
std::vector<std::string> elf_comment_strings(const std::filesystem::path& path);

// Whether the ELF file at `path` holds line information (a `.debug_line` section: built with
// -g, not stripped); nullopt when it is not ELF or cannot be read (a script).
std::optional<bool> elf_has_line_info(const std::filesystem::path& path);

}  // namespace cgbench::util
