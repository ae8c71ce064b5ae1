package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.Summary;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.read.ScenarioReader;

/**
 * A collision port is told when a flow waited there at least {@link EcmpLog#TOLD_SHARE} of its FCT. cc-held-back's
 * hash splits its eight flows 4/4 over leaf1's two uplinks, and its flows waited at most 1.4 us behind one another in
 * 5.6-6.1 ms lives; the run printed five lines of "ECMP collisions at 2 ports" for it. Two 16 MB writes hashed onto
 * one of four uplinks (audit b1) waited more than half their lives there, and are still told.
 */
class EcmpToldTest {
    @Test
    void shouldNotTellPacketLevelWaitsOnAnEvenSplit() throws Exception {
        RunResult r = Simulation.assemble(new ScenarioReader().readExample("cc-held-back")).run(ProgressListener.NONE);
        // The waits are there, per flow, and kept in flows.csv...
        assertThat(r.flows()).anyMatch(f -> r.ecmpLog().waitPs(f.id()) > 0)
                .allMatch(f -> r.ecmpLog().waitPs(f.id()) < EcmpLog.TOLD_SHARE * f.fctPs());
        assertThat(r.ecmpLog().allCollisions(r.flows())).isNotEmpty();
        // ...but no port is told.
        assertThat(r.ecmpLog().collisions(r.flows())).isEmpty();
        assertThat(SummaryText.render(r, null)).doesNotContain("ECMP collisions").doesNotContain("hashed flows");
        assertThat(Summary.of(r).get("ecmp_collision_count")).isEqualTo(0);
    }

    @Test
    void shouldTellTwoFlowsHashedOntoOneOfFourUplinks() {
        RunResult r = Simulation.assemble(Scenarios.parse("""
                name: ecmp-collision
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: leaf-spine, leaves: 2, spines: 4, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {pfc: {watchdog: {}}}
                nic: {cc: dcqcn}
                traffic:
                  - {kind: flow, src: 0, dst: 4, size: 16MB}
                  - {kind: flow, src: 1, dst: 5, size: 16MB}
                  - {kind: flow, src: 2, dst: 6, size: 16MB}
                  - {kind: flow, src: 3, dst: 7, size: 16MB}
                """)).run(ProgressListener.NONE);
        var found = r.ecmpLog().collisions(r.flows());
        assertThat(found).isNotEmpty().allSatisfy(c -> assertThat(c.flows())
                .anyMatch(f -> f.waitPs() >= EcmpLog.TOLD_SHARE * f.flow().fctPs()));
        assertThat(SummaryText.render(r, null)).contains("ECMP        collisions at " + found.size() + " port");
        assertThat(r.flows()).allMatch(FlowRecord::completed);
    }
}
