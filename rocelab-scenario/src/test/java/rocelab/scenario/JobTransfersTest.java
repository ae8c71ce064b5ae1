package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.report.ReportWriter;

/**
 * transfers.csv lists every point-to-point transfer of the jobs, each by its flow in flows.csv (the same start, end and
 * time alone, so its waits are a join away) or over NVLink (its time alone the NVLink's closed form), and the report's
 * table ranks those after the warm-up by the time they lost, the same page when rebuilt from the folder. Two pipelines:
 * one whose stages are on two servers (its sends cross the fabric), one whose stages share a server (NVLink), and a
 * write into the first one's receiving RNIC that slows its sends.
 */
class JobTransfersTest {
    private static final String SCENARIO = """
            name: transfers
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: rail-optimized, servers: 4, gpus-per-server: 2, spines: 1,
                       link: {rate: 100Gbps, delay: 1us}}
            nvlink: {rate: 400Gbps, latency: 1us}
            nic: {cc: dcqcn}
            jobs:
              - name: across
                hosts: [0, 2]
                parallelism: {pp: 2}
                iterations: 3
                warmup: 1
                program:
                  - {id: fwd, op: compute, duration: 20us, when: "pp == 0"}
                  - {id: tx, op: send, peer: pp+1, size: 4MB, when: "pp == 0", after: [fwd]}
                  - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
              - name: inside
                hosts: [6, 7]
                parallelism: {pp: 2}
                iterations: 2
                program:
                  - {id: fwd, op: compute, duration: 20us, when: "pp == 0"}
                  - {id: tx, op: send, peer: pp+1, size: 2MB, when: "pp == 0", after: [fwd]}
                  - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
            traffic:
              - {kind: flow, src: 4, dst: 2, size: 16MB}
            """;

    @TempDir
    Path tmp;

    private static List<Map<String, String>> csv(Path file) throws Exception {
        CsvMapper m = new CsvMapper();
        try (MappingIterator<Map<String, String>> it = m.readerFor(Map.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
            return it.readAll();
        }
    }

    private static long ps(String us) {
        return new BigDecimal(us).movePointRight(6).longValueExact();
    }

    @Test
    void shouldListEveryTransferByItsFlowOrOverNvlinkAndRankTheSlowestInTheReport() throws Exception {
        RunResult r = Simulation.assemble(Scenarios.parse(SCENARIO)).run(ProgressListener.NONE);
        ReportWriter.writeRun(tmp, r, Map.of());
        List<Map<String, String>> rows = csv(tmp.resolve("transfers.csv"));
        Map<String, Map<String, String>> flows = new HashMap<>();
        for (Map<String, String> f : csv(tmp.resolve("flows.csv"))) {
            flows.put(f.get("flow_id"), f);
        }
        // One send per iteration of each job: 3 across the fabric, 2 inside a server.
        assertThat(rows).hasSize(5);
        List<Map<String, String>> across = rows.stream().filter(x -> x.get("job").equals("across")).toList();
        List<Map<String, String>> inside = rows.stream().filter(x -> x.get("job").equals("inside")).toList();
        assertThat(across).extracting(x -> x.get("iteration")).containsExactly("0", "1", "2");
        for (Map<String, String> x : across) {
            assertThat(x).containsEntry("over", "fabric").containsEntry("name", "across/tx")
                    .containsEntry("receive", "across/rx").containsEntry("src_host", "0").containsEntry("dst_host", "2")
                    .containsEntry("size_bytes", "4000000").containsEntry("status", "completed");
            Map<String, String> f = flows.get(x.get("flow_id"));
            assertThat(f).as("its flow in flows.csv").isNotNull();
            assertThat(f).containsEntry("src", "0").containsEntry("dst", "2").containsEntry("size_bytes", "4000000");
            assertThat(x.get("start_us")).isEqualTo(f.get("start_us"));
            assertThat(x.get("end_us")).isEqualTo(f.get("finish_us"));
            assertThat(x.get("ideal_time_us")).isEqualTo(f.get("ideal_fct_us"));
            assertThat(ps(x.get("time_us"))).isEqualTo(ps(f.get("finish_us")) - ps(f.get("start_us")));
        }
        // The write from h4 into h2 shares the receiving RNIC's link: some send lost time against its time alone.
        assertThat(across).anySatisfy(x -> assertThat(new BigDecimal(x.get("network_slowdown")))
                .isGreaterThan(new BigDecimal("1.2")));
        for (Map<String, String> x : inside) {
            assertThat(x).containsEntry("over", "nvlink").containsEntry("flow_id", "").containsEntry("src_host", "6")
                    .containsEntry("dst_host", "7").containsEntry("status", "completed");
            // 2 MB at 400 Gb/s (20 ps a byte) and 1 us of latency; the run's is no shorter.
            assertThat(ps(x.get("ideal_time_us"))).isEqualTo(2_000_000L * 20 + 1_000_000L);
            assertThat(ps(x.get("time_us"))).isGreaterThanOrEqualTo(ps(x.get("ideal_time_us")))
                    .isEqualTo(ps(x.get("end_us")) - ps(x.get("start_us")));
        }
        assertThat(flows.values()).noneMatch(f -> f.get("src").equals("6"));

        // The report: the transfers after the warm-up, the one that lost most first.
        String html = Files.readString(tmp.resolve("report.html"));
        int at = html.indexOf("Point-to-point transfers, slowest against their time alone first");
        assertThat(at).isPositive();
        String table = html.substring(at, html.indexOf("</table>", at));
        List<Map<String, String>> counted = new ArrayList<>(rows.stream()
                .filter(x -> !(x.get("job").equals("across") && x.get("iteration").equals("0"))).toList());
        counted.sort((a, b) -> Long.compare(ps(b.get("time_us")) - ps(b.get("ideal_time_us")),
                ps(a.get("time_us")) - ps(a.get("ideal_time_us"))));
        Map<String, String> slowest = counted.get(0);
        assertThat(slowest.get("job")).isEqualTo("across");
        int firstRow = table.indexOf("<td class='l'>across</td>");
        assertThat(firstRow).isPositive();
        assertThat(table.indexOf("<td class='l'>inside</td>")).isGreaterThan(firstRow);
        assertThat(table.substring(firstRow)).contains("<td class='l'>across/tx from rank 0 to rank 1</td><td>"
                + slowest.get("iteration") + "</td>");
        assertThat(table.substring(firstRow)).contains("flow " + slowest.get("flow_id"));
        assertThat(html.substring(at)).contains("4 transfers (1 warm-up transfer not counted); all are in"
                + " transfers.csv.");
        // Rebuilt from the folder's files (transfers.csv), the same section.
        ReportWriter.write(tmp);
        assertThat(section(Files.readString(tmp.resolve("report.html")))).isEqualTo(section(html)).contains(table);
    }

    /** The report's transfers section, from its heading to the next. */
    private static String section(String html) {
        int at = html.indexOf("Point-to-point transfers, slowest");
        return html.substring(at, html.indexOf("<h2", at));
    }
}
