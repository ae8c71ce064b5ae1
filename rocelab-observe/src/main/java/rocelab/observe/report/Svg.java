package rocelab.observe.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The fabric drawing, in hand-written SVG: a layered graph of tiers is a drawing, not a chart. */
final class Svg {
    private static final int W = 900;
    private static final int T = 20;
    private static final int B = 40;
    private static final int L = 40;
    private static final int R = 40;

    private Svg() {}

    /**
     * One row per tier (hosts at the bottom), links shaded from grey to red by {@code heat} (0..1, keyed
     * {@code a|b}), and labelled nodes. A link is {a, b} and optionally its tooltip's rate and delay text and a
     * non-empty fourth entry to draw it dashed.
     */
    static String topology(List<List<String>> tiers, List<String[]> links, Map<String, Double> heat) {
        int rowGap = 90;
        int h = T + B + rowGap * Math.max(1, tiers.size() - 1);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d'"
                        + " font-family='sans-serif'><rect width='100%%' height='100%%' fill='white'/>", W, h, W, h));
        Map<String, double[]> pos = new LinkedHashMap<>();
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
            b.append("<line x1='").append(Fmt.fixed(a[0], 1)).append("' y1='").append(Fmt.fixed(a[1], 1))
                    .append("' x2='").append(Fmt.fixed(c[0], 1)).append("' y2='").append(Fmt.fixed(c[1], 1))
                    .append("' stroke='rgb(").append(red).append(',').append(other).append(',').append(other)
                    .append(")' stroke-width='").append(Fmt.fixed(1 + 3 * hot, 1)).append('\'')
                    .append(l.length > 3 && !l[3].isEmpty() ? " stroke-dasharray='6 3'" : "").append("><title>")
                    .append(Page.esc(l[0])).append(" - ").append(Page.esc(l[1]))
                    .append(l.length > 2 ? ": " + Page.esc(l[2]) : "").append("</title></line>");
        }
        for (Map.Entry<String, double[]> e : pos.entrySet()) {
            double[] p = e.getValue();
            String x = Fmt.fixed(p[0], 1);
            b.append("<circle cx='").append(x).append("' cy='").append(Fmt.fixed(p[1], 1)).append("' r='4' fill='#333'/>");
            b.append("<text x='").append(x).append("' y='").append(Fmt.fixed(p[1] + (p[1] > h - B - 1 ? 14 : -7), 1))
                    .append("' font-size='9' text-anchor='middle'>").append(Page.esc(e.getKey())).append("</text>");
        }
        return b.append("</svg>").toString();
    }
}
