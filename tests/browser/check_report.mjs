// Checks what headless chromium showed of the report (cdp.mjs's JSON) against the steps
// `cgbench steps --format json` found in the same database: a marker per step in each chart,
// labels that do not overlap, the page's own script ran (filter, branch switches) and no other.
//
// Usage: node check_report.mjs PAGE.json STEPS.json
import { readFileSync } from "node:fs";

const page = JSON.parse(readFileSync(process.argv[2], "utf8"));
const steps = JSON.parse(readFileSync(process.argv[3], "utf8"));
let failures = 0;
function check(what, ok, detail = "") {
  if (!ok) {
    failures++;
    console.error(`FAIL: ${what}${detail ? ": " + detail : ""}`);
  }
}

check("the title is the page's own", page.title === "cgbench history", page.title);
check("two scripts: the data block and the page's own", page.scripts === 2, String(page.scripts));
check("the script added the name filter", page.filter);
const branches = steps.branches.length;
check("a switch per branch", page.controls === 1 + branches, `${page.controls} inputs, ${branches} branches`);
let events = 0;
for (const b of steps.branches) events += b.events.length;
check("a row per step event", page.stepsRows === events, `${page.stepsRows} rows, ${events} events`);

// Steps per benchmark, every branch.
const expected = {};
for (const b of steps.branches)
  for (const e of b.events)
    for (const s of e.steps) expected[s.benchmark] = (expected[s.benchmark] || 0) + 1;

function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0.5 && h > 0.5 ? w * h : 0;
}
let markers = 0;
let stepLabels = 0;
for (const chart of page.charts) {
  const name = chart.name;
  const want = expected[name] || 0;
  markers += chart.markers.length;
  check(`${name}: a marker per step`, chart.markers.length === want, `${chart.markers.length} markers, ${want} steps`);
  for (const m of chart.markers) {
    const inside = m.box.x >= chart.box.x && m.box.x + m.box.w <= chart.box.x + chart.box.w &&
      m.box.y >= chart.box.y && m.box.y + m.box.h <= chart.box.y + chart.box.h;
    check(`${name}: marker inside the chart`, inside && m.box.w > 0, JSON.stringify(m.box));
  }
  const labels = chart.labels.filter((l) => !(l.cls || "").includes("caption"));
  stepLabels += labels.filter((l) => (l.cls || "").includes("steplabel")).length;
  if (want > 0) {
    check(`${name}: step labels shown`, labels.some((l) => (l.cls || "").includes("steplabel")));
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = 0; j < i; j++) {
      const area = overlap(labels[i].box, labels[j].box);
      check(`${name}: labels apart`, area === 0,
        `"${labels[i].text}" and "${labels[j].text}" overlap by ${area.toFixed(1)} px²`);
    }
}
check("step markers drawn", markers > 0);
if (failures > 0) process.exit(1);
console.log(`ok: ${page.charts.length} charts, ${markers} step markers, ${stepLabels} step labels, no overlap; loaded in ${page.loadMs} ms`);
