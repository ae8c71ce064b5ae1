package rocelab.observe.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Small inline SVG line and bar charts, drawn by hand so the report needs nothing but a browser. */
final class Svg {
    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf"};
    private static final int W = 760;
    private static final int H = 260;
    private static final int L = 70;
    private static final int R = 20;
    private static final int T = 20;
    private static final int B = 40;
    private static final int BUCKETS = 400;

    /** One series of (x, y) points drawn as a step line, with optional event markers (x values) on it. */
    record Series(String name, double[] x, double[] y, double[] markers) {
        Series(String name, double[] x, double[] y) {
            this(name, x, y, new double[0]);
        }
    }

    private Svg() {}

    static String stepChart(String xLabel, String yLabel, List<Series> series, double[] hLines, String[] hNames) {
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMax = 0;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                xMin = Math.min(xMin, s.x()[i]);
                xMax = Math.max(xMax, s.x()[i]);
                yMax = Math.max(yMax, s.y()[i]);
            }
        }
        for (double h : hLines) {
            yMax = Math.max(yMax, h * 1.05);
        }
        if (xMax <= xMin) {
            xMax = xMin + 1;
        }
        if (yMax <= 0) {
            yMax = 1;
        }
        StringBuilder b = open();
        axes(b, xMin, xMax, yMax, xLabel, yLabel);
        for (int k = 0; k < hLines.length; k++) {
            double y = py(hLines[k], yMax);
            b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#888'"
                    + " stroke-dasharray='4 3'/><text x='%d' y='%.1f' font-size='10' fill='#555'>%s</text>",
                    L, W - R, y, y, W - R - 110, y - 3, esc(hNames[k])));
        }
        StringBuilder legend = new StringBuilder();
        int longest = 0;
        for (int k = 0; k < series.size(); k++) {
            Series s = thin(series.get(k), xMin, xMax);
            StringBuilder path = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                double x = px(s.x()[i], xMin, xMax);
                double y = py(s.y()[i], yMax);
                path.append(i == 0 ? "M" : " H");
                one(path, x);
                path.append(i == 0 ? " " : " V");
                one(path, y);
            }
            String c = COLORS[k % COLORS.length];
            b.append("<path fill='none' stroke='").append(c).append("' stroke-width='1.5' d='").append(path)
                    .append("'/>");
            Series full = series.get(k);
            double lastPx = -10;
            for (double m : full.markers()) {
                double x = px(m, xMin, xMax);
                if (x - lastPx < 3) {
                    continue;
                }
                lastPx = x;
                b.append("<circle r='2.5' fill='").append(c).append("' cx='");
                one(b, x);
                b.append("' cy='");
                one(b, py(valueAt(full, m), yMax));
                b.append("'/>");
            }
            legend.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='11' fill='%s'>%s</text>",
                    L + 10, T + 14 + 14 * k, c, esc(s.name())));
            longest = Math.max(longest, s.name().length());
        }
        if (!series.isEmpty()) {
            // The legend sits on a light panel so it stays readable over the lines.
            b.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='white'"
                    + " opacity='0.85'/>", L + 6, T + 2, 7 * longest + 8, 14 * series.size() + 4)).append(legend);
        }
        return b.append("</svg>").toString();
    }

    /**
     * At most about {@value #BUCKETS} steps per series: each horizontal pixel bucket keeps its highest value, so
     * peaks survive and a large run's chart stays small.
     */
    static Series thin(Series s, double xMin, double xMax) {
        if (s.x().length <= 2 * BUCKETS) {
            return s;
        }
        double[] x = new double[BUCKETS + 1];
        double[] y = new double[BUCKETS + 1];
        int n = 0;
        int bucket = -1;
        for (int i = 0; i < s.x().length; i++) {
            int bIdx = (int) Math.min(BUCKETS, (s.x()[i] - xMin) / (xMax - xMin) * BUCKETS);
            if (bIdx != bucket) {
                bucket = bIdx;
                x[n] = s.x()[i];
                y[n] = s.y()[i];
                n++;
            } else {
                y[n - 1] = Math.max(y[n - 1], s.y()[i]);
            }
        }
        return new Series(s.name(), java.util.Arrays.copyOf(x, n), java.util.Arrays.copyOf(y, n), s.markers());
    }

    /** Horizontal bars: one row per label, each bar an interval [from, to]. */
    static String timeline(String xLabel, List<String> labels, List<double[][]> intervals, double xMax) {
        int rowH = 16;
        final int lw = 190;
        int h = T + B + rowH * Math.max(1, labels.size());
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>", W, h));
        double max = xMax <= 0 ? 1 : xMax;
        for (int r = 0; r < labels.size(); r++) {
            int y = T + r * rowH;
            b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='10' text-anchor='end'>%s</text>",
                    lw - 5, y + 11, esc(labels.get(r))));
            // Intervals closer than a pixel are drawn as one bar: a storm of pauses stays a few rectangles.
            double curX1 = -1;
            double curX2 = -1;
            for (double[] iv : intervals.get(r)) {
                double x1 = lw + (W - R - lw) * iv[0] / max;
                double x2 = lw + (W - R - lw) * Math.min(iv[1], max) / max;
                if (curX1 >= 0 && x1 <= curX2 + 1) {
                    curX2 = Math.max(curX2, x2);
                    continue;
                }
                if (curX1 >= 0) {
                    bar(b, curX1, curX2, y, rowH);
                }
                curX1 = x1;
                curX2 = x2;
            }
            if (curX1 >= 0) {
                bar(b, curX1, curX2, y, rowH);
            }
        }
        int yAxis = T + rowH * labels.size() + 4;
        b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#333'/>", lw, W - R,
                yAxis, yAxis));
        for (int t = 0; t <= 4; t++) {
            double v = max * t / 4;
            double x = lw + (W - R - lw) * t / 4.0;
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' font-size='10' text-anchor='middle'>%s</text>",
                    x, yAxis + 14, fmt(v)));
        }
        b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='11'>%s</text>", W / 2, yAxis + 30,
                esc(xLabel)));
        return b.append("</svg>").toString();
    }

    /**
     * A layered drawing of the topology: one row per tier (hosts at the bottom), links shaded from grey to red by
     * {@code heat} (0..1) and labelled nodes.
     */
    static String topology(List<List<String>> tiers, List<String[]> links, Map<String, Double> heat) {
        int rowGap = 90;
        int h = T + B + rowGap * Math.max(1, tiers.size() - 1);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>", W, h));
        Map<String, double[]> pos = new java.util.HashMap<>();
        for (int t = 0; t < tiers.size(); t++) {
            List<String> row = tiers.get(t);
            double y = h - B - t * (double) rowGap;
            for (int i = 0; i < row.size(); i++) {
                double x = L + (W - L - R) * (i + 0.5) / row.size();
                pos.put(row.get(i), new double[] {x, y});
            }
        }
        for (String[] l : links) {
            double[] a = pos.get(l[0]);
            double[] c = pos.get(l[1]);
            if (a == null || c == null) {
                continue;
            }
            double hot = heat.getOrDefault(l[0] + "|" + l[1], 0.0);
            int red = (int) (170 + 85 * hot);
            int other = (int) (170 * (1 - hot));
            b.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='rgb(%d,%d,%d)'"
                    + " stroke-width='%.1f'/>", a[0], a[1], c[0], c[1], red, other, other, 1 + 3 * hot));
        }
        for (Map.Entry<String, double[]> e : pos.entrySet()) {
            double[] p = e.getValue();
            b.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='4' fill='#333'/>", p[0], p[1]));
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-size='9' text-anchor='middle'>%s</text>",
                    p[0], p[1] + (p[1] > h - B - 1 ? 14 : -7), esc(e.getKey())));
        }
        return b.append("</svg>").toString();
    }

    /** The step line's value at {@code x}. */
    private static double valueAt(Series s, double x) {
        double v = s.y().length == 0 ? 0 : s.y()[0];
        for (int i = 0; i < s.x().length && s.x()[i] <= x; i++) {
            v = s.y()[i];
        }
        return v;
    }

    /** Appends {@code v} with one decimal, without the cost of a Formatter. */
    static void one(StringBuilder b, double v) {
        long tenths = Math.round(v * 10);
        if (tenths < 0) {
            b.append('-');
            tenths = -tenths;
        }
        b.append(tenths / 10).append('.').append(tenths % 10);
    }

    private static void bar(StringBuilder b, double x1, double x2, int y, int rowH) {
        b.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#d62728'"
                + " opacity='0.7'/>", x1, y + 2, Math.max(0.8, x2 - x1), rowH - 4));
    }

    private static StringBuilder open() {
        return new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>", W, H));
    }

    private static void axes(StringBuilder b, double xMin, double xMax, double yMax, String xl, String yl) {
        b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#333'/>", L, W - R, H - B,
                H - B));
        b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#333'/>", L, L, T, H - B));
        for (int t = 0; t <= 4; t++) {
            double xv = xMin + (xMax - xMin) * t / 4;
            double yv = yMax * t / 4;
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' font-size='10' text-anchor='middle'>%s</text>",
                    px(xv, xMin, xMax), H - B + 14, fmt(xv)));
            b.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' font-size='10' text-anchor='end'>%s</text>",
                    L - 4, py(yv, yMax) + 3, fmt(yv)));
        }
        b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' font-size='11'>%s</text>", W / 2, H - 6, esc(xl)));
        b.append(String.format(Locale.ROOT, "<text x='12' y='%d' font-size='11' transform='rotate(-90 12 %d)'>%s"
                + "</text>", H / 2, H / 2, esc(yl)));
    }

    private static double px(double x, double min, double max) {
        return L + (W - L - R) * (x - min) / (max - min);
    }

    private static double py(double y, double max) {
        return H - B - (H - B - T) * y / max;
    }

    static String fmt(double v) {
        double a = Math.abs(v);
        if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.1fM", v / 1e6);
        } else if (a >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        }
        return String.format(Locale.ROOT, a >= 10 || v == 0 ? "%.0f" : "%.2f", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }
}
