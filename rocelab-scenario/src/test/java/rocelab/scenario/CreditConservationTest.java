package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.flowcontrol.credit.CreditReturn;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.network.Network;
import rocelab.fabric.topology.Topology;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/**
 * Credits are conserved on every link and lane at all times: what the sender may still send, the data blocks on
 * the wire, the blocks in the receiver's buffer and the freed blocks not yet known to the sender add up to the
 * receiver's buffer, and none of them is ever negative. Nothing is ever dropped, and at the end every credit is back.
 */
class CreditConservationTest {
    /** Random two-tier shapes, buffers, MTUs and two lanes of incast or permutation traffic. */
    @Property(tries = 10)
    void shouldConserveCreditsOnEveryLinkAndLaneAndNeverDrop(
            @ForAll @IntRange(min = 1, max = 3) int leaves,
            @ForAll @IntRange(min = 1, max = 2) int spines,
            @ForAll @IntRange(min = 2, max = 5) int hostsPerLeaf,
            @ForAll @IntRange(min = 5, max = 128) int vlBufferKib,
            @ForAll @IntRange(min = 0, max = 2) int mtuChoice,
            @ForAll @IntRange(min = 1, max = 100) int seed,
            @ForAll boolean permutation) {
        int hosts = leaves * hostsPerLeaf;
        int mtu = new int[] {1024, 2048, 4096}[mtuChoice];
        String traffic = permutation
                ? "  - {kind: permutation, size: 150KB}\n  - {kind: incast, senders: 1-" + (hosts - 1)
                        + ", receiver: 0, size: 60KB, start: 2us, dscp: 10}\n"
                : "  - {kind: incast, senders: 1-" + (hosts - 1) + ", receiver: 0, size: 200KB}\n"
                        + "  - {kind: flow, src: 0, dst: " + (hosts - 1) + ", size: 100KB, dscp: 10}\n";
        String yaml = """
                name: credit-property
                seed: %d
                fabric: {mode: infiniband, mtu: %d, infiniband: {vl-buffer: %dKiB, hca-buffer: %dKiB}}
                topology: {kind: leaf-spine, leaves: %d, spines: %d, hosts-per-leaf: %d, link: {rate: 100Gbps, delay: 1us}}
                observe: {sample-interval: 0}
                traffic:
                %s""".formatted(seed, mtu, vlBufferKib, Math.max(5, 128 - vlBufferKib), leaves, spines, hostsPerLeaf,
                traffic);
        Simulation sim = Scenarios.assemble(yaml);
        Network net = sim.network();
        long t = 0;
        int checks = 0;
        while (!sim.driver().allFinished() && t < 20_000_000_000L) {
            t += 700_000;
            sim.simulator().runUntil(t);
            checkEveryLink(net, false);
            checks++;
        }
        assertThat(checks).isGreaterThan(3);
        // Once the traffic is done, the credits in flight come back: checked before the run's end, which drops what
        // is still pending.
        sim.simulator().runUntil(sim.simulator().nowPs() + 100_000_000L);
        checkEveryLink(net, true);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).as(yaml).allMatch(FlowRecord::completed);
        assertThat(r.totals().packetsDropped()).as(yaml).isZero();
    }

    /** Each directed link: the sender's gate and the receiver's credit return, lane by lane. */
    private static void checkEveryLink(Network net, boolean quiescent) {
        Topology topo = net.topology();
        for (int node = 0; node < topo.nodeCount(); node++) {
            for (int port = 0; port < topo.portCount(node); port++) {
                Topology.End peer = topo.peer(node, port);
                CreditGate gate = gate(net, node, port);
                CreditReturn ret = creditReturn(net, peer.node(), peer.port());
                assertThat(gate.capacityBlocks()).isEqualTo(ret.capacityBlocks());
                for (int vl = 0; vl < InfinibandParameters.DATA_VLS; vl++) {
                    long available = gate.available(vl);
                    long onWire = gate.blocksSent(vl) - ret.blocksReceived(vl);
                    long held = ret.heldBlocks(vl);
                    long unannounced = ret.creditLimit(vl) - gate.creditLimit(vl);
                    String where = topo.nodeName(node) + "/p" + port + " VL" + vl;
                    assertThat(available).as(where + " credits").isBetween(0L, gate.capacityBlocks());
                    assertThat(onWire).as(where + " blocks on the wire").isGreaterThanOrEqualTo(0);
                    assertThat(held).as(where + " blocks held").isBetween(0L, ret.capacityBlocks());
                    assertThat(unannounced).as(where + " freed, not yet announced").isGreaterThanOrEqualTo(0);
                    assertThat(available + onWire + held + unannounced).as(where).isEqualTo(ret.capacityBlocks());
                    if (!topo.isHost(peer.node())) {
                        // The switch's own buffer accounting, kept apart from credits, agrees with what they say is held.
                        var buffer = net.switchAt(peer.node() - net.hostCount()).buffer();
                        long bytes = buffer.ingressBytes(peer.port(), vl);
                        assertThat(bytes).as(where + " bytes held by the buffer").isLessThanOrEqualTo(held * 64);
                        assertThat(bytes == 0).as(where + " buffer empty exactly when no credits are held")
                                .isEqualTo(held == 0);
                    }
                    if (quiescent) {
                        assertThat(available).as(where + " every credit back at the end")
                                .isEqualTo(gate.capacityBlocks());
                    }
                }
            }
        }
    }

    private static CreditGate gate(Network net, int node, int port) {
        return net.topology().isHost(node) ? net.nic(node).creditGate()
                : net.switchAt(node - net.hostCount()).port(port).creditGate();
    }

    private static CreditReturn creditReturn(Network net, int node, int port) {
        return net.topology().isHost(node) ? net.nic(node).creditReturn()
                : net.switchAt(node - net.hostCount()).port(port).creditReturn();
    }
}
