package rocelab.scenario.cc;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioReader;

class ExploreTest {
    static RunResult run(String cc, String ecn, String size) throws Exception {
        String yaml = """
                name: t
                fabric: {mode: roce-lossy, mtu: 1000}
                topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 64MB%s}
                nic: {cc: %s}
                traffic:
                  - {kind: incast, senders: 1-8, receiver: 0, size: %s}
                """.formatted(ecn, cc, size);
        long t0 = System.nanoTime();
        RunResult r = Simulation.assemble(new ScenarioReader().read(yaml, "t.yaml", Path.of("."))).run(ProgressListener.NONE);
        long last = r.flows().stream().mapToLong(FlowRecord::finishPs).max().orElseThrow();
        long first = r.flows().stream().mapToLong(FlowRecord::finishPs).min().orElseThrow();
        System.out.printf("%-40s maxQ=%d last=%.1fus first=%.1fus done=%s cuts=%d marked=%d drops=%d wall=%.2fs%n", cc, r.totals().maxQueueBytes(),
                last / 1e6, first / 1e6, r.flows().stream().allMatch(FlowRecord::completed), r.totals().rateCuts(), r.totals().ecnMarked(), r.totals().packetsDropped(), (System.nanoTime() - t0) / 1e9);
        return r;
    }

    @Test
    void explore() throws Exception {
        String size = System.getProperty("size", "2MB");
        run("none", "", size);
        run("hpcc", "", size);
        run("timely", "", size);
        run("dctcp", ", ecn: {marking: step, k: 100KB}", size);
        run("swift", "", size);
        run("dcqcn, dcqcn: {profile: hpcc-ns3}", "", size);
    }
}
