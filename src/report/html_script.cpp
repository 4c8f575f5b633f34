#include "report/html_script.hpp"

#include <algorithm>

#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

// Plain ES5, no library. Every text from the data goes in through textContent.
constexpr std::string_view kScript = R"js(
(function () {
  "use strict";
  var source = document.getElementById("cgbench-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var controls = document.getElementById("controls");
  var svgns = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The name filter: hides sections, summary rows and step entries whose name does not match.
  var filter = el("input");
  filter.type = "search";
  filter.id = "filter";
  filter.placeholder = "filter benchmarks by name";
  filter.setAttribute("aria-label", "filter benchmarks by name");
  var filterLabel = el("label", "control");
  filterLabel.appendChild(filter);
  controls.appendChild(filterLabel);
  filter.addEventListener("input", function () {
    var q = filter.value.toLowerCase();
    var named = document.querySelectorAll("[data-name]");
    for (var i = 0; i < named.length; i++) {
      named[i].hidden = q !== "" && named[i].getAttribute("data-name").toLowerCase().indexOf(q) < 0;
    }
    var events = document.querySelectorAll("tr.event");
    for (var j = 0; j < events.length; j++) {
      events[j].hidden = !events[j].querySelector("[data-name]:not([hidden])");
    }
  });

  // One switch per branch: shows or hides its lines in every chart.
  data.branches.forEach(function (name, index) {
    var box = el("input");
    box.type = "checkbox";
    box.checked = true;
    var label = el("label", "control");
    label.appendChild(box);
    var swatch = el("span", "sw br" + index);
    label.appendChild(swatch);
    label.appendChild(document.createTextNode(name));
    controls.appendChild(label);
    box.addEventListener("change", function () {
      document.body.classList.toggle("hide-br" + index, !box.checked);
    });
  });

  // Hover details: the results at the commit under the pointer.
  var tip = el("div", "tip");
  tip.hidden = true;
  document.body.appendChild(tip);
  function percent(r) {
    var p = r * 100, d = Math.abs(p) >= 1 ? 2 : Math.abs(p) >= 0.01 ? 3 : 5;
    return (p > 0 ? "+" : "") + p.toFixed(d) + "%";
  }
  function commas(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function pointAt(points, pos) {
    for (var i = 0; i < points.length; i++) if (points[i][0] === pos) return points[i];
    return null;
  }
  data.charts.forEach(function (chart) {
    var svg = document.getElementById("chart-" + chart.id);
    if (!svg || chart.runs.length === 0) return;
    var guide = document.createElementNS(svgns, "line");
    guide.setAttribute("class", "hover");
    guide.setAttribute("y1", chart.top);
    guide.setAttribute("y2", chart.bottom);
    svg.appendChild(guide);
    var current = -1;
    function position(ev) {
      var pt = svg.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      var local = pt.matrixTransform(svg.getScreenCTM().inverse());
      var pos = chart.dx > 0 ? Math.round((local.x - chart.x0) / chart.dx) : 0;
      return Math.max(0, Math.min(chart.runs.length - 1, pos));
    }
    svg.addEventListener("mousemove", function (ev) {
      var pos = position(ev);
      current = pos;
      var run = data.runs[chart.runs[pos]];
      var x = chart.x0 + chart.dx * pos;
      guide.setAttribute("x1", x);
      guide.setAttribute("x2", x);
      guide.style.display = "block";
      tip.textContent = "";
      var head = el("b", "", (run[2] ? run[2].slice(0, 10) : "no commit") + "  " + run[1]);
      tip.appendChild(head);
      var subject = run[2] && data.commits[run[2]];
      if (subject) tip.appendChild(el("div", "subject", subject));
      chart.lines.forEach(function (line) {
        var p = pointAt(line[1], pos);
        if (!p) return;
        var text = data.branches[line[0]] + ": " + (p[1] === null ? "failed" : commas(p[1]));
        if (p.length > 2) text += "  (" + percent(p[2]) + " vs previous)";
        tip.appendChild(el("div", "br" + line[0], text));
      });
      if (run[3]) tip.appendChild(el("div", "", "measured with uncommitted changes"));
      if (data.url && run[2]) tip.appendChild(el("div", "hint", "click to open the commit"));
      tip.hidden = false;
      var left = Math.min(ev.pageX + 14, window.scrollX + document.documentElement.clientWidth - tip.offsetWidth - 8);
      tip.style.left = left + "px";
      tip.style.top = (ev.pageY + 14) + "px";
    });
    svg.addEventListener("mouseleave", function () {
      tip.hidden = true;
      guide.style.display = "none";
      current = -1;
    });
    svg.addEventListener("click", function (ev) {
      if (ev.target.closest && ev.target.closest("a")) return;
      var run = current >= 0 ? data.runs[chart.runs[current]] : null;
      if (data.url && run && run[2]) window.open(data.url.split("{commit}").join(run[2]), "_blank", "noopener");
    });
  });
})();
)js";

}  // namespace

std::string_view page_script() {
    return kScript;
}

const std::string& page_script_hash() {
    static const std::string hash = util::csp_hash(kScript);
    return hash;
}

std::string script_safe_json(std::string_view json) {
    std::string out;
    out.reserve(json.size());
    while (!json.empty()) {
        char32_t cp = 0;
        const std::size_t n = std::max<std::size_t>(1, util::utf8_sequence(json, cp));
        if (json.front() == '<') {
            out += "\\u003c";
        } else if (n > 1 && util::bidi_control(cp)) {
            out += "\\ufffd";  // shown as U+FFFD, as markup_escape shows it in the page
        } else {
            out += json.substr(0, n);
        }
        json.remove_prefix(n);
    }
    return out;
}

}  // namespace cgbench::report
