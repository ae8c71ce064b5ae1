package rocelab.observe.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's inference section, from requests.csv: per service the p50/p90/p99 of time to first token, time per
 * output token, end-to-end latency and network wait, then per request a bar of its end-to-end latency split into
 * what an ideal network would also take and the wait the network added.
 */
final class InferenceSection {
    private static final int MAX_BARS = 64;

    private InferenceSection() {}

    static void append(StringBuilder b, Csv requests) {
        if (requests == null || requests.rows.isEmpty()) {
            return;
        }
        b.append("<h2>Inference requests</h2><table><tr><th>service</th><th>requests</th><th>completed</th>");
        String[] metrics = {"ttft_us", "tpot_us", "e2e_us", "network_wait_us"};
        for (String m : metrics) {
            String title = m.replace("_us", "").replace('_', ' ').toUpperCase(Locale.ROOT);
            b.append("<th>").append(title).append(" p50 us</th><th>p90</th><th>p99</th>");
        }
        b.append("</tr>");
        Map<String, List<String[]>> by = new LinkedHashMap<>();
        for (String[] r : requests.rows) {
            by.computeIfAbsent(r[requests.col("service")], k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<String[]>> e : by.entrySet()) {
            long done = e.getValue().stream().filter(r -> r[requests.col("status")].equals("completed")).count();
            b.append("<tr><td>").append(Svg.esc(e.getKey())).append("</td><td>").append(e.getValue().size())
                    .append("</td><td>").append(done).append("</td>");
            for (String m : metrics) {
                double[] v = e.getValue().stream().map(r -> r[requests.col(m)]).filter(s -> !s.isEmpty())
                        .mapToDouble(Double::parseDouble).sorted().toArray();
                for (int p : new int[] {50, 90, 99}) {
                    b.append("<td>").append(v.length == 0 ? "" : String.format(Locale.ROOT, "%.3f",
                            v[Math.max(0, Math.min(v.length - 1, (int) Math.ceil(p / 100.0 * v.length) - 1))]))
                            .append("</td>");
                }
            }
            b.append("</tr>");
        }
        b.append("</table><p class='note'>TTFT: arrival to the first output token of the first LLM call. TPOT: decode"
                + " time per output token after the first. E2E: arrival to the answer delivered to the gateway."
                + " Network wait: E2E minus the same request's E2E with the same schedule on an ideal network (every"
                + " message at line rate after its path's fixed latency). Per call: llm_calls.csv.</p>");
        bars(b, requests);
    }

    private static void bars(StringBuilder b, Csv c) {
        int shown = Math.min(c.rows.size(), MAX_BARS);
        double max = 0;
        for (int i = 0; i < shown; i++) {
            max = Math.max(max, number(c.rows.get(i)[c.col("e2e_us")]));
        }
        if (max <= 0) {
            return;
        }
        int rowH = 12;
        int width = 760;
        int left = 150;
        double scale = (width - left - 10) / max;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns='http://www.w3.org/2000/svg' width='").append(width).append("' height='")
                .append(shown * rowH + 30).append("' font-family='sans-serif' font-size='10'>");
        for (int i = 0; i < shown; i++) {
            String[] r = c.rows.get(i);
            double e2e = number(r[c.col("e2e_us")]);
            double wait = Math.max(0, Math.min(e2e, number(r[c.col("network_wait_us")])));
            int y = i * rowH;
            svg.append("<text x='0' y='").append(y + 9).append("'>").append(Svg.esc(r[c.col("service")] + " #"
                    + r[c.col("request")])).append("</text>");
            svg.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%.1f' height='%d' fill='#bbbbbb'/>",
                    left, y + 1, (e2e - wait) * scale, rowH - 2));
            svg.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#d62728'/>",
                    left + (e2e - wait) * scale, y + 1, wait * scale, rowH - 2));
        }
        svg.append("<text x='").append(left).append("' y='").append(shown * rowH + 20).append("'>")
                .append("grey: E2E an ideal network also gives · red: waiting on the network").append("</text></svg>");
        b.append(svg);
        if (shown < c.rows.size()) {
            b.append("<p class='note'>First ").append(shown).append(" of ").append(c.rows.size())
                    .append(" requests; all are in requests.csv.</p>");
        }
    }

    private static double number(String s) {
        try {
            return s == null || s.isEmpty() ? 0 : Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
