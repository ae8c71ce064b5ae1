package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.DropReason;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** The rules on small fabrics, each with the configuration that trips it and the one that does not. */
class LintRulesTest {
    private static final String FABRIC = """
            name: t
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            traffic: [{kind: incast, senders: 1-3, receiver: 0, size: 1KB}]
            """;

    private static LintReport lint(String extra) {
        try {
            ScenarioConfig c = new ScenarioReader().read(FABRIC + extra, "t.yaml", Path.of("."));
            return Lint.check(c);
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static List<Severity> severities(LintReport r, String rule) {
        return r.of(rule).stream().map(Finding::severity).toList();
    }

    private static final String GOOD_SWITCH = "switch: {buffer: 16MB, pfc: {watchdog: {}}}\nnic: {cc: dcqcn}\n";

    @Test
    void shouldFindNothingOnAConsistentFabric() {
        LintReport r = lint(GOOD_SWITCH);
        assertThat(r.findings()).isEmpty();
        assertThat(r.paths()).isEqualTo(1 + 2 + 2); // h1 via leaf0 only, h2 and h3 over either spine
    }

    @Test
    void shouldFlagPfcOffOnAnUpstreamSwitchOfALosslessHop() {
        LintReport r = lint(GOOD_SWITCH + "switches: [{name: spine0, pfc: {priorities: [4]}}]\n");
        assertThat(r.of("L2")).singleElement().satisfies(f -> {
            assertThat(f.what()).contains("leaf0 pauses priority 3 towards spine0, which has PFC off on it");
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
        });
        assertThat(r.of("L1")).singleElement().satisfies(f -> assertThat(f.devices()).contains("spine0"));
    }

    /**
     * L1's and L2's fixes, applied as printed, clear the finding. They used to offer "map DSCP 26 to class 3" to a
     * switch that already did (its class 3 was the lossy one), "or make class 0 lossless there" to a switch that
     * filed RoCE in class 0 (its pauses would then name priority 0 while the RNICs and spines use 3: an audit's run
     * of that dropped 3,373 packets on headroom), and {@code pfc: {priorities: [3]}} to a switch lossless on 4, a
     * list that replaces the switch's and so turned class 4 lossy.
     */
    @Test
    void shouldOfferDscpAndPfcFixesThatClearTheFinding() {
        LintReport lossyClass = lint(GOOD_SWITCH + "switches: [{name: leaf0, pfc: {priorities: [4]}}]\n");
        assertThat(lossyClass.of("L1")).singleElement().satisfies(f -> assertThat(f.fix()).isEqualTo(
                "make class 3 lossless on leaf0 (switches: [{name: leaf0, pfc: {priorities: [3, 4]}}])"));
        assertThat(lint(GOOD_SWITCH + "switches: [{name: leaf0, pfc: {priorities: [3, 4]}}]\n").findings())
                .as("the fix applied").isEmpty();

        LintReport otherClass = lint(GOOD_SWITCH + "switches: [{name: leaf0, dscp-to-tc: {26: 0}}]\n");
        assertThat(otherClass.of("L1")).singleElement().satisfies(f -> assertThat(f.fix()).isEqualTo(
                "map DSCP 26 to class 3 on leaf0 (switches: [{name: leaf0, dscp-to-tc: {26: 3}}])"));
        assertThat(lint(GOOD_SWITCH + "switches: [{name: leaf0, dscp-to-tc: {26: 0}, pfc: {priorities: [0, 3]}}]\n")
                .of("L1")).as("class 0 made lossless instead: still a finding").isNotEmpty();

        LintReport bothLossy = lint(GOOD_SWITCH + "switches: [{name: leaf0, dscp-to-tc: {26: 0}, pfc: {priorities:"
                + " [4]}}]\n");
        assertThat(bothLossy.of("L1")).singleElement().satisfies(f -> assertThat(f.fix()).isEqualTo(
                "map DSCP 26 to class 3 on leaf0 and make that class lossless there (switches: [{name: leaf0,"
                        + " dscp-to-tc: {26: 3}, pfc: {priorities: [3, 4]}}])"));

        LintReport upstream = lint(GOOD_SWITCH + "switches: [{name: spine0, pfc: {priorities: [4]}}]\n");
        assertThat(upstream.of("L2")).singleElement().satisfies(f -> assertThat(f.fix()).isEqualTo(
                "enable PFC on priority 3 on spine0 (switches: [{name: spine0, pfc: {priorities: [3, 4]}}])"));
        assertThat(lint(GOOD_SWITCH + "switches: [{name: spine0, pfc: {priorities: [3, 4]}}]\n").findings())
                .as("the fix applied").isEmpty();

        // An RNIC on DSCP 34, which no switch files in class 3 while all of them file 26 there: each switch's finding
        // also offers the one change at the RNIC (a lint audit read four switch remaps and nothing about the RNIC).
        LintReport wrongNic = lint(GOOD_SWITCH + "nics: [{hosts: 3, dscp: 34}]\n");
        assertThat(wrongNic.of("L1")).isNotEmpty().allSatisfy(f -> assertThat(f.fix()).endsWith(
                ", or give h3's RNIC the DSCP every switch on its way files in class 3 (lossless there): nics: [{hosts: 3, dscp: 26}]"));
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 3, dscp: 26}]\n").of("L1")).as("the fix applied").isEmpty();
        assertThat(otherClass.of("L1")).as("one switch the odd one out: no RNIC change offered")
                .allSatisfy(f -> assertThat(f.fix()).doesNotContain("RNIC the DSCP"));

        LintReport nic = lint(GOOD_SWITCH + "nics: [{hosts: 2, pfc: [4]}]\n");
        assertThat(nic.of("L2")).singleElement().satisfies(f -> assertThat(f.fix()).isEqualTo(
                "enable PFC on priority 3 on the RNIC (nics: [{hosts: 2, pfc: [3, 4]}], mlnx_qos --pfc)"));
    }

    @Test
    void shouldFlagATrafficDscpFiledInAnotherLosslessClassThanTheRnicSendsItOn() {
        // DSCP 10 goes to class 1, lossless on every switch, but the RNIC sends all its data on priority 3: the
        // switch's pauses of class 1 do not stop it (an outside probe's run dropped 522 packets, lint said nothing).
        String fabric = """
                name: t
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 8MB, pfc: {priorities: [3, 1], watchdog: {}}}
                nic: {cc: dcqcn}
                """;
        LintReport r = lint(fabric, "traffic:\n  - {kind: incast, senders: 3-4, receiver: 0, size: 2MB, dscp: 10}\n");
        assertThat(r.of("L1")).hasSize(2).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.what()).contains("switch0 maps DSCP 10 to lossless traffic class 1, but h",
                    "'s RNIC sends that data on priority 3");
        });
        assertThat(lint(fabric, "traffic:\n  - {kind: incast, senders: 3-4, receiver: 0, size: 2MB}\n").of("L1"))
                .as("the RNIC's own DSCP").isEmpty();
    }

    /**
     * Headroom is a property of the port: L3 checks every lossless priority of every switch port, wherever the
     * traffic goes. An audit's 400G fabric with 100 KB on leaf1's uplinks (1 us links, a switch at the other end)
     * linted clean with an incast out of leaf1 (no data enters leaf1 from the spines) and gave L3 with one into it.
     */
    @Test
    void shouldCheckTheHeadroomOfEveryLosslessPortWhateverTheTrafficDoes() {
        String fabric = """
                name: t
                fabric: {mode: roce-lossless}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 400Gbps}}
                switches: [{name: leaf1, ports: [{to: "spine*", headroom: 100KB}]}]
                """;
        // 400 Gb/s, 1 us each way, 4096 B payload (4174 B frames, 4194 B of link time), the peer a switch answering
        // in 905 quanta (Annex 31B): the link time until it stops is held as frames (4174 of every 4194 B), plus
        // the frame that crossed XOFF and the peer's last frame.
        long link = 4194 + 84 + 2 * 400_000_000_000L / 8 / 1_000_000 + 905 * 512 / 8;
        long need = (link * 4174 + 4193) / 4194 + 2 * 4174;
        String expected = String.format(Locale.ROOT, "leaf1 reserves 100,000 B of headroom on priority 3 of"
                + " this port; 400 Gb/s over a pause loop of 2 x 1.000 us cable (198 m) with a 1.158 us peer response"
                + " and 4,174 B frames needs %,d B", need);
        for (String traffic : List.of("{kind: incast, senders: 4-7, receiver: 0, size: 1MB}",
                "{kind: incast, senders: 0-3, receiver: 4, size: 1MB}")) {
            LintReport r = lint(fabric, "traffic: [" + traffic + "]\n");
            assertThat(r.of("L3")).as(traffic).singleElement().satisfies(f -> {
                assertThat(f.severity()).isEqualTo(Severity.ERROR);
                assertThat(f.what()).isEqualTo(expected);
                assertThat(f.ports()).containsExactlyInAnyOrder("leaf1 port 4 (to spine0)", "leaf1 port 5 (to spine1)");
                assertThat(f.fix()).contains(String.format(Locale.ROOT, "at least %,d B (rocelab headroom"
                        + " --speed 400Gbps --delay 1us --mtu 4096)", need));
            });
        }
        // The priority groups share the port's headroom: one finding names them all.
        assertThat(lint(fabric.replace("switches: [", "switch: {pfc: {priorities: [3, 4]}}\nswitches: ["),
                "traffic: [{kind: incast, senders: 4-7, receiver: 0, size: 1MB}]\n").of("L3")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("on priorities 3 and 4 of this port"));
    }

    /**
     * An RNIC with a receive pipeline slower than its link pauses its switch at its own XOFF, and the rest of its
     * buffer is the headroom. An audit's 400 Gb/s RNIC with a 200 Gb/s pipeline and 10 KB above XOFF dropped 624
     * packets (out_of_buffer) on its lossless priority with no finding.
     */
    @Test
    void shouldCheckTheHeadroomAnRnicLeavesAboveItsReceiveXoff() throws Exception {
        String fabric = """
                name: t
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 3, link: {rate: 400Gbps, delay: 505ns}}
                switch: {buffer: 8MB, ecn: {marking: none}, pfc: {watchdog: {}}}
                traffic: [{kind: flow, src: 1, dst: 0, size: 2MB}]
                """;
        // The switch port's terms with the RNIC deciding: 4174 B frames (4194 B of link time), 2 x 505 ns of cable
        // (50,500 B at 400 Gb/s), the switch's 905 quanta (57,920 B), held as frames, plus two frames: 120,509 B.
        long arriving = (4194 + 84 + 50_500 + 57_920) * 4174L / 4194 + 1 + 2 * 4174;
        // The pipeline, busy when the RNIC decides, finishes a 4194 B frame every 167.76 ns at 200 Gb/s: 13 of them
        // before the switch's last frame is in, 2,337.84 ns later (its two frames and the PFC frame, the loop, the
        // response).
        long window = (2 * 4194 + 84) * 8 * 1000L / 400 + 1_010_000 + 905 * 512 * 1000L / 400;
        long need = arriving - window / (4194 * 8 * 1000L / 200) * 4174;
        assertThat(need).isEqualTo(66_247);
        String rx = "nics: [{hosts: 0, rx: {rate: 200Gbps, buffer: 100KB, xoff: %s, xon: 20KB}}]\n";
        ScenarioConfig shallow = new ScenarioReader().read(fabric + rx.formatted("90KB"), "t.yaml", Path.of("."));
        assertThat(Lint.check(shallow).of("L3")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.ports()).containsExactly("switch0 port 0 (to h0)");
            assertThat(f.what()).contains("h0 pauses its switch at xoff 90,000 B of a 100,000 B receive buffer, 10,000"
                    + " B above XOFF", "400 Gb/s into a 200 Gb/s receive pipeline", "brings up to 66,247 B after XOFF");
            assertThat(f.fix()).startsWith("xoff at most 33,753 B (nics: [{hosts: 0, rx: {rate: 200Gbps, buffer:"
                    + " 100000B, xoff: 33753B, xon: 16876B}}]), or a receive buffer of at least 156,247 B");
        });
        assertThat(Simulation.assemble(shallow).run(ProgressListener.NONE).totals().packetsDropped())
                .as("what the finding says happens").isPositive();

        ScenarioConfig enough = new ScenarioReader().read(fabric + rx.formatted("33753B"), "t.yaml", Path.of("."));
        assertThat(Lint.check(enough).of("L3")).isEmpty();
        assertThat(Simulation.assemble(enough).run(ProgressListener.NONE).totals().packetsDropped()).isZero();
        assertThat(lint(fabric, "nics: [{hosts: 0, rx: {rate: 400Gbps, buffer: 100KB, xoff: 90KB, xon: 20KB}}]\n")
                .of("L3")).as("a pipeline that keeps up").isEmpty();
    }

    @Test
    void shouldWarnWhenHeadroomTakesMostOfTheBuffer() {
        assertThat(severities(lint(GOOD_SWITCH + "switches: [{name: leaf0, ports: [{port: [0, 1, 2, 3],"
                + " headroom: 2500KB}]}]\n"), "L4")).containsExactly(Severity.WARNING);
        // One lossless priority, in the singular (it read "x 1 lossless priorities").
        assertThat(lint(GOOD_SWITCH + "switches: [{name: leaf0, ports: [{port: [0, 1, 2, 3], headroom: 2500KB}]}]\n")
                .of("L4")).singleElement().satisfies(f -> assertThat(f.what()).contains(" ports x 1 lossless priority)"));
        // A static threshold does not fall with the shared pool: the pool filling is what pauses.
        assertThat(lint(GOOD_SWITCH.replace("pfc: {", "pfc: {threshold: static, xoff: 100KB, xon: 80KB, ")
                + "switches: [{name: leaf0, ports: [{port: [0, 1, 2, 3], headroom: 2500KB}]}]\n").of("L4"))
                .singleElement().satisfies(f -> assertThat(f.symptom()).doesNotContain("dynamic")
                        .contains("shared_pool_full"));
    }

    @Test
    void shouldWarnWhenTheRoceQueueDoesNotMarkAndDcqcnRuns() {
        assertThat(severities(lint(GOOD_SWITCH + "switches: [{role: spine, ecn: {marking: none}}]\n"), "L6"))
                .containsExactly(Severity.WARNING);
        assertThat(severities(lint(GOOD_SWITCH.replace("cc: dcqcn", "cc: dcqcn, ecn: false")), "L6"))
                .contains(Severity.WARNING);
    }

    /**
     * InfiniBand has no IP ECN: switches mark FECN on every lane, so a lane off the Ethernet ECN classes is no finding
     * (an audit's flows on SL 1 and 2 drew "ECN marking off on the RoCE queue", whose fix, switch.ecn, is an error);
     * nor has an HCA a priority or DSCP map for the switches' classes to disagree with (the same audit's DSCP 0 drew
     * L1's "the sending RNICs use priority 3" and L7's trust finding, on settings infiniband mode refuses).
     */
    @Test
    void shouldNotAskForEcnMarkingOrRnicPrioritiesOnInfiniband() throws Exception {
        ScenarioConfig c = new ScenarioReader().read("""
                name: t
                fabric: {mode: infiniband, infiniband: {fecn: {}}}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: ib-cc, dscp: 0}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 1MB, dscp: 8}
                  - {kind: flow, src: 1, dst: 2, size: 1MB, dscp: 16}
                  - {kind: flow, src: 2, dst: 0, size: 1MB}
                """, "t.yaml", Path.of("."));
        LintReport r = Lint.check(c);
        assertThat(r.of("L6")).isEmpty();
        assertThat(r.of("L1")).isEmpty();
        assertThat(r.of("L7")).isEmpty();
        // Nor the RoCE traffic class: service level 0 is a lossless lane like any other.
        assertThat(r.of("L8")).isEmpty();
    }

    @Test
    void shouldWarnAboutDscpZero() {
        assertThat(lint(GOOD_SWITCH.replace("cc: dcqcn", "cc: dcqcn, dscp: 0")).of("L8")).isNotEmpty();
    }

    @Test
    void shouldFlagAnRnicWhoseDscpMapDisagreesWithItsPriority() {
        assertThat(severities(lint(GOOD_SWITCH + "nics: [{hosts: 0, dscp-to-priority: {26: 2}}]\n"), "L7"))
                .containsExactly(Severity.WARNING);
    }

    @Test
    void shouldSayWhatTheRnicsPfcDoesOnThePriorityItFilesRoceUnder() {
        // Trusting PCP untagged, RoCE is filed under priority 0: PFC there pauses the wrong class; PFC off there (the
        // RNIC's default: the switches' lossless priorities) never pauses at all.
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 0, trust: pcp}]\n").of("L7")).singleElement()
                .satisfies(f -> assertThat(f.symptom()).startsWith("its receive-side PFC never pauses: it is off on"
                        + " priority 0"));
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 0, trust: pcp, pfc: [0, 3]}]\n").of("L7")).singleElement()
                .satisfies(f -> assertThat(f.symptom()).startsWith("its receive-side PFC goes out on priority 0 and"
                        + " never holds the RoCE class"));
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 0, dscp-to-priority: {26: 2}}]\n").of("L7")).singleElement()
                .satisfies(f -> assertThat(f.symptom()).isEqualTo("received RoCE is accounted on priority 2 instead"
                        + " of 3, on which PFC is off: a receiver that falls behind drops instead of pausing"));
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 0, dscp-to-priority: {26: 2}, pfc: [2, 3]}]\n").of("L7"))
                .singleElement().satisfies(f -> assertThat(f.symptom()).isEqualTo("received RoCE is accounted (and"
                        + " paused, when the receiver falls behind) on priority 2 instead of 3"));
    }

    @Test
    void shouldFlagAReactionPointThatIsOff() {
        assertThat(lint(GOOD_SWITCH + "nics: [{hosts: 2, rp: false}]\n").of("L9"))
                .singleElement().satisfies(f -> assertThat(f.devices()).containsExactly("h2"));
    }

    @Test
    void shouldWarnWhenCnpsAreNotServedStrictly() {
        assertThat(severities(lint(GOOD_SWITCH + "switches: [{role: leaf, scheduler: {strict: [7]}}]\n"), "L10"))
                .containsOnly(Severity.WARNING).isNotEmpty();
    }

    @Test
    void shouldCheckTheWatchdogPresenceAndTimers() {
        assertThat(lint("switch: {buffer: 16MB}\nnic: {cc: dcqcn}\n").of("L12")).singleElement()
                .satisfies(f -> assertThat(f.devices()).containsExactlyInAnyOrder("leaf0", "leaf1", "spine0", "spine1"));
        LintReport r = lint("switch: {buffer: 16MB, pfc: {watchdog: {detection: 400ms, restoration: 200ms, poll:"
                + " 500ms}}}\nnic: {cc: dcqcn}\n");
        assertThat(r.of("L12")).extracting(Finding::what).anyMatch(w -> w.contains("restoration"))
                .anyMatch(w -> w.contains("poll"));
    }

    @Test
    void shouldWarnAboutAPauseStormWithoutWatchdog() {
        String storm = "faults: [{kind: pause-storm, host: 0, start: 10us, duration: 1ms}]\n";
        assertThat(lint("switch: {buffer: 16MB}\nnic: {cc: dcqcn}\n" + storm).of("L13")).hasSize(1);
        assertThat(lint(GOOD_SWITCH + storm).of("L13")).isEmpty();
    }

    @Test
    void shouldFindAnUpDownUpCycleAfterALinkFailure() {
        // With leaf1-spine1 down, traffic from leaf0 to leaf1 still goes up and down; the lint adds the routes after
        // the event to those before it. A shortest-path Clos never closes a cycle on its own.
        LintReport r = lint(GOOD_SWITCH + "events: [{kind: link-down, a: leaf1, b: spine1, at: 10us}]\n");
        assertThat(r.of("L14")).isEmpty();
    }

    /** pfc-deadlock-ring's five switches in a ring, each host writing two switches on, in {@code mode}. */
    static String ring(String fabric) {
        return """
                name: ring
                fabric: %s
                topology:
                  kind: custom
                  hosts: 5
                  switches: [s0, s1, s2, s3, s4]
                  link: {rate: 100Gbps, delay: 1us}
                  links:
                    - {a: h0, b: s0}
                    - {a: h1, b: s1}
                    - {a: h2, b: s2}
                    - {a: h3, b: s3}
                    - {a: h4, b: s4}
                    - {a: s0, b: s1}
                    - {a: s1, b: s2}
                    - {a: s2, b: s3}
                    - {a: s3, b: s4}
                    - {a: s4, b: s0}
                nic: {cc: none, timeout: 12}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 20MB}
                  - {kind: flow, src: 1, dst: 3, size: 20MB}
                  - {kind: flow, src: 2, dst: 4, size: 20MB}
                  - {kind: flow, src: 3, dst: 0, size: 20MB}
                  - {kind: flow, src: 4, dst: 1, size: 20MB}
                """.formatted(fabric);
    }

    @Test
    void shouldSayThatAWatchdogOnTheCycleEndsTheDeadlock() throws ScenarioException {
        // With the PFC watchdog on, the run goes on through the deadlock (LinkEventsAndDeadlockTest): L14 no longer
        // says "throughput 0 for good" nor offers the watchdog the switches already run.
        String plain = ring("{mode: roce-lossless, mtu: 1000}");
        LintReport off = Lint.check(new ScenarioReader().read(plain, "ring.yaml", Path.of(".")));
        assertThat(off.of("L14")).isNotEmpty().allSatisfy(f -> {
            assertThat(f.symptom()).contains("for good", "stop_reason deadlock");
            assertThat(f.fix()).contains("or a watchdog to recover");
        });
        LintReport on = Lint.check(new ScenarioReader().read(plain.replace("nic: {cc: none, timeout: 12}",
                "switch: {pfc: {watchdog: {detection: 2ms}}}\nnic: {cc: none, timeout: 12}"), "ring.yaml", Path.of(".")));
        assertThat(on.of("L14")).isNotEmpty().allSatisfy(f -> {
            assertThat(f.symptom()).doesNotContain("for good").contains("which the PFC watchdog of " + String.join(", ",
                    f.devices()) + " ends after its detection time");
            assertThat(f.fix()).doesNotContain("watchdog");
        });
    }

    @Test
    void shouldFindACreditLoopOnInfiniband() {
        // Every InfiniBand data lane is lossless by credits: the ring's lanes wait on each other as PFC's classes do,
        // and the run deadlocks (LinkEventsAndDeadlockTest). Before, L14 looked at roce-lossless only: 0 errors.
        try {
            LintReport r = Lint.check(new ScenarioReader().read(ring("{mode: infiniband, mtu: 1024}"), "ring.yaml",
                    Path.of(".")));
            assertThat(r.of("L14")).isNotEmpty().allSatisfy(f -> {
                assertThat(f.severity()).isEqualTo(Severity.ERROR);
                assertThat(f.what()).contains("a credit loop");
                assertThat(f.ports()).allMatch(p -> p.endsWith(" VL 3"));
            });
            LintReport clos = Lint.check(new ScenarioReader().read(FABRIC.replace("roce-lossless", "infiniband")
                    .replace("mtu: 1000", "mtu: 1024"), "t.yaml", Path.of(".")));
            assertThat(clos.of("L14")).as("a Clos with shortest paths has no credit loop").isEmpty();
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldWarnWhenTheRoceClassIsStarvedOrStrictAndNotWithEqualWeights() {
        String both = FABRIC.replace("size: 1KB}]", "size: 1KB}, {kind: flow, src: 3, dst: 0, size: 1KB, dscp: 8}]");
        String sw = "switch: {buffer: 16MB, ecn: {classes: [1, 3]}, pfc: {watchdog: {}}%s}\nnic: {cc: dcqcn}\n";
        LintReport fine = lint(both, sw.formatted(""));
        LintReport starved = lint(both, sw.formatted(", scheduler: {weights: [1, 8, 1, 1, 1, 1, 1, 1]}"));
        LintReport strict = lint(both, sw.formatted(", scheduler: {strict: [3, 6, 7]}"));
        assertThat(fine.findings()).isEmpty();
        assertThat(starved.of("L16")).isNotEmpty().allSatisfy(f -> assertThat(f.what()).contains("weight 8 for class 1"));
        assertThat(strict.of("L16")).isNotEmpty().allSatisfy(f -> assertThat(f.what()).contains("strict priority"));
        // The symptom names only what the class's configuration sets off as its queue builds.
        assertThat(starved.of("L16")).allSatisfy(f -> assertThat(f.symptom()).endsWith("its queue builds, ECN and PFC"
                + " fire"));
        String unmarked = "switch: {buffer: 16MB, ecn: {marking: none}, pfc: {watchdog: {}}, scheduler: {weights: [1, 8,"
                + " 1, 1, 1, 1, 1, 1]}}\nnic: {cc: none}\n";
        assertThat(lint(both, unmarked).of("L16")).isNotEmpty()
                .allSatisfy(f -> assertThat(f.symptom()).endsWith("its queue builds, PFC fires"));
        assertThat(lint(both.replace("roce-lossless", "roce-lossy"), unmarked.replace(", pfc: {watchdog: {}}", ""))
                .of("L16")).isNotEmpty().allSatisfy(f -> assertThat(f.symptom()).endsWith("its queue builds"));
    }

    /**
     * L5 speaks of senders that react to ECN: the same switch, Kmin 400 KB above a 2:1 incast's XOFF point, is an error
     * for DCQCN senders and no finding for a fabric held back by PFC alone (cc none) or by a delay-based control.
     */
    @Test
    void shouldFlagEcnAfterPfcOnlyWhereTheSendersReactToEcn() {
        String fabric = """
                name: t
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 4MB, pfc: {threshold: static, xoff: 100KB, xon: 80KB, watchdog: {}}}
                traffic: [{kind: incast, senders: 1-4, receiver: 0, size: 500KB}]
                """;
        assertThat(severities(lint(fabric, "nic: {cc: dcqcn}\n"), "L5")).containsExactly(Severity.ERROR);
        assertThat(lint(fabric, "nic: {cc: none}\n").of("L5")).isEmpty();
        assertThat(lint(fabric, "nic: {cc: timely}\n").of("L5")).isEmpty();
    }

    @Test
    void shouldFlagALossyQueueWhoseEcnThresholdLiesBeyondWhatItsBufferHolds() throws Exception {
        // A DCQCN incast on a lossy switch whose default Kmin (400 KB) is above its 300 KB buffer: the queue drops
        // before anything is marked (an outside probe's run dropped 16,090 packets with lint silent).
        String fabric = """
                name: t
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: dcqcn}
                traffic: [{kind: incast, senders: 1-8, receiver: 0, size: 500000B}]
                """;
        LintReport small = lint(fabric, "switch: {buffer: 300KB}\n");
        assertThat(small.of("L5")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.what()).contains("from Kmin = 400,000 B", "holds at most 300,000 B");
        });
        assertThat(severities(lint(fabric, "switch: {buffer: 1MB}\n"), "L5")).as("Kmax 1.6 MB beyond 1 MB")
                .containsExactly(Severity.WARNING);
        assertThat(lint(fabric, "switch: {buffer: 4MB}\n").of("L5")).isEmpty();
        // What the error says happens: drops, and not one mark.
        var run = Simulation.assemble(new ScenarioReader().read(fabric + "switch: {buffer: 300KB}\n",
                "t.yaml", Path.of("."))).run(ProgressListener.NONE);
        assertThat(run.totals().ecnMarked()).isZero();
        assertThat(run.totals().packetsDropped()).isPositive();
    }

    @Test
    void shouldSayOnlyFirstPacketsAreOversizeWhenTheLaterOnesFit() throws Exception {
        // Only a WRITE's first packet carries the 16-byte RETH: at MTU 4140 the later packets (4140 B of IP) fit and
        // the first ones (4156 B) do not. The symptom said every full-size packet was dropped.
        String fabric = """
                name: t
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {timeout: 5, retry-count: 1}
                traffic: [{kind: flow, src: 1, dst: 0, size: 100KB}]
                switch: {mtu: %d}
                """;
        ScenarioConfig firstOnly = new ScenarioReader().read(fabric.formatted(4140), "t.yaml", Path.of("."));
        assertThat(Lint.check(firstOnly).of("L11")).singleElement().satisfies(f -> {
            assertThat(f.what()).contains("4156 bytes of IP for the first packet of a message", "4140 for the later");
            assertThat(f.symptom()).startsWith("the first packet of every message longer than 4080 bytes")
                    .contains("every go-back-N resend of it", "those flows fail").doesNotContain("every full-size");
        });
        var run = Simulation.assemble(firstOnly).run(ProgressListener.NONE);
        assertThat(run.totals().dropped(DropReason.OVERSIZE)).isPositive();
        assertThat(run.flows()).noneMatch(f -> f.completed());
        ScenarioConfig all = new ScenarioReader().read(fabric.formatted(4139), "t.yaml", Path.of("."));
        assertThat(Lint.check(all).of("L11")).singleElement()
                .satisfies(f -> assertThat(f.symptom()).startsWith("every full-size RoCE packet is dropped there"));
    }

    @Test
    void shouldCheckInfinibandMtusAsPayloadsAndFindExactlyWhatTheSwitchDrops() throws Exception {
        // An InfiniBand MTU is the largest payload (headers on top): lint called a 4096-byte switch MTU too small for
        // 4096-byte packets (it sized them as RoCE over IP), and the switch limited IB packets by an Ethernet frame.
        String fabric = """
                name: t
                fabric: {mode: infiniband, mtu: %d}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {timeout: 5, retry-count: 1}
                traffic: [{kind: flow, src: 1, dst: 0, size: 100KB}]
                switch: {mtu: 2048}
                """;
        for (int pathMtu : new int[] {2048, 2049, 4096}) {
            ScenarioConfig c = new ScenarioReader().read(fabric.formatted(pathMtu), "t.yaml", Path.of("."));
            LintReport r = Lint.check(c);
            var run = Simulation.assemble(c).run(ProgressListener.NONE);
            long oversize = run.totals().packetsDropped();
            if (pathMtu <= 2048) {
                assertThat(r.of("L11")).as("path MTU %d", pathMtu).isEmpty();
                assertThat(oversize).as("path MTU %d", pathMtu).isZero();
            } else {
                assertThat(r.of("L11")).as("path MTU %d", pathMtu).isNotEmpty().allSatisfy(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.ERROR);
                    assertThat(f.what()).contains("InfiniBand MTU 2048", "up to " + pathMtu + " bytes of payload")
                            .doesNotContain("UDP", " IP ");
                });
                assertThat(oversize).as("path MTU %d", pathMtu).isPositive();
            }
            assertThat(r.text()).contains("3 HCAs)").doesNotContain("RNICs");
        }
    }

    @Test
    void shouldPassFullInfinibandPacketsAtMtu4096OnLeavesAndSpines() throws Exception {
        // A full 4096-byte IB packet is 4138 bytes (LRH 8, BTH 12, RETH 16, payload, ICRC 4, VCRC 2): lint wanted a
        // switch MTU of 4156 (RoCE over IP) and the switch passed it only from MTU 4120 (an Ethernet frame limit).
        ScenarioConfig c = new ScenarioReader().read(IB_LEAF_SPINE.formatted(4096, 4096), "t.yaml", Path.of("."));
        var run = Simulation.assemble(c).run(ProgressListener.NONE);
        assertThat(Lint.check(c).of("L11")).isEmpty();
        assertThat(run.totals().dropped(DropReason.OVERSIZE)).isZero();
        assertThat(run.totals().packetsDropped()).isZero();
    }

    @Test
    void shouldFlagTheSpinesExactlyWhenTheirInfinibandMtuIsBelowThePathMtu() throws Exception {
        // Spines at IB MTU 2048 under leaves at 4096: one byte of payload over the spines' MTU and they drop it.
        for (int pathMtu : new int[] {2047, 2048, 2049, 4096}) {
            ScenarioConfig c = new ScenarioReader().read(IB_LEAF_SPINE.formatted(pathMtu, 2048), "t.yaml",
                    Path.of("."));
            List<Finding> errors = Lint.check(c).of("L11").stream()
                    .filter(f -> f.severity() == Severity.ERROR).toList();
            var run = Simulation.assemble(c).run(ProgressListener.NONE);
            long oversize = run.totals().dropped(DropReason.OVERSIZE);
            if (pathMtu <= 2048) {
                assertThat(errors).as("path MTU %d", pathMtu).isEmpty();
                assertThat(oversize).as("path MTU %d", pathMtu).isZero();
            } else {
                // One finding for both spines: the same problem on each, which it names.
                assertThat(errors).as("path MTU %d", pathMtu).singleElement().satisfies(f -> {
                    assertThat(f.devices()).containsExactlyInAnyOrder("spine0", "spine1");
                    assertThat(f.what()).startsWith("each of spine");
                    assertThat(f.fix()).startsWith("MTU 4096 on every port of the path")
                            .doesNotContain("at least");
                });
                assertThat(oversize).as("path MTU %d", pathMtu).isPositive();
            }
        }
    }

    @Test
    void shouldSuggestAnInfinibandMtuThatCarriesThePathMtu() throws Exception {
        // 1500 is no InfiniBand MTU: the fix names the smallest that carries it (2048), or the usual 4096.
        String yaml = """
                name: t
                fabric: {mode: infiniband, mtu: 1500}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic: [{kind: flow, src: 1, dst: 0, size: 100KB}]
                switch: {mtu: 1024}
                """;
        List<Finding> l11 = Lint.check(new ScenarioReader().read(yaml, "t.yaml", Path.of("."))).of("L11");
        assertThat(l11).singleElement().satisfies(f -> assertThat(f.fix())
                .isEqualTo("MTU 2048 or 4096 on every port of the path, or a path MTU of at most 1024 (fabric mtu)"));
        assertThat(MtuRule.ibMtu(64)).isEqualTo(256);
        assertThat(MtuRule.ibMtu(256)).isEqualTo(256);
        assertThat(MtuRule.ibMtu(257)).isEqualTo(512);
        assertThat(MtuRule.ibMtu(4096)).isEqualTo(4096);
    }

    /** Two leaves at IB MTU 4096 and two spines at the second %d, HCAs at the path MTU of the first. */
    private static final String IB_LEAF_SPINE = """
            name: t
            fabric: {mode: infiniband, mtu: %d}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {timeout: 5, retry-count: 1}
            switch: {mtu: 4096}
            switches: [{role: spine, mtu: %d}]
            traffic: [{kind: flow, src: 0, dst: 2, size: 100KB}, {kind: flow, src: 3, dst: 1, size: 100KB}]
            """;

    private static LintReport lint(String fabric, String extra) {
        try {
            return Lint.check(new ScenarioReader().read(fabric + extra, "t.yaml", Path.of(".")));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
