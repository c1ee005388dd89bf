/* The event report's charts, drawn with the vendored Chart.js from the figures the page carries as JSON
   (#report-data). Every chart has its table beside it; colours are the Okabe–Ito colour-blind-safe set,
   and each series also has its own fill pattern, so no series is told apart by colour alone. */
(function () {
  "use strict";
  var source = document.getElementById("report-data");
  if (!source || typeof Chart === "undefined") { return; }
  var data = JSON.parse(source.textContent);
  var COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000"];
  var PATTERNS = ["solid", "diagonal", "dots", "cross", "horizontal", "vertical", "back", "grid"];

  function pattern(colour, kind) {
    if (kind === "solid") { return colour; }
    var tile = document.createElement("canvas");
    tile.width = tile.height = 16;
    var c = tile.getContext("2d");
    c.fillStyle = colour;
    c.fillRect(0, 0, 16, 16);
    c.strokeStyle = "rgba(255,255,255,0.85)";
    c.fillStyle = "rgba(255,255,255,0.85)";
    c.lineWidth = 2.5;
    c.beginPath();
    if (kind === "diagonal" || kind === "cross") { c.moveTo(-4, 20); c.lineTo(20, -4); c.moveTo(-4, 4); c.lineTo(4, -4); c.moveTo(12, 20); c.lineTo(20, 12); }
    if (kind === "back" || kind === "cross") { c.moveTo(-4, -4); c.lineTo(20, 20); c.moveTo(12, -4); c.lineTo(20, 4); c.moveTo(-4, 12); c.lineTo(4, 20); }
    if (kind === "horizontal" || kind === "grid") { c.moveTo(0, 8); c.lineTo(16, 8); }
    if (kind === "vertical" || kind === "grid") { c.moveTo(8, 0); c.lineTo(8, 16); }
    c.stroke();
    if (kind === "dots") { c.beginPath(); c.arc(4, 4, 2.2, 0, 7); c.arc(12, 12, 2.2, 0, 7); c.fill(); }
    return c.createPattern(tile, "repeat");
  }

  // Names may be 32 characters long: charts show them cut short, the tables beside them in full.
  var LONGEST = window.innerWidth < 600 ? 14 : 24;
  function short(name, longest) {
    longest = longest || LONGEST;
    return name.length > longest ? name.slice(0, longest - 1) + "…" : name;
  }

  function series(i, label, values, extra) {
    var colour = COLOURS[i % COLOURS.length];
    var kind = PATTERNS[(i + Math.floor(i / COLOURS.length)) % PATTERNS.length];
    return Object.assign({label: label, data: values, backgroundColor: pattern(colour, kind),
                          borderColor: colour === "#F0E442" ? "#000" : colour, borderWidth: 2}, extra || {});
  }

  var size = Math.max(14, Math.min(24, Math.round(window.innerWidth / 80)));
  Chart.defaults.font.size = size;
  Chart.defaults.color = "#111";
  Chart.defaults.borderColor = "rgba(0,0,0,0.2)";
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.plugins.legend.labels.boxWidth = size * 1.6;
  Chart.defaults.plugins.legend.labels.boxHeight = size;

  function bars(id, labels, datasets, y, x) {
    var canvas = document.getElementById(id);
    if (!canvas) { return null; }
    // Every phase named under its bars, however narrow the screen (Chart.js would skip some).
    var options = {responsive: true, scales: {x: x || {ticks: {autoSkip: false}}, y: Object.assign({beginAtZero: true}, y)},
                   plugins: {legend: {position: "bottom"}}};
    return new Chart(canvas, {type: "bar", data: {labels: labels, datasets: datasets}, options: options});
  }

  function phaseLabel(n) { return data.labels.phases[n] || "Phase " + n; }
  function tierLabel(t) { return data.labels.tiers[t] || t; }
  function percent(value) { return value === null ? null : Math.round(value * 1000) / 10; }
  var percentAxis = {max: 100, title: {display: true, text: "% right"}};

  var phases = data.points.map(function (r) { return phaseLabel(r.phase); });
  bars("chart-points", phases, [series(0, "Humans", data.points.map(function (r) { return r.humans; }))].concat(
    data.tiers.map(function (t, i) {
      return series(i + 1, tierLabel(t), data.points.map(function (r) { return r[t] || 0; }));
    })), {title: {display: true, text: "points"}});

  var numbers = data.phases.map(function (p) { return p.number; });
  var withBonuses = data.bonuses.length > 0;  // the bonuses' column only where a match had bonuses
  bars("chart-margins", numbers.map(phaseLabel).concat(withBonuses ? ["Bonuses"] : [], ["Adjustments", "Average"]),
       data.margins.map(function (r, i) {
    return series(i, short(r.label) + (r.code ? " (" + r.code + ")" : ""),
                  numbers.map(function (n) { return r.phases[n]; }).concat(withBonuses ? [r.bonuses] : [],
                                                                           [r.adjustments, r.average]));
  }), {beginAtZero: false, title: {display: true, text: "margin per question"}});

  bars("chart-accuracy", data.accuracy.map(function (r) { return phaseLabel(r.phase); }), [
    series(0, "Humans", data.accuracy.map(function (r) { return percent(r.human.accuracy); })),
    series(4, "Computer", data.accuracy.map(function (r) { return percent(r.computer.accuracy); }))
  ], percentAxis);

  var bots = data.bots.map(function (b) { return [short(b.name, 12), tierLabel(b.tier)]; });  // two lines under its bars
  bars("chart-bots", bots, [
    series(0, "Accuracy at the start", data.bots.map(function (b) { return percent(b.start_accuracy); })),
    series(1, "Accuracy at the end", data.bots.map(function (b) { return percent(b.end_accuracy); })),
    series(2, "EW, these humans", data.bots.map(function (b) { return percent(b.expected_wins); })),
    series(3, "EW, QANTA curve", data.bots.map(function (b) { return percent(b.expected_wins_curve); }))
  ], {max: 100, title: {display: true, text: "% of its questions"}}, {ticks: {maxRotation: 0, autoSkip: false}});

  var parts = Math.max.apply(null, [0].concat(data.bonuses.map(function (r) { return r.parts.length; })));
  var partLabels = [];
  for (var k = 1; k <= parts; k += 1) { partLabels.push("Part " + k); }
  bars("chart-bonuses", partLabels, data.bonuses.map(function (r, i) {
    return series(i, short(r.label) + (r.code ? " (" + r.code + ")" : ""),
                  partLabels.map(function (_, k) { return r.parts[k] ? percent(r.parts[k].share) : null; }));
  }), percentAxis);

  var who = [{label: "Humans", histogram: data.human_buzzes}].concat(data.bots.filter(function (b) { return b.buzzes; })
    .map(function (b) { return {label: b.name, histogram: b.histogram}; }));
  var tenths = data.human_buzzes.right.map(function (_, i) { return i * 10 + "–" + (i + 1) * 10 + "%"; });
  var stacks = [];
  who.forEach(function (w, i) {
    stacks.push(series(2 * i, short(w.label) + ", right", w.histogram.right, {stack: "s" + i}));
    stacks.push(series(2 * i + 1, short(w.label) + ", wrong", w.histogram.wrong, {stack: "s" + i}));
  });
  bars("chart-histogram", tenths, stacks, {stacked: true, ticks: {precision: 0}, title: {display: true, text: "buzzes"}},
       {stacked: true, title: {display: true, text: "share of the question read"}});
}());
