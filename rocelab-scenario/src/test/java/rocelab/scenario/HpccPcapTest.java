package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.observe.RunResult;
import rocelab.observe.pcap.PacketCapture;

/**
 * A capture of an HPCC run: its frames carry the 42-byte INT header (after the payload, inside the ICRC), tshark
 * dissects every one without error, and each frame is as long as the run's frame less its FCS: 1,100 bytes for a
 * full data packet (1,116 with the RETH) and 104 for an ACK.
 */
class HpccPcapTest {
    @TempDir
    Path dir;

    @Test
    void shouldDissectHpccFramesWithTheirIntHeaderAtTheRunsFrameLengths() throws Exception {
        Simulation sim = Scenarios.assemble("""
                name: hpcc-capture
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: hpcc}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 50KB}
                  - {kind: flow, src: 2, dst: 0, size: 50KB}
                """);
        PacketCapture capture = new PacketCapture(sim.network(), false, List.of(), -1, 0, Long.MAX_VALUE, 1_000_000);
        RunResult run = sim.run(ProgressListener.NONE);
        assertThat(run.flows()).allMatch(f -> f.completed());
        Path pcap = dir.resolve("hpcc.pcap");
        capture.write(pcap);
        assertThat(Tshark.read(pcap)).hasSize(capture.frames());
        assertThat(Tshark.read(pcap, "-Y", "_ws.malformed || _ws.expert.severity == error")).isEmpty();
        List<String> data = Tshark.read(pcap, "-Y", "infiniband.bth.opcode >= 6 && infiniband.bth.opcode <= 8",
                "-T", "fields", "-e", "infiniband.bth.opcode", "-e", "frame.len");
        // 50 packets per flow, each on two links.
        assertThat(data).hasSize(2 * 2 * 50);
        for (String row : data) {
            String[] f = row.split("\t");
            assertThat(Integer.parseInt(f[1])).as(row).isEqualTo(f[0].equals("6") ? 1116 : 1100);
        }
        List<String> acks = Tshark.read(pcap, "-Y", "infiniband.bth.opcode == 17", "-T", "fields", "-e", "frame.len");
        assertThat(acks).isNotEmpty().containsOnly("104");
    }
}
