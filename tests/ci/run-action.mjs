// Runs the steps of a composite GitHub action (action.yml) here, as the runner would: each
// `run:` step with `bash --noprofile --norc -eo pipefail`, its `if:`, `env:` and
// `working-directory:` evaluated with the `${{ }}` expressions the action uses, and
// GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY and GITHUB_ACTION_PATH set. `uses:` steps
// are not run (they need GitHub's services), with one exception: with --restore-cache DIR,
// an actions/cache step is emulated as a cache hit by copying DIR to its `path`.
//
// Usage: node run-action.mjs ACTION_DIR [--input NAME=VALUE]... [--restore-cache DIR]
//                            [--outputs FILE]
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
const actionDir = args.shift();
if (!actionDir) usage("no ACTION_DIR");
const givenInputs = {};
let restoreCache = null;
let outputsFile = null;
while (args.length > 0) {
  const a = args.shift();
  if (a === "--input") {
    const kv = args.shift() ?? usage("--input needs NAME=VALUE");
    const eq = kv.indexOf("=");
    if (eq < 0) usage(`--input '${kv}' is not NAME=VALUE`);
    givenInputs[kv.slice(0, eq)] = kv.slice(eq + 1);
  } else if (a === "--restore-cache") {
    restoreCache = args.shift() ?? usage("--restore-cache needs a directory");
  } else if (a === "--outputs") {
    outputsFile = args.shift() ?? usage("--outputs needs a file");
  } else {
    usage(`unknown argument '${a}'`);
  }
}

const actionPath = path.resolve(actionDir);
const action = yaml.load(fs.readFileSync(path.join(actionPath, "action.yml"), "utf8"));
if (action?.runs?.using !== "composite") usage(`${actionDir}/action.yml is not a composite action`);

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
        /\b(inputs|steps|github|runner|env)((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)/g,
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
    if (restoreCache && step.uses.startsWith("actions/cache@")) {
      const target = copyInto(restoreCache, substitute(step.with?.path ?? ""));
      console.error(`run-action: [${index}] ${title}: cache hit emulated (${restoreCache} -> ${target})`);
    } else {
      console.error(`run-action: [${index}] ${title}: not run locally (uses: ${step.uses})`);
    }
    continue;
  }
  if (step.shell !== "bash") usage(`step ${title} has shell '${step.shell}'; composite run steps here must use bash`);
  const stepEnv = { ...env, GITHUB_ACTION_PATH: actionPath, RUNNER_TEMP: runnerTemp };
  stepEnv.PATH = [...extraPath, env.PATH].join(":");
  for (const [name, value] of Object.entries(step.env ?? {})) stepEnv[name] = substitute(value);
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
  const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd,
    env: stepEnv,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (step.id) context.steps[step.id] = { outputs: readOutputs(outputFile) };
  for (const dir of fs.readFileSync(pathFile, "utf8").split("\n").filter(Boolean)) extraPath.unshift(dir);
  const code = result.status ?? 128;
  if (code !== 0) {
    failed = true;
    console.error(`run-action: [${index}] ${title}: failed with exit code ${code}`);
  }
}

const outputs = {};
for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = substitute(spec.value ?? "");
const text = JSON.stringify(outputs, null, 2);
if (outputsFile) fs.writeFileSync(outputsFile, text + "\n");
console.error(`run-action: outputs ${text}`);
fs.rmSync(scratch, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
