#include "access/run_import.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <system_error>

#include "base/errors.hpp"
#include "core/result_file.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::access {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
    const std::string name = p.filename().string();
    return name.size() > 1 && name.front() == '.';
}

// Why the link `link` found below `top` (canonical) is not read: it leads out of `top`, or
// nowhere; "" when it stays inside.
std::string link_problem(const fs::path& link, const fs::path& top) {
    std::error_code ec;
    const auto target = fs::canonical(link, ec);
    if (ec) return "a symbolic link to nothing";
    const auto inside = target.lexically_relative(top);
    if (inside.empty() || *inside.begin() == "..") {
        return "a symbolic link out of " + top.string() + " (to " + target.string() + ")";
    }
    return {};
}

// Every *.json file below `dir`, sorted; directories starting with '.' (.git) are skipped.
std::vector<ImportSource> json_files_below(const fs::path& dir) {
    std::vector<ImportSource> found;
    std::error_code ec;
    const auto top = fs::canonical(dir, ec);
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        if (it->is_directory(ec) && hidden(it->path())) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->path().extension() != ".json") continue;
        if (it->is_symlink(ec)) {
            if (auto problem = link_problem(it->path(), top); !problem.empty()) {
                found.push_back({it->path(), true, std::move(problem)});
                continue;
            }
        }
        if (it->is_regular_file(ec)) found.push_back({it->path(), true});
    }
    if (ec) {
        throw UsageError(fmt::format("cannot list {}: {}", dir.string(), ec.message()),
                         "check the directory's permissions");
    }
    std::sort(found.begin(), found.end(),
              [](const ImportSource& a, const ImportSource& b) { return a.path < b.path; });
    return found;
}

// A run that starts a day or more after now would be "the latest run" of every listing
// until then.
void refuse_future_start(const RunResult& run, const ImportSource& source) {
    const auto started = util::parse_utc_timestamp(run.started);
    if (started && *started > std::time(nullptr) + 86400) {
        throw UsageError(fmt::format("{}: run {} started {}, more than a day ahead of this "
                                     "machine's clock",
                                     source.path.string(), util::printable(run.id), run.started),
                         "check the clock of the machine that measured it");
    }
}

}  // namespace

std::vector<ImportSource> import_sources(const std::vector<std::string>& args) {
    std::vector<ImportSource> out;
    for (const auto& arg : args) {
        std::error_code ec;
        const auto status = fs::status(arg, ec);
        if (fs::is_directory(status)) {
            auto found = json_files_below(arg);
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(status)) {
            out.push_back({arg, false});
        } else if (fs::exists(status)) {
            throw UsageError(
                fmt::format("{} is neither a result file nor a directory", util::printable(arg)),
                "name files written by `cgbench run --out` or `cgbench merge --out`, or "
                "directories holding them");
        } else {
            throw UsageError(fmt::format("{} does not exist", util::printable(arg)),
                             "check the path");
        }
    }
    return out;
}

RunImporter::RunImporter(history::HistoryBackend& store, Batching batching)
    : store_(store), batching_(batching) {}

ImportedFile RunImporter::import(const ImportSource& source) {
    const ResultFile file(source.path);
    ImportedFile out;
    if (source.found_in_directory && !file.claims_result()) {
        out.status = ImportedFile::Status::NotAResult;
        return out;
    }
    // The header first: a run stored already is not read further.
    const auto header = file.header(out.benchmarks);
    out.run_id = header.id;
    refuse_future_start(header, source);
    return add(
        std::move(out), [&file] { return file.run(); }, source.path.string());
}

ImportedFile RunImporter::import_run(history::HistoryBackend& from, const history::Run& run) {
    ImportedFile out;
    out.run_id = run.id;
    return add(
        std::move(out),
        [&] {
            auto loaded = from.load_run(run.handle, {}, history::SourceLines::Read);
            if (!loaded) {
                throw EnvironmentError(
                    fmt::format("{}: run {} disappeared while it was copied", from.name(), run.id),
                    "import again; runs copied already are skipped");
            }
            return std::move(*loaded);
        },
        fmt::format("{} run {}", from.name(), run.id));
}

ImportedFile RunImporter::add(ImportedFile out, const std::function<RunResult()>& read,
                              const std::string& source) {
    const auto now = std::chrono::steady_clock::now();
    if (batch_ && (now - batch_started_ >= batching_.max_age ||
                   batch_->results() + out.benchmarks > batching_.max_results)) {
        commit_open_batch();
    }
    if (!batch_) {
        batch_ = store_.begin_batch();
        batch_started_ = std::chrono::steady_clock::now();
    }
    if (auto stored = batch_->find(out.run_id)) {
        out.status = ImportedFile::Status::AlreadyStored;
        out.stored = std::move(stored);
        return out;
    }
    const auto run = read();  // its errors name the file already
    out.benchmarks = run.benchmarks.size();
    try {
        batch_->add(run);
    } catch (const UsageError& e) {  // a value the history cannot store
        throw UsageError(fmt::format("{}: {}", source, e.what()), e.hint());
    }
    return out;
}

void RunImporter::finish() {
    if (batch_) commit_open_batch();
}

void RunImporter::commit_open_batch() {
    batch_->commit();
    if (batch_->runs() > 0) ++transactions_;
    committed_runs_ += batch_->runs();
    committed_results_ += batch_->results();
    batch_.reset();
}

}  // namespace cgbench::access
