package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.job.JobRecord;
import rocelab.observe.output.SummaryText;

/**
 * The time per iteration is from one iteration's end to the next's: an audit's pipeline job (pp=2 x dp=4, a slow NIC
 * cable) finished an iteration every 16.0 ms and its JCT was 48.55 ms for 3, while the summary said "per iteration
 * 26.766 ms", the mean span of iterations that overlap (stage 0 starts the next as soon as its own DP call ends).
 * Checked against the run's own records: each iteration ends with its last DP call, so the figure is the last
 * iteration's last call end less the warm-up's, over the measured iterations.
 */
class PerIterationTest {
    private static final String PIPELINE = """
            name: pp
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            links:
              - {a: h2, b: leaf1, rate: 10Gbps}
            jobs:
              - name: pj
                hosts: 0-3
                parallelism: {dp: 2, pp: 2}
                order: [dp, pp]
                iterations: 3
                warmup: 1
                program:
                  - {id: rx, op: recv, peer: pp-1, when: "pp > 0"}
                  - {id: fwd, op: compute, duration: 100us, after: [rx]}
                  - {id: tx, op: send, peer: pp+1, size: 1MiB, when: "pp < PP-1"}
                  - {id: grads, op: allreduce, group: dp, size-total: 2MiB}
            """;

    private static long iterationEndPs(RunResult r, int k) {
        return r.collectives().stream().filter(c -> c.iteration() == k).mapToLong(CollectiveRecord::endPs).max()
                .orElseThrow();
    }

    @Test
    void shouldMeasureFromOneIterationsEndToTheNextsWhereIterationsOverlap() {
        RunResult r = Simulation.assemble(Scenarios.parse(PIPELINE), Simulation.Model.FLOW).run(ProgressListener.NONE);
        JobRecord job = r.jobs().get(0);
        double expected = (iterationEndPs(r, 2) - iterationEndPs(r, 0)) / 1e6 / 2;
        assertThat(job.perIterationUs()).isCloseTo(expected, within(1e-6));
        // The last iteration's end is the job's end: per iteration x measured + the warm-up's end is the JCT.
        assertThat(iterationEndPs(r, 2)).isEqualTo(job.endPs());
        // The iterations overlap: each spans longer than the job takes per iteration, and the summary says both.
        assertThat(job.iterationUs()).isGreaterThan(job.perIterationUs() * 1.01);
        String line = SummaryText.render(r, null).lines().filter(l -> l.startsWith("  GPU view")).findFirst()
                .orElseThrow();
        assertThat(line).startsWith(String.format(Locale.ROOT, "  GPU view  per iteration %.3f ms, from one"
                + " iteration's end to the next (ideal %.3f ms); iterations overlap: each spans %.3f ms",
                job.perIterationUs() / 1e3, job.idealPerIterationUs() / 1e3, job.iterationUs() / 1e3));
        // The ideal is measured the same way: the job's ideal end less the warm-up's, and never above the run's JCT
        // per iteration share, since the warm-up's ideal end is a bound of the run's and both end at the job's end.
        assertThat(job.idealPerIterationUs()).isPositive().isLessThanOrEqualTo(job.idealJctPs() / 1e6);
    }

    @Test
    void shouldEqualTheIdealIterationOfAJobWhoseIterationsAreAlikeAndApart() {
        String dp = """
                name: dp
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                switch: {pfc: {watchdog: {}}}
                nic: {cc: dcqcn}
                jobs:
                  - name: dp
                    hosts: 0-3
                    parallelism: {dp: 4}
                    iterations: 3
                    warmup: 1
                    program:
                      - {id: fwd, op: compute, duration: 50us}
                      - {id: grads, op: allreduce, group: dp, size-total: 1MiB}
                """;
        RunResult r = Simulation.assemble(Scenarios.parse(dp), Simulation.Model.FLOW).run(ProgressListener.NONE);
        JobRecord job = r.jobs().get(0);
        assertThat(job.perIterationUs()).isCloseTo((iterationEndPs(r, 2) - iterationEndPs(r, 0)) / 1e6 / 2,
                within(1e-6));
        // On the ideal network every iteration is its 50 us of compute and then the call alone, back to back: the
        // ideal JCT is three of them, and the time per iteration one.
        CollectiveRecord first = r.collectives().stream().filter(c -> c.iteration() == 0).findFirst().orElseThrow();
        double oneIteration = 50 + first.idealTimePs() / 1e6;
        assertThat(job.idealJctPs() / 1e6).isCloseTo(3 * oneIteration, within(1e-3));
        assertThat(job.idealPerIterationUs()).isCloseTo(oneIteration, within(1e-3));
        assertThat(job.idealIterationUs()).isCloseTo(oneIteration, within(1e-3));
    }
}
