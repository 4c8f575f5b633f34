#include "valgrind/profile.hpp"

namespace cgbench::valgrind {

std::optional<std::size_t> Profile::column_of(metrics::Event e) const {
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i] == e) return i;
    }
    return std::nullopt;
}

}  // namespace cgbench::valgrind
