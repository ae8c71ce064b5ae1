package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** L18: load balancing that reorders a QP's packets, towards RNICs that place in order only. */
class ReorderingRuleTest {
    private static ScenarioConfig read(String switchLine, String nicLine) {
        String yaml = """
                name: t
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                %s
                %s
                traffic: [{kind: flow, src: 0, dst: 3, size: 400KB}, {kind: flow, src: 1, dst: 2, size: 400KB}]
                """.formatted(switchLine, nicLine);
        try {
            return new ScenarioReader().read(yaml, "t.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldWarnWhereSprayingOrAdaptiveMeetsInOrderRnicsAndStayQuietWithOoo() {
        for (String mode : new String[] {"spray", "adaptive"}) {
            ScenarioConfig c = read("switch: {load-balancing: {mode: " + mode + "}}", "nic: {cc: none}");
            assertThat(Lint.check(c).of("L18")).as(mode).singleElement().satisfies(f -> {
                assertThat(f.severity()).isEqualTo(Severity.WARNING);
                // Only the leaves choose (a spine has one port to each leaf); h0 -> h3 leaves by leaf0, h1 -> h2 too.
                assertThat(f.devices()).containsExactly("leaf0", "h0", "h3", "h1", "h2");
                assertThat(f.what()).contains("load-balancing: " + mode).contains("nic.ooo false");
            });
            assertThat(Lint.check(read("switch: {load-balancing: {mode: " + mode + "}}", "nic: {cc: none, ooo: true}"))
                    .of("L18")).as(mode).isEmpty();
        }
        assertThat(Lint.check(read("switch: {load-balancing: {mode: ecmp}}", "nic: {cc: none}")).of("L18")).isEmpty();
    }

    @Test
    void shouldWarnAboutFlowletsOnlyWhenTheTimeoutIsBelowTheDelaySpread() {
        // Both paths: leaf0 -> spine -> leaf1 -> host, 1 us a link; queues up to Kmax 1600 KB (128 us at 100 Gb/s)
        // at each egress port of the slow path until the paths meet again at leaf1: leaf0's uplink and the spine's
        // downlink, 256 us of spread. leaf1's port to the host is every path's: one FIFO, no reordering there.
        ScenarioConfig shortTimeout = read("switch: {load-balancing: {mode: flowlet, flowlet-timeout: 50us}}",
                "nic: {cc: none}");
        assertThat(Lint.check(shortTimeout).of("L18")).singleElement().satisfies(f -> assertThat(f.what())
                .contains("flowlets after 50.0 us idle, less than the 256.0 us"));
        assertThat(Lint.check(read("switch: {load-balancing: {mode: flowlet, flowlet-timeout: 260us}}",
                "nic: {cc: none}")).of("L18")).isEmpty();
        // A class the ports do not mark queues up to the buffer (32 MB, 2,560 us at 100 Gb/s a port): the finding says
        // so, rather than naming an ECN threshold that class does not have (a parallel audit read 5,120 us beside
        // "queues up to their ECN threshold").
        assertThat(Lint.check(read("switch: {load-balancing: {mode: flowlet, flowlet-timeout: 50us}, ecn: {marking: none}}",
                "nic: {cc: none}")).of("L18")).singleElement().satisfies(f -> assertThat(f.what())
                .contains("less than the 5120.0 us", "or to the switch's buffer in a class not marked"));
        // Shallower ECN thresholds shrink the spread below the timeout.
        assertThat(Lint.check(read("switch: {load-balancing: {mode: flowlet, flowlet-timeout: 50us}, ecn: {kmin: 50KB,"
                + " kmax: 100KB}}", "nic: {cc: none}")).of("L18")).isEmpty();
    }

    @Test
    void shouldWarnForTheSwitchOverriddenToSprayOnly() {
        ScenarioConfig c = read("switches: [{name: leaf1, load-balancing: {mode: spray}}]", "nic: {cc: none}");
        // leaf1 chooses only for traffic leaving leaf1: none of the data here (both flows go leaf0 -> leaf1).
        assertThat(Lint.check(c).of("L18")).isEmpty();
        ScenarioConfig c0 = read("switches: [{name: leaf0, load-balancing: {mode: spray}}]", "nic: {cc: none}");
        assertThat(Lint.check(c0).of("L18")).singleElement().satisfies(f -> assertThat(f.devices()).contains("leaf0"));
    }

    @Test
    void shouldPredictTheRetransmissionsARunShows() {
        ScenarioConfig warned = read("switch: {load-balancing: {mode: spray}}", "nic: {cc: none}");
        assertThat(Lint.check(warned).of("L18")).isNotEmpty();
        assertThat(Simulation.assemble(warned).run(ProgressListener.NONE).totals().retransmittedPackets()).isPositive();
        ScenarioConfig fixed = read("switch: {load-balancing: {mode: spray}}", "nic: {cc: none, ooo: true}");
        assertThat(Simulation.assemble(fixed).run(ProgressListener.NONE).totals().retransmittedPackets()).isZero();
    }

    /** Two planes sprayed over by {@code hosts} RNICs on one switch, none placing out of order. */
    private static String sprayedPlanes(int hosts) {
        try {
            ScenarioConfig c = new ScenarioReader().read("""
                    name: t
                    fabric: {mode: roce-lossless, mtu: 1000}
                    topology: {kind: single-switch, hosts: %d, planes: 2, plane-selection: spray, link: {rate: 200Gbps}}
                    nic: {cc: none}
                    traffic: [{kind: flow, src: 0, dst: 1, size: 400KB}]
                    """.formatted(hosts), "t.yaml", Path.of("."));
            return Lint.check(c).of("L18").get(0).what();
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldNameTheNinthInOrderRnicOfSprayedPlanesRatherThanCountIt() {
        // Nine RNICs that place in order only: the finding named eight and said "and 1 more"; it names all nine.
        assertThat(sprayedPlanes(9)).contains("and h0, h1, h2, h3, h4, h5, h6, h7, h8 place in order only")
                .doesNotContain("more");
        assertThat(sprayedPlanes(10)).contains("and h0, h1, h2, h3, h4, h5, h6, h7 and 2 more place in order only");
    }
}
