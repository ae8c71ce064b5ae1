package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rocelab.workload.collective.CollectiveOp;
import rocelab.workload.collective.Collectives;

/** What {@code --help} promises: the defaults, every choice a command accepts, and what an option also does. */
class HelpTextTest {
    /** The help of {@code command}, its wrapped lines joined into one line of words. */
    private static String help(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertThat(r.exitCode()).isZero();
        return r.out().replaceAll("\\s+", " ");
    }

    @Test
    void shouldListEveryAlgorithmNcclTestsAcceptsForEachCollective() {
        // Grouped as the help groups them: collectives with the same algorithms share one list.
        Map<String, List<String>> opsByAlgorithms = new LinkedHashMap<>();
        for (CollectiveOp op : CollectiveOp.values()) {
            if (Collectives.available(op) && op != CollectiveOp.BARRIER) {
                opsByAlgorithms.computeIfAbsent(Collectives.algorithmsOf(op), k -> new ArrayList<>())
                        .add(op.ncclName());
            }
        }
        String help = help("nccl-tests");

        assertThat(opsByAlgorithms).containsKey("ring, halving-doubling, recursive-doubling, tree, hierarchical");
        opsByAlgorithms.forEach((algorithms, ops) ->
                assertThat(help).contains(algorithms + " (" + String.join(", ", ops) + ")"));
    }

    @Test
    void shouldSayWhatQuietAlsoSkipsAndTheJourneysDefaults() {
        assertThat(help("run")).contains("-q, --quiet Print no summary, progress or notes")
                .contains("Also skips the lint unless --strict").contains("the lint did not run");
        assertThat(help("journey")).contains("(default: 0, the start of the run)")
                .contains("(default: none, up to the flow's last event)").contains("(default: 60;");
    }

    @Test
    void shouldNameTheFilesTheReportNeeds() {
        assertThat(help("report")).contains("It needs summary.json, manifest.json, topology.csv and flows.csv");
    }
}
