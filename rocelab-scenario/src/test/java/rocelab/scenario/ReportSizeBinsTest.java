package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.report.ReportWriter;
import rocelab.scenario.read.ScenarioReader;

/**
 * The report's slowdown-by-size table gives each bin's sizes in exact bytes, one unit for all: each size in its own
 * fewest-digit unit made websearch-load's bins read out of order ("18.52 kB .. 26.136 kB", then "25.75 KiB ..
 * 30.278 kB"; an audit).
 */
class ReportSizeBinsTest {
    private static final Pattern ROW = Pattern.compile("<tr><td>([0-9,]+)(?: \\.\\. ([0-9,]+))?</td><td>[0-9]+</td>");

    @Test
    void shouldListTheBinsInOneUnitInIncreasingOrder(@TempDir Path tmp) throws Exception {
        RunResult run = Simulation.assemble(new ScenarioReader().readExample("websearch-load")).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, run, Map.of());
        String html = Files.readString(tmp.resolve("report.html"));
        String table = html.substring(html.indexOf("<th>sizes (B)</th>"));
        table = table.substring(0, table.indexOf("</table>"));
        List<long[]> bins = new ArrayList<>();
        Matcher m = ROW.matcher(table);
        while (m.find()) {
            long lo = Long.parseLong(m.group(1).replace(",", ""));
            long hi = m.group(2) == null ? lo : Long.parseLong(m.group(2).replace(",", ""));
            bins.add(new long[] {lo, hi});
        }
        assertThat(bins).hasSizeGreaterThan(10);
        for (int i = 0; i < bins.size(); i++) {
            assertThat(bins.get(i)[1]).isGreaterThanOrEqualTo(bins.get(i)[0]);
            if (i > 0) {
                assertThat(bins.get(i)[0]).as("bin %d starts after bin %d ends", i, i - 1)
                        .isGreaterThan(bins.get(i - 1)[1]);
            }
        }
        assertThat(table).doesNotContain("KiB", "kB");
    }
}
