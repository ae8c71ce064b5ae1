package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.NicCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;

/** DCQCN on a shared bottleneck: flows converge to equal shares, the link stays busy, the queue stays bounded. */
class DcqcnScenarioTest {
    private static String bottleneck(int senders, String profile, String cc) {
        return """
                name: dcqcn-bottleneck
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: %d, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB, ecn: {marking: red, kmin: 400KB, kmax: 1600KB, pmax: 0.2}}
                nic: {cc: %s%s}
                traffic:
                  - {kind: incast, senders: 1-%d, receiver: 0, size: 60MB}
                """.formatted(senders + 1, cc, cc.equals("dcqcn") ? ", dcqcn: {profile: " + profile + "}" : "",
                senders);
    }

    /** Jain's fairness index of the throughputs. */
    private static double jain(double[] x) {
        double s = 0;
        double s2 = 0;
        for (double v : x) {
            s += v;
            s2 += v * v;
        }
        return s * s / (x.length * s2);
    }

    private static double[] ackedBytes(Network n, int flows) {
        double[] b = new double[flows];
        for (int i = 0; i < flows; i++) {
            b[i] = n.queuePairs().get(i).sndUna() * 1000.0;
        }
        return b;
    }

    private static void shouldConvergeToFairShares(int senders, String profile, double minJain) {
        shouldConvergeToFairShares(senders, profile, minJain, 0.95);
    }

    private static void shouldConvergeToFairShares(int senders, String profile, double minJain,
            double minUtilisation) {
        Simulation sim = Scenarios.assemble(bottleneck(senders, profile, "dcqcn"));
        sim.simulator().runUntil(Time.ms(2));
        double[] a = ackedBytes(sim.network(), senders);
        sim.simulator().runUntil(Time.ms(6));
        double[] b = ackedBytes(sim.network(), senders);
        double[] rate = new double[senders];
        double total = 0;
        for (int i = 0; i < senders; i++) {
            rate[i] = (b[i] - a[i]) * 8 / 4e-3;
            total += rate[i];
        }
        // Payload share of the wire at 1000 B payload: 1000 / (1000 + 62 headers + 20 preamble/IFG).
        double payloadCapacity = 100e9 * 1000 / 1082;
        assertThat(jain(rate)).as("Jain's index, %s, %d flows", profile, senders).isGreaterThan(minJain);
        assertThat(total / payloadCapacity).as("bottleneck utilisation").isGreaterThan(minUtilisation);
        assertThat(sim.network().nic(1).counter(NicCounter.RP_CNP_HANDLED)).isPositive();
    }

    @Test
    void shouldConvergeToEqualSharesWhenTwoFlowsShareABottleneckUnderHpccNs3Profile() {
        shouldConvergeToFairShares(2, "hpcc-ns3", 0.99);
    }

    @Test
    void shouldConvergeToEqualSharesWhenFourFlowsShareABottleneckUnderHpccNs3Profile() {
        shouldConvergeToFairShares(4, "hpcc-ns3", 0.98);
    }

    @Test
    void shouldConvergeToEqualSharesWhenTwoFlowsShareABottleneckUnderPaperProfile() {
        shouldConvergeToFairShares(2, "paper", 0.99);
    }

    /**
     * The firmware model keeps Rt at line rate across cuts until an increase event happened since the last cut
     * (clamp_tgt_rate 0), so fast recovery jumps half-way to line rate; with its 5 Mb/s additive step two flows at
     * 100 Gb/s with these thresholds settle at unequal shares (about 36 and 55 Gb/s here, Jain 0.945) rather than
     * converging, even with CNPs paced per port. We hold it to 0.94 and report it. Its sawtooth also leaves the
     * bottleneck less full than the other profiles do: 0.937 of the payload capacity over 2-6 ms (0.95 and more
     * with the insertion order of equal-time events used before the canonical order), held to 0.92.
     */
    @Test
    void shouldShareTheBottleneckWhenTwoFlowsRunUnderNvidiaProfile() {
        shouldConvergeToFairShares(2, "nvidia", 0.94, 0.92);
    }

    /**
     * ConnectX firmware paces CNPs per receiving port (min_time_between_cnps, "between sending CNPs from the port"):
     * a flow with more marked packets gets more of the port's CNPs, which draws the flows to equal shares. Each of
     * three flows on one 40 Gb/s port gets within 10 % of a third of the payload capacity (12.3 Gb/s of payload,
     * 13.3 Gb/s on the wire) between 10 and 20 ms.
     */
    @Test
    void shouldSettleThreeFlowsOnA40GPortWithin10PercentOfAThirdWhenNvidiaProfile() {
        Simulation sim = Scenarios.assemble("""
                name: nvidia-three-flows
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 4, link: {rate: 40Gbps, delay: 1us}}
                switch: {buffer: 64MB}
                nic: {cc: dcqcn, dcqcn: {profile: nvidia}}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-3, receiver: 0, size: 200MB}
                """);
        sim.simulator().runUntil(Time.ms(10));
        double[] a = ackedBytes(sim.network(), 3);
        sim.simulator().runUntil(Time.ms(20));
        double[] b = ackedBytes(sim.network(), 3);
        double third = 40e9 * 1000 / 1082 / 3;
        for (int i = 0; i < 3; i++) {
            double rate = (b[i] - a[i]) * 8 / 10e-3;
            assertThat(rate / third).as("flow %d: %.2f Gb/s of payload", i, rate / 1e9).isBetween(0.9, 1.1);
        }
    }

    @Test
    void shouldBoundTheIncastQueueWhenDcqcnIsOn() {
        String incast = """
                name: dcqcn-incast
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB}
                nic: {cc: %s}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: 4MB}
                """;
        RunResult none = Scenarios.assemble(incast.formatted("none")).run(ProgressListener.NONE);
        RunResult dcqcn = Scenarios.assemble(incast.formatted("dcqcn, dcqcn: {profile: hpcc-ns3}"))
                .run(ProgressListener.NONE);
        assertThat(dcqcn.flows()).allMatch(FlowRecord::completed);
        assertThat(dcqcn.totals().packetsDropped()).isZero();
        assertThat(dcqcn.totals().ecnMarked()).isPositive();
        assertThat(dcqcn.totals().maxQueueBytes()).as("DCQCN queue vs %d B without", none.totals().maxQueueBytes())
                .isLessThan(none.totals().maxQueueBytes() / 3);
        long lastNone = none.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        long lastDcqcn = dcqcn.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        // The hpcc-ns3 profile halves every rate on the first cut and recovers only on its 300 us timer, so the link
        // idles for a while after the incast's first cuts: about 1.3x the line-rate completion here.
        assertThat((double) lastDcqcn / lastNone).as("completion vs line rate").isLessThan(1.5);
    }
}
