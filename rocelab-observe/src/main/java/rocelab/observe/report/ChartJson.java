package rocelab.observe.report;

/**
 * A {@link Chart} as the JSON that report.js reads. Strings escape {@code <}, {@code >} and {@code &} as
 * a {@code \\u} escape with four hex digits, so no name (a flow, a job step) can close the script element it sits in.
 */
final class ChartJson {
    private ChartJson() {}

    static void write(StringBuilder j, Chart c) {
        j.append("{\"id\":");
        str(j, c.id);
        j.append(",\"title\":");
        str(j, c.title);
        j.append(",\"kind\":");
        str(j, c.kind.name());
        j.append(",\"xLabel\":");
        str(j, c.xLabel);
        j.append(",\"xTitle\":");
        str(j, c.xTitle());
        j.append(",\"yLabel\":");
        str(j, c.yLabel);
        j.append(",\"yUnit\":");
        str(j, c.yUnit);
        j.append(",\"logX\":").append(c.logX).append(",\"timeAxis\":").append(c.timeAxis);
        j.append(",\"xMin\":");
        num(j, c.xMin);
        j.append(",\"xMax\":");
        num(j, c.xMax);
        j.append(",\"focusMin\":");
        num(j, c.focusMin);
        j.append(",\"focusMax\":");
        num(j, c.focusMax);
        j.append(",\"x\":");
        array(j, c.x);
        j.append(",\"series\":[");
        for (int i = 0; i < c.series.size(); i++) {
            Chart.Series s = c.series.get(i);
            j.append(i > 0 ? ",{" : "{").append("\"name\":");
            str(j, s.name());
            j.append(",\"color\":");
            str(j, s.color());
            j.append(",\"style\":");
            str(j, s.style().name());
            j.append(",\"y\":");
            array(j, s.y());
            j.append('}');
        }
        j.append("],\"lines\":[");
        for (int i = 0; i < c.lines.size(); i++) {
            Chart.HLine h = c.lines.get(i);
            j.append(i > 0 ? ",{" : "{").append("\"y\":");
            num(j, h.y());
            j.append(",\"label\":");
            str(j, h.label());
            j.append(",\"color\":");
            str(j, h.color());
            j.append('}');
        }
        j.append("],\"rows\":[");
        for (int i = 0; i < c.rows.size(); i++) {
            if (i > 0) {
                j.append(',');
            }
            str(j, c.rows.get(i));
        }
        j.append("],\"cats\":[");
        for (int i = 0; i < c.categories.size(); i++) {
            j.append(i > 0 ? ",[" : "[");
            str(j, c.categories.get(i)[0]);
            j.append(',');
            str(j, c.categories.get(i)[1]);
            j.append(']');
        }
        j.append("],\"iv\":[");
        for (int i = 0; i < c.intervals.size(); i++) {
            Chart.Interval v = c.intervals.get(i);
            j.append(i > 0 ? ",[" : "[").append(v.row()).append(',');
            num(j, v.from());
            j.append(',');
            num(j, v.to());
            j.append(',').append(v.category()).append(',');
            str(j, v.label() == null ? "" : v.label());
            j.append(']');
        }
        j.append("]}");
    }

    private static void array(StringBuilder j, double[] v) {
        j.append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                j.append(',');
            }
            num(j, v[i]);
        }
        j.append(']');
    }

    static void num(StringBuilder j, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            j.append("null");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            j.append((long) v);
        } else {
            j.append(v);
        }
    }

    static void str(StringBuilder j, String s) {
        j.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> j.append("\\\"");
                case '\\' -> j.append("\\\\");
                case '\n' -> j.append("\\n");
                case '\r' -> j.append("\\r");
                case '\t' -> j.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> j.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        j.append(String.format("\\u%04x", (int) c));
                    } else {
                        j.append(c);
                    }
                }
            }
        }
        j.append('"');
    }
}
