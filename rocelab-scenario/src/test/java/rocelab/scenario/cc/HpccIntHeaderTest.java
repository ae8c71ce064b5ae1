package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;

/**
 * HPCC's INT header is on the wire, as in the HPCC ns-3 model (every data packet's header holds
 * {@code IntHeader::GetStaticSize()}: 5 hop records of 8 bytes and a 2-byte hop count; every ACK echoes it): 42
 * bytes more on each data packet and each ACK, counted by the ports, and in the closed form of a lone flow.
 */
class HpccIntHeaderTest {
    private static final int MTU = 1000;
    private static final long RATE_BPS = 100_000_000_000L;
    private static final long DELAY_PS = 1_000_000L;
    /** Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4, by hand rather than from FrameFormat. */
    private static final int HEADERS = 62;
    private static final int RETH = 16;
    private static final int AETH = 4;
    private static final int INT = 5 * 8 + 2;

    private static String twoSenders(String nic, String size) {
        return """
                name: int-frames
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {%s}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: %s}
                  - {kind: flow, src: 2, dst: 0, size: %s}
                """.formatted(nic, size, size);
    }

    private static RunResult run(String yaml) {
        return CcScenarios.assemble(yaml).run(ProgressListener.NONE);
    }

    private static long serialisationPs(long bytes) {
        return bytes * 8 * 1_000_000_000_000L / RATE_BPS;
    }

    @Test
    void shouldCarryFortyTwoIntBytesOnEveryHpccDataPacketAndAck() {
        assertThat(FrameFormat.intHeaderBytes(5)).isEqualTo(INT);
        // Two 200 kB WRITEs of 200 packets each: the first with the RETH, all full.
        long dataFrames = 2 * 200;
        for (String nic : new String[] {"cc: hpcc", "cc: hpcc, hpcc: {int-hops: 3}", "cc: hpcc, hpcc: {int-hops: 0}",
                "cc: dcqcn", "cc: swift"}) {
            int header = nic.contains("int-hops: 3") ? 3 * 8 + 2 : nic.equals("cc: hpcc") ? INT : 0;
            RunResult r = run(twoSenders(nic, "200KB"));
            assertThat(r.flows()).allMatch(FlowRecord::completed);
            EgressPort receiverPort = r.network().switchAt(0).port(0);
            assertThat(receiverPort.counter(PortCounter.TX_DATA_PACKETS)).isEqualTo(dataFrames);
            assertThat(receiverPort.counter(PortCounter.TX_BYTES)).as(nic)
                    .isEqualTo(dataFrames * (HEADERS + MTU + header) + 2 * RETH);
            // From the receiver come its ACKs, and DCQCN's CNPs (BTH and 16 reserved bytes), which carry no INT.
            long acks = r.network().nic(0).counter(NicCounter.TX_ACKS);
            long cnps = r.network().nic(0).counter(NicCounter.NP_CNP_SENT);
            assertThat(acks).isPositive();
            assertThat(receiverPort.counter(PortCounter.RX_BYTES)).as(nic)
                    .isEqualTo(acks * (HEADERS + AETH + header) + cnps * (HEADERS + 16));
        }
    }

    /**
     * Alone on its path (with {@code eta: 1} HPCC keeps line rate), an HPCC flow ends exactly at the closed form
     * with 42 more bytes on each of its frames and on its ACK: every frame at 100 Gb/s, its first frame again at
     * the switch's egress (store and forward), the ACK over both links, and 1 us of propagation on each of the four.
     */
    @Test
    void shouldFinishALoneHpccFlowAtTheClosedFormWithTheIntHeader() {
        RunResult r = run("""
                name: lone-hpcc
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: hpcc, hpcc: {eta: 1}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                """);
        int gap = FrameFormat.PREAMBLE_AND_IFG;
        long first = HEADERS + RETH + MTU + INT + gap;
        long later = HEADERS + MTU + INT + gap;
        long ack = HEADERS + AETH + INT + gap;
        long closedForm = serialisationPs(first + 999 * later) + serialisationPs(first) + 2 * DELAY_PS
                + 2 * serialisationPs(ack) + 2 * DELAY_PS;
        FlowRecord f = r.flows().get(0);
        assertThat(f.completed()).isTrue();
        assertThat(f.fctPs()).isEqualTo(closedForm);
        assertThat(f.idealFctPs()).as("flows.csv's ideal_fct_us counts the header too").isEqualTo(closedForm);
        // 3.9 % more than the same flow's frames without the header.
        long without = serialisationPs(first - INT + 999 * (later - INT)) + serialisationPs(first - INT) + 2 * DELAY_PS
                + 2 * serialisationPs(ack - INT) + 2 * DELAY_PS;
        assertThat((double) closedForm / without).isBetween(1.03, 1.04);
    }
}
