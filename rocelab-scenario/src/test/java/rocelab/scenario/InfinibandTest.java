package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.flowcontrol.credit.CreditGate;
import rocelab.fabric.port.EgressPort;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/** InfiniBand mode against closed forms: IB packet sizes, credit-limited links, credits that never run dry wrongly. */
class InfinibandTest {
    private static final double RATE = 100e9;
    /** LRH + BTH + ICRC + VCRC, and the start/end delimiters on the wire. */
    private static final int IB_OVERHEAD = 8 + 12 + 4 + 2;
    private static final int FRAMING = 2;

    /** Wire bytes of the data packets of one WRITE of {@code size} (RETH on the first). */
    static long wireBytes(long size, int mtu) {
        long packets = (size + mtu - 1) / mtu;
        long total = 0;
        for (long i = 0; i < packets; i++) {
            int payload = (int) Math.min(mtu, size - i * mtu);
            total += IB_OVERHEAD + (i == 0 ? 16 : 0) + ((payload + 3) & ~3) + FRAMING;
        }
        return total;
    }

    @Test
    void shouldFinishOneFlowInTheSerialisationClosedFormWithIbHeaders() {
        RunResult r = Scenarios.assemble("""
                name: ib-one
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 1MB}
                """).run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(0);
        assertThat(f.completed()).isTrue();
        long size = 1_000_000;
        int first = IB_OVERHEAD + 16 + 4096 + FRAMING;
        int ack = IB_OVERHEAD + 4 + FRAMING;
        // All packets serialised once, the first one more time at the switch, two links each way, the last ACK
        // serialised twice.
        double expected = (wireBytes(size, 4096) + first + 2.0 * ack) * 8 / RATE + 4e-6;
        assertThat(f.fctPs() / 1e12).isCloseTo(expected, within(expected * 0.002));
        assertThat(f.fctPs()).as("the ideal FCT of flows.csv is the same closed form")
                .isCloseTo(f.idealFctPs(), within(f.idealFctPs() / 500));
        assertThat(r.totals().packetsDropped()).isZero();
        assertThat(r.network().isInfiniband()).isTrue();
    }

    /**
     * A switch that drops an arrived packet (larger than its port's MTU) frees its input buffer at once and returns the
     * credits. Kept, they stalled the link for good after its first 16 drops of full packets: a later flow of small
     * packets over the same link never arrived.
     */
    @Test
    void shouldReturnTheCreditsOfAPacketTheSwitchDropsForItsMtu() {
        RunResult r = Scenarios.assemble("""
                name: ib-oversize
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {timeout: 5, retry-count: 1}
                switch: {mtu: 4096}
                switches: [{role: spine, mtu: 2048}]
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 200KB}
                  - {kind: flow, src: 1, dst: 3, size: 2KB, start: 50us}
                run: {stop-at: 5ms}
                """).run(ProgressListener.NONE);
        FlowRecord big = r.flows().get(0);
        FlowRecord small = r.flows().get(1);
        assertThat(big.completed()).as("full packets cannot cross the spine").isFalse();
        assertThat(r.totals().packetsDropped()).isGreaterThan(16);
        assertThat(small.completed()).as("a packet within the spine's MTU still crosses leaf0 -> spine0").isTrue();
        assertThat(small.fctPs()).isLessThan(Time.us(20));
    }

    @Test
    void shouldBeLimitedByCreditsWhenTheLinkRoundTripExceedsWhatTheBufferCovers() {
        // 10 us each way: 64 KiB per lane covers 15 packets of 65 blocks per credit round trip (packet time, two
        // propagation delays and the flow-control packet's own time), far below what the 100 Gb/s link could carry.
        String yaml = """
                name: ib-long
                fabric: {mode: infiniband, mtu: 4096, infiniband: {vl-buffer: %s, hca-buffer: %s}}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 10us}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 16MB}
                """;
        RunResult r = Scenarios.assemble(yaml.formatted("64KiB", "64KiB")).run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(0);
        int packetBlocks = CreditGate.blocks(IB_OVERHEAD + 4096);
        long perLoop = 1024 / packetBlocks;
        assertThat(perLoop).isEqualTo(15);
        double loop = (IB_OVERHEAD + 4096 + FRAMING) * 8 / RATE + 20e-6 + (6 + FRAMING) * 8 / RATE;
        double goodput = perLoop * 4096 * 8 / loop;
        double measured = 16e6 * 8 / (f.fctPs() / 1e12);
        assertThat(measured).isCloseTo(goodput, within(goodput * 0.03));
        assertThat(measured).as("far below line rate").isLessThan(0.3 * RATE);
        EgressPort toH0 = r.network().switchAt(0).port(0);
        assertThat(toH0.creditGate().stallPs(3, r.network().simulator().nowPs())).as("credit stall on VL3").isPositive();
        assertThat(r.totals().packetsDropped()).isZero();
        // With the largest buffer IBA allows the same link carries twice as much per round trip.
        RunResult big = Scenarios.assemble(yaml.formatted("128KiB", "128KiB")).run(ProgressListener.NONE);
        double bigRate = 16e6 * 8 / (big.flows().get(0).fctPs() / 1e12);
        assertThat(bigRate / measured).isCloseTo(31.0 / 15, within(0.03));
    }

    @Test
    void shouldTransmitNothingOnALinkWhoseReceiverHoldsAllItsCredits() {
        // The HCA of h0 moves data to memory at 1 Mb/s: its 64 KiB lane buffer fills with the first 15 packets
        // and stays full for far longer than the run, so the switch port toward it sends nothing more. (nic.rx's
        // 16 KB buffer is a RoCE setting: with credits the lane buffer holds what arrives, nothing is dropped.)
        Simulation sim = Scenarios.assemble("""
                name: ib-stuck
                fabric: {mode: infiniband, mtu: 4096, infiniband: {sm-sweep: 100us}}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {rx: {rate: 1Mbps, buffer: 16KB, xoff: 16KB, xon: 0B}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 4MB}
                """);
        sim.simulator().runUntil(Time.us(500));
        EgressPort toH0 = sim.network().switchAt(0).port(0);
        long sent = toH0.counter(PortCounter.TX_DATA_PACKETS);
        assertThat(sent).isEqualTo(15);
        assertThat(toH0.creditGate().available(3)).isLessThan(CreditGate.blocks(IB_OVERHEAD + 4096));
        sim.simulator().runUntil(Time.us(5000));
        assertThat(toH0.counter(PortCounter.TX_DATA_PACKETS)).as("no credits, no packets").isEqualTo(sent);
        assertThat(toH0.creditGate().stallPs(3, sim.simulator().nowPs())).isGreaterThan(Time.us(4900));
        // VL15 is not flow-controlled: the subnet manager's packets still reach h0 every 100 us.
        assertThat(sim.network().nic(0).managementReceived()).isBetween(49L, 50L);
        assertThat(sim.network().managementPacketsSent()).isEqualTo(2 * 50);
        // Back-pressure, not loss: the switch holds what the sender could send on its own credits, and h1 stops.
        EgressPort fromH1 = sim.network().switchAt(0).port(1);
        assertThat(fromH1.creditReturn().heldBlocks(3)).isEqualTo(fromH1.creditReturn().capacityBlocks() / 65 * 65);
        assertThat(sim.network().nic(0).counter(NicCounter.OUT_OF_BUFFER)).isZero();
        assertThat(toH0.counter(PortCounter.DROPPED_PACKETS) + fromH1.counter(PortCounter.DROPPED_PACKETS)).isZero();
    }

    @Test
    void shouldReinitialiseCreditsWhenAFailedLinkComesBack() {
        // Frames on a link that fails are lost with the credits they held; link initialisation on recovery gives
        // them back, so traffic rerouted over the recovered link flows again (without it the lane stays dry).
        Simulation sim = Scenarios.assemble("""
                name: ib-failover
                fabric: {mode: infiniband, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 8}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 30us}
                  - {kind: link-down, a: leaf0, b: spine1, at: 60us}
                  - {kind: link-up, a: leaf0, b: spine1, at: 200us}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 4MB}
                  - {kind: flow, src: 1, dst: 3, size: 4MB}
                """);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(r.totals().linkLosses()).isPositive();
        assertThat(r.totals().droppedBufferFull()).isZero();
        assertThat(r.totals().packetsDropped()).as("only what the failed links lost, and no route while both were down")
                .isEqualTo(r.totals().linkLosses() + r.totals().droppedNoRoute());
        sim.simulator().runUntil(sim.simulator().nowPs() + Time.us(100));
        var topo = r.network().topology();
        var leaf0 = r.network().switchAt(0);
        for (int p = 0; p < leaf0.portCount(); p++) {
            if (topo.nodeName(topo.peer(leaf0.nodeId(), p).node()).equals("spine1")) {
                var gate = leaf0.port(p).creditGate();
                assertThat(gate.available(3)).as("every credit back on the recovered link")
                        .isEqualTo(gate.capacityBlocks());
            }
        }
    }

    /**
     * A port whose link goes down while its lane has no credits (the next hop's buffer full, held by congestion further
     * on) does not keep its packets until the link comes back: they drain onto the dead link, lost, as an InfiniBand
     * port that is not active discards them (PortXmitDiscards: "discarded by the port because the port is down"). An
     * audit's run (h0 and h1 to h2 over leaf0 - spine0, down at 200 us, up at 400 us) kept leaf0's packets for spine0
     * 197 us in that queue, holding leaf0's input buffers from h0 and h1, and delivered them as 15 duplicates once it
     * was back.
     */
    @Test
    void shouldDrainAPortsQueueOntoItsDeadLinkInsteadOfWaitingForCreditsThatCannotCome() {
        EgressPort before = leaf0ToSpine0After("199us");
        assertThat(before.queuedBytes()).as("both flows queue there, held by h2's congestion").isPositive();
        EgressPort after = leaf0ToSpine0After("300us");
        assertThat(after.queuedBytes()).as("nothing waits at a port whose link is down").isZero();
        assertThat(after.counter(PortCounter.DROPPED_LINK_DOWN)).as("what it held, lost on the dead link")
                .isGreaterThanOrEqualTo(before.queuedBytes() / 4200);
    }

    /** leaf0's port towards spine0 when the run stops at {@code stopAt}; the link goes down at 200 us. */
    private static EgressPort leaf0ToSpine0After(String stopAt) {
        Simulation sim = Scenarios.assemble("""
                name: ib-dead-port
                seed: 1
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: none, timeout: 10}
                run: {stop-at: %s}
                events:
                  - {kind: link-down, a: leaf0, b: spine0, at: 200us}
                traffic:
                  - {kind: flow, src: 0, dst: 2, size: 10MB}
                  - {kind: flow, src: 1, dst: 2, size: 10MB}
                """.formatted(stopAt));
        sim.run(ProgressListener.NONE);
        var topo = sim.network().topology();
        var leaf0 = sim.network().switchAt(0);
        for (int p = 0; p < leaf0.portCount(); p++) {
            if (topo.nodeName(topo.peer(leaf0.nodeId(), p).node()).equals("spine0")) {
                return leaf0.port(p);
            }
        }
        throw new AssertionError("leaf0 has no port to spine0");
    }

    @Test
    void shouldSplitAPortBetweenLanesByTheirArbitrationWeights() {
        // DSCP 26 is SL3 on VL3, DSCP 10 is SL1 on VL1; the low table gives VL3 192 and VL1 64 units of 64 bytes
        // (a started packet is finished, so VL3 sends three 4 KiB packets per turn and VL1 one),
        // so while both wait VL3 gets three quarters of the port toward h0, and VL1 the rest until VL3 is done.
        RunResult r = Scenarios.assemble("""
                name: ib-weights
                fabric:
                  mode: infiniband
                  mtu: 4096
                  infiniband:
                    vl-arbitration:
                      low: [{vl: 3, weight: 192}, {vl: 1, weight: 64}, {vl: 0, weight: 1}, {vl: 2, weight: 1}, {vl: 4, weight: 1}, {vl: 5, weight: 1}]
                topology: {kind: single-switch, hosts: 3, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 4MB, dscp: 26}
                  - {kind: flow, src: 2, dst: 0, size: 4MB, dscp: 10}
                """).run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).isZero();
        double both = wireBytes(4_000_000, 4096) * 8 / RATE;
        double vl3 = r.flows().get(0).deliveredPs() / 1e12;
        double vl1 = r.flows().get(1).deliveredPs() / 1e12;
        // VL3 needs its bytes at 3/4 of the port (plus the FC packets that share it); VL1 finishes at twice one
        // flow's wire time.
        assertThat(vl3).isCloseTo(both * 4 / 3, within(both * 4 / 3 * 0.03));
        assertThat(vl1).isCloseTo(2 * both, within(2 * both * 0.03));
        assertThat(r.network().switchAt(0).port(0).transmitted(3)).isEqualTo(r.network().switchAt(0).port(0)
                .transmitted(1));
    }

    @Test
    void shouldShareTheBottleneckFairlyAmongEightSenders() {
        RunResult r = Scenarios.assemble("""
                name: ib-fair
                fabric: {mode: infiniband, mtu: 1024}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: 2MB}
                """).run(ProgressListener.NONE);
        assertThat(r.totals().packetsDropped()).isZero();
        // The port toward h0 also carries a flow-control packet (6 B + delimiters) for each ACK h0 sends back.
        long packets = 8 * ((2_000_000 + 1023) / 1024);
        double bottleneckSeconds = (8 * wireBytes(2_000_000, 1024) + packets * (6 + FRAMING)) * 8 / RATE;
        long first = r.flows().stream().mapToLong(FlowRecord::finishPs).min().orElseThrow();
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        assertThat(last / 1e12).isCloseTo(bottleneckSeconds, within(bottleneckSeconds * 0.01));
        assertThat((double) first / last).as("every flow got 1/8 of the port").isGreaterThan(0.98);
    }

    @Test
    void shouldMatchTheRingAllReduceClosedFormWithIbOverheads() {
        int n = 8;
        long size = 16_000_000;
        int mtu = 4096;
        RunResult r = Scenarios.assemble("""
                name: ib-ring
                fabric: {mode: infiniband, mtu: 4096}
                topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: allreduce, ranks: 0-7, size: 16000000}
                """).run(ProgressListener.NONE);
        var c = r.collectives().get(0);
        assertThat(c.completed()).isTrue();
        long chunk = size / n;
        long packets = (chunk + mtu - 1) / mtu;
        long data = wireBytes(chunk, mtu);
        int ack = IB_OVERHEAD + 4 + FRAMING;
        int credit = 6 + FRAMING;
        // Per step and link: the chunk's packets; at most one ACK and two flow-control packets per packet share
        // the wire, plus the step's latency (two links, one store-and-forward).
        double lower = data * 8 / RATE;
        double upper = (data + packets * (ack + 2 * credit)) * 8 / RATE + 2e-6 + 2 * (IB_OVERHEAD + mtu + FRAMING) * 8
                / RATE;
        int steps = 2 * (n - 1);
        assertThat(c.timePs() / 1e12).isBetween(steps * lower, steps * upper);
        // busbw near the IB payload rate of one link: 4096 of every 4124 bytes on the wire.
        double payloadRate = RATE / 8 / 1e9 * mtu / (IB_OVERHEAD + mtu + FRAMING);
        assertThat(c.busbwGBps()).isBetween(0.95 * payloadRate, payloadRate);
        assertThat(r.totals().packetsDropped()).isZero();
    }

    @Test
    void shouldAllocateNothingPerEventWhenAnInfinibandRunIsWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Simulation sim = Scenarios.assemble("""
                name: ib-steady
                fabric: {mode: infiniband, mtu: 1024, infiniband: {fecn: {threshold: 20KB}}}
                topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: {cc: ib-cc}
                traffic:
                  - {kind: all-to-all, size: 2MB}
                  - {kind: incast, senders: 1-15, receiver: 0, size: 2MB, start: 10us}
                observe: {sample-interval: 0}
                """);
        var s = sim.simulator();
        s.runUntil(Time.us(300));
        long id = Thread.currentThread().getId();
        int poolGrowths = sim.network().pool().growths();
        int calendarGrowths = s.calendar().growths();
        long eventsBefore = s.eventsProcessed();
        long before = threads.getThreadAllocatedBytes(id);
        s.runUntil(Time.us(1000));
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        long events = s.eventsProcessed() - eventsBefore;
        assertThat(events).isGreaterThan(300_000);
        assertThat(sim.network().pool().growths()).isEqualTo(poolGrowths);
        assertThat(s.calendar().growths()).isEqualTo(calendarGrowths);
        assertThat(sim.driver().allFinished()).isFalse();
        assertThat(allocated).as("bytes allocated during %d events", events).isLessThan(1024);
    }
}
