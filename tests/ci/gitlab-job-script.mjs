// Prints the bash script GitLab's shell would run for one job of a .gitlab-ci.yml: the
// variables (those given here, which win, then the file's and the job's after `extends:`,
// each expanded with the ones before it as GitLab does), then `before_script` and
// `script`, one command per line. For running a template's job where gitlab-ci-local cannot go (a chroot with
// no Node.js); `cache:`, `artifacts:` and `rules:` are left to the caller.
//
// --timed adds a line after `before_script`: "before_script done in N s".
//
// Usage: node gitlab-job-script.mjs FILE JOB [--timed] [--variable NAME=VALUE]...
import fs from "node:fs";
import yaml from "js-yaml";

const [file, jobName, ...rest] = process.argv.slice(2);
if (!file || !jobName) {
  console.error("usage: node gitlab-job-script.mjs FILE JOB [--variable NAME=VALUE]...");
  process.exit(2);
}
const doc = yaml.load(fs.readFileSync(file, "utf8"));
const given = [];
const timed = rest[0] === "--timed";
if (timed) rest.shift();
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] !== "--variable" || !rest[i + 1]?.includes("=")) {
    console.error(`gitlab-job-script: bad argument '${rest[i]}'`);
    process.exit(2);
  }
  const kv = rest[i + 1];
  given.push([kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]);
}

// The job with its `extends:` chain merged in (GitLab's deep merge of hashes; arrays and
// scalars of the job win).
function resolve(name, seen = new Set()) {
  if (seen.has(name)) throw new Error(`extends loop at ${name}`);
  seen.add(name);
  const job = doc[name];
  if (!job) throw new Error(`no job '${name}' in ${file}`);
  const parents = [job.extends ?? []].flat();
  let merged = {};
  for (const parent of parents) merged = merge(merged, resolve(parent, seen));
  const { extends: _, ...own } = job;
  return merge(merged, own);
}
function merge(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === "object" && !Array.isArray(v) && typeof out[k] === "object" &&
      !Array.isArray(out[k]) ? merge(out[k], v) : v;
  }
  return out;
}

const job = resolve(jobName);
const variables = new Map();
const expand = (value) =>
  String(value).replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (m, n) => (variables.has(n) ? variables.get(n) : m));
// The given ones (predefined CI_* variables, the project's settings) come first, so the
// file's may use them, and are never overridden.
for (const [k, v] of given) variables.set(k, v);
const isGiven = new Set(given.map(([k]) => k));
for (const vars of [doc.variables ?? {}, job.variables ?? {}]) {
  for (const [k, v] of Object.entries(vars)) {
    if (!isGiven.has(k)) variables.set(k, expand(typeof v === "object" ? v.value : v));
  }
}

const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;
const lines = [];
for (const [k, v] of variables) lines.push(`export ${k}=${quote(v)}`);
if (timed) lines.push("SECONDS=0");
for (const command of [job.before_script ?? []].flat()) lines.push(String(command));
if (timed) lines.push('echo "before_script done in $SECONDS s"');
for (const command of [job.script ?? []].flat()) lines.push(String(command));
process.stdout.write(lines.join("\n") + "\n");
