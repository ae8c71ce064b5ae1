package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.pcap.PacketCapture;

/**
 * An ACK's AETH carries the MSN, the messages the responder has completed on its QP (IBTA 9.7.5.1.2): a ring
 * AllReduce sends several messages on each QP, and tshark reads, on every ACK, as many as the capture holds last
 * packets at or before the PSN it acknowledges. It read 0 on every ACK, as if no message ever completed.
 */
class PcapMsnTest {
    @TempDir
    Path dir;

    @Test
    void shouldNumberEachAckWithTheMessagesItsResponderCompletedWhenAQueuePairCarriesSeveral() throws Exception {
        assertThat(messagesBeforeTheCapture(0)).containsOnly(0L);
    }

    @Test
    void shouldCountTheMessagesCompletedBeforeTheCapturesWindowToo() throws Exception {
        // From 30 us on: the earlier messages' last packets are not in the file, their count is in every MSN.
        assertThat(messagesBeforeTheCapture(30_000_000L)).isNotEmpty().allMatch(n -> n > 0);
    }

    /**
     * Runs a 4-rank ring AllReduce captured from {@code fromPs} on, checks every ACK's MSN against the last packets
     * the capture holds at or before its PSN, and returns per QP how many more the MSN counts: the QP's messages
     * completed before the window.
     */
    private List<Long> messagesBeforeTheCapture(long fromPs) throws Exception {
        Simulation sim = Scenarios.assemble("""
                name: msn
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: allreduce, ranks: 0-3, size: 400KB}
                """);
        PacketCapture capture = new PacketCapture(sim.network(), false, List.of(), -1, fromPs, Long.MAX_VALUE,
                1_000_000);
        sim.run(ProgressListener.NONE);
        Path pcap = dir.resolve("msn.pcap");
        capture.write(pcap);
        // opcode, QPN, PSN, MSN and source: a QP's data goes one way (WRITE Last 8, Only 10), its ACKs (17) back.
        List<String> rows = tshark(pcap, "-Y", "infiniband", "-T", "fields", "-e", "infiniband.bth.opcode", "-e",
                "infiniband.bth.destqp", "-e", "infiniband.bth.psn", "-e", "infiniband.aeth.msn", "-e", "ip.src", "-e",
                "ip.dst");
        Map<String, List<Long>> lastPsns = new HashMap<>();
        List<String[]> acks = new ArrayList<>();
        for (String row : rows) {
            String[] f = row.split("\t", -1);
            int opcode = Integer.parseInt(f[0]);
            if (opcode == 8 || opcode == 10) {
                List<Long> ends = lastPsns.computeIfAbsent(f[1] + " " + f[4] + ">" + f[5], k -> new ArrayList<>());
                long psn = Long.parseLong(f[2]);
                if (!ends.contains(psn)) {
                    ends.add(psn);
                }
            } else if (opcode == 17) {
                acks.add(f);
            }
        }
        assertThat(acks).isNotEmpty();
        Map<String, Long> before = new HashMap<>();
        int most = 0;
        for (String[] a : acks) {
            long psn = Long.parseLong(a[2]);
            int msn = Integer.parseInt(a[3]);
            most = Math.max(most, msn);
            // The ACK goes back from the data's destination to its source.
            String qp = a[1] + " " + a[5] + ">" + a[4];
            long seen = lastPsns.getOrDefault(qp, List.of()).stream().filter(e -> e <= psn).count();
            Long earlier = before.putIfAbsent(qp, msn - seen);
            assertThat(msn - seen).as("ACK of PSN " + psn + " on " + qp + ": MSN " + msn).isNotNegative()
                    .isEqualTo(earlier == null ? msn - seen : earlier);
        }
        // A 4-rank ring AllReduce: 2 x (4 - 1) messages on each QP.
        assertThat(most).isEqualTo(6);
        return new ArrayList<>(before.values());
    }

    private static List<String> tshark(Path pcap, String... args) throws Exception {
        return Tshark.read(pcap, args);
    }
}
