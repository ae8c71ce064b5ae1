package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.congestion.ibcc.FecnParameters;
import rocelab.fabric.network.Network;
import rocelab.fabric.probe.NicCounter;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioReader;

/**
 * IB congestion control (Annex A10) on a congested incast: the root port marks FECN, receivers return BECNs, the
 * senders raise their CCT index and inject less, so the input buffers upstream of the root no longer fill and a
 * victim flow that shares a spine link with the incast (but not its receiver) is spared the congestion spreading
 * that it suffers under PFC without ECN, and under credits alone.
 */
class IbCongestionControlTest {
    private static String incast(String mode, String extra, String nic) {
        return """
                name: ib-cc-incast
                fabric: {mode: %s, mtu: 4096%s}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 8, link: {rate: 100Gbps, delay: 1us}}
                %s
                observe: {sample-interval: 0}
                traffic:
                  - {kind: incast, senders: 1-15, receiver: 0, size: 4MB}
                  - {kind: flow, src: 9, dst: 1, size: 4MB}
                """.formatted(mode, extra, nic);
    }

    private static FlowRecord victim(RunResult r) {
        return r.flows().stream().filter(f -> f.src() == 9 && f.dst() == 1).findFirst().orElseThrow();
    }

    /** Time the spines' ports toward leaf0 waited for leaf0's credits on VL3: congestion spreading upstream. */
    private static long spineStallPs(Network net) {
        long sum = 0;
        var topo = net.topology();
        int leaf0 = topo.nodeByName("leaf0");
        for (int s = 0; s < net.switchCount(); s++) {
            var sw = net.switchAt(s);
            if (!sw.name().startsWith("spine")) {
                continue;
            }
            for (int p = 0; p < sw.portCount(); p++) {
                if (topo.peer(sw.nodeId(), p).node() == leaf0) {
                    sum += sw.port(p).creditGate().stallPs(3, net.simulator().nowPs());
                }
            }
        }
        return sum;
    }

    @Test
    void shouldSpareTheVictimWhenFecnAndBecnSlowTheIncastSenders() throws Exception {
        RunResult pfc = Scenarios.assemble(incast("roce-lossless", "", "switch: {ecn: {marking: none}}\nnic: {cc: none}"))
                .run(ProgressListener.NONE);
        RunResult credits = Scenarios.assemble(incast("infiniband", "", "nic: {cc: none}")).run(ProgressListener.NONE);
        // The shipped example: the same incast and victim, on InfiniBand with ib-cc at its default settings.
        ScenarioConfig example = new ScenarioReader().readExample("infiniband-incast");
        assertThat(example.traffic()).usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(Scenarios.parse(incast("infiniband", "", "")).traffic());
        assertThat(example.infiniband().fecn()).isEqualTo(FecnParameters.defaults());
        RunResult ibcc = Simulation.assemble(example).run(ProgressListener.NONE);
        for (RunResult r : new RunResult[] {pfc, credits, ibcc}) {
            assertThat(r.flows()).allMatch(FlowRecord::completed);
            assertThat(r.totals().packetsDropped()).isZero();
        }
        long fecn = 0;
        for (int s = 0; s < ibcc.network().switchCount(); s++) {
            for (int p = 0; p < ibcc.network().switchAt(s).portCount(); p++) {
                fecn += ibcc.network().switchAt(s).port(p).counter(PortCounter.ECN_MARKED);
            }
        }
        long becnSent = 0;
        long becnHandled = 0;
        long fecnArrived = 0;
        for (int h = 0; h < ibcc.network().hostCount(); h++) {
            becnSent += ibcc.network().nic(h).counter(NicCounter.NP_CNP_SENT);
            becnHandled += ibcc.network().nic(h).counter(NicCounter.RP_CNP_HANDLED);
            fecnArrived += ibcc.network().nic(h).counter(NicCounter.NP_ECN_MARKED_ROCE_PACKETS);
        }
        assertThat(fecn).as("FECN marks at the root").isPositive();
        assertThat(becnSent).as("a BECN for every FECN packet that arrived").isEqualTo(fecnArrived);
        assertThat(becnHandled).as("every BECN raised a sender's CCT index").isEqualTo(becnSent).isPositive();
        // Every packet arrived: the marks beyond the marked packets received are second marks of marked packets (a
        // mark is counted where it is made). The summary says what each count counts, and puts the BECNs beside the
        // lane whose data they answer (they travel on their own, VL6).
        assertThat(fecn).isGreaterThan(fecnArrived);
        String text = rocelab.observe.output.SummaryText.render(ibcc, null);
        assertThat(text).contains(String.format(java.util.Locale.ROOT, "congestion  %,d FECN marks (a packet marked at"
                + " two switches counts twice)   %,d BECNs sent (one per marked packet received)   %,d handled", fecn,
                becnSent, becnHandled)).containsPattern("  VL3 .* " + String.format(java.util.Locale.ROOT, "%,d",
                fecn) + " FECN marks   " + String.format(java.util.Locale.ROOT, "%,d", becnHandled)
                + " BECNs answering its data ");
        assertThat(credits.totals().cnpSent()).as("no notifications without IB CC").isZero();
        // The senders' injection rate (rates.csv: time_us,qp,src,dst,rate_gbps,...) fell well below line rate.
        double slowest = ibcc.series().ratesCsv().lines().skip(1).mapToDouble(l -> Double.parseDouble(l.split(",")[4]))
                .min().orElseThrow();
        assertThat(slowest).as("lowest injection rate of any QP, Gb/s (a fair share is 100/15)").isLessThan(10);
        // Less injection: the spines wait far less for leaf0's credits.
        assertThat(spineStallPs(ibcc.network())).isLessThan(spineStallPs(credits.network()) / 2);
        long victimIbcc = victim(ibcc).fctPs();
        assertThat(victimIbcc).as("victim under IB CC vs PFC without ECN").isLessThan(victim(pfc).fctPs() / 2);
        assertThat(victimIbcc).as("victim under IB CC vs credits alone").isLessThan(victim(credits).fctPs() / 2);
    }
}
