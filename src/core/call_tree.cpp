#include "core/call_tree.hpp"

#include <cstring>

namespace cgbench {

CallTree::CallTree(std::string root_name) {
    nodes_.push_back(CallNode{std::move(root_name), kRoot, 0, 0, {}});
}

std::string CallTree::key(std::uint32_t parent, std::string_view name) {
    // The parent's id as 4 raw bytes, then the name: names may hold any byte.
    std::string k(sizeof parent, '\0');
    std::memcpy(k.data(), &parent, sizeof parent);
    k.append(name);
    return k;
}

std::uint32_t CallTree::find(std::uint32_t parent, std::string_view name) const {
    const auto it = index_.find(key(parent, name));
    return it == index_.end() ? kNone : it->second;
}

std::uint32_t CallTree::child(std::uint32_t parent, std::string_view name) {
    const auto id = static_cast<std::uint32_t>(nodes_.size());
    const auto [it, added] = index_.try_emplace(key(parent, name), id);
    if (!added) return it->second;
    nodes_.push_back(CallNode{std::string(name), parent, 0, 0, {}});
    nodes_[parent].children.push_back(id);
    return id;
}

void CallTree::add_self(std::uint32_t node, std::uint64_t cost) {
    nodes_[node].self += cost;
    for (std::uint32_t n = node;; n = nodes_[n].parent) {
        nodes_[n].total += cost;
        if (n == kRoot) break;
    }
}

std::size_t CallTree::depth(std::uint32_t id) const {
    std::size_t d = 0;
    for (; id != kRoot; id = nodes_[id].parent)
        ++d;
    return d;
}

}  // namespace cgbench
