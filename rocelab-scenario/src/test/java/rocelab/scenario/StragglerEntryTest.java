package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.output.SummaryText;

/**
 * A straggler is named: rank 3 computes 5 ms an iteration, the others 1 ms, then all eight enter a ring AllReduce.
 * collectives.csv had entry_spread_us 4000, but the summary named neither the spread nor the rank (audit e1): its
 * entry line spoke only of a spread beyond the ideal network's, and the ideal network has this one too.
 */
class StragglerEntryTest {
    private static final String STRAGGLER = """
            name: straggler
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: dcqcn}
            jobs:
              - name: train
                hosts: 0-7
                parallelism: {dp: 8}
                iterations: 2
                program:
                  - {id: fwdbwd, op: compute, duration: 1ms, when: "dp != 3"}
                  - {id: slow, op: compute, duration: 5ms, when: "dp == 3"}
                  - {id: grads, op: allreduce, group: dp, size-total: 64MB}
            """;

    @Test
    void shouldNameTheStragglerAndItsComputeNotTheNetwork() {
        RunResult r = Simulation.assemble(Scenarios.parse(STRAGGLER)).run(ProgressListener.NONE);
        CollectiveRecord c = r.collectives().stream().filter(x -> x.iteration() == 1).findFirst().orElseThrow();
        // Measured: the ranks entered about 4 ms apart, as on the ideal network.
        assertThat(c.entrySpreadPs()).isBetween(4_000_000_000L, 4_100_000_000L);
        assertThat(c.idealEntrySpreadPs()).isBetween(4_000_000_000L, c.entrySpreadPs());
        CollectiveRecord.LateEntry e = c.lateEntry();
        assertThat(e.rank()).isEqualTo(3);
        assertThat(e.computePs()).isEqualTo(5_000_000_000L);
        String text = SummaryText.render(r, null);
        assertThat(text).contains(String.format(Locale.ROOT, "  entry     train/grads/dp in iteration 1: its ranks"
                + " entered it %.3f ms apart, and %.3f ms apart on the ideal network too: the job's own work set them"
                + " apart, not the network", c.entrySpreadPs() / 1e9, c.idealEntrySpreadPs() / 1e9));
        assertThat(text).contains(String.format(Locale.ROOT, "            rank 3 entered it last, %.3f ms after rank %d"
                + " (the first rank in), waiting on its own compute: 5.000 ms of it since its part of train/grads/dp in"
                + " iteration 0 ended", c.entrySpreadPs() / 1e9, e.firstRank()));
    }
}
