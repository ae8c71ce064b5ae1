package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rocelab.fabric.topology.Topology;

/** How a fabric is cut into partitions: host links never, whatever the planes. */
class FabricPartitionTest {
    private static final String FABRIC = """
            name: partition
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 4, %s link: {rate: 200Gbps, delay: 1us}}
            nic: {cc: dcqcn, ooo: true}
            traffic:
              - {kind: all-to-all, size: 32KB}
            """;

    /**
     * A two-plane fabric's second-plane leaves hold the same hosts as the first plane's: they go with them. They were
     * dealt round robin with the spines, so host h's link to its plane-1 leaf crossed partitions (outputs stayed one
     * thread's, but the note "host links are not cut" was false and every such frame crossed a window).
     */
    @Test
    void shouldKeepEveryPlanesLeafWithItsHosts() {
        for (String planes : new String[] {"", "planes: 2, plane-selection: spray,", "planes: 4,"}) {
            Topology topology = Scenarios.parse(FABRIC.formatted(planes)).topology().build();
            assertThat(FabricPartition.leaves(topology)).as(planes).isEqualTo(3);
            for (int parts = 1; parts <= 3; parts++) {
                int[] of = FabricPartition.of(topology, parts);
                for (int h = 0; h < topology.hostCount(); h++) {
                    for (int p = 0; p < topology.portCount(h); p++) {
                        assertThat(of[topology.peer(h, p).node()]).as("%s %d parts: h%d port %d", planes, parts, h, p)
                                .isEqualTo(of[h]);
                    }
                }
                assertThat(Arrays.stream(of).distinct().count()).as("partitions used").isEqualTo(parts);
            }
        }
    }

    /** Asked for more threads than a multi-plane fabric's leaves of one plane, the note counts those leaves. */
    @Test
    void shouldCountAPlanesLeavesInTheNoteOfFewerThreads() {
        Simulation sim = Simulation.assemble(Scenarios.parse(FABRIC.formatted("planes: 2, plane-selection: spray,")),
                Simulation.Model.PACKET, 6);
        assertThat(sim.partitions()).isEqualTo(3);
        assertThat(sim.threadsNote()).isEqualTo("asked for 6 threads, ran on 3: the fabric splits into at most 3"
                + " partitions, one per leaf switch of a plane (a host's leaves on its 2 planes stay together: host"
                + " links are not cut)");
    }

    /** A single switch copied on two planes is two switches, one leaf per plane: the note says so. */
    @Test
    void shouldSayAMultiPlaneSingleSwitchHasOneLeafPerPlane() {
        String single = FABRIC.formatted("").replace("leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 4,",
                "single-switch, hosts: 6, planes: 2, plane-selection: spray,");
        Simulation sim = Simulation.assemble(Scenarios.parse(single), Simulation.Model.PACKET, 2);
        assertThat(sim.partitions()).isEqualTo(1);
        assertThat(sim.threadsNote()).isEqualTo("asked for 2 threads, ran on one: the fabric has one leaf switch per"
                + " plane, and host links are not cut");
    }
}
