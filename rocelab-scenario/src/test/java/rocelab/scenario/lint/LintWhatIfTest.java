package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.packet.PacketKind;
import rocelab.fabric.probe.DropReason;
import rocelab.fabric.probe.JourneyProbe;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.counter.FabricTotals;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Summary;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * Each shipped what-if example violates one lint rule: the lint reports it, the simulation shows the symptom the rule
 * predicts, and with the documented fix (the example's marked line removed or changed) both go away.
 */
class LintWhatIfTest {
    private static String example(String name) {
        try (InputStream in = ScenarioReader.class.getResourceAsStream("/rocelab/scenario/examples/" + name + ".yaml")) {
            assertThat(in).as("example " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static ScenarioConfig parse(String yaml) {
        try {
            return new ScenarioReader().read(yaml, "what-if.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The example's text with the line containing {@code marker} replaced (the fix). */
    private static String fixed(String yaml, String marker, String replacement) {
        StringBuilder out = new StringBuilder();
        boolean found = false;
        for (String line : yaml.split("\n", -1)) {
            if (line.contains(marker)) {
                found = true;
                if (!replacement.isEmpty()) {
                    out.append(replacement).append('\n');
                }
            } else {
                out.append(line).append('\n');
            }
        }
        assertThat(found).as("marker " + marker).isTrue();
        return out.toString();
    }

    private static boolean hasError(ScenarioConfig c, String rule) {
        return Lint.check(c).of(rule).stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    private static RunResult run(ScenarioConfig c) {
        return Simulation.assemble(c).run(ProgressListener.NONE);
    }

    @Test
    void shouldTailDropRoceWhereOneSwitchMapsItToALossyClassAndPauseInsteadWhenFixed() {
        String yaml = example("lint-l1-dscp-mismatch");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        assertThat(hasError(broken, "L1")).isTrue();
        // Class 0 carries RoCE only through leaf0's wrong map: L6 does not advise marking it (L1's fix moves it back).
        assertThat(Lint.check(broken).of("L6")).isNotEmpty().noneMatch(f -> f.what().contains("class 0"));
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        FabricTotals b = run(broken).totals();
        FabricTotals f = run(fixed).totals();
        assertThat(b.droppedBufferFull()).isPositive();
        assertThat(b.retransmittedPackets()).isPositive();
        assertThat(f.packetsDropped()).isZero();
        assertThat(f.pfcPauseSent()).isPositive();
    }

    @Test
    void shouldOverflowHeadroomWhenRnicsIgnorePfcAndNotWhenTheyHonourIt() {
        String yaml = example("lint-l2-nic-pfc-off");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        assertThat(hasError(broken, "L2")).isTrue();
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        RunResult r = run(broken);
        assertThat(r.totals().droppedHeadroom()).isPositive();
        // The header's pauses of the RNICs: h4, h5 and h7 from 8.5 us for leaf1's own uplink towards spine0, h6
        // from 26.2 us for leaf0's port to h0, two hops back through the spines, which pause leaf1 from 18.6 us.
        var topo = r.network().topology();
        int leaf1 = topo.nodeByName("leaf1");
        var tree = r.pfcLog().propagation(r.simulatedPs());
        for (var e : tree) {
            String peer = topo.nodeName(e.peer());
            if (e.device() == leaf1 && topo.isHost(e.peer())) {
                String root = r.pfcLog().rootName(e.rootNode(), e.rootPort());
                if (peer.equals("h6")) {
                    assertThat(root).isEqualTo("leaf0 port 0 (towards h0)");
                    assertThat(e.hop()).isEqualTo(2);
                    assertThat(e.firstXoffPs()).isBetween(26_000_000L, 27_000_000L);
                } else {
                    assertThat(peer).isIn("h4", "h5", "h7");
                    assertThat(root).isEqualTo("leaf1 port 4 (towards spine0)");
                    assertThat(e.firstXoffPs()).isBetween(8_000_000L, 9_000_000L);
                }
            } else if (peer.equals("leaf1")) {
                assertThat(e.hop()).isEqualTo(1);
                assertThat(e.firstXoffPs()).isBetween(18_500_000L, 19_000_000L);
            }
        }
        assertThat(tree).filteredOn(e -> e.device() == leaf1 && topo.isHost(e.peer())).hasSize(4);
        // ports.csv counts the overflow on the ports whose ingress priority group overflowed: those the lint names.
        assertThat(headroomDropPorts(broken)).isNotEmpty().allSatisfy(port -> assertThat(
                Lint.check(broken).of("L2")).anySatisfy(f -> assertThat(f.ports()).contains(port)));
        assertThat(run(fixed).totals().packetsDropped()).isZero();
    }

    /** The switch ports that counted headroom drops in a run of {@code c}, named as the lint names ports. */
    private static List<String> headroomDropPorts(ScenarioConfig c) {
        Simulation sim = Simulation.assemble(c);
        sim.run(ProgressListener.NONE);
        LintContext names = new LintContext(c);
        List<String> out = new ArrayList<>();
        int hosts = sim.network().hostCount();
        for (int s = 0; s < sim.network().switchCount(); s++) {
            for (int p = 0; p < sim.network().switchAt(s).portCount(); p++) {
                if (sim.network().switchAt(s).port(p).counter(PortCounter.DROPPED_HEADROOM) > 0) {
                    out.add(names.port(hosts + s, p));
                }
            }
        }
        return out;
    }

    @Test
    void shouldDropDespitePfcWhenHeadroomIsBelowTheCableNeedAndNotWithAutoHeadroom() {
        String yaml = example("lint-l3-headroom");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", "      - {to: \"spine*\", headroom: auto}"));
        assertThat(hasError(broken, "L3")).isTrue();
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        assertThat(run(broken).totals().droppedHeadroom()).isPositive();
        List<String> named = Lint.check(broken).of("L3").get(0).ports();
        assertThat(headroomDropPorts(broken)).isNotEmpty().allSatisfy(port -> assertThat(named).contains(port));
        assertThat(run(fixed).totals().packetsDropped()).isZero();
    }

    @Test
    void shouldPauseWithoutAnyEcnMarkWhenKminIsAboveXoffAndMarkWhenLowered() {
        String yaml = example("lint-l5-ecn-above-xoff");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake",
                "  ecn: {marking: red, kmin: 50KB, kmax: 200KB, pmax: 0.2}"));
        assertThat(hasError(broken, "L5")).isTrue();
        assertThat(Lint.check(fixed).of("L5")).isEmpty();
        RunResult br = run(broken);
        RunResult fr = run(fixed);
        FabricTotals b = br.totals();
        FabricTotals f = fr.totals();
        assertThat(b.pfcPauseSent()).isPositive();
        assertThat(b.ecnMarked()).isZero();
        assertThat(b.cnpSent()).isZero();
        assertThat(f.ecnMarked()).isPositive();
        assertThat(f.rateCuts()).isPositive();
        // The header's numbers: 14 pause frames instead of 120, and the trade-off it states plainly: the last flow
        // ends at about 941 us instead of 355 us, held by its rate.
        assertThat(f.pfcPauseSent()).isEqualTo(14);
        assertThat(b.pfcPauseSent()).isEqualTo(120);
        assertThat(lastFctUs(br)).isCloseTo(355, offset(1.0));
        assertThat(lastFctUs(fr)).isCloseTo(941, offset(1.0));
    }

    @Test
    void shouldDropInTheReceiverWhenItTrustsPcpOnAnUntaggedFabricAndPauseWithTrustDscp() {
        String yaml = example("lint-l7-trust-pcp");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        assertThat(hasError(broken, "L7")).isTrue();
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        FabricTotals b = run(broken).totals();
        FabricTotals f = run(fixed).totals();
        assertThat(b.nicOutOfBuffer()).isPositive();
        assertThat(f.nicOutOfBuffer()).isZero();
        assertThat(f.packetsDropped()).isZero();
        assertThat(f.pfcPauseSent()).isPositive();
    }

    @Test
    void shouldMarkButSendNoCnpWhenTheNotificationPointIsOff() {
        String yaml = example("lint-l9-np-off");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", "").replace("nics:\n", ""));
        assertThat(hasError(broken, "L9")).isTrue();
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        RunResult br = run(broken);
        RunResult fr = run(fixed);
        FabricTotals b = br.totals();
        FabricTotals f = fr.totals();
        assertThat(b.ecnMarked()).isPositive();
        assertThat(b.cnpSent()).isZero();
        assertThat(b.rateCuts()).isZero();
        assertThat(f.cnpSent()).isPositive();
        assertThat(f.rateCuts()).isPositive();
        // The header's numbers: no pause frame instead of 76, and the trade-off it states plainly: the last flow ends
        // at about 948 us instead of 355 us.
        assertThat(b.pfcPauseSent()).isEqualTo(76);
        assertThat(f.pfcPauseSent()).isZero();
        assertThat(lastFctUs(br)).isCloseTo(355, offset(1.0));
        assertThat(lastFctUs(fr)).isCloseTo(948, offset(1.0));
    }

    @Test
    void shouldDelayCnpsBehindDataWhenTheyShareItsClass() {
        String yaml = example("lint-l10-cnp-in-data-queue");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        assertThat(hasError(broken, "L10")).isTrue();
        assertThat(Lint.check(fixed).of("L10")).isEmpty();
        double late = meanCnpDelayPs(broken);
        double prompt = meanCnpDelayPs(fixed);
        assertThat(late).isGreaterThan(2 * prompt);
    }

    @Test
    void shouldFixCnpsOnTheRnicWhenTheyShareTheDataDscp() {
        // An audit's fabric: the RNICs send CNPs on DSCP 26, RoCE data's own DSCP. The old fix remapped DSCP 26 on
        // the switches to a strict lossy class, which moved all the data there too (new L1 errors, no ECN marking,
        // the same L10 again). The fix belongs on the RNIC: a CNP DSCP of its own.
        String yaml = """
                name: cnp-shares-data-dscp
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 400Gbps,\
                 delay: 50ns}, uplink: {rate: 400Gbps, delay: 500ns}}
                switch:
                  buffer: 64MB
                  mtu: 9100
                  dscp-to-tc: {26: 3, 48: 6}
                  scheduler: {kind: dwrr, weights: [1, 1, 1, 1, 1, 1, 1, 1], strict: [6]}
                  ecn: {marking: red, kmin: 150KB, kmax: 1500KB, pmax: 0.2, classes: [3]}
                  pfc: {priorities: [3], headroom: auto, watchdog: {detection: 200ms, restoration: 400ms,\
                 poll: 100ms, action: drop}}
                nic: {cc: dcqcn, dscp: 26, priority: 3, trust: dscp, pfc: [3], cnp: {dscp: 48, priority: 6}}
                traffic:
                  - {kind: incast, senders: 4-7, receiver: 0, size: 1MB}
                nics: [{hosts: 0-15, cnp: {dscp: 26, priority: 6}}]
                """;
        List<Finding> l10 = Lint.check(parse(yaml)).of("L10");
        assertThat(l10).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.what()).contains("the RNICs send CNPs on DSCP 26, the data's own DSCP");
            assertThat(f.fix()).contains("nics: [{hosts: 0, cnp: {dscp: 48}}]").doesNotContain("switches:");
        });
        String entry = l10.get(0).fix().replaceAll("(?s).*nics: \\[(\\{.*?}})].*", "$1");
        ScenarioConfig fixed = parse(yaml.replace("priority: 6}}]", "priority: 6}}, " + entry + "]"));
        LintReport after = Lint.check(fixed);
        assertThat(after.of("L10")).isEmpty();
        assertThat(after.of("L1")).isEmpty();
        FabricTotals t = run(fixed).totals();
        assertThat(t.ecnMarked()).isPositive();
        assertThat(t.cnpSent()).isPositive();
        // A distinct CNP DSCP filed in the data class is the switches' to fix (the shipped example).
        assertThat(Lint.check(parse(example("lint-l10-cnp-in-data-queue"))).of("L10"))
                .allSatisfy(f -> assertThat(f.fix()).contains("dscp-to-tc: {48: 6}").doesNotContain("nics:"));
    }

    @Test
    void shouldNameEveryPortThatDropsWhenOneSwitchFilesRoceInAnotherLosslessClass() {
        // An audit's fabric: PFC on [3, 4] everywhere, only spine1 files DSCP 26 under class 4. spine1 itself never
        // dropped: leaf0 paused priority 3 towards it and spine1, holding the traffic in class 4, went on sending,
        // so every drop was at leaf0's port from spine1. The finding named spine1's own ports only.
        String yaml = """
                name: l1b
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps,\
                 delay: 50ns}, uplink: {rate: 100Gbps, delay: 500ns}}
                switch:
                  buffer: 4MB
                  mtu: 9100
                  dscp-to-tc: {26: 3, 48: 6}
                  scheduler: {kind: dwrr, strict: [6]}
                  ecn: {marking: none}
                  pfc: {priorities: [3, 4], watchdog: {}}
                switches:
                  - {name: spine1, dscp-to-tc: {26: 4}}
                nic: {cc: none, pfc: [3, 4]}
                traffic:
                  - {kind: incast, senders: 4-7, receiver: 0, size: 1MB}
                  - {kind: incast, senders: 1-3, receiver: 0, size: 1MB}
                """;
        ScenarioConfig c = parse(yaml);
        List<Finding> l1 = Lint.check(c).of("L1");
        assertThat(l1).singleElement().satisfies(f -> assertThat(f.symptom())
                .contains("pauses of priority 3 from the device after it do not stop spine1"));
        RunResult r = run(c);
        LintContext names = new LintContext(c);
        List<String> dropping = new ArrayList<>();
        for (int s = 0; s < r.network().switchCount(); s++) {
            int node = r.network().hostCount() + s;
            for (int p = 0; p < r.network().topology().portCount(node); p++) {
                if (r.network().switchAt(s).port(p).counter(PortCounter.DROPPED_PACKETS) > 0) {
                    dropping.add(names.port(node, p));
                }
            }
        }
        assertThat(dropping).as("the run drops (the symptom is real)").isNotEmpty();
        assertThat(l1.get(0).ports()).containsAll(dropping);
    }

    /** When the run's last flow completed, in microseconds. */
    private static double lastFctUs(RunResult r) {
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        return r.flows().stream().mapToLong(FlowRecord::fctPs).max().orElseThrow() / 1e6;
    }

    /** Mean time from a CNP leaving its RNIC to reaching the sender, over every CNP of the run. */
    private static double meanCnpDelayPs(ScenarioConfig c) {
        Simulation sim = Simulation.assemble(c);
        long[] sum = new long[2];
        JourneyProbe probe = new JourneyProbe() {
            @Override
            public void onArrive(long nowPs, int host, Packet packet) {
                if (packet.kind() == PacketKind.CNP) {
                    sum[0] += nowPs - packet.sentAtPs();
                    sum[1]++;
                }
            }
        };
        for (int h = 0; h < sim.network().hostCount(); h++) {
            sim.network().nic(h).journeyProbe(probe);
        }
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(sum[1]).as("CNPs arrived; totals " + r.totals()).isPositive();
        return (double) sum[0] / sum[1];
    }

    @Test
    void shouldDropOversizeFramesWhereTheMtuIsTooSmallAndCompleteWithJumboMtu() {
        String yaml = example("lint-l11-mtu");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", "  - {role: spine, mtu: 9100}"));
        assertThat(hasError(broken, "L11")).isTrue();
        assertThat(Lint.check(fixed).hasErrors()).isFalse();
        Simulation b = Simulation.assemble(broken);
        RunResult br = b.run(ProgressListener.NONE);
        long oversize = 0;
        for (int s = 0; s < b.network().switchCount(); s++) {
            for (int p = 0; p < b.network().switchAt(s).portCount(); p++) {
                oversize += b.network().switchAt(s).port(p).counter(PortCounter.DROPPED_OVERSIZE);
            }
        }
        assertThat(oversize).isPositive();
        assertThat(br.flows()).anyMatch(FlowRecord::failed);
        // summary.json gives every drop a reason: each reason is listed, and they add up to packets_dropped.
        @SuppressWarnings("unchecked")
        Map<String, Object> drops = (Map<String, Object>) ((Map<String, Object>)
                Summary.of(br).get("counters")).get("drops_by_reason");
        for (DropReason reason : DropReason.values()) {
            assertThat(drops).containsKey(reason.key());
        }
        assertThat(drops.get("oversize")).isEqualTo(oversize);
        assertThat(drops.values().stream().mapToLong(v -> (Long) v).sum()).isEqualTo(br.totals().packetsDropped());
        RunResult fr = run(fixed);
        assertThat(fr.flows()).allMatch(FlowRecord::completed);
        assertThat(fr.totals().packetsDropped()).isZero();
    }

    @Test
    void shouldCapAnInfinibandLaneAtItsBufferPerCreditRoundTripAndNotWithTheDefaultBuffer() {
        String yaml = example("lint-l21-ib-buffer-round-trip");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        // The closed form the header states: one 4,096-byte packet per credit round trip, the packet's serialisation
        // (4,122 B + 2 B of framing at 100 Gb/s), 2 x 1 us of cable and the 8 link bytes of the credit update.
        double roundTripUs = (4124 * 8 / 100e3) + 2.0 + (8 * 8 / 100e3);
        double capGbps = 4096 * 8 / roundTripUs / 1e3;
        assertThat(capGbps).isCloseTo(14.06, offset(0.01));
        List<Finding> found = Lint.check(broken).of("L21");
        assertThat(found).hasSize(2).allSatisfy(f -> assertThat(f.what()).contains("round trip of a 100 Gb/s link"
                + " with 1.000 us of cable is 2.331 us").contains("at most 14.1 Gb/s of payload"));
        assertThat(found.get(0).ports()).containsExactly("switch0 port 0 (to h0)");
        assertThat(found.get(1).devices()).containsExactly("h1");
        // The waiting sender is the one on that link: h0's HCA into switch0's input buffer (nics.csv), switch0's port
        // towards h1 into h1's receive buffer (ports.csv). It named "a switch port" for both.
        assertThat(found.get(0).symptom()).contains("the sender waits for credits (PortXmitWait of h0's HCA (nics.csv"
                + " PortXmitWait_us))").doesNotContain("switch port");
        assertThat(found.get(1).symptom()).contains("the sender waits for credits (PortXmitWait of switch0 port 1 (to"
                + " h1), ports.csv)");
        assertThat(Lint.check(fixed).of("L21")).isEmpty();
        // The run's measured throughput meets the cap the lint names (the ACKs' share of the reverse link and the
        // flow's first and last packets take the rest), and without the mistake the write runs at about line rate.
        assertThat(goodputGbps(run(broken))).isBetween(0.99 * capGbps, capGbps);
        assertThat(goodputGbps(run(fixed))).isGreaterThan(97);
    }

    /**
     * A switch port held back by its receiver's credit round trip is a victim to IB CC, so without victim-mask it marks
     * no FECN though it is the root of the incast: an audit's hca-buffer 1 % short of the round trip (7 credit packets
     * of 65 for a 2.331 us loop) drew 7 marks in 345 us with 80 KB queued above the 20 KiB threshold. L21 says so on
     * the switch's link, not on the HCA's, and not when the switches mark victims too.
     */
    @Test
    void shouldWarnThatACappedSwitchPortMarksNoFecnWithoutVictimMask() {
        String yaml = """
                name: blind
                fabric:
                  mode: infiniband
                  infiniband: {hca-buffer: 32KiB, fecn: {threshold: 20KiB%s}}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: ib-cc}
                traffic:
                  - {kind: incast, senders: 1-4, receiver: 0, size: 1MiB}
                """;
        ScenarioConfig blind = parse(yaml.formatted(""));
        List<Finding> found = Lint.check(blind).of("L21");
        assertThat(found).singleElement().satisfies(f -> assertThat(f.symptom())
                .contains("marks no FECN (fecn victim-mask: false) even where it is itself the root of congestion"));
        RunResult r = run(blind);
        long marks = 0;
        for (int p = 0; p < r.network().switchAt(0).portCount(); p++) {
            marks += r.network().switchAt(0).port(p).counter(PortCounter.ECN_MARKED);
        }
        assertThat(marks).as("the incast's 1,024 packets, most behind 80 KB").isLessThan(20);
        ScenarioConfig victims = parse(yaml.formatted(", victim-mask: true"));
        assertThat(Lint.check(victims).of("L21")).singleElement().satisfies(f -> assertThat(f.symptom())
                .doesNotContain("FECN"));
    }

    @Test
    void shouldNameTheCapOfLongLinksThatTheRunMeets() {
        // The auditor's single-switch runs: 64 KiB lanes (15 packets) cover a 2 us cable, not a 3 us or 5 us one.
        for (String delay : List.of("2us", "3us", "5us")) {
            ScenarioConfig c = parse("name: cr\nfabric: {mode: infiniband, mtu: 4096}\n"
                    + "topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: " + delay + "}}\n"
                    + "traffic:\n  - {kind: flow, src: 0, dst: 1, size: 8MB}\n");
            List<Finding> found = Lint.check(c).of("L21");
            double measured = goodputGbps(run(c));
            if (delay.equals("2us")) {
                assertThat(found).isEmpty();
                assertThat(measured).isGreaterThan(97);
                continue;
            }
            double roundTripUs = (4124 * 8 / 100e3) + 2 * Double.parseDouble(delay.replace("us", "")) + (8 * 8 / 100e3);
            double capGbps = 15 * 4096 * 8 / roundTripUs / 1e3;
            assertThat(found).isNotEmpty().allSatisfy(f -> assertThat(f.what())
                    .contains(String.format(java.util.Locale.ROOT, "at most %.1f Gb/s", capGbps)));
            assertThat(measured).as(delay).isBetween(0.98 * capGbps, capGbps);
        }
    }

    /** Payload bits delivered over the run's last completion, in Gb/s. */
    private static double goodputGbps(RunResult r) {
        long bytes = r.flows().stream().mapToLong(FlowRecord::sizeBytes).sum();
        return bytes * 8 / (lastFctUs(r) * 1e3);
    }

    @Test
    void shouldFindTheBufferCycleOfTheDeadlockRingAndNoCycleWithoutTheFlowThatClosesIt() {
        String yaml = example("pfc-deadlock-ring");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "{kind: flow, src: 4, dst: 1", ""));
        assertThat(hasError(broken, "L14")).isTrue();
        assertThat(Lint.check(fixed).of("L14")).isEmpty();
        assertThat(run(broken).stopReason()).isEqualTo("deadlock");
        assertThat(run(fixed).stopReason()).isEqualTo("completed");
    }

    @Test
    void shouldSlowTheRoceFlowWhenItsDwrrWeightIsTinyNextToABusyClass() {
        String yaml = example("lint-l16-scheduler-starves-roce");
        ScenarioConfig broken = parse(yaml);
        ScenarioConfig fixed = parse(fixed(yaml, "the mistake", ""));
        assertThat(Lint.check(broken).of("L16")).isNotEmpty();
        assertThat(Lint.check(fixed).of("L16")).isEmpty();
        Simulation sim = Simulation.assemble(broken);
        var leaf1 = sim.network().switchAt(1);
        long[] roceQueue = {0};
        leaf1.journeyProbe(new JourneyProbe() {
            @Override
            public void onEnqueue(long nowPs, int node, int inPort, int port, long queueBytes, Packet packet) {
                if (port == 4) {
                    roceQueue[0] = Math.max(roceQueue[0], leaf1.port(4).queuedBytes(3));
                }
            }
        });
        FlowRecord starved = sim.run(ProgressListener.NONE).flows().get(0);
        Simulation fairSim = Simulation.assemble(fixed);
        FlowRecord fair = fairSim.run(ProgressListener.NONE).flows().get(0);
        assertThat(starved.src()).isEqualTo(4);
        // Where the header says: ECMP hashes both flows onto leaf1's uplink towards spine0 (port 4); the RoCE queue
        // (class 3) builds there to over 400 KB, the bulk class's deeper (the run's deepest queue is that port's), and
        // leaf1 pauses h4 (its port 0) and no other device: 11 XOFFs, 4 with equal weights.
        assertThat(roceQueue[0]).as("class 3 at leaf1 port 4").isGreaterThan(400_000L);
        long deepest = 0;
        String deepestAt = "";
        long pauses = 0;
        for (int s = 0; s < sim.network().switchCount(); s++) {
            for (int p = 0; p < sim.network().switchAt(s).portCount(); p++) {
                var port = sim.network().switchAt(s).port(p);
                if (port.peakQueuedBytes() > deepest) {
                    deepest = port.peakQueuedBytes();
                    deepestAt = s + "/p" + p;
                }
                pauses += port.counter(PortCounter.PAUSE_SENT);
            }
        }
        assertThat(deepestAt).isEqualTo("1/p4");
        assertThat(leaf1.port(0).counter(PortCounter.PAUSE_SENT)).isPositive().isEqualTo(pauses);
        // PFC frames: 11 XOFFs and their XONs, against 4 and 4.
        assertThat(pauses).isEqualTo(22);
        assertThat(fairSim.network().switchAt(1).port(0).counter(PortCounter.PAUSE_SENT)).isEqualTo(8);
        // Weight 1 of 9 against 1 of 2 while the bulk class is busy: the RoCE write takes about 4x as long.
        assertThat(starved.fctPs()).isGreaterThan(3 * fair.fctPs());
    }
}
