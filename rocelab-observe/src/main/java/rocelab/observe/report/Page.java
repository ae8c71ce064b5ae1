package rocelab.observe.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One self-contained HTML page: text, tables that scroll inside the page, and {@link Chart}s drawn by uPlot, whose
 * script and stylesheet are inlined from its webjar (nothing is fetched when the page opens).
 */
final class Page {
    /** The uPlot webjar's version; the pom's {@code uplot.version} must match. */
    static final String UPLOT_VERSION = "1.6.30";
    private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";

    private final StringBuilder b = new StringBuilder(1 << 16);
    private final List<Chart> charts = new ArrayList<>();
    /** Draws each chart's images as it is added (null: nobody draws them). */
    private final ChartDrawing drawing;

    Page(String title) {
        this(title, null);
    }

    /** A page whose charts go to {@code drawing} as they are added. */
    Page(String title, ChartDrawing drawing) {
        this.drawing = drawing;
        b.append("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta name='viewport'"
                + " content='width=device-width,initial-scale=1'><title>").append(esc(title)).append("</title><script>")
                .append(resource("/rocelab/observe/report/errors.js")).append("</script><style>")
                .append(resource(UPLOT + "uPlot.min.css")).append(resource("/rocelab/observe/report/report.css"))
                .append("</style></head><body><pre id='js-errors'></pre>");
    }

    Page html(String raw) {
        b.append(raw);
        return this;
    }

    Page h2(String title) {
        b.append("<h2>").append(esc(title)).append("</h2>");
        return this;
    }

    Page note(String text) {
        b.append("<p class='note'>").append(esc(text)).append("</p>");
        return this;
    }

    /** Adds a chart with its explanation; a chart with nothing to draw is replaced by {@code empty} (why). */
    Page chart(Chart c, String note, String empty) {
        if (c.points() == 0) {
            if (empty != null) {
                note(empty);
            }
            return this;
        }
        charts.add(c);
        if (drawing != null) {
            drawing.add(c);
        }
        b.append("<h3>").append(esc(c.title)).append("</h3>");
        if (c.kind == Chart.Kind.LANES) {
            b.append("<div class='legend-cats'>");
            for (String[] cat : c.categories) {
                b.append("<span><i style='background:").append(esc(cat[1])).append("'></i>").append(esc(cat[0]))
                        .append("</span>");
            }
            b.append("</div>");
        }
        if (!Double.isNaN(c.focusMin)) {
            b.append("<button class='focus' data-chart='").append(c.id).append("'>zoom every time chart to this</button>");
        }
        b.append("<div class='chart' id='c-").append(c.id).append("'></div>");
        if (c.kind == Chart.Kind.LANES) {
            b.append("<div class='info' id='info-").append(c.id).append("'></div>");
        }
        b.append("<div class='drawn' id='drawn-").append(c.id).append("' data-drawn='0' data-points='")
                .append(c.points()).append("'></div>");
        if (note != null) {
            note(note);
        }
        return this;
    }

    /** A table inside a box that scrolls when it is wider or longer than the page; columns in {@code left} align left. */
    Page table(List<String> heads, List<List<String>> rows, int... left) {
        b.append("<div class='scroll'><table><tr>");
        for (int i = 0; i < heads.size(); i++) {
            b.append(isLeft(i, left) ? "<th class='l'>" : "<th>").append(esc(heads.get(i))).append("</th>");
        }
        b.append("</tr>");
        for (List<String> r : rows) {
            b.append("<tr>");
            for (int i = 0; i < r.size(); i++) {
                b.append(isLeft(i, left) ? "<td class='l'>" : "<td>").append(esc(r.get(i))).append("</td>");
            }
            b.append("</tr>");
        }
        b.append("</table></div>");
        return this;
    }

    private static boolean isLeft(int i, int[] left) {
        for (int l : left) {
            if (l == i) {
                return true;
            }
        }
        return false;
    }

    List<Chart> charts() {
        return charts;
    }

    /** The finished page: the charts' data as JSON, then uPlot and the script that draws them. */
    String finish() {
        StringBuilder json = new StringBuilder(1 << 16);
        json.append('[');
        for (int i = 0; i < charts.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            ChartJson.write(json, charts.get(i));
        }
        json.append(']');
        b.append("<script type='application/json' id='chart-data'>").append(json).append("</script><script>")
                .append(resource(UPLOT + "uPlot.iife.min.js")).append("</script><script>")
                .append(resource("/rocelab/observe/report/report.js")).append("</script></body></html>\n");
        return b.toString();
    }

    static String resource(String path) {
        try (InputStream in = Page.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + path + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder o = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '\'' -> "&#39;";
                case '"' -> "&quot;";
                default -> null;
            };
            if (r != null && o == null) {
                o = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (o != null) {
                if (r != null) {
                    o.append(r);
                } else {
                    o.append(c);
                }
            }
        }
        return o == null ? s : o.toString();
    }
}
