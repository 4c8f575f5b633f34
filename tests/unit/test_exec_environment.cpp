#include <gtest/gtest.h>

#include <algorithm>

#include "base/errors.hpp"
#include "exec/environment.hpp"

namespace cgbench::exec {

namespace {

EnvironmentSpec spec_for(std::vector<std::string> argv = {"/tmp/cgbench.abcdef/r/bin/prog"}) {
    EnvironmentSpec s;
    s.underscore = argv.front();
    s.argv = std::move(argv);
    return s;
}

std::vector<std::string> names(const BuiltEnvironment& env) {
    std::vector<std::string> out;
    for (const auto& e : env.entries)
        out.push_back(e.substr(0, e.find('=')));
    return out;
}

bool contains(const BuiltEnvironment& env, const std::string& entry) {
    return std::find(env.entries.begin(), env.entries.end(), entry) != env.entries.end();
}

}  // namespace

TEST(Environment, OnlyTheAllowListPasses) {
    const EnvMap caller = {{"PATH", "/usr/bin"},    {"HOME", "/home/u"},       {"SECRET", "x"},
                           {"PWD", "/somewhere"},   {"LD_PRELOAD", "evil.so"}, {"_", "/bin/sh"},
                           {"LANG", "de_DE.UTF-8"}, {"LC_ALL", "de_DE.UTF-8"}};
    const auto env = build_environment(spec_for(), caller);
    const std::vector<std::string> expected = {
        "HOME", "LANG", "PERL_HASH_SEED", "PERL_PERTURB_KEYS", "PYTHONHASHSEED", "PYTHONNOUSERSITE",
        "SHELL", "TZ",  "_",              "PATH",              "CGBENCH_ENV_PAD"};
    EXPECT_EQ(names(env), expected);
    EXPECT_TRUE(contains(env, "LANG=C.UTF-8"));
    EXPECT_TRUE(contains(env, "TZ=UTC"));
    EXPECT_TRUE(contains(env, "PYTHONHASHSEED=0"));
    EXPECT_TRUE(contains(env, "PERL_HASH_SEED=0"));
    EXPECT_TRUE(contains(env, "PERL_PERTURB_KEYS=0"));
    // The same HOME for every user (Python puts ~/.local on sys.path); no USER, LOGNAME or
    // TMPDIR, whatever the caller has.
    EXPECT_TRUE(contains(env, "HOME=/nonexistent"));
    EXPECT_TRUE(contains(env, "PYTHONNOUSERSITE=1"));
    // The caller's PATH stays out (Python decodes it at start-up: its length moves counts).
    EXPECT_TRUE(contains(env, "PATH=/usr/local/bin:/usr/bin:/bin"));
    EXPECT_TRUE(contains(env, "_=/tmp/cgbench.abcdef/r/bin/prog"));
}

TEST(Environment, PathIsFixedWhateverTheCallerHas) {
    for (const EnvMap& caller :
         {EnvMap{}, EnvMap{{"PATH", "/usr/bin"}}, EnvMap{{"PATH", std::string(1000, 'p')}}}) {
        const auto env = build_environment(spec_for(), caller);
        EXPECT_TRUE(contains(env, "PATH=/usr/local/bin:/usr/bin:/bin"));
        EXPECT_TRUE(contains(env, "HOME=/nonexistent"));
    }
}

TEST(Environment, PathIsPassedOrSetOnlyWhenAsked) {
    EnvironmentSpec s = spec_for();
    s.requests = {parse_env_request("PATH")};
    EXPECT_TRUE(contains(build_environment(s, {{"PATH", "/opt/x/bin:/usr/bin"}}),
                         "PATH=/opt/x/bin:/usr/bin"));
    s.requests = {parse_env_request("PATH=/opt/y/bin")};
    EXPECT_TRUE(contains(build_environment(s, {{"PATH", "/opt/x/bin"}}), "PATH=/opt/y/bin"));
}

TEST(Environment, HomeIsPassedOnlyWhenAsked) {
    EnvironmentSpec s = spec_for();
    s.requests = {parse_env_request("HOME")};
    const auto env = build_environment(s, {{"HOME", "/home/u"}, {"USER", "u"}});
    EXPECT_TRUE(contains(env, "HOME=/home/u"));
    EXPECT_EQ(std::count_if(env.entries.begin(), env.entries.end(),
                            [](const auto& e) { return e.starts_with("USER="); }),
              0);
}

TEST(Environment, ValgrindsOwnVariablesAreRefused) {
    for (const auto* name : {"VALGRIND_OPTS", "VALGRIND_LIB", "VALGRIND_LAUNCHER"}) {
        try {
            parse_env_request(std::string(name) + "=--trace-children=no");
            ADD_FAILURE() << name;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

TEST(Environment, LoaderVariablesAreListedWithTheirValues) {
    const std::vector<EnvRequest> requests = {
        parse_env_request("MODE=fast"), parse_env_request("LD_PRELOAD=/lib/x.so"),
        parse_env_request("GLIBC_TUNABLES"), parse_env_request("LD_BIND_NOW=1")};
    EXPECT_EQ(loader_variables(requests, {{"GLIBC_TUNABLES", "glibc.malloc.check=3"}}),
              (std::vector<std::string>{"LD_PRELOAD=/lib/x.so",
                                        "GLIBC_TUNABLES=glibc.malloc.check=3",
                                        "LD_BIND_NOW=1"}));
}

TEST(Environment, BlockSizeIsConstantWhateverTheCallerHas) {
    const auto a = build_environment(spec_for(), {{"HOME", "/root"}, {"PATH", "/bin"}});
    const auto b =
        build_environment(spec_for({"/tmp/cgbench.abcdef/r/bin/prog", "a-longer-argument"}),
                          {{"HOME", "/home/runner/work"},
                           {"PATH", "/usr/local/sbin:/usr/local/bin:/usr/bin"},
                           {"HUGE", std::string(5000, 'x')}});
    EXPECT_EQ(a.block_bytes, kEnvBlockBudget);
    EXPECT_EQ(b.block_bytes, kEnvBlockBudget);
    EXPECT_FALSE(a.over_budget);
}

TEST(Environment, OversizedEnvironmentIsFlaggedAndRoundedUp) {
    EnvironmentSpec s = spec_for();
    s.requests.push_back({"BIG", std::string(9000, 'y')});
    const auto env = build_environment(s, {});
    EXPECT_TRUE(env.over_budget);
    EXPECT_EQ(env.block_bytes % 4096, 0u);
    EXPECT_GT(env.block_bytes, 9000u);
}

TEST(Environment, UserRequestsSetOrPassThrough) {
    EnvironmentSpec s = spec_for();
    s.requests = {parse_env_request("MODE=fast"), parse_env_request("TOKEN"),
                  parse_env_request("PATH=/opt/bin"), parse_env_request("LANG=C")};
    const auto env = build_environment(s, {{"TOKEN", "abc"}, {"PATH", "/usr/bin"}});
    EXPECT_TRUE(contains(env, "MODE=fast"));
    EXPECT_TRUE(contains(env, "TOKEN=abc"));
    EXPECT_TRUE(contains(env, "PATH=/opt/bin"));
    EXPECT_TRUE(contains(env, "LANG=C"));
}

TEST(Environment, PassThroughOfAnUnsetVariableIsAnError) {
    EnvironmentSpec s = spec_for();
    s.requests = {parse_env_request("NOT_SET_ANYWHERE")};
    EXPECT_THROW(build_environment(s, {}), UsageError);
}

TEST(Environment, InvalidAndReservedNames) {
    EXPECT_THROW(parse_env_request("=x"), UsageError);
    EXPECT_THROW(parse_env_request("1X=2"), UsageError);
    EXPECT_THROW(parse_env_request("A-B=2"), UsageError);
    EXPECT_THROW(parse_env_request("_=x"), UsageError);
    EXPECT_THROW(parse_env_request("CGBENCH_ENV_PAD=x"), UsageError);
    EXPECT_EQ(parse_env_request("A=").value, "");
    EXPECT_FALSE(parse_env_request("A").value.has_value());
}

TEST(Environment, TunablesArePrependedToTheUsersOwn) {
    EnvironmentSpec s = spec_for();
    s.glibc_tunables = "glibc.cpu.hwcaps=-AVX2,";
    s.requests = {parse_env_request("GLIBC_TUNABLES=glibc.malloc.check=3")};
    const auto env = build_environment(s, {});
    EXPECT_TRUE(contains(env, "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,:glibc.malloc.check=3"));
}

}  // namespace cgbench::exec
