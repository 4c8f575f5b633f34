#include "util/elf.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "base/errors.hpp"
#include "util/mapped_file.hpp"

namespace cgbench::util {

namespace {

// Reads unsigned fields of one byte order and width from an image, refusing reads past its
// end.
class Image {
  public:
    Image(std::string_view bytes, bool little) : bytes_(bytes), little_(little) {}

    std::optional<std::uint64_t> read(std::uint64_t offset, int width) const {
        if (offset > bytes_.size() || bytes_.size() - offset < static_cast<std::uint64_t>(width)) {
            return std::nullopt;
        }
        std::uint64_t v = 0;
        for (int i = 0; i < width; ++i) {
            const int byte = little_ ? width - 1 - i : i;
            v = (v << 8) | static_cast<unsigned char>(bytes_[offset + static_cast<unsigned>(byte)]);
        }
        return v;
    }
    std::optional<std::string_view> slice(std::uint64_t offset, std::uint64_t size) const {
        if (offset > bytes_.size() || bytes_.size() - offset < size) return std::nullopt;
        return bytes_.substr(offset, size);
    }

  private:
    std::string_view bytes_;
    bool little_;
};

// The fields of one section header this reader needs.
struct Section {
    std::uint64_t name = 0;  // offset into the section-name string table
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

// Layout of the ELF header and section headers for one class (32- or 64-bit).
struct Layout {
    int word;                                         // width of addresses and offsets
    std::uint64_t shoff, shentsize, shnum, shstrndx;  // where the header keeps these
    std::uint64_t sh_offset, sh_size;                 // within a section header
};

constexpr Layout kElf32{4, 0x20, 0x2e, 0x30, 0x32, 0x10, 0x14};
constexpr Layout kElf64{8, 0x28, 0x3a, 0x3c, 0x3e, 0x18, 0x20};

std::optional<Section> section(const Image& img, const Layout& l, std::uint64_t table,
                               std::uint64_t entsize, std::uint64_t index) {
    const std::uint64_t at = table + index * entsize;
    const auto name = img.read(at, 4);
    const auto offset = img.read(at + l.sh_offset, l.word);
    const auto size = img.read(at + l.sh_size, l.word);
    if (!name || !offset || !size) return std::nullopt;
    return Section{*name, *offset, *size};
}

// The contents of the section named `wanted`.
std::optional<std::string_view> named_section(const Image& img, const Layout& l,
                                              std::string_view wanted) {
    const auto table = img.read(l.shoff, l.word);
    const auto entsize = img.read(l.shentsize, 2);
    const auto count = img.read(l.shnum, 2);
    const auto names_index = img.read(l.shstrndx, 2);
    if (!table || !entsize || !count || !names_index || *table == 0 || *names_index >= *count) {
        return std::nullopt;
    }
    const auto names = section(img, l, *table, *entsize, *names_index);
    if (!names) return std::nullopt;
    const auto name_table = img.slice(names->offset, names->size);
    if (!name_table) return std::nullopt;
    for (std::uint64_t i = 0; i < *count; ++i) {
        const auto s = section(img, l, *table, *entsize, i);
        if (!s || s->name >= name_table->size()) continue;
        const auto rest = name_table->substr(s->name);
        if (rest.substr(0, rest.find('\0')) == wanted) return img.slice(s->offset, s->size);
    }
    return std::nullopt;
}

// The image and layout of the ELF file `bytes`; nullopt when it is not one.
std::optional<std::pair<Image, Layout>> elf_image(std::string_view bytes) {
    if (bytes.size() < 0x40 || bytes.substr(0, 4) !=
                                   "\x7f"
                                   "ELF")
        return std::nullopt;
    const char cls = bytes[4];
    const char order = bytes[5];
    if ((cls != 1 && cls != 2) || (order != 1 && order != 2)) return std::nullopt;
    return std::pair{Image(bytes, order == 1), cls == 1 ? kElf32 : kElf64};
}

}  // namespace

std::vector<std::string> elf_comment_strings(std::string_view bytes) {
    const auto elf = elf_image(bytes);
    if (!elf) return {};
    const auto comment = named_section(elf->first, elf->second, ".comment");
    std::vector<std::string> out;
    if (!comment) return out;
    std::string_view rest = *comment;
    while (!rest.empty()) {
        const auto end = std::min(rest.find('\0'), rest.size());
        std::string text(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
        if (!text.empty() && std::find(out.begin(), out.end(), text) == out.end()) {
            out.push_back(std::move(text));
        }
    }
    return out;
}

std::vector<std::string> elf_comment_strings(const std::filesystem::path& path) {
    try {
        const MappedFile file(path);
        return elf_comment_strings(file.view());
    } catch (const Error&) {
        return {};
    }
}

std::optional<bool> elf_has_line_info(const std::filesystem::path& path) {
    try {
        const MappedFile file(path);
        const auto elf = elf_image(file.view());
        if (!elf) return std::nullopt;
        return named_section(elf->first, elf->second, ".debug_line").has_value() ||
               named_section(elf->first, elf->second, ".zdebug_line").has_value();
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace cgbench::util
