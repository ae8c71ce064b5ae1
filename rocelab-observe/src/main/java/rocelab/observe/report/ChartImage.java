package rocelab.observe.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import rocelab.observe.output.AtomicFiles;

/**
 * Draws a {@link Chart} as a static image for papers and terminals, with the same data as the page: one drawing
 * routine over a small {@link Canvas}, written as SVG text and as a PNG (Java2D), so the two always agree.
 */
final class ChartImage {
    static final int W = 900;

    /** The few drawing operations a chart needs. Coordinates in pixels, colours as {@code #rrggbb}. */
    interface Canvas {
        void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed);

        void polyline(double[] xs, double[] ys, int n, String color, double width);

        void rect(double x, double y, double w, double h, String color);

        void circle(double x, double y, double r, String color);

        /** anchor: 0 start, 1 middle, 2 end; vertical: rotated 90 degrees anticlockwise. */
        void text(double x, double y, String s, int size, String color, int anchor, boolean vertical);
    }

    static final class SvgCanvas implements Canvas {
        private final StringBuilder b = new StringBuilder(1 << 14);

        SvgCanvas(int w, int h) {
            b.append(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d'"
                    + " viewBox='0 0 %d %d' font-family='sans-serif'><rect width='%d' height='%d' fill='white'/>", w, h,
                    w, h, w, h));
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed) {
            b.append("<line x1='").append(Fmt.fixed(x1, 1)).append("' y1='").append(Fmt.fixed(y1, 1))
                    .append("' x2='").append(Fmt.fixed(x2, 1)).append("' y2='").append(Fmt.fixed(y2, 1))
                    .append("' stroke='").append(color).append("' stroke-width='").append(Fmt.fixed(width, 1))
                    .append(dashed ? "' stroke-dasharray='6 4'/>" : "'/>");
        }

        @Override
        public void polyline(double[] xs, double[] ys, int n, String color, double width) {
            if (n < 2) {
                return;
            }
            b.append("<polyline fill='none' stroke='").append(color).append("' stroke-width='").append(width)
                    .append("' points='");
            for (int i = 0; i < n; i++) {
                one(b, xs[i]);
                b.append(',');
                one(b, ys[i]);
                b.append(' ');
            }
            b.append("'/>");
        }

        @Override
        public void rect(double x, double y, double w, double h, String color) {
            b.append("<rect x='");
            one(b, x);
            b.append("' y='");
            one(b, y);
            b.append("' width='");
            one(b, Math.max(0.5, w));
            b.append("' height='");
            one(b, Math.max(0.5, h));
            b.append("' fill='").append(color).append("'/>");
        }

        @Override
        public void circle(double x, double y, double r, String color) {
            b.append("<circle cx='").append(Fmt.fixed(x, 1)).append("' cy='").append(Fmt.fixed(y, 1)).append("' r='")
                    .append(Fmt.fixed(r, 1)).append("' fill='").append(color).append("'/>");
        }

        @Override
        public void text(double x, double y, String s, int size, String color, int anchor, boolean vertical) {
            String a = anchor == 0 ? "start" : anchor == 1 ? "middle" : "end";
            String px = Fmt.fixed(x, 1);
            String py = Fmt.fixed(y, 1);
            b.append("<text x='").append(px).append("' y='").append(py).append("' font-size='").append(size)
                    .append("' fill='").append(color).append("' text-anchor='").append(a).append('\'');
            if (vertical) {
                b.append(" transform='rotate(-90 ").append(px).append(' ').append(py).append(")'");
            }
            b.append('>').append(Page.esc(s)).append("</text>");
        }

        String finish() {
            return b.append("</svg>").toString();
        }

        private static void one(StringBuilder b, double v) {
            long tenths = Math.round(v * 10);
            if (tenths < 0) {
                b.append('-');
                tenths = -tenths;
            }
            b.append(tenths / 10).append('.').append(tenths % 10);
        }
    }

    static final class PngCanvas implements Canvas {
        private final BufferedImage image;
        private final Graphics2D g;

        PngCanvas(int w, int h) {
            image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
            g = image.createGraphics();
            // Lines and bars without antialiasing (thousands of segments; the pixel columns are exact anyway),
            // text with it.
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
        }

        private static Color color(String c) {
            return Color.decode(c);
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color, double width, boolean dashed) {
            g.setColor(color(color));
            g.setStroke(dashed ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {6f, 4f}, 0f) : new BasicStroke((float) width));
            g.draw(new Line2D.Double(x1, y1, x2, y2));
        }

        @Override
        public void polyline(double[] xs, double[] ys, int n, String color, double width) {
            if (n < 2) {
                return;
            }
            Path2D.Double p = new Path2D.Double();
            p.moveTo(xs[0], ys[0]);
            for (int i = 1; i < n; i++) {
                p.lineTo(xs[i], ys[i]);
            }
            g.setColor(color(color));
            g.setStroke(new BasicStroke((float) width));
            g.draw(p);
        }

        @Override
        public void rect(double x, double y, double w, double h, String color) {
            g.setColor(color(color));
            g.fill(new Rectangle2D.Double(x, y, Math.max(0.5, w), Math.max(0.5, h)));
        }

        @Override
        public void circle(double x, double y, double r, String color) {
            g.setColor(color(color));
            g.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
        }

        @Override
        public void text(double x, double y, String s, int size, String color, int anchor, boolean vertical) {
            g.setColor(color(color));
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, size));
            int w = g.getFontMetrics().stringWidth(s);
            double dx = anchor == 0 ? 0 : anchor == 1 ? -w / 2.0 : -w;
            if (vertical) {
                var t = g.getTransform();
                g.rotate(-Math.PI / 2, x, y);
                g.drawString(s, (float) (x + dx), (float) y);
                g.setTransform(t);
            } else {
                g.drawString(s, (float) (x + dx), (float) y);
            }
        }

        byte[] finish() {
            g.dispose();
            return PngEncoder.encode(image);
        }
    }

    private ChartImage() {}

    /**
     * Draws and encodes one small image and throws it away: what the first chart of a JVM pays once (Java2D's
     * loops and the Marlin renderer set up, the font found and its glyphs rasterised at every size the charts use,
     * the PNG encoder run once), about 0.1 s of CPU on a cold JVM. Run early on an idle core, it is off the
     * report's way; it changes nothing the charts draw (every image starts from its own blank canvas).
     */
    static void warmUp() {
        PngCanvas png = new PngCanvas(64, 32);
        png.line(0, 0, 10, 10, "#333333", 1, false);
        png.line(0, 10, 10, 0, "#d62728", 1, true);
        png.polyline(new double[] {0, 5, 9}, new double[] {1, 8, 3}, 3, "#1f77b4", 1.5);
        png.rect(1, 1, 4, 4, "#2ca02c");
        png.circle(5, 5, 3, "#ff7f0e");
        for (int size : new int[] {8, 10, 11, 14}) {
            png.text(2, 20, "0123456789 .,:-_()%/ abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ", size,
                    "#222222", 1, false);
        }
        png.text(20, 30, "Gbps", 11, "#333333", 1, true);
        png.finish();
    }

    /** Writes {@code c} as {@code <id>.svg} and {@code <id>.png} into {@code dir}. */
    static void write(Path dir, Chart c) throws IOException {
        int h = height(c);
        SvgCanvas svg = new SvgCanvas(W, h);
        draw(c, svg, W, h);
        AtomicFiles.write(dir.resolve(c.id + ".svg"), "<?xml version='1.0' encoding='UTF-8'?>\n" + svg.finish() + "\n");
        PngCanvas png = new PngCanvas(W, h);
        draw(c, png, W, h);
        AtomicFiles.write(dir.resolve(c.id + ".png"), png.finish());
    }

    static int height(Chart c) {
        if (c.kind == Chart.Kind.LANES) {
            return Math.max(160, c.rows.size() * (c.rows.size() > 40 ? 11 : 16) + 110) + legendRows(c) * 16;
        }
        int entries = c.series.size() + c.lines.size();
        return 300 + 16 * ((entries + 2) / 3);
    }

    /** The legend rows a lanes chart needs beyond its first: its categories three to a row. */
    private static int legendRows(Chart c) {
        return Math.max(0, (c.categories.size() - 1) / 3);
    }

    static void draw(Chart c, Canvas g, int w, int h) {
        g.text(10, 18, c.title, 14, "#222222", 0, false);
        if (c.kind == Chart.Kind.LANES) {
            lanes(c, g, w, h);
            return;
        }
        int entries = c.series.size() + c.lines.size();
        double left = 74;
        double right = w - 20;
        double top = 30;
        double bottom = h - 44 - 16 * ((entries + 2) / 3);
        double yMax = 0;
        for (Chart.Series s : c.series) {
            for (double v : s.y()) {
                if (!Double.isNaN(v)) {
                    yMax = Math.max(yMax, v);
                }
            }
        }
        for (Chart.HLine l : c.lines) {
            yMax = Math.max(yMax, l.y());
        }
        yMax = yMax > 0 ? yMax * 1.05 : 1;
        double x0 = c.xMin;
        double x1 = c.xMax > c.xMin ? c.xMax : c.xMin + 1;
        boolean log = c.logX && x0 > 0;
        DoubleUnaryOperator px = log
                ? v -> left + (right - left) * (Math.log(v) - Math.log(x0)) / (Math.log(x1) - Math.log(x0))
                : v -> left + (right - left) * (v - x0) / (x1 - x0);
        double yTop = yMax;
        DoubleUnaryOperator py = v -> bottom - (bottom - top) * v / yTop;
        // Grid and ticks at human values (1, 2, 5 x 10^n).
        for (double t : ticks(0, yMax, 5)) {
            double y = py.applyAsDouble(t);
            g.line(left, y, right, y, "#eeeeee", 1, false);
            g.text(left - 4, y + 3, num(t), 10, "#333333", 2, false);
        }
        double[] xt = log ? logTicks(x0, x1) : ticks(x0, x1, 8);
        double step = xt.length > 1 ? xt[1] - xt[0] : x1 - x0;
        for (double t : xt) {
            double x = px.applyAsDouble(t);
            g.line(x, bottom, x, bottom + 4, "#333333", 1, false);
            g.text(x, bottom + 15, c.timeAxis ? time(t, x1 - x0, step) : num(t), 10, "#333333", 1, false);
        }
        g.line(left, bottom, right, bottom, "#333333", 1, false);
        g.line(left, top, left, bottom, "#333333", 1, false);
        g.text((left + right) / 2, bottom + 30, c.xTitle(), 11, "#333333", 1, false);
        g.text(14, (top + bottom) / 2, c.yLabel, 11, "#333333", 1, true);
        for (Chart.HLine l : c.lines) {
            double y = py.applyAsDouble(l.y());
            g.line(left, y, right, y, l.color(), 1, true);
        }
        double[] xs = new double[c.x.length * 4 + 8];
        double[] ys = new double[c.x.length * 4 + 8];
        for (Chart.Series s : c.series) {
            if (s.style() == Chart.Style.POINTS) {
                double lastX = Double.NaN;
                for (int i = 0; i < c.x.length; i++) {
                    if (!Double.isNaN(s.y()[i])) {
                        double x = px.applyAsDouble(c.x[i]);
                        if (!(Math.abs(x - lastX) < 1)) {
                            g.circle(x, py.applyAsDouble(s.y()[i]), 3, s.color());
                            lastX = x;
                        }
                    }
                }
                continue;
            }
            int n = 0;
            // Points that fall in the same pixel column become that column's first, lowest, highest and last
            // value: an image of tens of thousands of steps draws a few per column and keeps every peak.
            double col = Double.NaN;
            double first = 0;
            double lo = 0;
            double hi = 0;
            double last = 0;
            for (int i = 0; i <= c.x.length; i++) {
                double v = i < c.x.length ? s.y()[i] : Double.NaN;
                double x = i < c.x.length ? Math.floor(px.applyAsDouble(c.x[i])) : Double.NaN;
                if (!Double.isNaN(col) && (Double.isNaN(v) || x != col)) {
                    n = column(xs, ys, n, col, first, lo, hi, last, s.style() == Chart.Style.STEP);
                    col = Double.NaN;
                }
                if (Double.isNaN(v)) {
                    g.polyline(xs, ys, n, s.color(), 1.5);
                    n = 0;
                    continue;
                }
                double y = py.applyAsDouble(v);
                if (Double.isNaN(col)) {
                    col = x;
                    first = y;
                    lo = y;
                    hi = y;
                } else {
                    lo = Math.min(lo, y);
                    hi = Math.max(hi, y);
                }
                last = y;
            }
            g.polyline(xs, ys, n, s.color(), 1.5);
        }
        // The legend sits under the plot, never on the curves.
        List<String[]> legend = new ArrayList<>();
        for (Chart.Series s : c.series) {
            legend.add(new String[] {s.name(), s.color()});
        }
        for (Chart.HLine l : c.lines) {
            legend.add(new String[] {l.label(), l.color()});
        }
        for (int i = 0; i < legend.size(); i++) {
            double lx = left + (i % 3) * ((right - left) / 3);
            double ly = bottom + 46 + 16 * (i / 3);
            g.rect(lx, ly - 8, 10, 10, legend.get(i)[1]);
            g.text(lx + 14, ly, clip(legend.get(i)[0], 42), 11, "#222222", 0, false);
        }
    }

    /** Appends one pixel column of a line: a step holds the previous value up to it; then first, extremes, last. */
    private static int column(double[] xs, double[] ys, int n, double x, double first, double lo, double hi,
            double last, boolean step) {
        if (step && n > 0) {
            xs[n] = x;
            ys[n] = ys[n - 1];
            n++;
        }
        double[] at = first <= last ? new double[] {first, lo, hi, last} : new double[] {first, hi, lo, last};
        for (double y : at) {
            if (n > 0 && xs[n - 1] == x && ys[n - 1] == y) {
                continue;
            }
            xs[n] = x;
            ys[n] = y;
            n++;
        }
        return n;
    }

    private static void lanes(Chart c, Canvas g, int w, int h) {
        int n = c.rows.size();
        int longest = 0;
        for (String r : c.rows) {
            longest = Math.max(longest, Math.min(40, r.length()));
        }
        double left = Math.min(280, 12 + 6 * longest);
        double right = w - 20;
        double top = 30;
        double bottom = h - 70 - legendRows(c) * 16;
        double rowH = (bottom - top) / Math.max(1, n);
        double x0 = c.xMin;
        double x1 = c.xMax > c.xMin ? c.xMax : c.xMin + 1;
        DoubleUnaryOperator px = v -> left + (right - left) * (v - x0) / (x1 - x0);
        for (int r = 0; r < n; r++) {
            g.text(left - 4, top + rowH * (r + 0.5) + 3, clip(c.rows.get(r), 40), rowH < 12 ? 8 : 10, "#333333", 2,
                    false);
        }
        for (Chart.Interval iv : c.intervals) {
            double a = px.applyAsDouble(Math.max(x0, iv.from()));
            double b = px.applyAsDouble(Math.min(x1, iv.to()));
            g.rect(a, top + rowH * iv.row() + rowH * 0.1, Math.max(0.8, b - a), rowH * 0.8,
                    c.categories.get(iv.category())[1]);
        }
        double[] xt = ticks(x0, x1, 8);
        double step = xt.length > 1 ? xt[1] - xt[0] : x1 - x0;
        g.line(left, bottom, right, bottom, "#333333", 1, false);
        for (double t : xt) {
            double x = px.applyAsDouble(t);
            g.line(x, bottom, x, bottom + 4, "#333333", 1, false);
            g.text(x, bottom + 15, c.timeAxis ? time(t, x1 - x0, step) : num(t), 10, "#333333", 1, false);
        }
        g.text((left + right) / 2, bottom + 30, c.xTitle(), 11, "#333333", 1, false);
        // Three to a row, as under the other charts: six in one row ran "waiting for decode slot" into "decode"
        // (the requests chart; an audit).
        for (int i = 0; i < c.categories.size(); i++) {
            double lx = left + (i % 3) * ((right - left) / 3);
            double ly = bottom + 51 + 16 * (i / 3);
            g.rect(lx, ly - 9, 10, 10, c.categories.get(i)[1]);
            g.text(lx + 14, ly, c.categories.get(i)[0], 11, "#222222", 0, false);
        }
    }

    private static String clip(String s, int n) {
        String one = s.replace('\n', ' ');
        return one.length() <= n ? one : one.substring(0, n - 1) + "…";
    }

    /** Ticks at 1, 2 or 5 x 10^k covering [lo, hi], about {@code target} of them. */
    static double[] ticks(double lo, double hi, int target) {
        if (!(hi > lo)) {
            return new double[] {lo};
        }
        double raw = (hi - lo) / target;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        List<Double> out = new ArrayList<>();
        for (double t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) {
            out.add(Math.abs(t) < step * 1e-9 ? 0 : t);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double[] logTicks(double lo, double hi) {
        List<Double> out = new ArrayList<>();
        for (double p = Math.pow(10, Math.floor(Math.log10(lo))); p <= hi * 1.0001; p *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                double t = p * m;
                if (t >= lo * 0.9999 && t <= hi * 1.0001) {
                    out.add(t);
                }
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The same time labels as the page: ms, us or ns by the span, decimals by the tick step. */
    static String time(double us, double span, double step) {
        String unit = span >= 2000 ? "ms" : span >= 2 ? "us" : "ns";
        double f = span >= 2000 ? 1e-3 : span >= 2 ? 1 : 1e3;
        int d = Math.max(0, Math.min(6, (int) -Math.floor(Math.log10(step * f) + 1e-9)));
        return trim(Fmt.fixed(us * f, d)) + " " + unit;
    }

    static String num(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return trim(Fmt.fixed(v / 1e9, 2)) + "G";
        } else if (a >= 1e6) {
            return trim(Fmt.fixed(v / 1e6, 2)) + "M";
        } else if (a >= 1e3) {
            return trim(Fmt.fixed(v / 1e3, a >= 1e4 ? 1 : 2)) + "k";
        } else if (a >= 100 || v == 0) {
            return String.valueOf(Math.round(v));
        }
        return trim(a >= 1 ? Fmt.fixed(v, 2) : String.format(Locale.ROOT, "%.3g", v));
    }

    private static String trim(String s) {
        return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
