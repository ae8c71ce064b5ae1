package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.pcap.PacketCapture;

/**
 * A capture of an InfiniBand run (native packets as exported PDUs for the infiniband dissector), dissected by
 * tshark: every packet dissects without error, the LRH carries the lane, service level and packet length, and the
 * FECN-marked packets and BECN notifications tshark finds equal the run's counters.
 */
class IbPcapTsharkTest {
    @TempDir
    static Path dir;
    private static Path pcap;
    private static RunResult run;
    private static PacketCapture capture;

    @BeforeAll
    static void captureARun() throws IOException {
        Simulation sim = Scenarios.assemble("""
                name: ib-capture
                fabric: {mode: infiniband, mtu: 1024, infiniband: {fecn: {threshold: 16KB}}}
                topology: {kind: single-switch, hosts: 7, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: ib-cc}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-6, receiver: 0, size: 120KB}
                """);
        capture = new PacketCapture(sim.network(), false, List.of(), -1, 0, Long.MAX_VALUE, 1_000_000);
        run = sim.run(ProgressListener.NONE);
        pcap = dir.resolve("ib.pcap");
        capture.write(pcap);
    }

    private static List<String> tshark(String... args) throws Exception {
        return Tshark.read(pcap, args);
    }

    private static long nicTotal(NicCounter c) {
        long n = 0;
        for (int h = 0; h < run.network().hostCount(); h++) {
            n += run.network().nic(h).counter(c);
        }
        return n;
    }

    @Test
    void shouldDissectEveryPacketAsInfinibandAndCountTheRunsFecnAndBecn() throws Exception {
        List<String> rows = tshark("-T", "fields", "-E", "separator=,", "-e", "frame.len", "-e", "infiniband.lrh.pktlen",
                "-e", "infiniband.lrh.vl", "-e", "infiniband.lrh.sl", "-e", "infiniband.bth.opcode");
        assertThat(rows).hasSize(capture.frames());
        long dataPackets = 0;
        for (String row : rows) {
            String[] f = row.split(",");
            // LRH packet length counts 4-byte words from LRH through ICRC; the VCRC (2) follows; 20 bytes of tags.
            assertThat(Integer.parseInt(f[1]) * 4 + 2).as(row).isEqualTo(Integer.parseInt(f[0]) - 20);
            int opcode = Integer.parseInt(f[4]);
            if (opcode >= 6 && opcode <= 10) {
                dataPackets++;
                assertThat(f[2] + "/" + f[3]).as("data on VL3, SL3 (DSCP 26)").isEqualTo("0x03/3");
            } else if (opcode == 128) {
                assertThat(f[2]).as("BECN notifications on VL6 (DSCP 48)").isEqualTo("0x06");
                // InfiniBand's CNP (Annex A10): LRH, BTH, ICRC (6 words) and VCRC; RoCEv2's 16 reserved bytes made 10.
                assertThat(f[1]).as("CNP packet length in words").isEqualTo("6");
            }
        }
        assertThat(dataPackets).as("each data packet on two links").isEqualTo(2 * run.totals().dataPacketsSent());
        assertThat(tshark("-Y", "_ws.malformed || _ws.expert.severity == error || !infiniband.lrh")).isEmpty();
        long fecn = tshark("-Y", "infiniband.bth[4] & 0x80").size();
        assertThat(fecn).isPositive().isEqualTo(nicTotal(NicCounter.NP_ECN_MARKED_ROCE_PACKETS));
        assertThat(tshark("-Y", "infiniband.bth.opcode == 129")).as("RoCEv2's CNP opcode").isEmpty();
        long becn = tshark("-Y", "infiniband.bth.opcode == 128 && infiniband.bth[4] & 0x40").size();
        assertThat(becn).isPositive().isEqualTo(2 * run.totals().cnpSent());
    }
}
