package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.network.Network;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;

/** With a small buffer, tail drops happen and go-back-N still delivers every byte exactly once. */
class LossyRecoveryTest {
    private static final String INCAST = """
            name: lossy-incast
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 200KB}
            nic: {cc: none, timeout: 8}
            traffic:
              - {kind: incast, senders: 1-8, receiver: 0, size: 1000000B}
              - {kind: flow, src: 1, dst: 0, size: 333333B, start: 50us}
            """;

    @Test
    void shouldDeliverEveryByteExactlyOnceWhenTheBufferOverflows() {
        Simulation sim = Scenarios.assemble(INCAST);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).as("drops").isGreaterThan(100);
        assertThat(r.totals().droppedBufferFull()).isEqualTo(r.totals().packetsDropped());
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        long posted = r.flows().stream().mapToLong(FlowRecord::sizeBytes).sum();
        assertThat(r.totals().deliveredBytes()).as("bytes accepted in order by the responders").isEqualTo(posted);

        Network n = sim.network();
        long originalPackets = 0;
        for (int q = 0; q < n.queuePairs().size(); q++) {
            QueuePair qp = n.queuePairs().get(q);
            originalPackets += qp.postedPsns();
            assertThat(qp.expectedPsn()).isEqualTo(qp.postedPsns());
            assertThat(qp.sndUna()).isEqualTo(qp.postedPsns());
        }
        assertThat(r.totals().dataPacketsSent())
                .as("every data packet sent is an original or a counted retransmission")
                .isEqualTo(originalPackets + r.totals().retransmittedPackets());
        assertThat(r.totals().retransmittedPackets()).isGreaterThanOrEqualTo(r.totals().packetsDropped());
        long received = 0;
        long outOfSequence = 0;
        long duplicates = 0;
        for (int h = 0; h < n.hostCount(); h++) {
            received += n.nic(h).counter(NicCounter.RX_DATA_PACKETS);
            outOfSequence += n.nic(h).counter(NicCounter.OUT_OF_SEQUENCE);
            duplicates += n.nic(h).counter(NicCounter.DUPLICATE_REQUEST);
        }
        assertThat(received).as("sent = received + dropped (nothing left in flight)")
                .isEqualTo(r.totals().dataPacketsSent() - r.totals().packetsDropped());
        assertThat(received - outOfSequence - duplicates).as("in-order packets = original packets")
                .isEqualTo(originalPackets);
        assertThat(r.totals().naksSent()).isPositive();
    }

    @Test
    void shouldRecoverByTimeoutWhenTheLastPacketOfAMessageIsLost() {
        // Two senders, one 2-packet buffer: the tail of a message is dropped with nothing behind it to
        // reveal the gap, so only the local ACK timeout can recover it.
        RunResult r = Scenarios.assemble("""
                name: tail-loss
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2200B}
                nic: {cc: none, timeout: 4}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 10000B}
                  - {kind: flow, src: 2, dst: 0, size: 10000B}
                """).run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().packetsDropped()).isPositive();
        assertThat(r.totals().ackTimeouts()).isPositive();
        assertThat(r.totals().deliveredBytes()).isEqualTo(20_000);
    }

    @Test
    void shouldEndCleanlyAndSaySoWhenALostTailCanNeverBeRecovered() {
        // No local ACK timeout (exponent 0): a message whose tail is dropped never completes. The run must end
        // by itself, report the flows as unfinished and why it stopped, instead of running forever.
        RunResult r = Scenarios.assemble("""
                name: never
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 2200B}
                nic: {cc: none, timeout: 0}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 10000B}
                  - {kind: flow, src: 2, dst: 0, size: 10000B}
                """).run(ProgressListener.NONE);
        assertThat(r.finished()).isFalse();
        assertThat(r.stopReason()).isEqualTo("no-events");
        assertThat(r.flows()).anyMatch(f -> !f.completed());
        // No stop time was set: the summary says the run ended because nothing was left to happen.
        assertThat(SummaryText.render(r, null)).contains("1 unfinished when nothing was left to happen")
                .doesNotContain("at stop time");
        // It ends at its last event (the last frame's delivery, some microseconds in), not at the end of the 1 ms
        // window the loop's checks had moved the clock to: its goodput is over the time it ran.
        long lastDelivery = r.flows().stream().mapToLong(FlowRecord::deliveredPs).max().orElseThrow();
        assertThat(r.simulatedPs()).isLessThan(50_000_000L).isGreaterThanOrEqualTo(lastDelivery);
    }
}
