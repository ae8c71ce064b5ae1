package rocelab.scenario.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;
import rocelab.scenario.read.SweepReader;

/** Each shipped sweep (scenarios/sweeps) shows what its header says. */
class SweepExamplesTest {
    @TempDir
    Path dir;

    private SweepResults run(String name) throws Exception {
        SweepPlan plan = new SweepReader().read(Path.of("../scenarios/sweeps/" + name + ".yaml"));
        SweepResults r = new LocalSweep(plan, dir.resolve(name), 2, LocalSweep.Listener.NONE).run().results();
        assertThat(r.failed()).isZero();
        assertThat(r.rows()).allSatisfy(row -> assertThat(row.get(r.header().indexOf("stop_reason")))
                .isEqualTo("completed"));
        return r;
    }

    /** The mean of a metric over the rows matching a condition (the seeds of one point). */
    private static double mean(SweepResults r, String metric, Predicate<Map<String, String>> where) {
        return rows(r).stream().filter(where).mapToDouble(m -> Double.parseDouble(m.get(metric))).average()
                .orElseThrow();
    }

    /**
     * The mean number of XOFF frames in the pfc.csv of the rows matching a condition (counters.pfc_pause_sent counts
     * every PFC frame: an XOFF and the XON that ends it are two).
     */
    private double xoffFrames(String name, SweepResults r, Predicate<Map<String, String>> where) throws Exception {
        List<Map<String, String>> matching = rows(r).stream().filter(where).toList();
        double sum = 0;
        for (Map<String, String> m : matching) {
            Path pfc = dir.resolve(name).resolve("points").resolve(m.get("point")).resolve("pfc.csv");
            sum += !Files.exists(pfc) ? 0 : Files.readAllLines(pfc).stream().filter(l -> l.contains(",XOFF,")).count();
        }
        return sum / matching.size();
    }

    private static List<Map<String, String>> rows(SweepResults r) {
        return r.rows().stream().map(row -> {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                m.put(r.header().get(i), row.get(i));
            }
            return m;
        }).toList();
    }

    @Test
    void ecnThresholdsTradeQueueAgainstPfcAt400G() throws Exception {
        SweepResults r = run("ecn-threshold-400g");
        List<String> kmins = List.of("25KB", "100KB", "400KB", "1600KB");
        double[] queue = new double[4];
        double[] pauses = new double[4];
        double[] fct = new double[4];
        for (int i = 0; i < 4; i++) {
            String k = kmins.get(i);
            queue[i] = mean(r, "max_queue_bytes", m -> m.get("switch.ecn.kmin").equals(k));
            pauses[i] = mean(r, "counters.pfc_pause_sent", m -> m.get("switch.ecn.kmin").equals(k));
            fct[i] = mean(r, "flows.fct_us.p99", m -> m.get("switch.ecn.kmin").equals(k));
        }
        assertThat(queue).isSorted();
        assertThat(queue[0]).as("about 1.5 MB at 25/100 KB").isBetween(1.45e6, 1.6e6);
        assertThat(pauses[0]).as("the only point with no PFC").isZero();
        assertThat(pauses).isSorted();
        for (String k : List.of("100KB", "400KB")) {
            assertThat(xoffFrames("ecn-threshold-400g", r, m -> m.get("switch.ecn.kmin").equals(k)))
                    .as("3 to 5 XOFF frames at " + k).isBetween(3.0, 5.0);
        }
        // counters.pfc_pause_sent counts every PFC frame: an XOFF and its XON are two.
        assertThat(pauses[3]).as("60 PFC frames at 1600/6400 KB").isBetween(50.0, 70.0);
        assertThat(xoffFrames("ecn-threshold-400g", r, m -> m.get("switch.ecn.kmin").equals("1600KB")))
                .as("about 30 XOFF frames").isBetween(25.0, 35.0);
        assertThat(mean(r, "counters.pfc_paused_us", m -> m.get("switch.ecn.kmin").equals("1600KB")))
                .as("about 250 us paused").isBetween(220.0, 280.0);
        assertThat(fct[0]).as("about 730 us at 25/100 KB").isBetween(715.0, 745.0);
        assertThat(fct[3]).as("167 us at 1600/6400 KB").isBetween(160.0, 175.0);
        assertThat(fct[0] / fct[3]).as("about 4.4 times faster").isBetween(4.2, 4.6);
        assertThat(mean(r, "flows.aggregate_goodput_gbps", m -> m.get("switch.ecn.kmin").equals("25KB")))
                .isLessThan(90);
    }

    @Test
    void headroomDropsStartWhereTheCableOutgrowsIt() throws Exception {
        SweepResults r = run("headroom-cable-length");
        List<String> delays = List.of("100ns", "500ns", "1us", "2us", "4us");
        Map<String, String> onset = Map.of("30KB", "1us", "60KB", "4us", "140KB", "none");
        double noDropP99 = mean(r, "flows.fct_us.p99", m -> m.get("topology.link.delay").equals("100ns"));
        for (String headroom : List.of("30KB", "60KB", "140KB")) {
            String first = "none";
            boolean dropped = false;
            for (String delay : delays) {
                double drops = mean(r, "counters.drops_by_reason.headroom_exceeded",
                        m -> m.get("switch.pfc.headroom").equals(headroom) && m.get("topology.link.delay").equals(delay));
                if (drops > 0 && !dropped) {
                    first = delay;
                }
                // Once drops start, a longer cable never has none.
                assertThat(drops > 0 || !dropped).as(headroom + " " + delay).isTrue();
                dropped |= drops > 0;
                if (drops > 0) {
                    double p99 = mean(r, "flows.fct_us.p99", m -> m.get("switch.pfc.headroom").equals(headroom)
                            && m.get("topology.link.delay").equals(delay));
                    // Drops always cost time. Where they start, a message's last packets are among them, and with
                    // nothing behind them to reveal the gap they wait for a retransmission timeout, far beyond the
                    // incast's time; further out, go-back-N may repair every drop within it (30 KB at 4 us).
                    assertThat(p99).as(headroom + " " + delay + " p99").isGreaterThan(noDropP99 * 1.3);
                    if (delay.equals(first)) {
                        assertThat(p99).as(headroom + " " + delay + " p99 at the onset").isGreaterThan(10 * noDropP99);
                    }
                }
                long needed = needed(ps(delay));
                if (Long.parseLong(headroom.replace("KB", "")) * 1000 >= needed) {
                    assertThat(drops).as("headroom " + headroom + " covers " + delay).isZero();
                }
            }
            assertThat(first).as(headroom).isEqualTo(onset.get(headroom));
        }
    }

    /**
     * What {@code rocelab headroom --speed 100Gbps --cable L --mtu 1000} computes for the base scenario's ports: an
     * RNIC peer, no forwarding latency, the 802.3 pause response at 100 Gb/s, untagged 1000 B payload frames.
     */
    private static long needed(long cablePs) {
        long rate = 100_000_000_000L;
        PauseLoop loop = PauseLoop.standard();
        FrameFormat frames = new FrameFormat(false);
        return Headroom.bytes(rate, loop.roundTripPs(cablePs, false), loop.responsePs(false, rate),
                PauseLoop.largestFrame(frames, 1000), frames.framingBytes());
    }

    private static long ps(String delay) {
        return delay.endsWith("ns") ? Long.parseLong(delay.replace("ns", "")) * 1000
                : Long.parseLong(delay.replace("us", "")) * 1_000_000;
    }

    @Test
    void paperProfileKeepsLineRateUntilTheIncastOutgrowsItThenPfcPauses() throws Exception {
        SweepResults r = run("dcqcn-profile-incast");
        assertThat(r.metrics()).allMatch(m -> m.startsWith("flows.") || m.startsWith("counters.")
                || m.equals("max_queue_bytes"));
        Predicate<Map<String, String>> paper = m -> m.get("nic.dcqcn.profile").equals("paper");
        for (String degree : List.of("1-2", "1-4", "1-8")) {
            Predicate<Map<String, String>> at = m -> m.get("traffic[0].senders").equals(degree);
            assertThat(mean(r, "counters.pfc_pause_sent", paper.and(at))).isZero();
            assertThat(mean(r, "flows.aggregate_goodput_gbps", paper.and(at))).isGreaterThan(85);
        }
        Predicate<Map<String, String>> at16 = m -> m.get("traffic[0].senders").equals("1-16");
        Predicate<Map<String, String>> nvidia = m -> m.get("nic.dcqcn.profile").equals("nvidia");
        Predicate<Map<String, String>> ns3 = m -> m.get("nic.dcqcn.profile").equals("hpcc-ns3");
        double paperP99 = mean(r, "flows.fct_us.p99", paper.and(at16));
        // About 80 XOFF frames, 160 PFC frames with their XONs; about 200 cuts.
        assertThat(mean(r, "counters.pfc_pause_sent", paper.and(at16))).isBetween(140.0, 180.0);
        assertThat(xoffFrames("dcqcn-profile-incast", r, paper.and(at16))).isBetween(70.0, 90.0);
        assertThat(mean(r, "counters.rate_cuts", paper.and(at16))).isBetween(170.0, 230.0);
        // Up to 8:1 paper cuts least: 4 to about 60 cuts.
        for (String degree : List.of("1-2", "1-4", "1-8")) {
            Predicate<Map<String, String>> at = m -> m.get("traffic[0].senders").equals(degree);
            double cuts = mean(r, "counters.rate_cuts", paper.and(at));
            assertThat(cuts).as("paper " + degree).isBetween(4.0, 65.0)
                    .isLessThan(mean(r, "counters.rate_cuts", nvidia.and(at)))
                    .isLessThan(mean(r, "counters.rate_cuts", ns3.and(at)));
        }
        for (Predicate<Map<String, String>> p : List.of(nvidia, ns3)) {
            assertThat(paperP99).isGreaterThan(mean(r, "flows.fct_us.p99", p.and(at16)));
            assertThat(mean(r, "flows.aggregate_goodput_gbps", p.and(m -> m.get("traffic[0].senders").equals("1-2"))))
                    .isLessThan(30);
        }
        // hpcc-ns3 cuts per QP: thousands of cuts at 16:1, and PFC stays silent at every degree.
        assertThat(mean(r, "counters.rate_cuts", ns3.and(at16)))
                .isGreaterThan(5 * mean(r, "counters.rate_cuts", paper.and(at16)));
        for (String degree : List.of("1-2", "1-4", "1-8", "1-16")) {
            assertThat(mean(r, "counters.pfc_pause_sent", ns3.and(m -> m.get("traffic[0].senders").equals(degree))))
                    .as("hpcc-ns3 " + degree).isZero();
        }
        // nvidia's port-paced CNPs spread over more QPs: over 80 % of line rate at 8:1, near it at 16:1, PFC pausing
        // at 16:1.
        assertThat(mean(r, "flows.aggregate_goodput_gbps", nvidia.and(m -> m.get("traffic[0].senders")
                .equals("1-8")))).as("nvidia 1-8").isGreaterThan(75);
        assertThat(mean(r, "flows.aggregate_goodput_gbps", nvidia.and(at16))).as("nvidia 1-16").isGreaterThan(85);
        // About 115 XOFF frames, 230 PFC frames with their XONs.
        assertThat(mean(r, "counters.pfc_pause_sent", nvidia.and(at16))).isBetween(210.0, 250.0);
        assertThat(xoffFrames("dcqcn-profile-incast", r, nvidia.and(at16))).isBetween(105.0, 125.0);
        assertThat(mean(r, "counters.rate_cuts", nvidia.and(at16)))
                .isLessThan(mean(r, "counters.rate_cuts", ns3.and(at16)) / 5);
        // Under 200 cuts at 8:1 and 16:1 (about 80 and 165), fewer than paper's at 16:1; 21-33 Gb/s at 2:1.
        Predicate<Map<String, String>> at8 = m -> m.get("traffic[0].senders").equals("1-8");
        assertThat(mean(r, "counters.rate_cuts", nvidia.and(at8))).isBetween(70.0, 90.0);
        assertThat(mean(r, "counters.rate_cuts", nvidia.and(at16))).isBetween(150.0, 180.0)
                .isLessThan(mean(r, "counters.rate_cuts", paper.and(at16)));
        assertThat(rows(r).stream().filter(nvidia.and(m -> m.get("traffic[0].senders").equals("1-2")))
                .mapToDouble(m -> Double.parseDouble(m.get("flows.aggregate_goodput_gbps"))))
                .allSatisfy(g -> assertThat(g).isBetween(21.0, 33.5));
    }

    @Test
    void docsSweepFileIsValidAgainstTheShippedBaseItNames() throws Exception {
        // docs/sweeps.md's sweep file varied traffic[0].senders over 1-8 on base/ecn-400g.yaml's 5 hosts: pasted next
        // to that base, every point failed. Each of its points is read and validated here, as --dry-run does.
        String docs = Files.readString(Path.of("../docs/sweeps.md"));
        String open = "## The sweep file\n\n```yaml\n";
        int start = docs.indexOf(open) + open.length();
        assertThat(start).isGreaterThan(open.length());
        String sweep = docs.substring(start, docs.indexOf("```", start));
        assertThat(sweep).contains("scenario: base/ecn-400g.yaml");
        Files.createDirectories(dir.resolve("base"));
        Files.copy(Path.of("../scenarios/sweeps/base/ecn-400g.yaml"), dir.resolve("base/ecn-400g.yaml"));
        Path file = Files.writeString(dir.resolve("my-sweep.yaml"), sweep);
        SweepPlan plan = new SweepReader().read(file);
        assertThat(plan.points()).hasSize(3 * 2 * 2 * 3);
    }

    @Test
    void docsListEveryShippedSweepAndTheBaseScenariosSayWhatTheyHold() throws Exception {
        String docs = Files.readString(Path.of("../docs/sweeps.md"));
        try (var files = Files.list(Path.of("../scenarios/sweeps"))) {
            List<String> names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml")).toList();
            assertThat(names).hasSizeGreaterThanOrEqualTo(7);
            for (String n : names) {
                assertThat(docs).as("docs/sweeps.md's shipped sweeps").contains("| `" + n + "` |");
            }
        }
        String ecn = Files.readString(Path.of("../scenarios/sweeps/base/ecn-400g.yaml"));
        assertThat(ecn).contains("a 4:1 incast of 2 MB messages at 400 Gb/s")
                .contains("{kind: incast, senders: 1-4, receiver: 0, size: 2MB}");
    }

    @Test
    void webSearchShortFlowsTailIsShortestUnderHpccThenSwiftThenDcqcn() throws Exception {
        SweepResults r = run("websearch-cc");
        String header = String.join(" ", Files.readAllLines(Path.of("../scenarios/sweeps/websearch-cc.yaml")).stream()
                .takeWhile(l -> l.startsWith("#")).map(l -> l.substring(1).strip()).toList());
        List<Map<String, String>> rows = rows(r);
        assertThat(rows).hasSize(27);
        String shortP99 = "flows.slowdown_by_size.up_to_100kb.p99";
        String midP99 = "flows.slowdown_by_size.100kb_to_10mb.p99";
        for (String load : List.of("0.3", "0.5", "0.7")) {
            for (String seed : List.of("1", "2", "3")) {
                Predicate<Map<String, String>> at = m -> m.get("traffic[0].load").equals(load)
                        && m.get("seed").equals(seed);
                double hpcc = mean(r, shortP99, at.and(cc("hpcc")));
                double swift = mean(r, shortP99, at.and(cc("swift")));
                double dcqcn = mean(r, shortP99, at.and(cc("dcqcn")));
                assertThat(hpcc).as("load %s seed %s", load, seed).isLessThan(swift);
                assertThat(swift).as("load %s seed %s", load, seed).isLessThan(dcqcn);
                // A seed draws the same flows whatever the control.
                assertThat(mean(r, "flows.count", at.and(cc("hpcc")))).isEqualTo(mean(r, "flows.count",
                        at.and(cc("dcqcn")))).isEqualTo(mean(r, "flows.count", at.and(cc("swift"))));
            }
        }
        assertThat(header).contains("under HPCC (p99 " + range(rows, "hpcc", shortP99) + " over the nine runs), then"
                + " Swift (" + range(rows, "swift", shortP99) + "), then DCQCN (" + range(rows, "dcqcn", shortP99) + ")");
        assertThat(header).contains("their p99 is " + range(rows, "hpcc", midP99) + " under HPCC, "
                + range(rows, "swift", midP99) + " under Swift");
        assertThat(header).contains(String.format(java.util.Locale.ROOT, "queues reach %.1f-%.1f MB where HPCC's stay"
                + " under 0.24 MB and Swift's under 1.12 MB", min(rows, "dcqcn", "max_queue_bytes") / 1e6,
                max(rows, "dcqcn", "max_queue_bytes") / 1e6));
        assertThat(max(rows, "hpcc", "max_queue_bytes")).isLessThan(240_000);
        assertThat(max(rows, "swift", "max_queue_bytes")).isLessThan(1_120_000);
        long pausing = rows.stream().filter(cc("dcqcn")).filter(m -> Double.parseDouble(m.get(
                "counters.pfc_pause_sent")) > 0).count();
        assertThat(header).contains("only DCQCN sends PFC pauses, in " + pausing + " of its 9 runs");
        assertThat(pausing).isPositive();
        assertThat(max(rows, "hpcc", "counters.pfc_pause_sent") + max(rows, "swift", "counters.pfc_pause_sent"))
                .isZero();
    }

    private static Predicate<Map<String, String>> cc(String name) {
        return m -> m.get("nic.cc").equals(name);
    }

    private static double min(List<Map<String, String>> rows, String cc, String metric) {
        return rows.stream().filter(cc(cc)).mapToDouble(m -> Double.parseDouble(m.get(metric))).min().orElseThrow();
    }

    private static double max(List<Map<String, String>> rows, String cc, String metric) {
        return rows.stream().filter(cc(cc)).mapToDouble(m -> Double.parseDouble(m.get(metric))).max().orElseThrow();
    }

    /** "1.80-3.39": the metric's smallest and largest over a control's runs. */
    private static String range(List<Map<String, String>> rows, String cc, String metric) {
        return String.format(java.util.Locale.ROOT, "%.2f-%.2f", min(rows, cc, metric), max(rows, cc, metric));
    }
}
