package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L28: a static XOFF the shared pool cannot reach. An audit's 1 MB switch of 9 ports, {@code xoff: 500KB}, auto
 * headroom: a 436,753 B pool, every one of its incast's 318 pauses {@code shared_pool_full}, and a clean lint.
 */
class UnreachableXoffRuleTest {
    private static final String POOL = """
            name: pool
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            switch:
              buffer: 1MB
              ecn: {marking: none}
              pfc: {threshold: static, xoff: XOFF, xon: 200KB, headroom: auto}
            nic: {cc: none, timeout: 10}
            traffic:
              - {kind: incast, senders: 1-8, receiver: 0, size: 1MB}
            """;

    private static ScenarioConfig read(String yaml) {
        try {
            return new ScenarioReader().read(yaml, "pool.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * Auto headroom at 100 Gb/s on 1 us to an RNIC answering in 394 quanta: the link time until it stops (its frame
     * in transmission, the PFC frame, the cable both ways, the response) held as frames, 4174 of every 4194 B, plus
     * the frame that crossed XOFF and the peer's last frame.
     */
    private static long headroom() {
        long link = 4194 + 84 + 2 * 100_000_000_000L / 8 / 1_000_000 + 394 * 512 / 8;
        return (link * 4174 + 4193) / 4194 + 2 * 4174;
    }

    @Test
    void shouldWarnWhenTheStaticXoffIsAtOrAboveTheSharedPool() {
        long reserved = 9 * headroom();
        long pool = 1_000_000 - reserved;
        assertThat(pool).as("the audit's figure").isEqualTo(436_753);
        LintReport r = Lint.check(read(POOL.replace("XOFF", "500KB")));
        assertThat(r.of("L28")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.devices()).containsExactly("switch0");
            assertThat(f.what()).isEqualTo(String.format(Locale.ROOT, "switch0 pauses a priority group at a static"
                    + " xoff of 500,000 B of shared buffer, but its shared pool is %,d B (1,000,000 B buffer less %,d B"
                    + " of PFC headroom): no group ever reaches its XOFF threshold", pool, reserved));
        });
        // Equal to the pool: a group could reach it only by holding the whole pool, the moment it fills.
        assertThat(Lint.check(read(POOL.replace("XOFF", pool + "B"))).of("L28")).hasSize(1);
        assertThat(Lint.check(read(POOL.replace("XOFF", (pool - 1) + "B"))).of("L28")).isEmpty();
        // A dynamic threshold is a share of the free pool: always below it.
        assertThat(Lint.check(read(POOL.replace("threshold: static, xoff: XOFF, xon: 200KB,", "alpha: 64,")))
                .of("L28")).isEmpty();
    }

    /**
     * L5 reads the same pool: a 2:1 incast pauses at twice the static xoff only when the pool holds that much; here
     * (xoff 300 KB, pool 436,753 B) it pauses when the pool fills, so Kmin 450 KB marks after the pause (L5 said
     * 600,000 B and passed it).
     */
    @Test
    void shouldTakeThePoolAsL5sXoffPointWhenItFillsBeforeTwiceTheXoff() {
        long pool = 1_000_000 - 9 * headroom();
        String yaml = POOL.replace("XOFF", "300KB").replace("marking: none", "marking: red, kmin: 450KB, kmax: 900KB")
                .replace("cc: none", "cc: dcqcn");
        assertThat(Lint.check(read(yaml)).of("L5")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.what()).contains(String.format(Locale.ROOT, "reaches PFC XOFF (static xoff 300,000 B per"
                    + " priority group, but the %,d B shared pool fills first) at %,d B", pool, pool));
        });
        // Twice the xoff within the pool: the threshold's point, as before.
        assertThat(Lint.check(read(yaml.replace("300KB", "150KB").replace("xon: 200KB", "xon: 100KB"))).of("L5"))
                .singleElement().satisfies(f -> assertThat(f.what()).contains("reaches PFC XOFF (static xoff 150,000 B"
                        + " per priority group) at 300,000 B"));
    }

    /** What the finding says the run shows: no XOFF of the run is the threshold's; with xoff 200 KB, some are. */
    @Test
    void shouldMatchARunWhosePausesAreAllThePoolFilling() {
        assertThat(reasons(POOL.replace("XOFF", "500KB"))).contains("shared_pool_full").doesNotContain("threshold");
        assertThat(reasons(POOL.replace("XOFF", "200KB").replace("xon: 200KB", "xon: 150KB"))).contains("threshold");
    }

    private static List<String> reasons(String yaml) {
        RunResult r = Simulation.assemble(read(yaml)).run(ProgressListener.NONE);
        List<String> header = List.of(r.pfcLog().csv().lines().findFirst().orElseThrow().split(","));
        int reason = header.indexOf("reason");
        assertThat(reason).isNotNegative();
        return r.pfcLog().csv().lines().skip(1).map(l -> l.split(",", -1)[reason]).distinct().toList();
    }
}
