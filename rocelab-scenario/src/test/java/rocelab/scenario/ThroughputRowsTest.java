package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.report.ReportWriter;

/**
 * throughput.csv and rates.csv name each row's QP by its id and its two hosts, read from the QP table's array of ends
 * (not from the QP): every row names the hosts of its QP's flows (flows.csv's {@code qp}, {@code src}, {@code dst}),
 * recounted here from the flows, not from the writer, in a run with many rows per QP and in one stopped with fewer
 * rows than QPs.
 */
class ThroughputRowsTest {
    @TempDir
    Path tmp;

    private static final String ALL_TO_ALL = """
            name: throughput-rows
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: all-to-all, size: 16KB}
            """;

    /**
     * @param stopAtUs 0: the whole all-to-all (many rows per QP); else stopped once a few QPs have delivered, so the
     *     files have fewer rows than QPs
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 3})
    void shouldNameEachRowsQueuePairByItsFlowsHosts(int stopAtUs) throws Exception {
        String yaml = stopAtUs == 0 ? ALL_TO_ALL : ALL_TO_ALL + "run: {stop-at: " + stopAtUs + "us}\n";
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, r, Map.of());
        Map<Integer, int[]> hostsOfQp = new HashMap<>();
        for (FlowRecord f : r.flows()) {
            hostsOfQp.put(f.queuePair(), new int[] {f.src(), f.dst()});
        }
        assertThat(hostsOfQp).hasSize(56);

        for (String file : List.of("throughput.csv", "rates.csv")) {
            List<String> lines = Files.readAllLines(tmp.resolve(file));
            List<String> header = Arrays.asList(lines.get(0).split(","));
            int rows = lines.size() - 1;
            if (file.equals("throughput.csv") || stopAtUs == 0) {
                // (3 us in, no QP has had a congestion notification yet: rates.csv has no row then.)
                assertThat(rows).as(file).isPositive();
            }
            if (file.equals("throughput.csv")) {
                // More rows than QPs, and fewer (a writer that named QPs by row order would pass only one).
                if (stopAtUs == 0) {
                    assertThat(rows).as(file).isGreaterThanOrEqualTo(hostsOfQp.size());
                } else {
                    assertThat(rows).as(file).isLessThan(hostsOfQp.size());
                }
            }
            for (String line : lines.subList(1, lines.size())) {
                String[] c = line.split(",", -1);
                int qp = Integer.parseInt(c[header.indexOf("qp")]);
                assertThat(hostsOfQp).as(file + " row " + line).containsKey(qp);
                assertThat(new int[] {Integer.parseInt(c[header.indexOf("src")]),
                        Integer.parseInt(c[header.indexOf("dst")])}).as(file + " row " + line)
                        .containsExactly(hostsOfQp.get(qp));
            }
        }
    }
}
