package rocelab.observe.report;

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
     * {@code a|b}), and labelled nodes.
     */
    static String topology(List<List<String>> tiers, List<String[]> links, Map<String, Double> heat) {
        int rowGap = 90;
        int h = T + B + rowGap * Math.max(1, tiers.size() - 1);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d'"
                        + " font-family='sans-serif'><rect width='100%%' height='100%%' fill='white'/>", W, h, W, h));
        Map<String, double[]> pos = new java.util.LinkedHashMap<>();
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
                    + " stroke-width='%.1f'><title>%s - %s</title></line>", a[0], a[1], c[0], c[1], red, other, other,
                    1 + 3 * hot, Page.esc(l[0]), Page.esc(l[1])));
        }
        for (Map.Entry<String, double[]> e : pos.entrySet()) {
            double[] p = e.getValue();
            b.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='4' fill='#333'/>", p[0], p[1]));
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-size='9' text-anchor='middle'>%s</text>",
                    p[0], p[1] + (p[1] > h - B - 1 ? 14 : -7), Page.esc(e.getKey())));
        }
        return b.append("</svg>").toString();
    }
}
