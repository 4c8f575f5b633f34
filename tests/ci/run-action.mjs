// Runs the steps of a composite GitHub action (action.yml), or of one job of a workflow, here,
// as the runner would: each `run:` step with `bash --noprofile --norc -eo pipefail`, its
// `if:`, `env:` and `working-directory:` evaluated with the `${{ }}` expressions the action
// uses, and GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH set.
// `uses:` steps are not run (they need GitHub's services), with these emulations:
//   --restore-cache DIR   an actions/cache step is a hit: DIR is copied to its `path`
//   --cache-store DIR     an actions/cache step looks its `key` up in DIR: DIR/KEY is copied
//                         to `path` when it exists (a hit), else `path` is saved to DIR/KEY
//                         when the job succeeded (a miss), as the cache's post step does
//   --artifact DIR        an actions/download-artifact step copies DIR to its `path`
// --in-root ROOT runs each step chrooted in ROOT with tests/roots/in-root.sh (a fresh
// machine): --bind HOST:DIR is passed on, and the step gets only the variables a runner
// sets (GITHUB_*, RUNNER_*, HOME, the step's `env:`), not this process's environment.
//
// Usage: node run-action.mjs ACTION_DIR [--input NAME=VALUE]... [--restore-cache DIR |
//                            --cache-store DIR] [--outputs FILE] [--in-root ROOT [--bind H:D]...]
//        node run-action.mjs --workflow FILE --job JOB [--secret NAME=VALUE]... [--artifact DIR]
// The caller's environment supplies GITHUB_WORKSPACE (the starting directory),
// GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, GITHUB_BASE_REF, RUNNER_TEMP, HOME...
// Exit code: 0 when every step succeeded, 1 when a step failed, 2 on bad usage.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import yaml from "js-yaml";

function usage(message) {
  console.error(`run-action: error: ${message}`);
  console.error("usage: node run-action.mjs ACTION_DIR [--input NAME=VALUE]... [--restore-cache DIR] [--outputs FILE]");
  process.exit(2);
}

const args = process.argv.slice(2);
const actionDir = args[0]?.startsWith("--") ? null : args.shift();
const givenInputs = {};
const secrets = {};
const binds = [];
let restoreCache = null;
let cacheStore = null;
let artifactDir = null;
let outputsFile = null;
let inRoot = null;
let workflowFile = null;
let jobName = null;
function keyValue(option, into) {
  const kv = args.shift() ?? usage(`${option} needs NAME=VALUE`);
  const eq = kv.indexOf("=");
  if (eq < 0) usage(`${option} '${kv}' is not NAME=VALUE`);
  into[kv.slice(0, eq)] = kv.slice(eq + 1);
}
while (args.length > 0) {
  const a = args.shift();
  const value = () => args.shift() ?? usage(`${a} needs a value`);
  if (a === "--input") keyValue(a, givenInputs);
  else if (a === "--secret") keyValue(a, secrets);
  else if (a === "--restore-cache") restoreCache = value();
  else if (a === "--cache-store") cacheStore = value();
  else if (a === "--artifact") artifactDir = value();
  else if (a === "--outputs") outputsFile = value();
  else if (a === "--in-root") inRoot = value();
  else if (a === "--bind") binds.push(value());
  else if (a === "--workflow") workflowFile = value();
  else if (a === "--job") jobName = value();
  else usage(`unknown argument '${a}'`);
}
if (!actionDir === !workflowFile) usage("give either ACTION_DIR or --workflow FILE --job JOB");

// The steps to run: the composite action's, or the job's of the workflow.
let action;
let actionPath;
let jobEnv = {};
if (actionDir) {
  actionPath = path.resolve(actionDir);
  action = yaml.load(fs.readFileSync(path.join(actionPath, "action.yml"), "utf8"));
  if (action?.runs?.using !== "composite") usage(`${actionDir}/action.yml is not a composite action`);
} else {
  const workflow = yaml.load(fs.readFileSync(workflowFile, "utf8"));
  const job = workflow?.jobs?.[jobName] ?? usage(`${workflowFile} has no job '${jobName}'`);
  actionPath = path.dirname(path.resolve(workflowFile));
  action = { inputs: {}, outputs: {}, runs: { steps: job.steps ?? [] } };
  jobEnv = { ...(workflow.env ?? {}), ...(job.env ?? {}) };
}

const inputs = {};
for (const [name, spec] of Object.entries(action.inputs ?? {})) {
  inputs[name] = String(spec.default ?? "");
}
for (const [name, value] of Object.entries(givenInputs)) {
  if (!(name in inputs)) usage(`the action has no input '${name}'`);
  inputs[name] = value;
}

const env = process.env;
const event = env.GITHUB_EVENT_PATH ? JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, "utf8")) : {};
const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
const runnerTemp = env.RUNNER_TEMP ?? os.tmpdir();
const context = {
  inputs,
  steps: {},
  github: {
    action_path: actionPath,
    action_repository: env.GITHUB_ACTION_REPOSITORY ?? "",
    repository: env.GITHUB_REPOSITORY ?? "",
    server_url: env.GITHUB_SERVER_URL ?? "https://github.com",
    workspace,
    job: env.GITHUB_JOB ?? "bench",
    base_ref: env.GITHUB_BASE_REF ?? "",
    event,
  },
  runner: { os: "Linux", temp: runnerTemp },
  env: { ...env },
  secrets,
};

function lookup(dotted) {
  let value = context;
  for (const key of dotted.split(".")) {
    if (value === null || typeof value !== "object") return "";
    value = value[key];
  }
  return value ?? "";
}

// Evaluates one expression of the subset the action uses: context paths, 'strings',
// ==, !=, &&, ||, !, parentheses, always(), success(), failure().
let failed = false;
function evaluate(expression) {
  const parts = expression.split(/('(?:[^']|'')*')/);
  const js = parts
    .map((part, i) => {
      if (i % 2 === 1) return JSON.stringify(part.slice(1, -1).replaceAll("''", "'"));
      return part.replace(
        /\b(inputs|steps|github|runner|env|secrets)((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)/g,
        (_, root, rest) => `lookup(${JSON.stringify(root + rest)})`,
      );
    })
    .join("");
  const fn = new Function("lookup", "always", "success", "failure", `return (${js});`);
  return fn(lookup, () => true, () => !failed, () => failed);
}

function substitute(text) {
  return String(text).replace(/\$\{\{(.*?)\}\}/g, (_, expression) => {
    const value = evaluate(expression.trim());
    return value === undefined || value === null ? "" : String(value);
  });
}

function condition(step) {
  if (step.if === undefined) return !failed;
  const text = String(step.if).trim().replace(/^\$\{\{(.*)\}\}$/s, "$1");
  const usesStatus = /\b(always|success|failure)\(\)/.test(text);
  const value = evaluate(text);
  return usesStatus ? Boolean(value) : !failed && Boolean(value);
}

function readOutputs(file) {
  const outputs = {};
  const lines = fs.readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; ++i) {
    const line = lines[i];
    const heredoc = line.match(/^([^=<]+)<<(.+)$/);
    if (heredoc) {
      const body = [];
      for (++i; i < lines.length && lines[i] !== heredoc[2]; ++i) body.push(lines[i]);
      outputs[heredoc[1]] = body.join("\n");
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

function copyInto(from, to) {
  const target = to.replace(/^~(?=\/|$)/, env.HOME ?? os.homedir());
  fs.mkdirSync(target, { recursive: true });
  fs.cpSync(from, target, { recursive: true });
  return target;
}

// The variables a runner gives a step inside a fresh root: none of this process's own.
function rootEnv(stepEnv, declared) {
  const keep = Object.entries(stepEnv).filter(
    ([name]) => /^(GITHUB_|RUNNER_|INPUT_|CI$)/.test(name) || name === "HOME" || declared.has(name),
  );
  const rootPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  return [...keep, ["PATH", [...extraPath, rootPath].join(":")]];
}

function spawnStep(script, cwd, stepEnv, declared) {
  const bashArgs = ["bash", "--noprofile", "--norc", "-eo", "pipefail", script];
  if (!inRoot) {
    return spawnSync(bashArgs[0], bashArgs.slice(1), { cwd, env: stepEnv, stdio: ["ignore", "inherit", "inherit"] });
  }
  const inRootScript = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../roots/in-root.sh");
  const rootArgs = [inRoot];
  for (const b of binds) rootArgs.push("--bind", b);
  for (const [name, value] of rootEnv(stepEnv, declared)) rootArgs.push("--env", `${name}=${value}`);
  rootArgs.push("--", "/usr/bin/env", "-C", cwd, ...bashArgs);
  return spawnSync(inRootScript, rootArgs, { stdio: ["ignore", "inherit", "inherit"] });
}

// actions/cache with a store: a hit restores STORE/KEY; a miss is saved after the job.
const pendingSaves = [];
function emulateCache(step, index, title) {
  const target = substitute(step.with?.path ?? "").replace(/^~(?=\/|$)/, env.HOME ?? os.homedir());
  if (restoreCache) {
    copyInto(restoreCache, target);
    console.error(`run-action: [${index}] ${title}: cache hit emulated (${restoreCache} -> ${target})`);
    return;
  }
  const key = substitute(step.with?.key ?? "");
  const entry = path.join(cacheStore, key);
  if (fs.existsSync(entry)) {
    copyInto(entry, target);
    console.error(`run-action: [${index}] ${title}: cache hit for key ${key}`);
  } else {
    console.error(`run-action: [${index}] ${title}: cache miss for key ${key}`);
    pendingSaves.push({ key, target, entry });
  }
}

const extraPath = [];
const scratch = fs.mkdtempSync(path.join(runnerTemp, "run-action-"));
let index = 0;
for (const step of action.runs.steps) {
  ++index;
  const title = step.name ?? step.id ?? step.uses ?? `step ${index}`;
  if (!condition(step)) {
    console.error(`run-action: [${index}] ${title}: skipped (if: ${step.if ?? "success()"})`);
    continue;
  }
  if (step.uses) {
    if ((restoreCache || cacheStore) && step.uses.startsWith("actions/cache@")) {
      emulateCache(step, index, title);
    } else if (artifactDir && step.uses.startsWith("actions/download-artifact@")) {
      const target = copyInto(artifactDir, path.resolve(workspace, substitute(step.with?.path ?? ".")));
      console.error(`run-action: [${index}] ${title}: artifact emulated (${artifactDir} -> ${target})`);
    } else {
      console.error(`run-action: [${index}] ${title}: not run locally (uses: ${step.uses})`);
    }
    continue;
  }
  const shell = step.shell ?? (workflowFile ? "bash" : undefined);
  if (shell !== "bash") usage(`step ${title} has shell '${step.shell}'; composite run steps here must use bash`);
  const stepEnv = { ...env, GITHUB_ACTION_PATH: actionPath, RUNNER_TEMP: runnerTemp };
  stepEnv.PATH = [...extraPath, env.PATH].join(":");
  const declared = new Set([...Object.keys(jobEnv), ...Object.keys(step.env ?? {})]);
  for (const [name, value] of Object.entries({ ...jobEnv, ...(step.env ?? {}) })) stepEnv[name] = substitute(value);
  const outputFile = path.join(scratch, `output-${index}`);
  const pathFile = path.join(scratch, `path-${index}`);
  fs.writeFileSync(outputFile, "");
  fs.writeFileSync(pathFile, "");
  stepEnv.GITHUB_OUTPUT = outputFile;
  stepEnv.GITHUB_PATH = pathFile;
  const script = path.join(scratch, `step-${index}.sh`);
  fs.writeFileSync(script, substitute(step.run));
  const cwd = path.resolve(workspace, substitute(step["working-directory"] ?? "."));
  console.error(`run-action: [${index}] ${title}`);
  const started = process.hrtime.bigint();
  const result = spawnStep(script, cwd, stepEnv, declared);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (step.id) context.steps[step.id] = { outputs: readOutputs(outputFile) };
  for (const dir of fs.readFileSync(pathFile, "utf8").split("\n").filter(Boolean)) extraPath.unshift(dir);
  const code = result.status ?? 128;
  console.error(`run-action: [${index}] ${title}: ${code === 0 ? "done" : `failed with exit code ${code}`} in ${seconds.toFixed(1)} s`);
  if (code !== 0) failed = true;
}

for (const save of pendingSaves) {
  if (failed) {
    console.error(`run-action: post: cache not saved for key ${save.key} (the job failed)`);
  } else if (fs.existsSync(save.target)) {
    copyInto(save.target, save.entry);
    console.error(`run-action: post: cache saved for key ${save.key}`);
  }
}

const outputs = {};
for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = substitute(spec.value ?? "");
const text = JSON.stringify(outputs, null, 2);
if (outputsFile) fs.writeFileSync(outputsFile, text + "\n");
console.error(`run-action: outputs ${text}`);
fs.rmSync(scratch, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
