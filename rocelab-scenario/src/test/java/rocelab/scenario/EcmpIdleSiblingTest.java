package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.fabric.nic.QueuePair;
import rocelab.fabric.packet.Packet;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.EcmpProbe;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;

/**
 * Flows stuck on one hashed uplink while its equal-cost sibling falls idle are named from that moment (an audit: four
 * 1 MB flows leaf0 -> leaf1, three hashed onto one uplink, 2.82x, the sibling idle about 175 us with every packet
 * already queued: no ECMP line, ecmp_wait_us 0; the rule looked only when a packet joined a queue).
 */
class EcmpIdleSiblingTest {
    private static final String STUCK = """
            name: ecmp-only
            seed: 1
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch:
              buffer: 32MB
              ecn: {marking: none}
            nic: {cc: none}
            observe: {sample-interval: 10us}
            traffic:
              - {kind: flow, src: 0, dst: 4, size: 1MB}
              - {kind: flow, src: 1, dst: 5, size: 1MB}
              - {kind: flow, src: 2, dst: 6, size: 1MB}
              - {kind: flow, src: 3, dst: 7, size: 1MB}
            """;

    @Test
    void shouldCountTheWaitFromTheMomentTheSiblingFellIdle() {
        Simulation sim = Scenarios.assemble(STUCK);
        var leaf0 = sim.network().switchAt(0);
        int[] port = new int[4];
        for (int f = 0; f < 4; f++) {
            QueuePair qp = sim.driver().queuePair(f);
            port[f] = leaf0.forwardingPort(qp.sourceHost(), qp.destinationHost(), qp.entropy());
        }
        // The hash as the audit found it: one flow alone on an uplink, three on the other.
        int alone = -1;
        List<Integer> stuck = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            int same = 0;
            for (int g = 0; g < 4; g++) {
                same += port[g] == port[f] ? 1 : 0;
            }
            if (same == 1) {
                alone = f;
            } else {
                stuck.add(f);
            }
        }
        assertThat(alone).isNotNegative();
        assertThat(stuck).hasSize(3);
        RunResult r = sim.run(ProgressListener.NONE);
        EcmpLog log = r.ecmpLog();
        FlowRecord lone = r.flows().get(alone);
        assertThat(log.waitPs(alone)).isZero();
        // The sibling fell idle when the lone flow's last packet left it; each stuck flow's last packet left its uplink
        // as late before its own delivery (same path length, idle receivers): the wait is the difference of the two
        // deliveries, less the idle port's own time for one frame (the rule's "idle"), within a frame time or so.
        long frame = 1_100 * 8 * 10; // a 1,000-byte payload's frame with framing at 100 Gb/s, in ps, rounded up
        for (int f : stuck) {
            FlowRecord x = r.flows().get(f);
            long closed = x.deliveredPs() - lone.deliveredPs();
            assertThat(log.waitPs(f)).as("flow %d", f).isBetween(closed - 2 * frame, closed);
        }
        List<EcmpLog.Collision> found = log.collisions(r.flows());
        assertThat(found).hasSize(1);
        assertThat(found.get(0).port()).isEqualTo(port[stuck.get(0)]);
        assertThat(found.get(0).idlePorts()).extracting(EcmpLog.Idle::port).containsExactly(port[alone]);
        assertThat(SummaryText.render(r, null)).contains(log.describe(found.get(0), r.flows()));
        assertThat(found.get(0).flows()).extracting(a -> a.flow().id()).containsExactlyInAnyOrderElementsOf(stuck);
    }

    /**
     * Each packet found waiting beside the idle sibling is told with the bytes queued ahead of it then, counted here
     * from the head of its queue: the walk that finds them counts those bytes only from the first packet it tells
     * (and resumes after the packet the last walk stopped at), so this is its check.
     */
    @Test
    void shouldTellEachCollisionWithTheBytesQueuedAheadOfItThen() {
        Simulation sim = Scenarios.assemble(STUCK);
        int hosts = sim.network().hostCount();
        long[] told = new long[1];
        List<String> wrong = new ArrayList<>();
        EcmpProbe check = new EcmpProbe() {
            @Override
            public void onIdleCollision(long nowPs, int node, int port, int tc, long queueBytes, Packet packet,
                    Packet ahead, boolean directly, int idlePort, long idlePs) {
                EgressPort queue = sim.network().switchAt(node - hosts).port(port);
                long before = 0;
                Packet x = queue.firstQueued(tc);
                while (x != null && x != packet) {
                    before += x.frameBytes();
                    x = queue.queuedAfter(tc, x);
                }
                told[0]++;
                if (x == null || before != queueBytes) {
                    wrong.add(nowPs + " ps: told " + queueBytes + " B ahead, queued " + before
                            + (x == null ? " (not queued)" : ""));
                }
            }
        };
        for (int s = 0; s < sim.network().switchCount(); s++) {
            sim.network().switchAt(s).ecmpProbe(check);
        }
        sim.run(ProgressListener.NONE);
        assertThat(told[0]).as("collisions told beside an idle sibling").isGreaterThan(10);
        assertThat(wrong).isEmpty();
    }
}
