package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.inference.RequestRecord;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Every shipped example (scenarios/examples) opens with a header that says what it shows, and a test checks that the
 * run shows it: here, or in the test class named for it below.
 */
class ShippedExamplesTest {
    /** Where each example's header is checked against its run. */
    private static final Map<String, String> CHECKED_BY = Map.ofEntries(
            Map.entry("lossless-dcqcn", "ShippedExamplesTest"),
            Map.entry("lossy-incast", "ShippedExamplesTest"),
            Map.entry("pause-storm-watchdog", "ShippedExamplesTest"),
            Map.entry("agentic-inference", "ShippedExamplesTest"),
            Map.entry("lossless-pfc-only", "PfcScenarioTest, JourneyTest"),
            Map.entry("infiniband-incast", "IbCongestionControlTest, CreditRootsTest"),
            Map.entry("ring-allreduce", "RingCollectiveTest"),
            Map.entry("multi-plane-permutation", "MultiPlaneScenarioTest"),
            Map.entry("moe-alltoall", "CollectiveExamplesTest, ShippedExamplesTest"),
            Map.entry("nccl-tests-8hosts", "CollectiveExamplesTest"),
            Map.entry("simai-gpt", "SimaiExampleTest (rocelab-cli), SimaiImportTest"),
            Map.entry("chakra-3d", "ChakraExampleTest (rocelab-cli), ChakraExampleTracesTest, ChakraImportTest"),
            Map.entry("pfc-deadlock-ring", "LintWhatIfTest"),
            Map.entry("lint-l1-dscp-mismatch", "LintWhatIfTest"),
            Map.entry("lint-l2-nic-pfc-off", "LintWhatIfTest"),
            Map.entry("lint-l3-headroom", "LintWhatIfTest"),
            Map.entry("lint-l5-ecn-above-xoff", "LintWhatIfTest"),
            Map.entry("lint-l7-trust-pcp", "LintWhatIfTest"),
            Map.entry("lint-l9-np-off", "LintWhatIfTest"),
            Map.entry("lint-l10-cnp-in-data-queue", "LintWhatIfTest"),
            Map.entry("lint-l11-mtu", "LintWhatIfTest"),
            Map.entry("lint-l16-scheduler-starves-roce", "LintWhatIfTest"));

    /**
     * Examples whose header claims no test checks yet, because their packet-level runs are too long for the suite
     * (train-3d-rail: about 12 million events per run; JobCommandsTest checks only its expansion and its ideal-network
     * run). Checked by hand on 2026-12-01: network penalty 12.5 % with the burst, 0.5 % without it, as the header says.
     */
    private static final Set<String> NOT_YET_CHECKED = Set.of("train-3d-rail");

    static Stream<String> examples() {
        return ScenarioReader.exampleNames().stream();
    }

    private static String text(String name) {
        try (InputStream in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/examples/" + name + ".yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static ScenarioConfig parse(String yaml) {
        try {
            return new ScenarioReader().read(yaml, "example.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static RunResult run(String yaml) {
        return Simulation.assemble(parse(yaml)).run(ProgressListener.NONE);
    }

    /** The example without the line containing {@code marker}. */
    private static String without(String yaml, String marker) {
        assertThat(yaml).contains(marker);
        StringBuilder out = new StringBuilder();
        for (String line : yaml.split("\n", -1)) {
            if (!line.contains(marker)) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    @Test
    void shouldListOnlyShippedExamples() {
        assertThat(examples()).isNotEmpty();
        assertThat(examples().toList()).containsAll(CHECKED_BY.keySet()).containsAll(NOT_YET_CHECKED);
    }

    @ParameterizedTest
    @MethodSource("examples")
    void shouldOpenWithAHeaderSayingWhatItShowsAndBeCheckedByATest(String name) {
        List<String> lines = text(name).lines().toList();
        long header = lines.stream().takeWhile(l -> l.startsWith("#")).count();
        assertThat(header).as("%s: comment lines before the first key", name).isGreaterThanOrEqualTo(3);
        assertThat(CHECKED_BY.containsKey(name) || NOT_YET_CHECKED.contains(name))
                .as("%s: a test checks what its header says (add it to CHECKED_BY)", name).isTrue();
    }

    @Test
    void shouldCutPfcToAboutAThirdAndSpareTheVictimWhenEcnAndDcqcnActInLosslessDcqcn() {
        String yaml = text("lossless-dcqcn");
        RunResult dcqcn = run(yaml);
        RunResult pfcOnly = run(text("lossless-pfc-only"));
        assertThat(dcqcn.totals().packetsDropped()).isZero();
        assertThat(dcqcn.totals().ecnMarked()).isPositive();
        assertThat(dcqcn.totals().cnpSent()).isPositive();
        assertThat(dcqcn.totals().rateCuts()).isPositive();
        double pauses = (double) dcqcn.totals().pfcPauseSent() / pfcOnly.totals().pfcPauseSent();
        assertThat(pauses).as("PFC frames against lossless-pfc-only").isBetween(0.2, 0.5);
        FlowRecord victim = dcqcn.flows().get(15);
        assertThat(victim.src()).isEqualTo(9);
        assertThat(victim.dst()).isEqualTo(1);
        assertThat(victim.slowdown()).as("victim slowdown against %s without ECN", pfcOnly.flows().get(15).slowdown())
                .isLessThan(0.5 * pfcOnly.flows().get(15).slowdown());
        // The header's "try": the firmware profile's port-paced CNPs cut far less, and PFC does the work.
        RunResult nvidia = run(yaml.replace("profile: hpcc-ns3", "profile: nvidia"));
        assertThat((double) nvidia.totals().rateCuts() / dcqcn.totals().rateCuts()).as("nvidia's cuts, against hpcc-ns3")
                .isBetween(0.2, 0.5);
        assertThat((double) nvidia.totals().pfcPauseSent() / pfcOnly.totals().pfcPauseSent())
                .as("nvidia's PFC frames against lossless-pfc-only").isBetween(0.8, 1.2);
    }

    @Test
    void shouldDropAndRecoverByGoBackNWithTheBackgroundFlowsAsTheHeaderSaysInLossyIncast() {
        ScenarioConfig c = parse(text("lossy-incast"));
        Simulation sim = Simulation.assemble(c);
        long[] first = {Long.MAX_VALUE, Long.MAX_VALUE};
        JourneyProbe probe = new JourneyProbe() {
            @Override
            public void onDrop(long nowPs, int node, int port, DropReason reason, Packet packet) {
                first[0] = Math.min(first[0], nowPs);
            }

            @Override
            public void onArrive(long nowPs, int host, Packet packet) {
                if (packet.kind() == rocelab.fabric.packet.PacketKind.CNP) {
                    first[1] = Math.min(first[1], nowPs);
                }
            }
        };
        for (int h = 0; h < sim.network().hostCount(); h++) {
            sim.network().nic(h).journeyProbe(probe);
        }
        for (int s = 0; s < sim.network().switchCount(); s++) {
            sim.network().switchAt(s).journeyProbe(probe);
        }
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().droppedBufferFull()).isPositive();
        assertThat(r.totals().naksSent()).isPositive();
        assertThat(r.totals().retransmittedPackets()).isPositive();
        assertThat(r.totals().ackTimeouts()).as("a lost tail waits for the local ACK timeout").isPositive();
        assertThat(r.totals().pfcPauseSent()).isZero();
        assertThat(r.totals().rateCuts()).isPositive();
        assertThat(first[0]).as("the first drop comes before the first CNP reaches a sender").isLessThan(first[1]);
        // Background: into leaf0 (h12 -> h1) and out of it (h2 -> h14, whose ACKs come back down the congested spine
        // links into leaf0) suffer; leaf3 -> leaf1 (h13 -> h5) barely notices.
        assertThat(r.flows().get(8).slowdown()).as("h12 -> h1").isGreaterThan(2);
        assertThat(r.flows().get(10).slowdown()).as("h2 -> h14").isGreaterThan(2);
        assertThat(r.flows().get(9).slowdown()).as("h13 -> h5").isLessThan(1.1);
    }

    @Test
    void shouldStallTheVictimsWithoutTheWatchdogAndDropWithItInPauseStormWatchdog() {
        String yaml = text("pause-storm-watchdog");
        RunResult with = run(yaml);
        RunResult without = run(without(yaml, "watchdog: {poll"));
        long stormEnd = 20_020_000_000L;
        // Without: the pause spreads, the flows that never go to h0 stall for the whole storm, h1 -> h7 does not.
        assertThat(without.totals().packetsDropped()).isZero();
        assertThat(without.flows().get(1).finishPs()).as("h5 -> h1").isGreaterThan(stormEnd);
        assertThat(without.flows().get(2).finishPs()).as("h6 -> h2").isGreaterThan(stormEnd);
        assertThat(without.flows().get(3).slowdown()).as("h1 -> h7").isLessThan(1.1);
        // With: a storm on leaf0's queue towards h0, storms on queues merely paused by the spreading, drops there,
        // and victims that wait for their ACK timeout.
        var n = with.network();
        var topo = n.topology();
        int leaf0 = topo.nodeByName("leaf0");
        long towardsH0 = 0;
        long elsewhere = 0;
        for (int s = 0; s < n.switchCount(); s++) {
            for (int p = 0; p < n.switchAt(s).portCount(); p++) {
                long storms = n.switchAt(s).port(p).counter(PortCounter.PFC_WATCHDOG_STORMS);
                if (n.switchAt(s).nodeId() == leaf0 && topo.peer(leaf0, p).node() == 0) {
                    towardsH0 += storms;
                } else {
                    elsewhere += storms;
                }
            }
        }
        assertThat(towardsH0).isPositive();
        assertThat(elsewhere).as("storms declared on queues paused by the spreading").isPositive();
        assertThat(with.totals().droppedPfcWatchdog()).isPositive().isEqualTo(with.totals().packetsDropped());
        assertThat(n.nic(5).counter(NicCounter.LOCAL_ACK_TIMEOUT_ERR) + n.nic(6).counter(
                NicCounter.LOCAL_ACK_TIMEOUT_ERR)).as("victims wait for their ACK timeout").isPositive();
        assertThat(with.flows()).allMatch(FlowRecord::completed);
    }

    @Test
    void shouldMakeOnlyRequestZeroWaitOnTheNetworkInAgenticInference() {
        String yaml = text("agentic-inference");
        RunResult busy = run(yaml);
        RunResult quiet = run(without(without(yaml, "{kind: flow, src: 12, dst: 4, size: 512MB"), "traffic:"));
        List<RequestRecord> requests = busy.requests();
        assertThat(requests).hasSizeGreaterThan(2).allMatch(RequestRecord::completed);
        assertThat(requests.get(0).networkWaitPs() / 1e9).as("request 0 waits, ms").isBetween(1.1, 1.5);
        for (RequestRecord r : requests.subList(1, requests.size())) {
            assertThat(r.networkWaitPs()).as("request %d waits, ps", r.request()).isLessThan(requests.get(0)
                    .networkWaitPs() / 100);
        }
        assertThat(quiet.requests()).allSatisfy(r -> assertThat(r.networkWaitPs()).as("request %d, quiet fabric",
                r.request()).isLessThan(requests.get(0).networkWaitPs() / 100));
    }

    @Test
    void shouldTakeTheSkewedDispatchTimesTheMoeHeaderGivesForBothProfiles() {
        String yaml = text("moe-alltoall");
        RunResult ns3 = run(yaml);
        RunResult nvidia = run(yaml.replace("profile: hpcc-ns3", "profile: nvidia"));
        double balancedMs = ns3.collectives().get(0).timePs() / 1e9;
        double skewedMs = ns3.collectives().get(1).timePs() / 1e9;
        assertThat(skewedMs).as("skewed dispatch, hpcc-ns3, ms: about 4.5").isBetween(4.3, 4.7);
        assertThat(skewedMs / balancedMs).as("about six times the balanced AlltoAll").isBetween(5.0, 7.0);
        assertThat(nvidia.collectives().get(1).timePs() / 1e9).as("skewed dispatch, nvidia, ms: about 3.6")
                .isBetween(3.4, 3.8);
    }
}
