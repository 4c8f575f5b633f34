#pragma once
// cgbench's own call-path profile: every call path (stack) of a measured program with the
// cost spent in it, as a tree. What a call-graph measurement produces (whatever the backend:
// runner/call_stacks.hpp builds it from Callgrind) and what the flame graph draws
// (report/flame_svg.hpp). Costs are weighted costs (metrics::cost), not events.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cgbench {

// The frame that sums the calls too small (or too deep) to keep one by one.
inline constexpr std::string_view kOtherCalls = "(other)";

// One call path: the function `name` called by the path of `parent`.
struct CallNode {
    std::string name;
    std::uint32_t parent = 0;             // the root is its own parent
    std::uint64_t self = 0;               // cost spent in the function itself on this path
    std::uint64_t total = 0;              // self plus every path below it (inclusive)
    std::vector<std::uint32_t> children;  // in order of first appearance
};

class CallTree {
  public:
    static constexpr std::uint32_t kRoot = 0;
    static constexpr std::uint32_t kNone = UINT32_MAX;

    // A tree holding only the root, named `root_name` (the program, "all").
    explicit CallTree(std::string root_name = "all");

    // The node of `name` called from `parent`, added (with no cost) when new.
    std::uint32_t child(std::uint32_t parent, std::string_view name);
    // The node of `name` under `parent`, or kNone when there is none.
    std::uint32_t find(std::uint32_t parent, std::string_view name) const;

    // Adds `cost` to the self cost of `node` and to the totals of it and its ancestors.
    void add_self(std::uint32_t node, std::uint64_t cost);

    const CallNode& node(std::uint32_t id) const { return nodes_[id]; }
    std::size_t size() const { return nodes_.size(); }
    std::uint64_t total() const { return nodes_[kRoot].total; }
    // The depth of `id` (the root's is 0).
    std::size_t depth(std::uint32_t id) const;

  private:
    static std::string key(std::uint32_t parent, std::string_view name);

    std::vector<CallNode> nodes_;
    std::unordered_map<std::string, std::uint32_t> index_;  // key(parent, name) -> node
};

}  // namespace cgbench
