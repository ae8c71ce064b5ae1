// Draws the report's charts with uPlot from the JSON in #chart-data. Every time chart shares one simulated-time
// axis: the cursor moves on all of them together, and zooming (drag to select, wheel) or panning (shift+drag) one
// zooms or pans all; double-click resets. Each chart writes how many points or bars it drew into data-drawn, and how
// many of its axis texts had to be cut short to fit into data-shortened.
(function () {
  var specs = JSON.parse(document.getElementById('chart-data').textContent);
  var timeCharts = [];
  var syncing = false;

  function fmtN(v) {
    if (v == null || isNaN(v)) return '-';
    var a = Math.abs(v);
    if (a >= 1e9) return trim((v / 1e9).toFixed(a >= 1e10 ? 1 : 2)) + 'G';
    if (a >= 1e6) return trim((v / 1e6).toFixed(a >= 1e7 ? 1 : 2)) + 'M';
    if (a >= 1e3) return trim((v / 1e3).toFixed(a >= 1e5 ? 0 : a >= 1e4 ? 1 : 2)) + 'k';
    if (a >= 100 || v === 0) return String(Math.round(v));
    if (a >= 1) return trim(v.toFixed(2));
    return trim(v.toPrecision(3));
  }
  // A value with its unit: bytes and bits as kB, MB, Gb/s (SI, as the axis ticks), others as "12.5 %".
  function withUnit(v, unit) {
    if (!unit) return fmtN(v);
    var s = fmtN(v), last = s.charAt(s.length - 1);
    if (unit === 'B' && 'kMG'.indexOf(last) >= 0) return s.slice(0, -1) + ' ' + last + 'B';
    return s + ' ' + unit;
  }
  function trim(s) { return s.indexOf('.') < 0 ? s : s.replace(/0+$/, '').replace(/\.$/, ''); }
  // Simulated time (microseconds) in the unit that suits the visible span, with as many decimals as the tick step needs.
  function timeUnit(span) { return span >= 2000 ? ['ms', 1e-3] : span >= 2 ? ['us', 1] : ['ns', 1e3]; }
  function fmtT(us, span, step) {
    var u = timeUnit(span);
    var v = us * u[1];
    var d = step ? stepDecimals(step * u[1]) : (Math.abs(v) >= 100 ? 1 : 3);
    return trim(v.toFixed(d)) + ' ' + u[0];
  }
  // Decimals that write a tick step exactly (0.25 ms needs two: with one, ticks 0.25 ms apart read 0.3, 0.5, 0.8).
  function stepDecimals(s) {
    var d = Math.max(0, -Math.floor(Math.log10(s) + 1e-9));
    while (d < 6) {
      var scaled = s * Math.pow(10, d);
      if (Math.abs(scaled - Math.round(scaled)) <= 1e-6 * Math.max(1, scaled)) break;
      d++;
    }
    return Math.min(6, d);
  }
  function span(u) { return u.scales.x.max - u.scales.x.min; }
  function setDrawn(spec, n) {
    var e = document.getElementById('drawn-' + spec.id);
    if (!e) return;
    e.setAttribute('data-drawn', String(n));
    if (!e.hasAttribute('data-shortened')) e.setAttribute('data-shortened', '0');
  }
  function col(a) { return a.map(function (v) { return v == null ? null : v; }); }

  function syncScale(u, key) {
    if (key !== 'x' || syncing || timeCharts.indexOf(u) < 0) return;
    syncing = true;
    var mn = u.scales.x.min, mx = u.scales.x.max;
    timeCharts.forEach(function (o) { if (o !== u) o.setScale('x', {min: mn, max: mx}); });
    syncing = false;
  }

  function wheelAndPan(u, spec) {
    var over = u.over;
    over.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = over.getBoundingClientRect();
      var at = u.posToVal(e.clientX - r.left, 'x');
      var mn = u.scales.x.min, mx = u.scales.x.max, f = e.deltaY < 0 ? 0.8 : 1.25;
      var lo = Math.max(spec.xMin, at - (at - mn) * f), hi = Math.min(spec.xMax, at + (mx - at) * f);
      if (hi > lo) u.setScale('x', {min: lo, max: hi});
    }, {passive: false});
    over.addEventListener('mousedown', function (e) {
      if (!e.shiftKey) return;
      e.stopPropagation(); e.preventDefault();
      var x0 = e.clientX, mn = u.scales.x.min, mx = u.scales.x.max, perPx = (mx - mn) / over.clientWidth;
      function move(m) {
        var d = (m.clientX - x0) * perPx;
        d = Math.max(mn - spec.xMax + (mx - mn), Math.min(mn - spec.xMin, d));
        u.setScale('x', {min: mn - d, max: mx - d});
      }
      function up() { document.removeEventListener('mousemove', move); document.removeEventListener('mouseup', up); }
      document.addEventListener('mousemove', move); document.addEventListener('mouseup', up);
    }, true);
  }

  function xAxis(spec) {
    if (spec.timeAxis) {
      return {label: spec.xLabel, values: function (u, splits, ax, space, incr) {
        return splits.map(function (v) { return fmtT(v, span(u), incr); });
      }};
    }
    return {label: spec.xTitle, values: function (u, splits) { return splits.map(axN); }};
  }
  function axN(v) { return v == null ? '' : fmtN(v); }

  // Axis texts are measured in the font they are drawn in, and each axis is as wide as its longest label: lane
  // names were once sized at a guessed 6 px per character, and the GPU view's "gpt r10 tp=2 dp=0 pp=1" (151 px in
  // DejaVu Sans, 144 px of room) lost its "g" to the canvas's left edge. A text that still cannot fit (a lane name
  // over MAX_LANE_LABEL, a y title longer than its chart is high) is cut with an ellipsis, never clipped, and counted
  // in the chart's data-shortened.
  var AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
  var TITLE_FONT = 'bold ' + AXIS_FONT;
  var TICK = 10, GAP = 5, LANE_GAP = 4, MAX_LANE_LABEL = 320, NUM_AXIS = 64;
  var measurer = document.createElement('canvas').getContext('2d');
  function textWidth(s, font) { measurer.font = font; return measurer.measureText(s).width; }
  // s, or as much of it as fits px followed by an ellipsis.
  function fit(s, font, px) {
    if (textWidth(s, font) <= px) return s;
    var lo = 0, hi = s.length - 1;
    while (lo < hi) {
      var m = (lo + hi + 1) >> 1;
      if (textWidth(s.slice(0, m) + '\u2026', font) <= px) lo = m; else hi = m - 1;
    }
    return s.slice(0, lo) + '\u2026';
  }
  function shortened(spec, text, cut) {
    spec.cut = spec.cut || {};
    if (cut) spec.cut[text] = true; else delete spec.cut[text];
    var e = document.getElementById('drawn-' + spec.id);
    if (e) e.setAttribute('data-shortened', String(Object.keys(spec.cut).length));
  }
  // Every time chart gets the same left axis width, so their plot areas (and times) line up vertically.
  function labelWidth(spec) {
    if (spec.kind !== 'LANES') return NUM_AXIS;
    var w = spec.rows.reduce(function (m, r) { return Math.max(m, textWidth(r, AXIS_FONT)); }, 0);
    return Math.min(MAX_LANE_LABEL, Math.ceil(w) + LANE_GAP + 4);
  }
  var timeAxisWidth = specs.reduce(function (m, s) { return s.timeAxis ? Math.max(m, labelWidth(s)) : m; }, NUM_AXIS);
  function yWidth(spec) { return spec.timeAxis ? timeAxisWidth : labelWidth(spec); }
  // A numeric y axis: its tick labels beside the ticks, and wider than the others if a label needs it.
  function numAxis(spec) {
    return {label: spec.yLabel, font: AXIS_FONT, labelFont: TITLE_FONT, gap: GAP, ticks: {size: TICK},
      values: function (u, splits) { return splits.map(axN); },
      size: function (u, values) {
        var w = (values || []).reduce(function (m, v) { return v ? Math.max(m, textWidth(v, AXIS_FONT)) : m; }, 0);
        return Math.max(yWidth(spec), Math.ceil(w) + TICK + GAP + 2);
      }};
  }
  // The y title is drawn centred on the plot's middle, turned upright: it has twice the nearer of the canvas's top
  // and bottom edges (the plot is known only once laid out, so this runs before every draw).
  function fitTitle(spec) {
    return function (u) {
      if (!spec.yLabel) return;
      var pr = uPlot.pxRatio, mid = (u.bbox.top + u.bbox.height / 2) / pr;
      var room = 2 * Math.min(mid, u.height - mid) - 4;
      u.axes[1].label = fit(spec.yLabel, TITLE_FONT, room);
      shortened(spec, spec.yLabel, u.axes[1].label !== spec.yLabel);
    };
  }

  function width(el) { return Math.max(360, el.clientWidth || 900); }

  function visibleCount(u) {
    var x = u.data[0], mn = u.scales.x.min, mx = u.scales.x.max, n = 0;
    for (var s = 1; s < u.series.length; s++) {
      if (!u.series[s].show || u.series[s].rocelabLine) continue;
      var y = u.data[s];
      for (var i = 0; i < x.length; i++) if (y[i] != null && x[i] >= mn && x[i] <= mx) n++;
    }
    return n;
  }

  function series(spec) {
    var out = [{label: spec.timeAxis ? 'time' : spec.xLabel, value: function (u, v) {
      return v == null ? '-' : spec.timeAxis ? fmtT(v, span(u)) : fmtN(v);
    }}];
    var data = [spec.x];
    spec.series.forEach(function (s) {
      var o = {label: s.name, stroke: s.color, width: 1.5, value: function (u, v) { return v == null ? '-' : withUnit(v, spec.yUnit); }};
      if (s.style === 'STEP') { o.paths = uPlot.paths.stepped({align: 1}); o.points = {show: false}; }
      else if (s.style === 'POINTS') {
        o.paths = function () { return null; };
        o.points = {show: true, size: 7, width: 1, stroke: s.color, fill: s.color};
      } else { o.points = {show: false}; }
      out.push(o);
      data.push(col(s.y));
    });
    spec.lines.forEach(function (h) {
      out.push({label: h.label, stroke: h.color, width: 1, dash: [6, 4], points: {show: false}, rocelabLine: true,
        value: function () { return withUnit(h.y, spec.yUnit); }});
      data.push(spec.x.map(function () { return h.y; }));
    });
    return {series: out, data: data};
  }

  function plot(spec, el) {
    var sd = series(spec);
    var opts = {
      width: width(el), height: 260,
      scales: {x: {time: false, distr: spec.logX ? 3 : 1,
                   range: function () { return [spec.xMin, spec.xMax]; }},
               y: {range: function (u, mn, mx) { return [0, mx > 0 ? mx * 1.05 : 1]; }}},
      series: sd.series,
      axes: [xAxis(spec), numAxis(spec)],
      cursor: spec.timeAxis ? {sync: {key: 'time', setSeries: false}} : {},
      legend: {live: true},
      hooks: {setScale: [syncScale], drawClear: [fitTitle(spec)],
              draw: [function (u) { setDrawn(spec, visibleCount(u)); }]}
    };
    var u = new uPlot(opts, sd.data, el);
    spec.lines.forEach(function (h, i) { u.series[spec.series.length + 1 + i].rocelabLine = true; });
    u.redraw(false, false);
    return u;
  }

  function lanes(spec, el) {
    var n = spec.rows.length, rowH = n > 40 ? 11 : 16;
    var byRow = spec.rows.map(function () { return []; });
    spec.iv.forEach(function (iv) { byRow[iv[0]].push(iv); });
    var info = document.getElementById('info-' + spec.id);
    var opts = {
      width: width(el), height: Math.max(140, n * rowH + 70),
      scales: {x: {time: false, range: function () { return [spec.xMin, spec.xMax]; }},
               y: {range: function () { return [0, n]; }}},
      series: [{}, {label: '', show: true, stroke: 'rgba(0,0,0,0)', points: {show: false}}],
      legend: {show: false},
      axes: [xAxis(spec), {size: yWidth(spec), gap: LANE_GAP, font: AXIS_FONT, grid: {show: false}, ticks: {show: false},
        splits: function () { var s = []; for (var r = 0; r < n; r++) s.push(n - r - 0.5); return s; },
        values: function (u, splits) {
          var room = yWidth(spec) - LANE_GAP - 2;
          return splits.map(function (v) {
            var row = spec.rows[n - 1 - Math.floor(v)], t = fit(row, AXIS_FONT, room);
            shortened(spec, row, t !== row);
            return t;
          });
        }}],
      cursor: spec.timeAxis ? {sync: {key: 'time', setSeries: false}, y: false} : {y: false},
      hooks: {
        setScale: [syncScale],
        draw: [function (u) {
          var ctx = u.ctx, b = u.bbox, drawn = 0;
          ctx.save();
          ctx.beginPath(); ctx.rect(b.left, b.top, b.width, b.height); ctx.clip();
          spec.iv.forEach(function (iv) {
            var x0 = u.valToPos(iv[1], 'x', true), x1 = u.valToPos(iv[2], 'x', true);
            if (x1 < b.left || x0 > b.left + b.width) return;
            var y0 = u.valToPos(n - iv[0] - 0.1, 'y', true), y1 = u.valToPos(n - iv[0] - 0.9, 'y', true);
            ctx.fillStyle = spec.cats[iv[3]][1];
            ctx.fillRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
            drawn++;
          });
          ctx.restore();
          setDrawn(spec, drawn);
        }],
        setCursor: [function (u) {
          if (!info) return;
          var l = u.cursor.left, t = u.cursor.top;
          if (l == null || l < 0 || t == null || t < 0) { info.textContent = ''; return; }
          var xv = u.posToVal(l, 'x'), r = n - 1 - Math.floor(u.posToVal(t, 'y'));
          if (r < 0 || r >= n) { info.textContent = ''; return; }
          var at = spec.timeAxis ? fmtT(xv, span(u)) : fmtN(xv);
          var hit = byRow[r].filter(function (iv) { return iv[1] <= xv && xv <= iv[2]; })[0];
          info.textContent = spec.rows[r] + ' at ' + at + (hit ? ': ' + spec.cats[hit[3]][0] + (hit[4] ? ' ' + hit[4] : '') +
            ' from ' + (spec.timeAxis ? fmtT(hit[1], span(u)) : fmtN(hit[1])) + ' to ' +
            (spec.timeAxis ? fmtT(hit[2], span(u)) : fmtN(hit[2])) : '');
        }]
      }
    };
    return new uPlot(opts, [[spec.xMin, spec.xMax], [null, null]], el);
  }

  var all = [];
  window.rocelabCharts = all;
  specs.forEach(function (spec) {
    var el = document.getElementById('c-' + spec.id);
    if (!el) return;
    var u = spec.kind === 'LANES' ? lanes(spec, el) : plot(spec, el);
    all.push([u, el]);
    if (spec.timeAxis) { timeCharts.push(u); wheelAndPan(u, spec); }
    var button = document.querySelector("button.focus[data-chart='" + spec.id + "']");
    if (button) button.addEventListener('click', function () { u.setScale('x', {min: spec.focusMin, max: spec.focusMax}); });
  });
  window.addEventListener('resize', function () {
    all.forEach(function (p) { p[0].setSize({width: width(p[1]), height: p[0].height}); });
  });
})();
