package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.engine.Rates;
import rocelab.fabric.congestion.RateCause;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.probe.PfcProbe;
import rocelab.observe.journey.JourneyEvent;
import rocelab.observe.journey.JourneyRecorder;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L19: TIMELY's reference thresholds (t-low 50 us, t-high 500 us) against a small fabric's base RTTs of a few
 * microseconds: below t-low every update raises the rate, so TIMELY cuts nothing until queues add tens of
 * microseconds. The base RTTs the rule states are the run's own: a lone flow's RTT samples are exactly them.
 */
class TimelyThresholdRuleTest {
    /** h0, h1 under leaf0, h2, h3 under leaf1; 100 Gb/s, 1 us links, 500 ns through each switch. */
    private static String fabric(String nic) {
        return """
                name: t
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 16MB, forwarding-latency: 500ns}
                nic: {%s}
                traffic:
                  - {kind: flow, src: 2, dst: 0, size: 200KB}
                  - {kind: flow, src: 1, dst: 0, size: 200KB}
                """.formatted(nic);
    }

    private static ScenarioConfig read(String yaml) {
        try {
            return new ScenarioReader().read(yaml, "t.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static final FrameFormat FRAMES = new FrameFormat(false);

    /** A frame and its ACK alone over {@code links} 100 Gb/s, 1 us links and the switches between them. */
    private static long rttPs(int links, int frameBytes) {
        long data = Rates.serializationPs(FRAMES.onWire(frameBytes), 100_000_000_000L);
        long ack = Rates.serializationPs(FRAMES.onWire(FRAMES.ackFrameBytes()), 100_000_000_000L);
        return links * (data + ack) + 2L * links * 1_000_000 + 2L * (links - 1) * 500_000;
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f us", ps / 1e6);
    }

    @Test
    void shouldWarnWithTheBaseRttsWhenTheReferenceTLowIsFarAboveThem() {
        LintReport r = Lint.check(read(fabric("cc: timely")));
        // Smallest: h1 -> h0 under one leaf (2 links), the smallest data frame; largest: h2 -> h0 over a spine
        // (4 links), a full 1000-byte payload with its RETH.
        long min = rttPs(2, FRAMES.dataFrameBytes(0, false));
        long max = rttPs(4, FRAMES.dataFrameBytes(1000, true));
        assertThat(us(max)).isEqualTo("11.379 us");
        assertThat(r.of("L19")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.devices()).containsExactly("h1", "h2");
            assertThat(f.what()).isEqualTo(String.format(Locale.ROOT, "TIMELY's t-low of 50.000 us is %.1fx the"
                    + " largest base RTT of the paths its QPs take: the base RTTs of their paths are %s to %s (data"
                    + " packet and ACK serialised on every link, propagation, switch forwarding latency, no queue)",
                    50e6 / max, us(min), us(max)));
            assertThat(f.symptom()).startsWith("below t-low every update raises the rate: TIMELY cuts no rate until"
                    + " waits (queues, pauses) add at least " + us(50_000_000 - max) + " to an RTT, "
                    + String.format(Locale.ROOT, "%.1f KB", (50_000_000 - max) * 100e9 / 8e12 / 1e3)
                    + " queued at a 100 Gb/s hop");
            assertThat(f.fix()).contains("timely: {t-low: 17.1us, t-high: 56.9us, min-rtt: ");
        });
    }

    @Test
    void shouldStayQuietWhenTheThresholdsAreScaledToTheFabricOrTimelyIsNotUsed() {
        assertThat(Lint.check(read(fabric("cc: timely, timely: {t-low: 17us, t-high: 57us, min-rtt: 5us}")))
                .of("L19")).isEmpty();
        assertThat(Lint.check(read(fabric("cc: dcqcn"))).of("L19")).isEmpty();
    }

    @Test
    void shouldWarnThatEveryUpdateCutsWhenTHighIsBelowEveryBaseRttAndTheRunDoesSo() {
        String yaml = fabric("cc: timely, timely: {t-low: 1us, t-high: 2us}");
        LintReport r = Lint.check(read(yaml));
        assertThat(r.of("L19")).singleElement().satisfies(f -> {
            assertThat(f.what()).startsWith("TIMELY's t-high of 2.000 us is below the smallest base RTT of the paths"
                    + " its QPs take: the base RTTs of their paths are ");
            assertThat(f.symptom()).startsWith("every RTT sample is above t-high, so every update cuts the rate");
        });
        // The run: h2 -> h0 alone over a spine. Every update is a cut (down to min-rate, 1 Gb/s, in a few RTTs) on a sample above t-high, and the samples
        // (an idle path: the flow is alone) are within the base RTTs the rule computes.
        Simulation sim = Simulation.assemble(read(yaml.replace("  - {kind: flow, src: 1, dst: 0, size: 200KB}\n",
                "").replace("size: 200KB", "size: 2MB")));
        JourneyRecorder rec = new JourneyRecorder(sim.network(), sim.driver().queuePair(0).id(), PfcProbe.NONE);
        rec.attach();
        sim.run(ProgressListener.NONE);
        List<JourneyEvent.RateChange> changes = new ArrayList<>();
        for (JourneyEvent e : rec.events()) {
            if (e.kind() == JourneyEvent.Kind.RATE) {
                changes.add((JourneyEvent.RateChange) e.cause());
            }
        }
        assertThat(changes).hasSizeGreaterThanOrEqualTo(4).allSatisfy(c -> {
            assertThat(c.cause()).isEqualTo(RateCause.RTT_HIGH);
            assertThat(c.toBps()).isLessThan(c.fromBps());
            assertThat(c.value()).isBetween(rttPs(4, FRAMES.dataFrameBytes(0, false)),
                    rttPs(4, FRAMES.dataFrameBytes(1000, true)));
        });
        // Once paced below line rate, full frames go out spaced: their samples are the base RTT exactly.
        assertThat(changes.get(changes.size() - 1).value()).isEqualTo(rttPs(4, FRAMES.dataFrameBytes(1000, false)));
    }
}
