package rocelab.scenario.cc;

import java.nio.file.Path;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.switching.Switch;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** Test helper: small incast scenarios from inline YAML, their queue over time, and closed-form completion. */
final class CcScenarios {
    static final double RATE_BPS = 100e9;
    /** Queue samples are taken this often (picoseconds). */
    private static final long SAMPLE_PS = 5_000_000L;

    private CcScenarios() {}

    /** An N:1 incast on one 100 Gb/s switch with 1 us links, MTU 1000 and a 64 MB buffer (nothing drops). */
    static String incast(int senders, String size, String nic, String switchExtra) {
        return """
                name: cc-incast
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: %d, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB%s}
                nic: {%s}
                traffic:
                  - {kind: incast, senders: 1-%d, receiver: 0, size: %s}
                """.formatted(senders + 1, switchExtra, nic, senders, size);
    }

    static ScenarioConfig parse(String yaml) throws ScenarioException {
        return new ScenarioReader().read(yaml, "t.yaml", Path.of("."));
    }

    static Simulation assemble(String yaml) {
        try {
            return Simulation.assemble(parse(yaml));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** The deepest egress queue of any switch port, sampled every 5 us. */
    record QueueTrace(long peakBytes, long peakAfterSettleBytes, double meanBytes) {}

    /** A finished run and the switch queues seen while it ran. */
    record Outcome(RunResult result, QueueTrace queue) {
        long lastFinishPs() {
            return result.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        }

        boolean allCompleted() {
            return result.flows().stream().allMatch(FlowRecord::completed);
        }
    }

    /** Runs to completion, sampling queues; samples after {@code settlePs} also go into a separate peak. */
    static Outcome run(String yaml, long settlePs) {
        Simulation sim = assemble(yaml);
        long peak = 0;
        long peakAfter = 0;
        double sum = 0;
        long samples = 0;
        for (long t = SAMPLE_PS; !sim.driver().allFinished() && t < 100_000_000_000L; t += SAMPLE_PS) {
            sim.simulator().runUntil(t);
            long q = deepestQueue(sim);
            peak = Math.max(peak, q);
            if (t >= settlePs) {
                peakAfter = Math.max(peakAfter, q);
            }
            sum += q;
            samples++;
        }
        RunResult r = sim.run(ProgressListener.NONE);
        return new Outcome(r, new QueueTrace(peak, peakAfter, sum / Math.max(1, samples)));
    }

    private static long deepestQueue(Simulation sim) {
        long max = 0;
        for (int s = 0; s < sim.network().switchCount(); s++) {
            Switch sw = sim.network().switchAt(s);
            for (int p = 0; p < sw.portCount(); p++) {
                EgressPort port = sw.port(p);
                max = Math.max(max, port.queuedBytes());
            }
        }
        return max;
    }

    /** Seconds the bottleneck needs for the wire bytes of {@code senders} messages of {@code size} bytes. */
    static double closedFormSeconds(int senders, long size) {
        return closedFormSeconds(senders, size, 0);
    }

    /** As {@link #closedFormSeconds(int, long)}, every frame with a telemetry header of {@code telemetryBytes}. */
    static double closedFormSeconds(int senders, long size, int telemetryBytes) {
        FrameFormat f = new FrameFormat(false);
        long packets = (size + 999) / 1000;
        long wire = 0;
        for (long i = 0; i < packets; i++) {
            int payload = (int) Math.min(1000, size - i * 1000);
            wire += FrameFormat.wireBytes(f.dataFrameBytes(payload, i == 0, telemetryBytes));
        }
        return senders * wire * 8 / RATE_BPS;
    }
}
