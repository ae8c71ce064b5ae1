package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/** The PFC guarantee: with enough headroom a lossless priority never drops; without it, it does. */
class PfcScenarioTest {
    private static String incast(String mode, String pfc) {
        return """
                name: pfc-incast
                fabric: {mode: %s, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2MB, ecn: {marking: none}%s}
                nic: {cc: none, timeout: 8}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 1MB}
                  - {kind: flow, src: 9, dst: 1, size: 1MB}
                """.formatted(mode, pfc);
    }

    @Test
    void shouldNeverDropWhenLosslessWhileTheSameIncastDropsWhenLossy() {
        RunResult lossy = Scenarios.assemble(incast("roce-lossy", "")).run(ProgressListener.NONE);
        RunResult lossless = Scenarios.assemble(incast("roce-lossless", "")).run(ProgressListener.NONE);
        assertThat(lossy.totals().packetsDropped()).isPositive();
        assertThat(lossless.totals().packetsDropped()).isZero();
        assertThat(lossless.totals().retransmittedPackets()).isZero();
        assertThat(lossless.flows()).allMatch(FlowRecord::completed);
        assertThat(lossless.totals().pfcPauseSent()).isPositive();
        assertThat(lossless.pfcLog().frames()).isEqualTo(lossless.totals().pfcPauseSent());
        assertThat(lossless.pfcLog().csv()).contains(",XOFF,65535,335.5392,").contains(",XON,0,0,");
    }

    @Test
    void shouldDropOnTheLosslessPriorityWhenHeadroomIsFarBelowTheComputedValue() {
        RunResult r = Scenarios.assemble(incast("roce-lossless", ", pfc: {headroom: 2KB}")).run(ProgressListener.NONE);
        assertThat(r.totals().droppedHeadroom()).isPositive();
        assertThat(r.flows()).allMatch(FlowRecord::completed);
    }

    @Test
    void shouldNeverDropWhenStaticThresholdsLeaveHeadroom() {
        RunResult r = Scenarios.assemble(incast("roce-lossless", ", pfc: {threshold: static, xoff: 60KB, xon: 40KB}"))
                .run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().pfcPauseSent()).isPositive();
    }

    @Test
    void shouldRefuseTheScenarioWhenHeadroomLeavesNoSharedBuffer() {
        String yaml = incast("roce-lossless", "").replace("buffer: 2MB", "buffer: 300KB");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new rocelab.scenario.read.ScenarioReader()
                        .read(yaml, "t.yaml", java.nio.file.Path.of(".")))
                .hasMessageStartingWith("t.yaml:4:18: the switch buffer (300,000 B) is too small for the PFC headroom"
                        + " that leaf0 reserves");
    }

    @Test
    void shouldNameTheVictimAndTracePauseSpreadingWhenPfcDoesAllTheWork() throws Exception {
        RunResult r = Simulation.assemble(new rocelab.scenario.read.ScenarioReader().readExample("lossless-pfc-only"))
                .run(ProgressListener.NONE);
        var victims = rocelab.observe.pfc.PfcVictims.find(r.pfcLog(), r.flows(), r.simulatedPs());
        assertThat(victims).as("h9 -> h1 never crosses the port to h0 but waits behind its pauses")
                .extracting(v -> v.flow().src(), v -> v.flow().dst())
                .containsExactly(org.assertj.core.api.Assertions.tuple(9, 1));
        var victim = victims.get(0);
        assertThat(r.pfcLog().rootName(victim.root().node(), victim.root().port()))
                .as("rooted at the congested port towards h0").isEqualTo("leaf0 port 0 (towards h0)");
        assertThat(victim.root().onPath()).isFalse();
        assertThat(victim.offPathWaitPs()).isPositive().isLessThanOrEqualTo(victim.pausedWaitPs());
        var topo = r.network().topology();
        var tree = r.pfcLog().propagation(r.network().simulator().nowPs());
        assertThat(tree.get(0).hop()).isZero();
        assertThat(topo.nodeName(tree.get(0).device())).isEqualTo("leaf0");
        assertThat(tree).anySatisfy(e -> {
            assertThat(topo.nodeName(e.device())).startsWith("spine");
            assertThat(topo.nodeName(e.peer())).isEqualTo("leaf1");
            assertThat(e.hop()).as("a spine paused by leaf0 pauses leaf1: one hop back").isEqualTo(1);
        });
        for (int i = 1; i < tree.size(); i++) {
            assertThat(tree.get(i).firstXoffPs()).isGreaterThanOrEqualTo(tree.get(i - 1).firstXoffPs());
        }
    }

    @Test
    void shouldPauseTheSwitchFromASlowReceiverWhenLosslessAndDropInTheNicWhenLossy() {
        String slow = """
                name: slow-receiver
                fabric: {mode: %s, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, ecn: {marking: none}}
                nic: {cc: none, timeout: 10, rx: {rate: 50Gbps, buffer: 512KB, xoff: 256KB, xon: 128KB}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 4MB}
                """;
        RunResult lossless = Scenarios.assemble(slow.formatted("roce-lossless")).run(ProgressListener.NONE);
        assertThat(lossless.totals().packetsDropped()).isZero();
        assertThat(lossless.network().nic(0).counter(rocelab.fabric.probe.NicCounter.TX_PAUSE)).isPositive();
        assertThat(lossless.flows()).allMatch(FlowRecord::completed);
        double seconds = lossless.flows().get(0).fctPs() / 1e12;
        assertThat(4e6 * 8 / seconds / 1e9).as("goodput close to the 50 Gb/s receive rate").isBetween(42.0, 50.0);
        RunResult lossy = Scenarios.assemble(slow.formatted("roce-lossy")).run(ProgressListener.NONE);
        assertThat(lossy.totals().nicOutOfBuffer()).isPositive();
        assertThat(lossy.totals().packetsDropped()).isEqualTo(lossy.totals().nicOutOfBuffer());
        assertThat(lossy.flows()).allMatch(FlowRecord::completed);
    }

    @Test
    void shouldDropOnlyTheLossyClassWhenLosslessAndLossyTrafficShareAPort() {
        // DSCP 26 maps to traffic class 3 (lossless); DSCP 10 to class 1, which stays lossy.
        RunResult r = Scenarios.assemble("""
                name: mixed-classes
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1MB, ecn: {marking: none}}
                nic: {cc: none, timeout: 8}
                traffic:
                  - {kind: incast, senders: 1-2, receiver: 0, size: 2MB, dscp: 26}
                  - {kind: incast, senders: 3-4, receiver: 0, size: 2MB, dscp: 10}
                """).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        var toH0 = r.network().switchAt(0).port(0);
        assertThat(r.totals().droppedBufferFull()).as("the lossy class tail-drops").isPositive();
        assertThat(r.totals().droppedHeadroom()).isZero();
        assertThat(r.network().switchAt(0).port(1).pauseFramesSent(3)).as("lossless senders are paused").isPositive();
        assertThat(r.network().switchAt(0).port(3).pauseFramesSent(1) + r.network().switchAt(0).port(3)
                .pauseFramesSent(3)).as("lossy senders are never paused").isZero();
        long lossyRetransmits = r.network().nic(3).counter(rocelab.fabric.probe.NicCounter.RETRANSMITTED_PACKETS)
                + r.network().nic(4).counter(rocelab.fabric.probe.NicCounter.RETRANSMITTED_PACKETS);
        long losslessRetransmits = r.network().nic(1).counter(rocelab.fabric.probe.NicCounter.RETRANSMITTED_PACKETS)
                + r.network().nic(2).counter(rocelab.fabric.probe.NicCounter.RETRANSMITTED_PACKETS);
        assertThat(lossyRetransmits).isPositive();
        assertThat(losslessRetransmits).isZero();
        assertThat(toH0.counter(rocelab.fabric.probe.PortCounter.DROPPED_BUFFER_FULL)).isPositive();
    }

    /** Random two-tier shapes, random incast and permutation traffic, small buffers: never a drop. */
    @Property(tries = 12)
    void shouldNeverDropOnTheLosslessPriorityWhenHeadroomIsComputed(
            @ForAll @IntRange(min = 1, max = 4) int leaves,
            @ForAll @IntRange(min = 1, max = 3) int spines,
            @ForAll @IntRange(min = 2, max = 6) int hostsPerLeaf,
            @ForAll @IntRange(min = 1000, max = 4000) int bufferKb,
            @ForAll @IntRange(min = 1, max = 100) int seed,
            @ForAll boolean permutation) {
        int hosts = leaves * hostsPerLeaf;
        String traffic = permutation
                ? "  - {kind: permutation, size: 200KB}\n  - {kind: incast, senders: 1-" + (hosts - 1)
                        + ", receiver: 0, size: 100KB, start: 2us}\n"
                : "  - {kind: incast, senders: 1-" + (hosts - 1) + ", receiver: 0, size: 300KB}\n";
        String yaml = """
                name: pfc-property
                seed: %d
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: %d, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: %dKB, ecn: {marking: none}}
                nic: {cc: none, timeout: 8}
                observe: {sample-interval: 0}
                traffic:
                %s""".formatted(seed, leaves, spines, hostsPerLeaf, bufferKb, traffic.replace("\n  -", "\n  -"));
        RunResult r = Scenarios.assemble(yaml).run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).as(yaml).isZero();
        assertThat(r.flows()).as(yaml).allMatch(FlowRecord::completed);
    }
}
