// Loads a page in headless chromium and reports what a person would see, through the Chrome
// DevTools Protocol over a pipe (--remote-debugging-pipe: no port, no npm package).
//
// Usage: node cdp.mjs CHROMIUM URL OUT_PREFIX [WIDTHxHEIGHT]
// Evaluates the measuring script below in the loaded page (after its own script ran), writes
// OUT_PREFIX.json with the result and OUT_PREFIX.png (a full-page screenshot), and prints the
// JSON. Exits 1 when the page cannot be loaded. Env: CDP_TIMEOUT_MS (default 60000) for the
// whole session; CDP_SCREENSHOT=0 skips the screenshot (bench/report_scale.sh).
import { spawn } from "node:child_process";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [chromium, url, prefix, size = "1400x1000"] = process.argv.slice(2);
const [width, height] = size.split("x").map(Number);
const profile = mkdtempSync(join(tmpdir(), "cgbench-cdp-"));
const child = spawn(chromium, [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
  `--user-data-dir=${profile}`, "--remote-debugging-pipe", `--window-size=${width},${height}`,
  "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let stderr = "";
child.stdio[2].on("data", (d) => { stderr += d; });

let nextId = 1;
const pending = new Map();
const waiters = [];
let buffer = "";
child.stdio[4].on("data", (chunk) => {
  buffer += chunk.toString("utf8");
  let end;
  while ((end = buffer.indexOf("\0")) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(JSON.stringify(message.error)));
      else resolve(message.result);
    } else if (message.method) {
      for (const w of waiters.slice()) {
        if (w.method === message.method && w.sessionId === message.sessionId) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message.params);
        }
      }
    }
  }
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) message.sessionId = sessionId;
  child.stdio[3].write(JSON.stringify(message) + "\0");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function event(method, sessionId) {
  return new Promise((resolve) => waiters.push({ method, sessionId, resolve }));
}

// What a person sees: every step marker and every label's box, as the browser laid them out.
const measure = `(() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; };
  const charts = [...document.querySelectorAll("svg.chart")].map((svg) => ({
    id: svg.id,
    name: svg.closest("section") ? svg.closest("section").getAttribute("data-name") : null,
    box: box(svg),
    markers: [...svg.querySelectorAll(".stepmark")].map((e) => ({ cls: e.getAttribute("class"), box: box(e) })),
    labels: [...svg.querySelectorAll("text")].filter((t) => t.getBBox().width > 0)
      .map((t) => ({ cls: t.getAttribute("class"),
        text: [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join("").trim(),
        box: box(t) })),
    lines: svg.querySelectorAll(".line").length,
  }));
  return JSON.stringify({
    title: document.title,
    scripts: document.querySelectorAll("script").length,
    controls: document.querySelectorAll("#controls input").length,
    filter: !!document.getElementById("filter"),
    stepsRows: document.querySelectorAll("tr.event").length,
    sections: document.querySelectorAll("section.bench").length,
    charts,
  });
})()`;

const timer = setTimeout(() => { console.error("timed out\n" + stderr); child.kill("SIGKILL"); process.exit(1); }, Number(process.env.CDP_TIMEOUT_MS || 60000));
try {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  await send("Page.enable", {}, sessionId);
  await send("Emulation.setDeviceMetricsOverride",
    { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
  const loaded = event("Page.loadEventFired", sessionId);
  const started = Date.now();
  await send("Page.navigate", { url }, sessionId);
  await loaded;
  const loadMs = Date.now() - started;
  const { result, exceptionDetails } = await send("Runtime.evaluate",
    { expression: measure, returnByValue: true }, sessionId);
  if (exceptionDetails) throw new Error(JSON.stringify(exceptionDetails));
  const report = JSON.parse(result.value);
  report.loadMs = loadMs;
  if (process.env.CDP_SCREENSHOT !== "0") {
    const shot = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true }, sessionId);
    writeFileSync(prefix + ".png", Buffer.from(shot.data, "base64"));
  }
  writeFileSync(prefix + ".json", JSON.stringify(report, null, 1));
  console.log(JSON.stringify(report));
  await send("Browser.close").catch(() => {});
} catch (e) {
  console.error(String(e) + "\n" + stderr);
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  // Its helper processes may still be writing into the profile for a moment.
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (e) {
    console.error(`could not remove ${profile}: ${e.message}`);
  }
}
