package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.output.SummaryText;

/**
 * "Exposed communication" counts a call's posted transfers from the rank's entry, so a rank that enters before a
 * straggler shows part of its wait as communication: an audit's fast rank had 3.53 ms of it for a 2.49 ms call. The
 * part spent in calls the rank had entered before their last member did (outside the call's own time, which starts
 * at that entry) is told apart: summary.json late_entry_us_per_iteration and the GPU view line. It lies within each
 * rank's own wait for the last entry, so the job's mean is at most the calls' entry spreads x (n-1)/n (every rank but
 * the last waiting the whole spread), and it is none when the members enter together.
 */
class LateEntryExposedTest {
    private static final String STRAGGLER = """
            name: straggler
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 8, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            jobs:
              - name: dp
                hosts: 0-7
                parallelism: {dp: 8}
                iterations: 3
                warmup: 1
                program:
                  - {id: fwd, op: compute, duration: 100us, when: "dp != 3"}
                  - {id: slow, op: compute, duration: 600us, when: "dp == 3"}
                  - {id: grads, op: allreduce, group: dp, size-total: 4MiB}
            """;

    @Test
    void shouldTellThePartBeforeALateMemberEnteredApartFromTheExposedCommunication() {
        for (Simulation.Model model : new Simulation.Model[] {Simulation.Model.PACKET, Simulation.Model.FLOW}) {
            RunResult r = Simulation.assemble(Scenarios.parse(STRAGGLER), model).run(ProgressListener.NONE);
            JobRecord job = r.jobs().get(0);
            var measured = r.collectives().stream().filter(c -> !c.warmUp(r.jobs())).toList();
            double spreads = measured.stream().mapToLong(CollectiveRecord::entrySpreadPs).sum() / 1e6
                    / (job.iterations() - job.warmup());
            assertThat(job.lateEntryUs()).as("%s", model).isPositive().isLessThanOrEqualTo(spreads * 7 / 8)
                    .isLessThan(job.exposedCommUs());
            if (job.lateEntryUs() >= job.exposedCommUs() / 100) {
                assertThat(SummaryText.render(r, null)).contains(String.format(Locale.ROOT, "exposed communication"
                        + " %.3f ms (%.3f ms of it in calls it had entered before their last member did, outside the"
                        + " calls' own time)", job.exposedCommUs() / 1e3, job.lateEntryUs() / 1e3));
            }
        }
    }

    @Test
    void shouldTellNothingWhenTheMembersEnterTogether() {
        RunResult r = Simulation.assemble(Scenarios.parse(STRAGGLER.replace("600us", "100us")), Simulation.Model.FLOW)
                .run(ProgressListener.NONE);
        assertThat(r.collectives()).allSatisfy(c -> assertThat(c.entrySpreadPs()).isZero());
        assertThat(r.jobs().get(0).lateEntryUs()).isZero();
        assertThat(SummaryText.render(r, null)).doesNotContain("before their last member");
    }
}
