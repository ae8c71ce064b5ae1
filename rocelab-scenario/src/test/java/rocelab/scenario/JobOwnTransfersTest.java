package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.job.RankRecord;
import rocelab.observe.job.TimelineRecord;

/**
 * A job's GPU view (ranks.csv, jobs.csv, timeline.csv) counts the job's own transfers only: another item's flows on a
 * rank's RNIC (a background traffic flow, another job's) are not its communication. An outside audit had a pipeline's
 * second stage, waiting 1,000 us for the first stage's compute, read as 818 us of exposed communication because a
 * background flow was arriving at its host meanwhile. Here the other item's flow ends before the job's own transfer
 * is posted, so it does not slow the job: every figure of the job is the job alone's.
 */
class JobOwnTransfersTest {
    private static final String FABRIC = """
            name: own
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            """;

    /** Rank 0 computes 1,000 us then sends 1 MB to rank 1, which receives it and then computes 100 us. */
    private static final String PIPE = """
              - name: pipe
                hosts: 0-1
                parallelism: {pp: 2}
                program:
                  - {id: fwd, op: compute, duration: 1000us, when: "pp == 0"}
                  - {id: tx, op: send, peer: pp+1, size: 1MB, when: "pp == 0", after: [fwd]}
                  - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
                  - {id: bwd, op: compute, duration: 100us, when: "pp == 1", after: [rx]}
            """;

    /** Another job with a rank on host 1: 8 MB from host 2 into host 1 from 0, done by about 700 us. */
    private static final String OTHER = """
              - name: other
                hosts: [2, 1]
                parallelism: {pp: 2}
                program:
                  - {id: tx, op: send, peer: pp+1, size: 8MB, when: "pp == 0"}
                  - {id: rx, op: recv, peer: pp-1, when: "pp == 1"}
            """;

    private static RunResult run(String yaml, Simulation.Model model) {
        return Simulation.assemble(Scenarios.parse(yaml), model).run(ProgressListener.NONE);
    }

    private static List<RankRecord> ranksOf(RunResult r, String job) {
        return r.ranks().stream().filter(x -> x.job().equals(job)).toList();
    }

    private static List<TimelineRecord> timelineOf(RunResult r, String job) {
        return r.timeline().stream().filter(x -> x.job().equals(job)).toList();
    }

    @Test
    void shouldNotCountABackgroundFlowIntoARanksHostAsItsCommunication() {
        String alone = FABRIC + "jobs:\n" + PIPE;
        String beside = alone + """
                traffic:
                  - {kind: flow, src: 3, dst: 1, size: 8MB, start: 0us}
                """;
        for (Simulation.Model model : Simulation.Model.values()) {
            RunResult a = run(alone, model);
            RunResult b = run(beside, model);
            // The background flow is there on rank 1's RNIC during the first stage's compute, and done before the
            // job's own transfer is posted.
            assertThat(b.flows()).anySatisfy(f -> {
                assertThat(f.dst()).isEqualTo(1);
                assertThat(f.src()).isEqualTo(3);
                assertThat(f.startPs()).isZero();
                assertThat(f.deliveredPs()).isBetween(500_000_000L, 1_000_000_000L);
            });
            RankRecord second = ranksOf(b, "pipe").get(1);
            assertThat(second.idleUs()).as("%s: rank 1 waits on rank 0's compute", model).isCloseTo(1000, within(1.0));
            assertThat(second.exposedCommUs()).as("%s", model).isLessThan(100);
            assertThat(second.idealIdleUs()).as("%s", model).isCloseTo(1000, within(1.0));
            assertThat(second.idealExposedCommUs()).as("%s", model).isLessThan(100);
            // Nothing of rank 1's own moves before rank 0's send is posted at 1,000 us.
            assertThat(timelineOf(b, "pipe")).filteredOn(t -> t.rank() == 1 && t.kind().equals("comm"))
                    .isNotEmpty().allSatisfy(t -> assertThat(t.startPs()).isGreaterThanOrEqualTo(1_000_000_000L));
            // Every figure of the job is the job alone's.
            assertThat(ranksOf(b, "pipe")).as("%s", model).isEqualTo(ranksOf(a, "pipe"));
            assertThat(timelineOf(b, "pipe")).as("%s", model).isEqualTo(timelineOf(a, "pipe"));
            assertThat(b.jobs().get(0).exposedCommUs()).isEqualTo(a.jobs().get(0).exposedCommUs());
            assertThat(b.jobs().get(0).idleUs()).isEqualTo(a.jobs().get(0).idleUs());
            assertThat(b.jobs().get(0).idealExposedCommUs()).isEqualTo(a.jobs().get(0).idealExposedCommUs());
            assertThat(b.jobs().get(0).idealIdleUs()).isEqualTo(a.jobs().get(0).idealIdleUs());
            // The background flow is named beside the job instead.
            if (model != Simulation.Model.IDEAL) {
                assertThat(b.jobs().get(0).beside().longest()).isEqualTo("traffic item 1");
            }
        }
    }

    @Test
    void shouldKeepTwoJobsOnASharedHostApart() {
        for (Simulation.Model model : Simulation.Model.values()) {
            RunResult pipe = run(FABRIC + "jobs:\n" + PIPE, model);
            RunResult other = run(FABRIC + "jobs:\n" + OTHER, model);
            RunResult both = run(FABRIC + "jobs:\n" + PIPE + OTHER, model);
            RankRecord second = ranksOf(both, "pipe").get(1);
            assertThat(second.host()).isEqualTo(1);
            assertThat(second.idleUs()).as("%s", model).isCloseTo(1000, within(1.0));
            assertThat(second.idealIdleUs()).as("%s", model).isCloseTo(1000, within(1.0));
            // Each job's figures are its own alone's: the pipeline's rank 1 does not count the other job's 8 MB into
            // host 1, nor the other job's receiver (on host 1 too) the pipeline's 1 MB, which comes after it is done.
            assertThat(ranksOf(both, "pipe")).as("%s", model).isEqualTo(ranksOf(pipe, "pipe"));
            assertThat(ranksOf(both, "other")).as("%s", model).isEqualTo(ranksOf(other, "other"));
            assertThat(timelineOf(both, "pipe")).as("%s", model).isEqualTo(timelineOf(pipe, "pipe"));
            assertThat(timelineOf(both, "other")).as("%s", model).isEqualTo(timelineOf(other, "other"));
        }
    }
}
