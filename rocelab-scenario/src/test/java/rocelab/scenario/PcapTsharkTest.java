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
 * A capture of a real run, dissected by tshark: every frame dissects without error, and the CE-marked packets,
 * CNPs and PFC frames tshark finds equal the run's counters for the captured links. On one switch every data
 * packet and every CNP crosses two links (host to switch, switch to host) and every PFC frame one.
 */
class PcapTsharkTest {
    @TempDir
    static Path dir;
    private static Path pcap;
    private static RunResult run;
    private static PacketCapture capture;

    @BeforeAll
    static void captureARun() throws IOException {
        Simulation sim = Scenarios.assemble("""
                name: capture
                fabric: {mode: roce-lossless, mtu: 1000, vlan: true}
                topology: {kind: single-switch, hosts: 7, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 1MB, ecn: {marking: red, kmin: 40KB, kmax: 160KB, pmax: 0.2}}
                nic: {cc: dcqcn, dcqcn: {profile: nvidia}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-6, receiver: 0, size: 300KB}
                """);
        capture = new PacketCapture(sim.network(), true, List.of(), -1, 0, Long.MAX_VALUE, 1_000_000);
        run = sim.run(ProgressListener.NONE);
        pcap = dir.resolve("run.pcap");
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
    void shouldDissectEveryFrameWithoutError() throws Exception {
        assertThat(tshark()).hasSize(capture.frames());
        assertThat(tshark("-Y", "_ws.malformed || _ws.expert.severity == error")).isEmpty();
        assertThat(tshark("-Y", "udp.dstport == 4791 && !infiniband")).isEmpty();
    }

    @Test
    void shouldCountTheSameMarksCnpsAndPausesAsTheRun() throws Exception {
        long ce = tshark("-Y", "ip.dsfield.ecn == 3 && infiniband.bth.opcode != 129").size();
        assertThat(ce).isPositive().isEqualTo(nicTotal(NicCounter.NP_ECN_MARKED_ROCE_PACKETS));
        long cnp = tshark("-Y", "infiniband.bth.opcode == 129").size();
        assertThat(cnp).isPositive().isEqualTo(2 * run.totals().cnpSent());
        long pfc = tshark("-Y", "macc.opcode == 0x0101").size();
        assertThat(pfc).isPositive().isEqualTo(run.totals().pfcPauseSent());
    }

    @Test
    void shouldCarryThePsnsAndOpcodesTheFlowSent() throws Exception {
        // Queue pair 0 (wire QPN 0x100, h1 -> h0) crosses two links; lossless, so each PSN shows up exactly twice,
        // first appearances in order, with WRITE First (6), Middle (7) and Last (8) opcodes.
        List<String> rows = tshark("-Y", "infiniband.bth.destqp == 0x100 && ip.src == 10.0.0.2",
                "-T", "fields", "-e", "infiniband.bth.psn", "-e", "infiniband.bth.opcode");
        int packets = (300_000 + 999) / 1000;
        assertThat(rows).hasSize(2 * packets);
        int[] seen = new int[packets];
        int nextFirst = 0;
        for (String row : rows) {
            String[] f = row.split("\t");
            int psn = Integer.parseInt(f[0]);
            if (seen[psn]++ == 0) {
                assertThat(psn).isEqualTo(nextFirst++);
            }
            int expected = psn == 0 ? 6 : psn == packets - 1 ? 8 : 7;
            assertThat(Integer.parseInt(f[1])).isEqualTo(expected);
        }
        assertThat(seen).containsOnly(2);
    }
}
