package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.FrameFormat;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/** N flows sharing one bottleneck finish when the bottleneck has carried all their wire bytes, each at 1/N. */
class FairShareTest {
    private static final double RATE = 100e9;

    /** Wire bytes (frames plus preamble and IFG) of one message of {@code size} at payload {@code mtu}. */
    private static long wireBytes(long size, int mtu) {
        FrameFormat f = new FrameFormat(false);
        long packets = (size + mtu - 1) / mtu;
        long total = 0;
        for (long i = 0; i < packets; i++) {
            int payload = (int) Math.min(mtu, size - i * mtu);
            total += FrameFormat.wireBytes(f.dataFrameBytes(payload, i == 0));
        }
        return total;
    }

    @Test
    void shouldShareSwitchPortFairlyWhenEightSendersConvergeOnOneReceiver() {
        RunResult r = Scenarios.assemble("""
                name: fair-incast
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB}
                nic: {cc: none}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: 2MB}
                """).run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).isZero();
        double bottleneckSeconds = 8 * wireBytes(2_000_000, 1000) * 8 / RATE;
        double lastFinish = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow() / 1e12;
        assertThat(lastFinish).isCloseTo(bottleneckSeconds, within(bottleneckSeconds * 0.01));
        long first = r.flows().stream().mapToLong(FlowRecord::finishPs).min().orElseThrow();
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat((double) first / last).as("every flow got 1/8 of the port").isGreaterThan(0.99);
    }

    @Test
    void shouldShareNicFairlyWhenOneHostSendsToFourReceivers() {
        RunResult r = Scenarios.assemble("""
                name: fair-fanout
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 5, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 1MB}
                  - {kind: flow, src: 0, dst: 2, size: 1MB}
                  - {kind: flow, src: 0, dst: 3, size: 1MB}
                  - {kind: flow, src: 0, dst: 4, size: 1MB}
                """).run(ProgressListener.NONE);
        // The RNIC serialises all four messages, then the last frame still crosses the switch and the last ACK
        // comes back: one more frame time, four propagation delays and two ACK frame times.
        double tail = (1082 + 2 * 86) * 8 / RATE + 4e-6;
        double nicSeconds = 4 * wireBytes(1_000_000, 1000) * 8 / RATE + tail;
        long first = r.flows().stream().mapToLong(FlowRecord::finishPs).min().orElseThrow();
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat(last / 1e12).isCloseTo(nicSeconds, within(nicSeconds * 0.01));
        assertThat((double) first / last).as("round-robin among the QPs of one RNIC").isGreaterThan(0.99);
    }
}
