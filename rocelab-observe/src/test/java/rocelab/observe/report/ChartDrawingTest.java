package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A report's chart images drawn by two threads are the images one thread draws, each once, whoever took it. */
class ChartDrawingTest {
    @TempDir
    Path dir;

    private static Chart chart(int i) {
        Chart c = new Chart("chart-" + i, "Chart " + i, Chart.Kind.TIME);
        double[] x = new double[200];
        double[] y = new double[200];
        for (int k = 0; k < x.length; k++) {
            x[k] = k;
            y[k] = Math.sin(k / (3.0 + i)) * (i + 1);
        }
        c.x = x;
        c.add("series " + i, y, Chart.COLORS[i % Chart.COLORS.length], Chart.Style.LINE);
        return c;
    }

    @Test
    void shouldDrawEveryChartOnceAsOneThreadWouldAndRemoveOtherImages() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("alone"));
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.writeString(shared.resolve("old.png"), "from an earlier run");
        Files.writeString(shared.resolve("notes.txt"), "not an image: kept");
        List<Chart> charts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            charts.add(chart(i));
        }

        ChartDrawing one = new ChartDrawing(alone);
        charts.forEach(one::add);
        one.finish("<svg>fabric</svg>");

        ChartDrawing two = new ChartDrawing(shared);
        Thread helper = new Thread(two::help, "helper");
        helper.start();
        for (Chart c : charts) {
            two.add(c);
            Thread.onSpinWait();
        }
        two.finish("<svg>fabric</svg>");
        helper.join(10_000);

        assertThat(helper.isAlive()).as("the helper returns once the page is finished").isFalse();
        try (var files = Files.list(shared)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).as("no earlier run's image")
                    .contains("fabric.svg", "notes.txt").doesNotContain("old.png").hasSize(2 * charts.size() + 2);
        }
        for (Chart c : charts) {
            for (String ext : List.of(".svg", ".png")) {
                assertThat(Files.readAllBytes(shared.resolve(c.id + ext))).as(c.id + ext)
                        .isEqualTo(Files.readAllBytes(alone.resolve(c.id + ext)));
            }
        }
    }

    @Test
    void shouldLetTheHelperGoWhenThePageFailsHalfWay() throws Exception {
        ChartDrawing drawing = new ChartDrawing(dir);
        Thread helper = new Thread(drawing::help, "helper");
        helper.start();
        drawing.add(chart(0));

        drawing.close(); // what the report's thread does in its finally when building the page threw

        helper.join(10_000);
        assertThat(helper.isAlive()).isFalse();
        assertThatThrownBy(() -> drawing.add(chart(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldThrowOnTheReportsThreadWhatFailedOnTheHelpers() throws Exception {
        ChartDrawing drawing = new ChartDrawing(dir);
        drawing.add(chart(0));
        // A folder, not empty, where the chart's image would go: its file cannot be written.
        Files.createDirectories(dir.resolve("blocked.svg/inside"));
        drawing.add(new Chart("blocked", "A chart whose files cannot be written", Chart.Kind.TIME));
        drawing.add(chart(2));
        drawing.close();
        // The page is built before the helper starts, so the helper takes every chart and meets the failure.
        Thread helper = new Thread(drawing::help, "helper");
        helper.start();
        helper.join(10_000);
        assertThat(helper.isAlive()).as("the helper never throws").isFalse();

        assertThatThrownBy(() -> drawing.finish(null)).as("its failure is the report's").isInstanceOf(IOException.class)
                .hasMessageContaining("blocked.svg");
    }
}
