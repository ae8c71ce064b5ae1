package rocelab.scenario.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.observe.output.SummaryText;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * L20: a traffic item that starts at or after run.stop-at never sends. The warning names the item by its place in the
 * list; an item that starts before the stop, or a run without one, is not named; and the run agrees (the late item's
 * flow never starts).
 */
class StartAfterStopRuleTest {
    private static ScenarioConfig read(String run, String lateStart) {
        String yaml = """
                name: late
                fabric: {mode: roce-lossy}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: flow, src: 0, dst: 1, size: 100KB}
                  - {kind: flow, src: 2, dst: 3, size: 100KB, start: %s}
                  - {kind: allreduce, ranks: 0-3, size: 1MB, start: %s}
                %s
                """.formatted(lateStart, lateStart, run);
        try {
            return new ScenarioReader().read(yaml, "late.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void shouldWarnOfEachItemThatStartsAtOrAfterTheStop() {
        ScenarioConfig c = read("run: {stop-at: 1ms}", "1ms");
        LintReport r = Lint.check(c);
        assertThat(r.of("L20")).extracting(Finding::what).containsExactly(
                "traffic item 2 starts at 1000.000 us, at or after run.stop-at 1000.000 us",
                "traffic item 3 starts at 1000.000 us, at or after run.stop-at 1000.000 us");
        assertThat(r.of("L20")).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING));
        var result = Simulation.assemble(c).run(ProgressListener.NONE);
        assertThat(result.flows().get(0).completed()).as("item 1's flow").isTrue();
        assertThat(result.flows().get(1).deliveredPs()).as("item 2's flow delivered nothing").isNegative();
        assertThat(result.flows().get(1).completed()).isFalse();
        // The summary says which of the unfinished flows the run never reached: item 2's flow and the AllReduce's.
        long notPosted = result.flows().stream().filter(f -> !f.completed() && f.startPs() >= result.simulatedPs())
                .count();
        assertThat(notPosted).isPositive();
        assertThat(SummaryText.render(result, null)).contains(" (" + notPosted + " of them not posted yet: their"
                + " starts are after the run's end)");
    }

    @Test
    void shouldStayQuietWhenEveryItemStartsBeforeTheStopOrTheRunHasNone() {
        assertThat(Lint.check(read("run: {stop-at: 1ms}", "999us")).of("L20")).isEmpty();
        assertThat(Lint.check(read("", "5ms")).of("L20")).isEmpty();
    }
}
