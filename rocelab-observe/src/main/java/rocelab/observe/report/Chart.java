package rocelab.observe.report;

import java.util.ArrayList;
import java.util.List;

/**
 * One chart of the report, independent of how it is drawn: uPlot draws it in report.html (from its JSON), and
 * {@link ChartImage} draws the same model as SVG and PNG for charts/.
 *
 * <ul>
 *   <li>{@code TIME}: series over simulated time (microseconds), on the axis every time chart of the page shares;
 *   <li>{@code XY}: series over another x (a distribution);
 *   <li>{@code LANES}: labelled rows of intervals (pauses, a rank's steps, a request's phases), over simulated time
 *       when {@link #timeAxis}, else over {@link #xLabel}.
 * </ul>
 */
final class Chart {
    enum Kind { TIME, XY, LANES }

    enum Style { STEP, LINE, POINTS }

    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#7f7f7f", "#bcbd22"};

    /** One series: a y value per x of the chart (NaN: no value there). */
    record Series(String name, double[] y, String color, Style style) {}

    record HLine(double y, String label, String color) {}

    record Interval(int row, double from, double to, int category, String label) {}

    final String id;
    final String title;
    final Kind kind;
    String xLabel = "simulated time";
    String yLabel = "";
    /** The y axis' unit for values in the legend and hover (e.g. "B", "Gb/s", "%"). */
    String yUnit = "";
    boolean logX;
    /** The shared x values (TIME and XY). */
    double[] x = new double[0];
    final List<Series> series = new ArrayList<>();
    final List<HLine> lines = new ArrayList<>();
    /** LANES: row labels, categories (name, colour) and intervals. */
    final List<String> rows = new ArrayList<>();
    final List<String[]> categories = new ArrayList<>();
    final List<Interval> intervals = new ArrayList<>();
    /** Whether the x axis is simulated time (shared and synchronised with the page's other time charts). */
    boolean timeAxis = true;
    /** Bounds of the x axis: the run's [0, end] for time charts. */
    double xMin = Double.NaN;
    double xMax = Double.NaN;
    /** A part of the x axis worth zooming to (a job's last iteration), or NaN. */
    double focusMin = Double.NaN;
    double focusMax = Double.NaN;

    Chart(String id, String title, Kind kind) {
        this.id = id;
        this.title = title;
        this.kind = kind;
        this.timeAxis = kind != Kind.XY;
    }

    /**
     * The x axis' title as drawn: a log axis says so, since its ticks (1, 2, 5, 10, 20, ...) are easily read as evenly
     * spaced values (an audit).
     */
    String xTitle() {
        return logX ? xLabel + ", log scale" : xLabel;
    }

    Chart add(String name, double[] y, String color, Style style) {
        series.add(new Series(name, y, color, style));
        return this;
    }

    String color(int i) {
        return COLORS[i % COLORS.length];
    }

    /** Points (non-empty values) or intervals this chart draws: a chart with none is not shown. */
    int points() {
        if (kind == Kind.LANES) {
            return intervals.size();
        }
        int n = 0;
        for (Series s : series) {
            for (double v : s.y()) {
                if (!Double.isNaN(v)) {
                    n++;
                }
            }
        }
        return n;
    }
}
