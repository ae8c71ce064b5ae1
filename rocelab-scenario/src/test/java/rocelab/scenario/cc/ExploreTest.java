package rocelab.scenario.cc;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.congestion.CcSettings;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

class ExploreTest {
    static RunResult run(String cc, String profile, Map<String, Double> o, String ecn, String size) throws Exception {
        String yaml = """
                name: t
                fabric: {mode: roce-lossy, mtu: 1000}
                %s
                switch: {buffer: 64MB%s}
                nic: {cc: %s}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: %s}
                """.formatted(System.getenv().getOrDefault("TOPO", "topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}"), ecn, cc, size).replace("senders: 1-8", System.getenv().getOrDefault("SENDERS", "senders: 1-8"));
        long t0 = System.nanoTime();
        ScenarioConfig c = new ScenarioReader().read(yaml, "t.yaml", Path.of("."));
        c = new ScenarioConfig(c.name(), c.seed(), c.mode(), c.vlanTagged(), c.topology(), c.switches(), c.pfc(), c.ecn(), c.nic(),
            new CcSettings(cc, profile, o), c.cnpDscp(), c.cnpPriority(), c.traffic(), c.stopAtPs(), c.sampleIntervalPs(), c.source(), c.canonicalText());
        Simulation sim = Simulation.assemble(c);
        long peakAfter = 0;
        double sumQ = 0; int nq = 0;
        for (long t = 5_000_000L; t < 20_000_000_000L && !sim.driver().allFinished(); t += 5_000_000L) {
            sim.simulator().runUntil(t);
            long q = 0; for (int w = 0; w < sim.network().switchCount(); w++) for (int pp = 0; pp < sim.network().switchAt(w).portCount(); pp++) q = Math.max(q, sim.network().switchAt(w).port(pp).queuedBytes());
            if (t > 300_000_000L) { peakAfter = Math.max(peakAfter, q); sumQ += q; nq++; }
        }
        RunResult r = sim.run(ProgressListener.NONE);
        System.out.printf("   steady (after 300us): peak %d mean %.0f%n", peakAfter, sumQ / Math.max(1, nq));
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        long first = r.flows().stream().mapToLong(FlowRecord::finishPs).min().orElseThrow();
        System.out.printf("%-8s %-50s maxQ=%d last=%.1fus first=%.1fus done=%s cuts=%d marked=%d drops=%d wall=%.2fs%n", cc, o, r.totals().maxQueueBytes(),
                last / 1e6, first / 1e6, r.flows().stream().allMatch(FlowRecord::completed), r.totals().rateCuts(), r.totals().ecnMarked(), r.totals().packetsDropped(), (System.nanoTime() - t0) / 1e9);
        return r;
    }

    @Test
    void explore() throws Exception {
        String size = System.getenv().getOrDefault("SIZE", "2MB");
        run("none", null, Map.of(), "", size);
        run("timely", null, Map.of(), "", size);
        run("timely", null, Map.of("t-low", 10e6, "t-high", 100e6, "min-rtt", 5e6), "", size);
        run("hpcc", null, Map.of(), "", size);
        run("hpcc", null, Map.of("max-stage", 0.0), "", size);
        run("dctcp", null, Map.of(), ", ecn: {marking: step, k: 100KB}", size);
        run("swift", null, Map.of(), "", size);
        run("swift", null, Map.of("base-delay", 10e6), "", size);
        run("dcqcn", "hpcc-ns3", Map.of(), "", size);
    }
}
