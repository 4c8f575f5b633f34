#pragma once
// Forms: how a CI system's variables spell a fact, written as text with {VARIABLE}
// placeholders, so the table of providers (providers.cpp) stays declarative. A form yields
// its text with every placeholder replaced, or nothing when a variable it names is not set.
//
//   {VAR}          VAR's value; VAR must be set: present, not empty and not "false"
//   {VAR:branch}   the value without "refs/heads/", "refs/remotes/origin/" or "origin/"
//   {VAR:pr}       N of "refs/pull/N/..." (GitHub's pull-request ref); nothing otherwise
//   {VAR:url}      the value without trailing slashes
//   {VAR=TEXT}     nothing at all (the empty text) when VAR's value is TEXT; else no result
//   {VAR@a.b}      the string at a.b in the JSON file VAR names (GitHub's event payload)
//   {name}         a lower-case name is left as it is, for a later step ("{commit}")

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/environment.hpp"

namespace cgbench::ci {

// The alternatives for one fact, the first that yields wins; unused slots are empty.
using Forms = std::array<std::string_view, 3>;

// Whether `name` counts as set in `env`: present, not empty, not "false".
bool is_set(const exec::EnvMap& env, std::string_view name);

// `form` expanded over `env`, or nullopt when a variable it needs is not set or a filter
// does not apply.
std::optional<std::string> expand(std::string_view form, const exec::EnvMap& env);

// The first of `forms` that expands.
std::optional<std::string> first_of(const Forms& forms, const exec::EnvMap& env);

// The variables `forms` name (upper-case placeholders), in order, each once.
std::vector<std::string> variables_of(const Forms& forms);

}  // namespace cgbench::ci
