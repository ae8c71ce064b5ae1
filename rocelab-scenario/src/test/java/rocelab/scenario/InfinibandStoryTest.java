package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.RunWriter;
import rocelab.observe.report.ReportWriter;

/**
 * What rocelab tells about an InfiniBand flow is InfiniBand's: no UDP source port (an IB packet has no UDP/IP header;
 * switches forward it by its destination LID), in the journey and in flows.csv.
 */
class InfinibandStoryTest {
    /** A 4-to-1 incast and a flow beside it, on 100 Gb/s links (the reproducer of the wrong story). */
    static final String INCAST = """
            name: ib-incast
            fabric: {mode: %s}
            topology: {kind: single-switch, hosts: 6, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: none}
            traffic:
              - {kind: incast, senders: 1-4, receiver: 0, size: 512KB}
              - {kind: flow, src: 5, dst: 1, size: 512KB}
            """;

    @TempDir
    Path tmp;

    /** The simulation, the flow's record and its journey text. */
    record Told(Simulation sim, RunResult result, FlowRecord flow, List<JourneyEvent> events, String text) {}

    static Told journey(String yaml, int flow) {
        Simulation sim = Scenarios.assemble(yaml);
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(flow).id(), flow,
                sim.pfcLog() == null ? PfcProbe.NONE : sim.pfcLog());
        rec.attach();
        RunResult r = sim.run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(flow);
        rec.completed(f.finishPs(), f.src());
        List<JourneyEvent> events = rec.eventsOf(f.startPs(), f.finishPs());
        String text = new JourneyText(sim.network(), sim.pfcLog()).render(f, events, -1, 0, Long.MAX_VALUE, 10_000);
        return new Told(sim, r, f, events, text);
    }

    @Test
    void shouldTellNoUdpSourcePortButTheDestinationLidWhenTheFabricIsInfiniband() {
        Told ib = journey(INCAST.formatted("infiniband"), 0);
        assertThat(ib.text()).startsWith("journey of flow 0: h1 -> h0, 512,000 bytes, RC QP 0")
                .doesNotContain("UDP").contains("by their destination LID, h0's LID 1)").contains("HCA")
                .doesNotContain("RNIC");
        Told roce = journey(INCAST.formatted("roce-lossless"), 0);
        int port = roce.sim().network().queuePairs().get(0).entropy();
        assertThat(roce.text()).contains("RC QP 0 (UDP source port " + port + ")");
    }

    @Test
    void shouldSayHowASwitchPicksAmongEqualCostPortsOnInfinibandWithoutAUdpPort() {
        Told ib = journey("""
                name: ib-two-spines
                fabric: {mode: infiniband}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 64KB}
                """, 0);
        assertThat(ib.text()).doesNotContain("UDP").contains("it keeps the QP on one, picked by a hash of its"
                + " endpoints and its path entropy");
        Told single = journey(INCAST.formatted("infiniband"), 0);
        assertThat(single.text()).as("one port towards h0 at the one switch: no choice to tell")
                .doesNotContain("equal-cost");
    }

    @Test
    void shouldLeaveUdpSportEmptyInFlowsCsvOnInfinibandAndFillItOnRoce() throws Exception {
        Map<String, List<String[]>> rows = new java.util.HashMap<>();
        for (String mode : List.of("infiniband", "roce-lossless")) {
            Simulation sim = Scenarios.assemble(INCAST.formatted(mode));
            RunResult r = sim.run(ProgressListener.NONE);
            Path dir = tmp.resolve(mode);
            new RunWriter(Integer.MAX_VALUE).write(dir, r, Map.of());
            List<String> lines = Files.readAllLines(dir.resolve("flows.csv"));
            assertThat(lines.get(0)).as("the schema keeps its columns, in place").isEqualTo("flow_id,src,dst,size_bytes,"
                    + "start_us,finish_us,fct_us,delivered_us,ideal_fct_us,slowdown,status,qp,udp_sport,paused_wait_us,"
                    + "victim_wait_us,pause_root,pfc_victim");
            rows.put(mode, lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList());
            for (String[] row : rows.get(mode)) {
                int qp = Integer.parseInt(row[11]);
                String expected = mode.equals("infiniband") ? ""
                        : Integer.toString(sim.network().queuePairs().get(qp).entropy());
                assertThat(row[12]).as("%s flow %s udp_sport", mode, row[0]).isEqualTo(expected);
            }
            // The folder reads back (rocelab report OUTDIR), the empty column included.
            assertThat(ReportWriter.write(dir)).exists();
        }
        assertThat(rows.get("infiniband")).hasSize(5);
        assertThat(rows.get("roce-lossless")).allSatisfy(row -> assertThat(Integer.parseInt(row[12]))
                .isBetween(0xC000, 0xFFFF));
    }

    @Test
    void shouldLeaveUdpSportEmptyOnInfinibandAtFlowLevelToo() {
        RunResult r = Simulation.assemble(Scenarios.parse(INCAST.formatted("infiniband")), Simulation.Model.FLOW, 1)
                .run(ProgressListener.NONE);
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.hasUdpSourcePort()).isFalse());
        RunResult roce = Simulation.assemble(Scenarios.parse(INCAST.formatted("roce-lossless")),
                Simulation.Model.FLOW, 1).run(ProgressListener.NONE);
        assertThat(roce.flows()).allSatisfy(f -> assertThat(f.hasUdpSourcePort()).isTrue());
    }
}
